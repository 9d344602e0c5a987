// The viewer's Diff (issue 32): a table open in the viewer, a second one picked on the Diff card;
// the lines the card shows equal, line for line, what `sstfilter diff A B` prints for the same pair
// (entries only in A, only in B and changed; range deletions; the files; the counts), for corpus
// pairs with known differences and a table against itself; a table dropped on the card is B too.
// ?url= with ?diff= diffs on load. A long diff shows its progress and stops at Cancel; a truncated
// second table and one in another key order show their typed errors in the banner, with the
// library's words.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import type { Page } from "playwright-core";

import { CLI } from "./cli-path";
import { FIXTURES, GENERATED, sectionCases } from "./golden";
import { startTableServer } from "./table-server";
import { openViewer, type Viewer } from "./viewer-browser";

/** The path of the generated corpus's table `id` of `section`; the test fails when it is missing. */
function corpusTable(section: string, id: string): string {
  const found = sectionCases<{ id: string; file: { path: string } }>(section).find(
    (c) => c.corpus === GENERATED && c.id === id,
  );
  if (found === undefined) throw new Error(`the generated corpus has no ${section} case ${id}`);
  return GENERATED.path(found.file.path);
}

/** `sstfilter diff A B`: its lines and exit code. */
function cliDiff(a: string, b: string): { lines: string[]; status: number | null } {
  const run = spawnSync(process.execPath, [CLI, "diff", a, b], { encoding: "utf8" });
  if (run.status === 2) throw new Error(`sstfilter diff ${a} ${b} failed: ${run.stderr}`);
  return { lines: run.stdout.replace(/\n$/, "").split("\n"), status: run.status };
}

let viewer: Viewer;
let page: Page;

beforeAll(async () => {
  viewer = await openViewer();
  page = viewer.page;
}, 60_000);

afterAll(() => viewer?.close());

/** Opens `file` in the table view (through the file picker) and waits until it is shown. */
async function openTable(file: string): Promise<void> {
  await page.setInputFiles("#file", file);
  await page.waitForFunction(
    (name) => document.getElementById("file-name")!.textContent === name,
    path.basename(file),
  );
  await page.waitForSelector("#status.ok");
}

/** The Diff card's lines, once it shows a result. */
async function shownLines(): Promise<string[]> {
  await page.waitForSelector("#diff-result:not([hidden])");
  return page.$$eval("#diff-result > div", (rows) => rows.map((r) => r.textContent ?? ""));
}

// Pairs whose differences the corpus fixes: other keys and values (two generated tables of
// different sizes), range deletions against entries, a table and its compacted copy (every
// sequence number changed), and a table against itself (equal).
const PAIRS: [string, string, string][] = [
  [
    "keys only in A, only in B and changed",
    corpusTable("rocksdb_sst", "fv5_bloom20_n3000"),
    corpusTable("rocksdb_sst", "fv5_bloom30_n1500"),
  ],
  [
    "range deletions against entries",
    corpusTable("table_writer", "fv5_bloom_mixed"),
    corpusTable("table_writer", "fv5_bloom_ranges_only_binary-search"),
  ],
  [
    "a table and its compacted copy",
    corpusTable("rocksdb_sst", "db_bloom10_zstd_text"),
    corpusTable("rocksdb_sst", "db_bloom10_zstd_text__compacted"),
  ],
  [
    "a table against itself",
    FIXTURES.path("head/fv7-bloom10-part-decoupled-snappy.sst"),
    FIXTURES.path("head/fv7-bloom10-part-decoupled-snappy.sst"),
  ],
];

test.each(PAIRS)("%s: the card shows the lines sstfilter diff prints", async (_what, a, b) => {
  const expected = cliDiff(a, b);
  await openTable(a);
  await page.setInputFiles("#diff-file", b);
  const lines = await shownLines();
  expect(lines).toEqual(expected.lines);
  // The verdict, as the exit code says it.
  expect(lines[0]).toBe(expected.status === 0 ? "A and B are equal" : "A and B differ");
  expect(await page.textContent("#diff-name")).toBe(`B: ${path.basename(b)}`);
});

test("a table dropped on the Diff card is B", async () => {
  const [, a, b] = PAIRS[0]!;
  await openTable(a);
  const dataTransfer = await page.evaluateHandle(
    ([name, base64]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
      return transfer;
    },
    ["dropped.sst", readFileSync(b).toString("base64")] as const,
  );
  await page.dispatchEvent("#diff-drop", "drop", { dataTransfer });
  expect(await shownLines()).toEqual(cliDiff(a, b).lines);
  expect(await page.textContent("#diff-name")).toBe("B: dropped.sst");
  // The table view still shows A: a drop on the card is no drop on the page's zone.
  expect(await page.textContent("#file-name")).toBe(path.basename(a));
});

test("?url= with ?diff= opens the first table and diffs the second on load", async () => {
  const a = FIXTURES.path("head/fv7-bloom10-part-decoupled-snappy.sst");
  const b = FIXTURES.path("head/fv7-ribbon9-part-coupled-zstd.sst");
  const tables = await startTableServer([a, b]);
  try {
    const viewerUrl = page.url();
    const query = new URLSearchParams({ url: tables.url("cors", a), diff: tables.url("cors", b) });
    await page.goto(`${viewerUrl}?${query.toString()}`);
    await page.waitForSelector("#status.ok");
    expect(await shownLines()).toEqual(cliDiff(a, b).lines);
    expect(await page.textContent("#diff-name")).toBe(`B: ${path.basename(b)}`);
    await page.goto(viewerUrl);
    await page.waitForFunction(() => document.getElementById("backend")!.textContent !== "loading…");
  } finally {
    tables.server.close();
  }
});

test("a long diff shows its progress and stops at Cancel", async () => {
  // Two tables of 200,000 entries on a server that answers each ranged request late: the diff
  // is still running when Cancel is clicked. (Both corpus files are table.sst: copies named apart.)
  const folder = mkdtempSync(path.join(tmpdir(), "sstfilter-viewer-diff-"));
  const [a, b] = ["big_dec_n200000_snappy", "big_dec_n200000_ribbon_part_zstd"].map((id) => {
    const copy = path.join(folder, `${id}.sst`);
    copyFileSync(corpusTable("rocksdb_sst", id), copy);
    return copy;
  }) as [string, string];
  const tables = await startTableServer([a, b]);
  try {
    const viewerUrl = page.url();
    const query = new URLSearchParams({ url: tables.url("slow", a), diff: tables.url("slow", b) });
    // Cancel is clicked as the first progress shows, from the page itself: the diff's merge is fast
    // once the blocks are in, and a click from here could come after it ended. Only pages of slow
    // tables do this (the page is shared by the file's tests).
    await page.addInitScript(() => {
      if (!location.search.includes("slow")) return;
      document.addEventListener("DOMContentLoaded", () => {
        const progress = document.getElementById("diff-progress")!;
        const watch = new MutationObserver(() => {
          const text = progress.textContent ?? "";
          if (!/entries of A, [\d,]+ of B read/.test(text)) return;
          watch.disconnect();
          const cancel = document.getElementById("diff-cancel") as HTMLButtonElement;
          (window as unknown as { cancelShown: boolean }).cancelShown = !cancel.hidden;
          cancel.click();
        });
        watch.observe(progress, { childList: true, characterData: true, subtree: true });
      });
    });
    await page.goto(`${viewerUrl}?${query.toString()}`);
    await page.waitForFunction(() => document.getElementById("diff-progress")!.textContent === "cancelled");
    expect(await page.evaluate(() => (window as unknown as { cancelShown: boolean }).cancelShown)).toBe(true);
    expect(await page.isHidden("#diff-result")).toBe(true);
    expect(await page.isHidden("#diff-cancel")).toBe(true);
    expect(await page.isHidden("#error")).toBe(true);
    await page.goto(viewerUrl);
    await page.waitForFunction(() => document.getElementById("backend")!.textContent !== "loading…");
  } finally {
    tables.server.close();
  }
}, 60_000);

test("a truncated second table: its typed error in the banner", async () => {
  const a = FIXTURES.path("head/fv7-bloom10-part-decoupled-snappy.sst");
  const bytes = readFileSync(a);
  const truncated = path.join(mkdtempSync(path.join(tmpdir(), "sstfilter-viewer-diff-")), "truncated.sst");
  writeFileSync(truncated, bytes.subarray(0, bytes.length - 20));
  await openTable(a);
  await page.setInputFiles("#diff-file", truncated);
  await page.waitForSelector("#error:not([hidden])");
  // The code, offset and message the command line reports for the same file.
  const cli = spawnSync(process.execPath, [CLI, "diff", a, truncated], { encoding: "utf8" });
  expect(cli.status).toBe(2);
  const [, code, message, offset] = /: ([A-Z_]+): (.*) \(at byte (\d+)\)\n$/.exec(cli.stderr) ?? [];
  expect(code).toBeDefined();
  expect(await page.textContent("#error")).toBe(
    `${code} at byte ${Number(offset).toLocaleString("en-US")} — diff with truncated.sst: ${message}`,
  );
  expect(await page.isHidden("#diff-result")).toBe(true);
});

test("a second table in another key order: the library's BAD_OPTIONS in the banner", async () => {
  const a = corpusTable("rocksdb_sst", "fv5_bloom20_n3000");
  const b = corpusTable("rocksdb_timestamp", "ts_sst_bloom");
  await openTable(a);
  await page.setInputFiles("#diff-file", b);
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toBe(
    "BAD_OPTIONS — diff with table.sst: the tables are in different key orders (leveldb.BytewiseComparator and leveldb.BytewiseComparator.u64ts): their entries cannot be merged",
  );
});
