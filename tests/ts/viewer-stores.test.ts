// The viewer's Stores view (demo/stores-view.mjs, demo/stores-worker.mjs) in headless Chromium, on
// the Chromium profile of section chromium_stores: the IndexedDB folder, chosen as a folder, opens
// on the Stores view with its databases, object stores and records as sf.readIndexedDb reads them
// in Node (chrome-decode.test.ts checks that reading against the page's), 100 to a page; a seek
// by key lands on that key; the Tables tab brings back the LSM picture. The Local Storage folder
// shows origin → key → value. Saves build/viewer-stores.png.
import * as path from "node:path";

import type { Page } from "playwright-core";
import type { IndexedDbDatabase, NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { sectionCases } from "./golden";
import { expectOnlyLocalRequests, openViewer, ROOT, type Viewer } from "./viewer-browser";

interface ChromiumCase {
  id: string;
  folders: Record<string, { path: string }>;
}

const CASES = sectionCases<ChromiumCase>("chromium_stores").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  dir: (folder: string) => c.corpus.path(c.folders[folder]!.path),
}));

let viewer: Viewer;
let page: Page;
let sf: NodeSstFilter;

beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
  viewer = await openViewer();
  page = viewer.page;
}, 120_000);

afterAll(async () => {
  await viewer?.close();
});

/** The rows of the records table: [index, key, value]. */
async function rows(): Promise<[string, string, string][]> {
  return page.$$eval("#stores-body tr", (trs) =>
    trs.map((tr) => {
      const cells = Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "");
      return [cells[0]!, cells[1]!, cells[2]!] as [string, string, string];
    }),
  );
}

describe.each(CASES)("$name", (c) => {
  let ours: IndexedDbDatabase[];
  beforeAll(async () => {
    const db = await sf.openDatabase(c.dir("indexeddb"));
    try {
      ours = await sf.readIndexedDb(db);
    } finally {
      db.dispose();
    }
  });

  test("an IndexedDB folder opens on the Stores view: databases, object stores, records", async () => {
    await page.setInputFiles("#folder", c.dir("indexeddb"));
    await page.waitForSelector("#db-status.ok");
    await page.waitForSelector("#stores-card:not([hidden])");
    await page.waitForSelector("#stores-body tr");
    expect(await page.isHidden("#lsm-card")).toBe(true);
    expect(await page.isVisible("#db-tabs")).toBe(true);
    expect(await page.textContent("#stores-caption")).toContain("IndexedDB");
    const groups = await page.$$eval("#stores-group option", (os) => os.map((o) => o.textContent));
    expect(groups).toEqual(ours.map((d) => d.name));
    const stores = await page.$$eval("#stores-store option", (os) => os.map((o) => o.textContent));
    expect(stores).toEqual(
      ours[0]!.objectStores.map((s) => `${s.name} (${s.records.length.toLocaleString("en-US")})`),
    );
    // The first store's first page: 100 records (or all of them), key and value as JSON.
    const first = ours[0]!.objectStores[0]!;
    const shown = await rows();
    expect(shown.length).toBe(Math.min(100, first.records.length));
    expect(shown[0]).toEqual([
      "0",
      JSON.stringify(first.records[0]!.key),
      JSON.stringify(first.records[0]!.value),
    ]);
  });

  test("a known record: its store chosen, a seek by its key shows its key and value", async () => {
    // The store with the most records, and one of its records past the first page.
    const d = ours.findIndex((x) => x.objectStores.some((s) => s.records.length > 150));
    expect(d).toBeGreaterThanOrEqual(0);
    const database = ours[d]!;
    const s = database.objectStores.findIndex((x) => x.records.length > 150);
    const store = database.objectStores[s]!;
    const at = 137;
    const record = store.records[at]!;
    await page.selectOption("#stores-group", String(d));
    await page.selectOption("#stores-store", String(s));
    await page.waitForFunction(
      (n) => document.querySelector("#stores-page")?.textContent?.endsWith(`of ${n}`),
      store.records.length.toLocaleString("en-US"),
    );
    await page.fill("#stores-seek", JSON.stringify(record.key));
    await page.click("#stores-seek-form button[type=submit]");
    await page.waitForFunction(
      (i) => document.querySelector("#stores-body td")?.textContent === i,
      String(at),
    );
    const shown = await rows();
    expect([store.name, shown[0]]).toEqual([
      store.name,
      [String(at), JSON.stringify(record.key), JSON.stringify(record.value)],
    ]);
    // Next page and back.
    await page.click("#stores-prev");
    await page.waitForFunction(() => document.querySelector("#stores-body td")?.textContent === "37");
    await page.screenshot({ path: path.join(ROOT, "build", "viewer-stores.png"), fullPage: false });
    // The raw views stay one click away.
    await page.click('#db-tabs button[data-view="tables"]');
    expect(await page.isVisible("#lsm-card")).toBe(true);
    expect(await page.isHidden("#stores-card")).toBe(true);
    await page.click('#db-tabs button[data-view="stores"]');
    expect(await page.isVisible("#stores-card")).toBe(true);
  });

  test("a Local Storage folder shows origin → key → value", async () => {
    const db = await sf.openDatabase(c.dir("local_storage"));
    const origins = await sf.readLocalStorage(db);
    db.dispose();
    await page.setInputFiles("#folder", c.dir("local_storage"));
    await page.waitForFunction(() =>
      document.querySelector("#stores-caption")?.textContent?.includes("localStorage"),
    );
    await page.waitForSelector("#stores-body tr");
    expect(await page.$$eval("#stores-group option", (os) => os.map((o) => o.textContent))).toEqual(
      origins.map((o) => o.origin),
    );
    expect(await page.isHidden("#stores-store-label")).toBe(true);
    const item = origins[0]!.items[0]!;
    expect((await rows())[0]).toEqual(["0", JSON.stringify(item.key), JSON.stringify(item.value)]);
    expectOnlyLocalRequests(viewer.requests);
  });
});
