// The viewer opening a database where it lies (issue 32): the page loaded with ?db= and a base URL
// reads the database a second local server serves (another origin: CORS, Range), its files found
// from CURRENT and the MANIFEST, or listed with ?files=. For db_bench's database (RocksDB) and
// classic-level's (LevelDB) the database view shows what it shows for the same folder chosen from
// disk: the heading, the facts, the LSM picture box by box (names, bytes, levels) and the route
// and result of Gets; a click on a table opens it from its URL. No CURRENT under the URL, and a
// server that ignores Range, show their typed errors in the banner.
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

import type { Page } from "playwright-core";

import { withFolderServer } from "./folder-server";
import { GENERATED, libraryGetCases, parseKeys, sectionCases } from "./golden";
import { expectOnlyLocalRequests, openViewer, type Viewer } from "./viewer-browser";

interface DbCase {
  name: string;
  dir: string;
  /** Keys typed into the Get box, as hex: some present, some absent. */
  keys: string[];
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
// A few probes of each: a Get's route through the picture is what is compared, not every key.
const PROBES_PER_CASE = 4;
const CASES: DbCase[] = [
  ...sectionCases<{ id: string; dir: string; probes: { path: string } }>("db_get")
    .filter((c) => c.corpus === GENERATED && c.id === "rocksdb_bench")
    .map((c) => ({
      name: `generated:${c.id}`,
      dir: c.corpus.path(c.dir),
      keys: parseKeys(readFileSync(c.corpus.path(c.probes.path)))
        .slice(0, PROBES_PER_CASE)
        .map(hex),
    })),
  ...libraryGetCases()
    .filter((c) => c.format === "leveldb")
    .map((c) => ({
      name: `node:${c.id}`,
      dir: c.dirPath,
      keys: c.probes.slice(0, PROBES_PER_CASE).map((p) => hex(Buffer.from(p))),
    })),
];

const server = withFolderServer();
let viewer: Viewer;
let page: Page;
let viewerUrl: string;

beforeAll(async () => {
  viewer = await openViewer();
  page = viewer.page;
  viewerUrl = page.url();
}, 60_000);

afterAll(async () => {
  await viewer?.close();
});

beforeEach(() => {
  server.honoursRange = true;
});

/** Loads the viewer with ?db=`url` (and ?files=) and waits for its worker's backend. */
async function openDbUrl(url: string, files?: string[]): Promise<void> {
  const list = files === undefined ? "" : `&files=${encodeURIComponent(files.join(","))}`;
  await page.goto(`${viewerUrl}?db=${encodeURIComponent(url)}${list}`);
  await page.waitForFunction(() => document.getElementById("backend")!.textContent !== "loading…");
}

/** What the database view shows: heading, facts, column families, the picture's boxes. */
async function shownDatabase(): Promise<unknown> {
  return {
    name: await page.textContent("#db-name"),
    facts: await page.textContent("#db-facts"),
    families: await page.$$eval("#cf-select option", (o) => o.map((x) => x.textContent)),
    rows: await page.$$eval("#lsm .lsm-row", (rows) =>
      rows.map((row) => ({
        head: row.querySelector(".lsm-head")!.textContent,
        boxes: Array.from(row.querySelectorAll<HTMLElement>(".lsm-file")).map((b) => ({
          ...b.dataset,
          text: b.textContent,
          className: b.className,
          label: b.getAttribute("aria-label"),
        })),
      })),
    ),
  };
}

/** What a Get of each key (hex) shows: the route's lines, the result, the summary. */
async function shownGets(keys: string[]): Promise<unknown[]> {
  await page.emulateMedia({ reducedMotion: "reduce" });
  const out = [];
  for (const key of keys) {
    await page.selectOption("#get-mode", "hex");
    await page.fill("#get-key", key);
    // The answer shown before is marked: this Get's answer replaces the result's children (and
    // sets the summary at once, views/database-route.mjs showResult).
    await page.$$eval("#get-result > *", (nodes) => nodes.forEach((n) => n.setAttribute("data-before", "")));
    await page.click("#get-submit");
    await page.waitForSelector("#get-result:not([hidden]) > :first-child:not([data-before])");
    out.push({
      key,
      route: await page.$$eval("#get-route li", (li) => li.map((x) => x.textContent)),
      result: await page.textContent("#get-result"),
      summary: await page.textContent("#get-summary"),
    });
  }
  return out;
}

test("the corpus yields a RocksDB and a LevelDB database with keys to get", () => {
  expect(CASES.map((c) => c.name.split(":")[0])).toEqual(["generated", "node"]);
  for (const c of CASES) expect([c.name, c.keys.length]).toEqual([c.name, PROBES_PER_CASE]);
});

describe.each(CASES)("$name", (c) => {
  test("from ?db=: the view shows what the chosen folder shows; Gets answer alike", async () => {
    await page.goto(viewerUrl);
    await page.setInputFiles("#folder", c.dir);
    await page.waitForSelector("#db-status.ok");
    const chosen = await shownDatabase();
    const chosenGets = await shownGets(c.keys);

    await openDbUrl(server.url(c.dir));
    await page.waitForSelector("#db-status.ok");
    expect(await page.isVisible("#error")).toBe(false);
    expect(await shownDatabase()).toEqual(chosen);
    expect(await shownGets(c.keys)).toEqual(chosenGets);
  });

  test("a click on a table opens it from its URL", async () => {
    const box = page.locator("#lsm .lsm-file[data-level]").first();
    const name = await box.getAttribute("data-file");
    await box.click();
    await page.waitForSelector("#table:not([hidden]) #status.ok");
    expect(await page.textContent("#file-name")).toBe(name);
    await page.waitForSelector("#entries-body tr");
    expect(await page.textContent("#back-to-db")).toBe(`← ${path.basename(c.dir)}`);
  });
});

test("?files= lists the files: the same view", async () => {
  const c = CASES[1]!;
  await page.goto(viewerUrl);
  await page.setInputFiles("#folder", c.dir);
  await page.waitForSelector("#db-status.ok");
  const chosen = await shownDatabase();
  await openDbUrl(server.url(c.dir), readdirSync(c.dir));
  await page.waitForSelector("#db-status.ok");
  expect(await shownDatabase()).toEqual(chosen);
});

test("no CURRENT under the URL: BAD_OPTIONS in the banner", async () => {
  await openDbUrl(server.url(path.join(CASES[0]!.dir, "no-such-folder")));
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(
    /^BAD_OPTIONS — no-such-folder: .*not a database: no CURRENT file/,
  );
  expect(await page.isHidden("#database")).toBe(true);
});

test("a server that ignores Range: RANGE_NOT_SUPPORTED in the banner", async () => {
  server.honoursRange = false;
  await openDbUrl(server.url(CASES[0]!.dir));
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(
    /^RANGE_NOT_SUPPORTED( at byte [\d,]+)? — .*ignores Range requests/,
  );
  expect(await page.isHidden("#database")).toBe(true);
});

test("nothing was fetched from outside the machine", () => expectOnlyLocalRequests(viewer.requests));
