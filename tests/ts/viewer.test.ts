// The SST viewer in a real browser: Debian's Chromium, headless, driven by playwright-core (whose
// own browser download cannot work here). Starts demo/serve.mjs on a free port, opens a golden
// .sst through the file picker, checks what the page shows and one probe answer each way, verifies
// the file, shows a damaged file's typed error, and saves a screenshot to build/viewer.png.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { chromium, type BrowserContext, type Page } from "playwright-core";

import { FIXTURES } from "./golden";

const ROOT = path.join(__dirname, "..", "..");
const CHROMIUM = "/usr/bin/chromium"; // Debian's package, installed by scripts/setup.sh
const FILE = FIXTURES.path("head/fv7-bloom10-part-decoupled-snappy.sst");

let server: ChildProcess;
let context: BrowserContext;
let page: Page;
let profile: string;
const requests: string[] = [];

function startServer(): Promise<string> {
  server = spawn(process.execPath, [path.join(ROOT, "demo", "serve.mjs"), "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`demo/serve.mjs exited with ${code}`)));
    server.stdout!.on("data", (chunk: Buffer) => {
      const url = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(chunk.toString())?.[0];
      if (url) resolve(url);
    });
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/setup.sh`);
  const url = await startServer();
  profile = mkdtempSync(path.join(tmpdir(), "sstfilter-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  context.on("request", (request) => requests.push(request.url()));
  page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById("backend")!.textContent !== "loading…");
}, 60_000);

afterAll(async () => {
  await context?.close();
  server?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test("the page loads the SIMD128 module in its worker", async () => {
  expect(await page.textContent("#backend")).toBe("wasm-simd128");
});

test("a golden .sst opened with the file picker: format, footer, properties, filter", async () => {
  await page.setInputFiles("#file", FILE);
  await page.waitForSelector("#status.ok");
  expect(await page.textContent("#file-name")).toBe(path.basename(FILE));
  const format = await page.textContent("#format-facts");
  expect(format).toContain("RocksDB block-based table");
  expect(format).toContain("format_version7");
  expect(format).toContain("checksumxxh3");
  const filter = await page.textContent("#filter-facts");
  expect(filter).toContain("kindrocksdb-bloom");
  expect(filter).toContain("partitioned, 21 partitions");
  expect(filter).toContain("keys15,000");
  expect(filter).toContain("probes6");
  expect(await page.textContent("#fp")).toMatch(/estimated0\.\d\d%.*measured0\.\d\d%/);
  const entries = page.locator("#props-body tr", { hasText: "rocksdb.num.entries" });
  expect(await entries.locator("td").textContent()).toBe("15000");
  expect(await page.locator("#keys-body tr").count()).toBe(50);
  expect(await page.locator("#keys-body tr td.key").first().textContent()).toBe("1000097423");
});

test("a probe each way, naming the partition consulted", async () => {
  await page.fill("#probe-key", "1000097423");
  await page.click("#probe-form button[type=submit]");
  await page.waitForSelector("#probe-result .verdict.maybe");
  expect(await page.textContent("#probe-result")).toContain(
    "may be in this fileanswered by filter partition 0 of 21",
  );

  await page.fill("#probe-key", "no-such-key");
  await page.click("#probe-form button[type=submit]");
  await page.waitForSelector("#probe-result .verdict.no");
  expect(await page.textContent("#probe-result")).toContain("definitely not in this file");
  expect(await page.textContent("#probe-result")).toContain("filter partition 20 of 21");
});

test("verify reads every block with a progress bar; a screenshot for the README", async () => {
  await page.click("#verify");
  await page.waitForSelector("#verify-result:not([hidden])");
  expect(await page.textContent("#verify-result")).toContain("the file is sound");
  expect(await page.textContent("#verify-result")).toContain("15,000 keys read");
  expect(await page.getAttribute("#verify-bar", "style")).toContain("width: 100%");
  mkdirSync(path.join(ROOT, "build"), { recursive: true });
  // From the top (the header is sticky), down to the key list.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: path.join(ROOT, "build", "viewer.png"),
    fullPage: true,
    clip: { x: 0, y: 0, width: 1280, height: 1480 },
  });
});

test("a damaged file shows the typed error and its offset", async () => {
  const damaged = path.join(mkdtempSync(path.join(tmpdir(), "sstfilter-viewer-")), "damaged.sst");
  const bytes = FIXTURES.readBytes("head/fv7-bloom10-part-decoupled-snappy.sst");
  bytes[bytes.length - 30]! ^= 0xff; // inside the footer's handles / checksum
  writeFileSync(damaged, bytes);
  await page.setInputFiles("#file", damaged);
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(
    /^(CORRUPT|CHECKSUM_MISMATCH|TRUNCATED) at byte [\d,]+ — damaged\.sst: /,
  );
  expect(await page.isHidden("#table")).toBe(true);
});

test("the playground writes a table from pasted lines and opens it", async () => {
  await page.click("#tab-playground");
  await page.fill("#write-lines", "cherry\tdark red\napple\tred\nbanana\tyellow\n");
  await page.click("#write");
  await page.waitForSelector("#write-download:not([hidden])");
  expect(await page.textContent("#written-facts")).toContain("entries3");
  expect(await page.getAttribute("#write-download", "download")).toBe("written.sst");
  await page.click("#write-open");
  await page.waitForSelector("#status.ok");
  expect(await page.textContent("#file-name")).toBe("written.sst");
  expect(await page.textContent("#format-facts")).toContain("format_version5");
  expect(await page.textContent("#filter-facts")).toContain("kindrocksdb-bloom");
  expect(await page.locator("#keys-body tr td.key").allTextContents()).toEqual(["apple", "banana", "cherry"]);

  // Keys out of order without sorting: BAD_KEY naming the entry.
  await page.click("#tab-playground");
  await page.uncheck("#write-sort");
  await page.click("#write");
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(/^BAD_KEY .*entry 1/);
});

test("nothing was fetched from outside the machine", () => {
  expect(requests.length).toBeGreaterThan(0);
  for (const url of requests) expect(url).toMatch(/^(http:\/\/127\.0\.0\.1:\d+\/|blob:|data:)/);
});
