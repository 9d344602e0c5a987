// The viewer's database view in headless Chromium. RocksDB 7.8.3's db_bench (rocksdb-tools)
// writes a database here with two column families, several levels and unflushed write-ahead logs;
// the folder is chosen (<input webkitdirectory>) and dropped. The LSM picture must show the
// MANIFEST's live files level by level as sf.openDatabase reads them in Node (database.test.ts
// checks that reading against RocksDB itself), with widths to scale by bytes and boxes placed in
// key order on the key axis; a click on a table opens the table view and the way back returns.
// The Get box draws stubbed explanations (GetExplanation, the interface db.explainGet answers) with
// and without animation; once the package has db.explainGet, a real Get's route is checked against
// Node's. A LevelDB database (classic-level) shows its .ldb tables and text keys. Saves
// build/viewer-database.png and build/viewer-database-keys.png.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { ClassicLevel } from "classic-level";
import type { Page } from "playwright-core";
import type { Database, DatabaseLevel, NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { dropFolderFiles, expectOnlyLocalRequests, openViewer, ROOT, type Viewer } from "./viewer-browser";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

let viewer: Viewer;
let page: Page;
let sf: NodeSstFilter;
let parent: string;
let dir: string; // the database folder, named "bench-db"
let db: Database; // Node's reading of it
let logs: string[]; // its logs, as the picture shows them

// db_bench's fillrandom with a tiny memtable and level sizes: a few dozen 64 KiB tables over
// levels 0 to 2 in each of two column families, and the newest writes still in their logs.
const DB_BENCH_ARGS = [
  "--benchmarks=fillrandom",
  "--num=20000",
  "--key_size=16",
  "--value_size=100",
  "--num_column_families=2",
  "--write_buffer_size=65536",
  "--target_file_size_base=65536",
  "--max_bytes_for_level_base=262144",
  "--level0_file_num_compaction_trigger=2",
  "--compression_type=none",
  "--bloom_bits=10",
  "--stats_interval=0",
];

beforeAll(async () => {
  parent = mkdtempSync(path.join(tmpdir(), "sstfilter-viewer-db-"));
  dir = path.join(parent, "bench-db");
  const r = spawnSync("db_bench", [`--db=${dir}`, ...DB_BENCH_ARGS], { encoding: "utf8" });
  expect([r.status, r.error]).toEqual([0, undefined]);
  sf = (await loadBackend(true)) as NodeSstFilter;
  db = await sf.openDatabase(dir);
  logs = await logsOf(db);
  viewer = await openViewer();
  page = viewer.page;
}, 120_000);

afterAll(async () => {
  await viewer?.close();
  if (parent) rmSync(parent, { recursive: true, force: true });
});

/** The levels the picture shows: level 0 to the deepest with files. */
function shown(levels: DatabaseLevel[]): DatabaseLevel[] {
  const deepest = Math.max(0, ...levels.filter((l) => l.files.length > 0).map((l) => l.level));
  return levels.filter((l) => l.level <= deepest);
}

/** The logs the picture shows: the live ones. */
async function logsOf(database: Database): Promise<string[]> {
  return (await database.writeAheadLogs()).map((l) => l.name);
}

/** The picture's rows: the row's name and its boxes' files, in order. */
function shownRows(): Promise<{ name: string; files: string[] }[]> {
  return page.$$eval("#lsm .lsm-row", (rows) =>
    rows.map((row) => ({
      name: row.querySelector(".lsm-head b")!.textContent!,
      files: Array.from(row.querySelectorAll<HTMLElement>(".lsm-file")).map((b) => b.dataset.file!),
    })),
  );
}

/** The rows the picture must show for a column family of a database (by default db_bench's). */
function expectedRows(family: number, database = db, wals = logs): { name: string; files: string[] }[] {
  return [
    { name: "WAL", files: wals },
    ...shown(database.columnFamilies[family]!.levels).map((l) => ({
      name: `L${l.level}`,
      files: l.files.map((f) => f.name),
    })),
  ];
}

test("db_bench left what the picture is about: two column families, three levels, logs", () => {
  expect(db.columnFamilies.length).toBe(2);
  for (const cf of db.columnFamilies) {
    expect(cf.levels.filter((l) => l.files.length > 0).length).toBeGreaterThanOrEqual(2);
  }
  expect(logs.length).toBeGreaterThan(0);
});

test("a chosen folder opens as a database: the MANIFEST's files per level, the logs above", async () => {
  await page.setInputFiles("#folder", dir);
  await page.waitForSelector("#db-status.ok");
  expect(await page.isVisible("#database")).toBe(true);
  expect(await page.isHidden("#table")).toBe(true);
  expect(await page.textContent("#db-name")).toBe("bench-db");
  const tables = db.columnFamilies.reduce(
    (n, cf) => n + cf.levels.reduce((m, l) => m + l.files.length, 0),
    0,
  );
  expect(await page.textContent("#db-facts")).toContain(`RocksDB · ${db.manifest} (`);
  expect(await page.textContent("#db-facts")).toContain(`${tables} live tables`);
  expect(await shownRows()).toEqual(expectedRows(0));
  // Each level's heading counts its files and bytes.
  const heads = await page.$$eval("#lsm .lsm-row:not(.wal) .lsm-head span", (s) =>
    s.map((x) => x.textContent),
  );
  expect(heads.map((h) => (h === "empty" ? 0 : Number(/^(\d+) files?/.exec(h!)![1])))).toEqual(
    shown(db.levels).map((l) => l.files.length),
  );
});

test("by size: every box's width is its file's bytes on one scale for all rows", async () => {
  const sizes = new Map<string, number>(logs.map((n) => [n, statSync(path.join(dir, n)).size]));
  for (const l of db.levels) for (const f of l.files) sizes.set(f.name, f.size);
  const rowBytes = [logs.reduce((n, name) => n + sizes.get(name)!, 0), ...db.levels.map((l) => l.bytes)];
  const scale = Math.max(...rowBytes);
  const boxes = await page.$$eval("#lsm .lsm-file", (list) =>
    list.map((b) => ({
      file: (b as HTMLElement).dataset.file!,
      width: b.getBoundingClientRect().width,
      track: b.parentElement!.clientWidth,
    })),
  );
  expect(boxes.length).toBe(expectedRows(0).reduce((n, r) => n + r.files.length, 0));
  for (const b of boxes) {
    const expected = Math.max(3, (b.track * sizes.get(b.file)!) / scale); // 3 px at least
    expect([b.file, Math.abs(b.width - expected) < 1]).toEqual([b.file, true]);
  }
});

test("the tooltip gives a table's keys (printable and hex) and sequence numbers", async () => {
  const level = db.levels.find((l) => l.level > 0 && l.files.length > 0)!;
  const f = level.files[0]!;
  await page.hover(`#lsm .lsm-file[data-file="${f.name}"]`);
  await page.waitForSelector("#lsm-tip:not([hidden])");
  const tip = await page.textContent("#lsm-tip");
  expect(tip).toContain(`${f.name} · L${level.level} · ${f.size.toLocaleString("en-US")} bytes`);
  expect(tip).toContain(hex(f.smallestKey));
  expect(tip).toContain(hex(f.largestKey));
  expect(tip).toContain(`seqno ${f.smallestSeqno} .. ${f.largestSeqno}`);
  // A log's: its size, and its records once the Database reads logs.
  const log = logs[0]!;
  await page.hover(`#lsm .lsm-file[data-file="${log}"]`);
  await page.waitForFunction(
    (name) => document.getElementById("lsm-tip")!.textContent!.startsWith(name),
    log,
  );
  const logTip = await page.textContent("#lsm-tip");
  expect(logTip).toContain(`${log} · write-ahead log · `);
  const read = (await db.writeAheadLogs()).find((l) => l.name === log)!;
  const records = read.records.length;
  expect(logTip).toContain(
    `${records.toLocaleString("en-US")} record${records === 1 ? "" : "s"} · ${read.end.kind} end`,
  );
  await page.mouse.move(0, 0);
});

test("by key range: tables on one key axis, each level's files in key order, level 0 in lanes", async () => {
  await page.click('#lsm-mode button[data-mode="keys"]');
  await page.waitForSelector("#lsm.by-keys");
  const rows = await page.$$eval("#lsm .lsm-row:not(.wal) .lsm-track", (tracks) =>
    tracks.map((t) => {
      const track = t.getBoundingClientRect();
      return Array.from(t.querySelectorAll<HTMLElement>(".lsm-file")).map((b) => {
        const r = b.getBoundingClientRect();
        return {
          file: b.dataset.file!,
          from: r.left - track.left,
          to: r.right - track.left,
          top: r.top,
          width: track.width,
        };
      });
    }),
  );
  const levels = shown(db.levels);
  expect(rows.map((r) => r.map((b) => b.file))).toEqual(levels.map((l) => l.files.map((f) => f.name)));
  const all = rows.flat();
  const width = all[0]!.width;
  for (const b of all) expect([b.file, b.from >= -0.5 && b.to <= width + 0.5]).toEqual([b.file, true]);
  // The smallest key of all starts the axis, the largest ends it.
  const files = levels.flatMap((l) => l.files);
  const first = files.reduce((a, f) => (Buffer.compare(f.smallestKey, a.smallestKey) < 0 ? f : a));
  const last = files.reduce((a, f) => (Buffer.compare(f.largestKey, a.largestKey) > 0 ? f : a));
  expect(all.find((b) => b.file === first.name)!.from).toBeLessThan(0.5);
  expect(all.find((b) => b.file === last.name)!.to).toBeGreaterThan(width - 0.5);
  // Files of one lane never overlap (but for a box's 3 px minimum width, which may reach into its
  // neighbour), and from level 1 on a level's files follow each other in one lane.
  for (const [i, row] of rows.entries()) {
    const lanes = new Map<number, typeof row>();
    for (const b of row) lanes.set(b.top, [...(lanes.get(b.top) ?? []), b]);
    if (levels[i]!.level > 0) expect(lanes.size).toBe(1);
    for (const lane of lanes.values()) {
      const sorted = [...lane].sort((a, b) => a.from - b.from);
      for (let j = 1; j < sorted.length; j++)
        expect(sorted[j]!.from).toBeGreaterThanOrEqual(sorted[j - 1]!.to - 3.5);
    }
  }
  await page.click('#lsm-mode button[data-mode="size"]');
  await page.waitForSelector("#lsm.by-size");
});

test("the column family selector shows the other family's levels", async () => {
  expect(await page.isVisible("#cf-select")).toBe(true);
  await page.selectOption("#cf-select", "1");
  expect(await shownRows()).toEqual(expectedRows(1));
  await page.selectOption("#cf-select", "0");
  expect(await shownRows()).toEqual(expectedRows(0));
});

test("a click on a table opens the table view; the way back shows the database again", async () => {
  const level = db.levels.find((l) => l.level > 0 && l.files.length > 0)!;
  const f = level.files[level.files.length - 1]!;
  const table = await db.openTable(f);
  let firstKey: Uint8Array | undefined;
  try {
    for await (const k of table.keys()) {
      firstKey = k.slice();
      break;
    }
  } finally {
    table.dispose();
  }
  await page.click(`#lsm .lsm-file[data-file="${f.name}"]`);
  await page.waitForSelector("#table:not([hidden]) #status.ok");
  expect(await page.isHidden("#database")).toBe(true);
  expect(await page.textContent("#file-name")).toBe(f.name);
  await page.waitForSelector("#entries-body tr");
  expect(await page.locator("#entries-body tr td.key").first().textContent()).toBe(hex(firstKey!));
  expect(await page.textContent("#back-to-db")).toBe("← bench-db");
  await page.click("#back-to-db");
  expect(await page.isVisible("#database")).toBe(true);
  expect(await page.isHidden("#table")).toBe(true);
  expect(await shownRows()).toEqual(expectedRows(0));
});

/** A route as db.explainGet reports it, in plain values the page turns into a GetExplanation. */
interface StubRoute {
  key: string; // hex
  outcome: "found" | "deleted" | "not-found" | "merge-operands";
  value: string | null; // text
  sequence: number | null;
  steps: {
    where: "memtable" | "table";
    file: string;
    level: number | null;
    inRange: boolean;
    filter: "no" | "maybe" | "none" | null;
    entry: "value" | "deletion" | "single-deletion" | "merge" | "range-deletion" | "none" | null;
    sequence: number | null;
    blocksRead: number;
  }[];
}

/** Draws `route` with the view's showRoute, as the Get box does with db.explainGet's answer. */
async function drawStub(route: StubRoute): Promise<void> {
  await page.addScriptTag({
    type: "module",
    content: 'import { showRoute } from "/demo/views/database.mjs"; window.showRoute = showRoute;',
  });
  await page.waitForFunction(() => "showRoute" in window);
  await page.evaluate(async (r) => {
    const bytes = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
    const seq = (n: number | null): bigint | null => (n === null ? null : BigInt(n));
    const show = (window as unknown as { showRoute: (e: unknown) => Promise<void> }).showRoute;
    await show({
      key: bytes(r.key),
      columnFamily: "default",
      result: {
        outcome: r.outcome,
        value: r.value === null ? null : new TextEncoder().encode(r.value),
        operands: [],
        sequence: seq(r.sequence),
      },
      steps: r.steps.map((s) => ({ ...s, sequence: seq(s.sequence) })),
    });
  }, route);
}

/** The classes of the box of each file, from "route-" on. */
function routeClasses(files: string[]): Promise<string[]> {
  return page.evaluate(
    (names) =>
      names.map((n) =>
        Array.from(document.querySelector(`#lsm .lsm-file[data-file="${n}"]`)!.classList)
          .filter((c) => c.startsWith("route-"))
          .join(" "),
      ),
    files,
  );
}

/** The default column family's tables in the order a Get consults them: level 0, then deeper. */
const tables = (): { name: string; level: number }[] =>
  db.levels.flatMap((l) => l.files.map((f) => ({ name: f.name, level: l.level })));

test("a stubbed route, drawn at once for reduced motion: each file's answer, the deciding file, the value", async () => {
  const [skipped, filtered] = tables();
  const deepest = [...db.levels].reverse().find((l) => l.files.length > 0)!;
  const target = { name: deepest.files[0]!.name, level: deepest.level };
  expect(new Set([skipped!.name, filtered!.name, target.name]).size).toBe(3);
  const log = logs[logs.length - 1]!;
  const route: StubRoute = {
    key: hex(deepest.files[0]!.smallestKey),
    outcome: "found",
    value: "hello",
    sequence: 123,
    steps: [
      {
        where: "memtable",
        file: log,
        level: null,
        inRange: true,
        filter: null,
        entry: "none",
        sequence: null,
        blocksRead: 0,
      },
      {
        where: "table",
        file: skipped!.name,
        level: skipped!.level,
        inRange: false,
        filter: null,
        entry: null,
        sequence: null,
        blocksRead: 0,
      },
      {
        where: "table",
        file: filtered!.name,
        level: filtered!.level,
        inRange: true,
        filter: "no",
        entry: null,
        sequence: null,
        blocksRead: 1,
      },
      {
        where: "table",
        file: target.name,
        level: target.level,
        inRange: true,
        filter: "maybe",
        entry: "value",
        sequence: 123,
        blocksRead: 2,
      },
    ],
  };
  await page.emulateMedia({ reducedMotion: "reduce" });
  await drawStub(route);
  expect(await page.getAttribute("#get-result", "data-outcome")).toBe("found");
  expect(await routeClasses(route.steps.map((s) => s.file))).toEqual([
    "route-miss",
    "route-skip",
    "route-no",
    "route-hit route-decided",
  ]);
  const items = await page.$$eval("#get-route li", (li) => li.map((x) => x.textContent));
  expect(items).toEqual([
    `memtable (${log}) — no entry for the key`,
    `L${skipped!.level} ${skipped!.name} — key outside the file's range: not opened`,
    `L${filtered!.level} ${filtered!.name} — filter: definitely not here · 1 block read`,
    `L${target.level} ${target.name} — filter: maybe · value (seq 123) · 2 blocks read`,
  ]);
  const result = await page.textContent("#get-result");
  expect(result).toBe(`foundhello5 bytes · seq 123 · in ${target.name}`);
  expect(await page.textContent("#get-summary")).toBe(
    "4 consulted: 1 memtable, 3 tables (1 out of range, 1 ruled out by their filter, 0 false positives) · 3 blocks read",
  );
  // Screenshots of the database view with this route, for the README: by size, and on the key
  // axis, where a marker shows where the key lies (a redraw keeps the route).
  mkdirSync(path.join(ROOT, "build"), { recursive: true });
  await page.locator("#database").screenshot({ path: path.join(ROOT, "build", "viewer-database.png") });
  await page.click('#lsm-mode button[data-mode="keys"]');
  expect(await page.locator("#lsm .lsm-key-marker").count()).toBe(1);
  expect(await routeClasses([target.name])).toEqual(["route-hit route-decided"]);
  await page.locator("#lsm-card").screenshot({ path: path.join(ROOT, "build", "viewer-database-keys.png") });
  await page.click('#lsm-mode button[data-mode="size"]');
});

test("animated: the boxes light up in turn and end in the same picture; a false positive is named", async () => {
  const consulted = tables().slice(0, 3);
  await page.emulateMedia({ reducedMotion: "no-preference" });
  const route: StubRoute = {
    key: "00",
    outcome: "not-found",
    value: null,
    sequence: null,
    steps: consulted.map((f, i) => ({
      where: "table",
      file: f.name,
      level: f.level,
      inRange: true,
      filter: i === 0 ? "maybe" : "no",
      entry: i === 0 ? "none" : null,
      sequence: null,
      blocksRead: i === 0 ? 2 : 1,
    })),
  };
  const drawn = drawStub(route);
  // The first box is lit while the route plays.
  await page.waitForSelector(`#lsm .lsm-file.route-active[data-file="${consulted[0]!.name}"]`);
  await drawn;
  expect(await page.getAttribute("#get-result", "data-outcome")).toBe("not-found");
  expect(await page.textContent("#get-result")).toBe("not found");
  expect(await page.locator("#lsm .route-active").count()).toBe(0);
  expect(await routeClasses(consulted.map((f) => f.name))).toEqual(
    consulted.map((_, i) => (i === 0 ? "route-miss" : "route-no")),
  );
  expect(await page.textContent(`#lsm .lsm-file[data-file="${consulted[0]!.name}"] .route-badge`)).toBe(
    "maybe: not here",
  );
  expect(await page.textContent("#get-summary")).toContain("1 false positive)");
});

test("a real Get: the route the page draws is db.explainGet's", async () => {
  const explain = (key: Uint8Array) => db.explainGet(key);
  const deepest = [...db.levels].reverse().find((l) => l.files.length > 0)!;
  for (const key of [deepest.files[0]!.smallestKey, new Uint8Array([0xff, 0xff])]) {
    const expected = await explain(key);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.selectOption("#get-mode", "hex");
    await page.fill("#get-key", hex(key));
    await page.click("#get-submit");
    await page.waitForSelector(`#get-result[data-outcome="${expected.result.outcome}"]`);
    const files = await page.$$eval("#get-route li", (li) => li.map((x) => (x as HTMLElement).dataset.file));
    expect(files).toEqual(expected.steps.map((s) => s.file));
  }
});

test("a table the MANIFEST names but the folder lacks shows as missing", async () => {
  const partial = path.join(parent, "partial-db");
  mkdirSync(partial);
  const gone = tables()[0]!.name;
  for (const name of readdirSync(dir)) {
    if (name !== gone && name !== "LOCK") copyFileSync(path.join(dir, name), path.join(partial, name));
  }
  await page.setInputFiles("#folder", partial);
  await page.waitForFunction(() => document.getElementById("db-name")!.textContent === "partial-db");
  await page.waitForSelector("#db-status.ok");
  const box = `#lsm .lsm-file[data-file="${gone}"]`;
  expect(await page.getAttribute(box, "class")).toContain("missing");
  expect(await page.isDisabled(box)).toBe(true);
  expect(await page.locator("#lsm .lsm-file.missing").count()).toBe(1);
  await page.hover(box, { force: true }); // force: playwright waits for disabled buttons otherwise
  await page.waitForSelector("#lsm-tip:not([hidden])");
  expect(await page.textContent("#lsm-tip")).toContain("MISSING from the folder");
});

test("a damaged MANIFEST: the typed error with its offset, and no picture", async () => {
  const damaged = path.join(parent, "damaged-db");
  mkdirSync(damaged);
  for (const name of readdirSync(dir)) {
    if (name !== "LOCK") copyFileSync(path.join(dir, name), path.join(damaged, name));
  }
  const manifest = path.join(damaged, db.manifest);
  const bytes = readFileSync(manifest);
  bytes[100]! ^= 0x01;
  writeFileSync(manifest, bytes);
  await page.setInputFiles("#folder", damaged);
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toMatch(
    new RegExp(`^CHECKSUM_MISMATCH at byte \\d+ — damaged-db: ${db.manifest}: `),
  );
  expect(await page.isHidden("#database")).toBe(true);
});

test("dropped files with CURRENT among them, or a dropped folder, open as a database; a folder without CURRENT is refused", async () => {
  const { names, dataTransfer } = await dropFolderFiles(page, dir, "#drop");
  await page.waitForFunction(
    (n) => document.getElementById("db-name")!.textContent === `${n} dropped files`,
    names.length,
  );
  await page.waitForSelector("#db-status.ok");
  expect(await shownRows()).toEqual(expectedRows(0));

  // A dropped folder, as browsers hand it over: an item whose FileSystemDirectoryEntry lists its
  // entries in batches (then an empty one). The page takes the folder's own files, not those of
  // a subfolder. The entries are made in the page from the same Files.
  const folderDrop = await page.evaluateHandle((transfer) => {
    const files = Array.from(transfer.files);
    const fileEntry = (file: File): object => ({
      isFile: true,
      isDirectory: false,
      name: file.name,
      file: (ok: (f: File) => void) => ok(file),
    });
    const archive = { isFile: false, isDirectory: true, name: "archive" };
    const batches = [files.slice(0, 5).map(fileEntry), [archive, ...files.slice(5).map(fileEntry)], []];
    const folder = {
      isFile: false,
      isDirectory: true,
      name: "bench-db",
      createReader: () => ({ readEntries: (ok: (entries: object[]) => void) => ok(batches.shift() ?? []) }),
    };
    const dropped = new DataTransfer();
    Object.defineProperty(dropped, "items", { value: [{ kind: "file", webkitGetAsEntry: () => folder }] });
    return dropped;
  }, dataTransfer);
  await page.evaluate(() => (document.getElementById("db-name")!.textContent = ""));
  await page.dispatchEvent("#drop", "drop", { dataTransfer: folderDrop });
  await page.waitForFunction(() => document.getElementById("db-name")!.textContent === "bench-db");
  await page.waitForSelector("#db-status.ok");
  expect(await shownRows()).toEqual(expectedRows(0));

  const notDb = path.join(parent, "tables-only");
  mkdirSync(notDb);
  const some = tables()[0]!.name;
  copyFileSync(path.join(dir, some), path.join(notDb, some));
  await page.setInputFiles("#folder", notDb);
  await page.waitForSelector("#error:not([hidden])");
  expect(await page.textContent("#error")).toBe(
    "BAD_OPTIONS — tables-only: no CURRENT file: not a database folder",
  );
});

describe("a LevelDB database (classic-level)", () => {
  let folder: string;
  let leveldb: Database;
  beforeAll(async () => {
    folder = path.join(parent, "level-db");
    // 8,000 puts of 400-byte values over 4,001 text keys through 64 KiB memtables: flushes, and
    // compactions into deeper levels.
    const writer = new ClassicLevel(folder, { compression: false, writeBufferSize: 64 << 10 });
    await writer.open();
    for (let i = 0; i < 8000; i++) {
      await writer.put(`user:${String((i * 7919) % 4001).padStart(5, "0")}`, "v".repeat(400));
    }
    await writer.close();
    leveldb = await sf.openDatabase(folder);
  });

  test("its levels of .ldb tables and its log; keys as text and hex, no sequence numbers", async () => {
    expect(leveldb.format).toBe("leveldb");
    expect(leveldb.levels.filter((l) => l.files.length > 0).length).toBeGreaterThanOrEqual(2);
    await page.setInputFiles("#folder", folder);
    await page.waitForFunction(() => document.getElementById("db-name")!.textContent === "level-db");
    await page.waitForSelector("#db-status.ok");
    expect(await page.textContent("#db-facts")).toContain(`LevelDB · ${leveldb.manifest} (`);
    expect(await page.isHidden("#cf-label")).toBe(true); // one column family
    expect(await shownRows()).toEqual(expectedRows(0, leveldb, await logsOf(leveldb)));
    const f = leveldb.levels.flatMap((l) => l.files)[0]!;
    expect(f.name).toMatch(/\.ldb$/);
    await page.hover(`#lsm .lsm-file[data-file="${f.name}"]`);
    await page.waitForSelector("#lsm-tip:not([hidden])");
    const tip = await page.textContent("#lsm-tip");
    const text = Buffer.from(f.smallestKey).toString();
    expect(text).toMatch(/^user:\d{5}$/);
    expect(tip).toContain(`smallest “${text}” · ${hex(f.smallestKey)}`);
    expect(tip).toContain("no sequence numbers recorded (LevelDB)");
    await page.mouse.move(0, 0);
  });
});

test("nothing was fetched from outside the machine", () => expectOnlyLocalRequests(viewer.requests));
