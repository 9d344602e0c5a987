// The viewer opening a table where it lies (issue 32): the page loaded with ?url= reads a table a
// second local server serves, of another origin (another port), with CORS and Range. What the page
// shows (name, size, format, filter, properties, the first entries) equals what it shows for the
// same file opened with the file picker; Verify on two workers, each reading the URL, reports what
// the library counts. A server without CORS and one that ignores Range show their errors in the
// banner.
import { readFileSync } from "node:fs";
import * as path from "node:path";

import type { Page } from "playwright-core";
import type { NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { FIXTURES, GENERATED, sectionCases } from "./golden";
import { startTableServer, type TableServer } from "./table-server";
import { expectOnlyLocalRequests, openViewer, type Viewer } from "./viewer-browser";

// A small table, read whole with the first request, and one larger than that request's tail
// (http-source.ts: 512 KiB), whose index and data blocks take requests of their own.
const BIG = sectionCases<{ id: string; file: { path: string } }>("rocksdb_sst").find(
  (c) => c.corpus === GENERATED && c.id === "big_dec_n200000_snappy",
);
const TABLES = [
  FIXTURES.path("head/fv7-bloom10-part-decoupled-snappy.sst"),
  ...(BIG === undefined ? [] : [GENERATED.path(BIG.file.path)]),
];

let viewer: Viewer;
let page: Page;
let tables: TableServer;
let viewerUrl: string;

beforeAll(async () => {
  viewer = await openViewer();
  page = viewer.page;
  viewerUrl = page.url();
  tables = await startTableServer(TABLES);
}, 60_000);

afterAll(async () => {
  await viewer?.close();
  tables?.server.close();
});

/** Loads the viewer with ?url=`url` and waits for its worker's backend. */
async function openUrl(url: string): Promise<void> {
  await page.goto(`${viewerUrl}?url=${encodeURIComponent(url)}`);
  await page.waitForFunction(() => document.getElementById("backend")!.textContent !== "loading…");
}

/** What the table view shows of the open table, card by card. */
async function shownFacts(): Promise<Record<string, string | null>> {
  const facts: Record<string, string | null> = {};
  for (const id of ["file-name", "file-size", "format-facts", "filter-facts", "props-body", "entries-body"]) {
    facts[id] = await page.textContent(`#${id}`);
  }
  return facts;
}

test("the corpus has the table larger than the first request", () => {
  expect(BIG).toBeDefined();
  expect(TABLES).toHaveLength(2);
});

test.each(TABLES.map((f) => [path.basename(f), f]))(
  "%s from ?url=: the page shows what the file picker shows; Verify on two workers reads the URL",
  async (name, file) => {
    await page.goto(viewerUrl);
    await page.setInputFiles("#file", file);
    await page.waitForSelector("#status.ok");
    const picked = await shownFacts();

    await openUrl(tables.url("cors", file));
    await page.waitForSelector("#status.ok");
    const fromUrl = await shownFacts();
    expect(fromUrl).toEqual(picked);
    expect(fromUrl["file-name"]).toBe(name);

    const sf = (await loadBackend(true)) as NodeSstFilter;
    const t = sf.openTable(readFileSync(file));
    const keys = Number(t.properties["rocksdb.num.entries"]);
    t.dispose();
    expect(keys).toBeGreaterThan(0);
    await page.selectOption("#verify-jobs", "2");
    await page.click("#verify");
    await page.waitForSelector("#verify-result:not([hidden])");
    const report = await page.textContent("#verify-result");
    expect(report).toContain("the file is sound");
    expect(report).toContain(`${keys.toLocaleString("en-US")} keys read`);
  },
);

test("a server of another origin without CORS headers: HTTP_ERROR in the banner", async () => {
  await openUrl(tables.url("no-cors", TABLES[0]!));
  await page.waitForSelector("#error:not([hidden])", { timeout: 20_000 });
  expect(await page.textContent("#error")).toMatch(
    /^HTTP_ERROR( at byte [\d,]+)? — fv7-bloom10-part-decoupled-snappy\.sst: /,
  );
  expect(await page.isHidden("#table")).toBe(true);
});

test("a server that ignores Range: RANGE_NOT_SUPPORTED in the banner", async () => {
  await openUrl(tables.url("no-range", TABLES[0]!));
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(
    /^RANGE_NOT_SUPPORTED( at byte [\d,]+)? — fv7-bloom10-part-decoupled-snappy\.sst: .*ignores Range requests/,
  );
});

test("?url= that names no table: the banner says which", async () => {
  await openUrl(tables.url("cors", "missing.sst"));
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(
    /^HTTP_ERROR( at byte [\d,]+)? — missing\.sst: .*HTTP 404/,
  );
});

test("nothing was fetched from outside the machine", () => expectOnlyLocalRequests(viewer.requests));
