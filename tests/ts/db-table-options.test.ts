// db.get / db.explainGet read the tables with the newest OPTIONS file's table options
// (ts/api/db-table-options.ts, docs/FORMATS.md 6.6.1), on the db_table_options section: one
// database written with a Bloom filter, whole-key filtering and a 4-byte prefix extractor, reopened
// by RocksDB 7.8.3 under other options (no filter policy, no whole-key filtering, other prefix
// extractors, a Ribbon policy), with Get's value and the filter tickers each Get moved.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { SstFilterError, type Database, type GetExplanation, type NodeSstFilter } from "sstfilter";

import { tableOptionsOf } from "../../ts/api/db-table-options";
import type { DatabaseOptions } from "../../ts/api/options-file";
import { loadBackend } from "./backends";
import { parseKeys, sectionCases } from "./golden";
import { CLI } from "./cli-path";

interface OptionsCase {
  id: string;
  dir: string;
  options: { filter_policy: string; whole_key_filtering: boolean; prefix_extractor: string };
  probes: { path: string; count: number };
  answers: { value: string | null; tickers: Record<string, number>; block_read_count: number }[];
}

const CASES = sectionCases<OptionsCase>("db_table_options").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  dirPath: c.corpus.path(c.dir),
  probes: parseKeys(readFileSync(c.corpus.path(c.probes.path))),
}));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const USEFUL = "rocksdb.bloom.filter.useful";
const POSITIVE = "rocksdb.bloom.filter.full.positive";

/** The filter tickers RocksDB moves for the route: one per table step by its filter answer. */
function routeCounters(e: GetExplanation): Record<string, number> {
  return {
    [USEFUL]: e.steps.filter((s) => s.filter === "no").length,
    [POSITIVE]: e.steps.filter((s) => s.filter === "maybe").length,
  };
}

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the corpus has every variant, each with hundreds of probes", () => {
  expect(CASES.map((c) => c.id).sort()).toEqual(
    [
      "as_written",
      "no_filter",
      "no_prefix_no_whole_key",
      "no_whole_key",
      "other_prefix",
      "other_prefix_no_whole_key",
      "prefixes_only_as_written",
      "prefixes_only_bloom_whole_key",
      "prefixes_only_other_prefix",
      "ribbon",
    ].sort(),
  );
  for (const c of CASES) {
    expect(c.probes.length).toBe(c.answers.length);
    expect(c.answers.length).toBeGreaterThanOrEqual(300);
  }
});

describe.each(CASES)("$name", (c) => {
  let db: Database;
  const explained: GetExplanation[] = [];
  beforeAll(async () => {
    db = await sf.openDatabase(c.dirPath);
    for (const key of c.probes) explained.push(await db.explainGet(key));
  });
  afterAll(() => db.dispose());

  test("the table options come from the newest OPTIONS file", async () => {
    const options = await db.tableOptions();
    expect(options.source).toBe("options-file");
    expect(options.file).toBe((await db.options())!.file);
    expect(options.notes).toEqual([]);
    const { filter_policy, whole_key_filtering, prefix_extractor } = c.options;
    expect(options.read).toEqual({
      useFilter: filter_policy !== "nullptr",
      wholeKeyFiltering: whole_key_filtering,
      prefixExtractor: prefix_extractor === "nullptr" ? null : prefix_extractor,
    });
    expect(explained[0]!.tableOptions).toEqual(options);
  });

  test("every probe: Get's value equals RocksDB's", () => {
    const wrong = c.answers.flatMap((a, i) => {
      const r = explained[i]!.result;
      const ours = r.outcome === "found" ? hex(r.value!) : null;
      return ours === (a.value?.toLowerCase() ?? null)
        ? []
        : [`probe ${i} ${hex(c.probes[i]!)}: ours ${ours}, RocksDB ${a.value}`];
    });
    expect(wrong).toEqual([]);
  });

  test("every probe: the filter answers of the route agree with RocksDB's tickers", () => {
    const wrong = c.answers.flatMap((a, i) => {
      const ours = routeCounters(explained[i]!);
      const theirs = { [USEFUL]: a.tickers[USEFUL], [POSITIVE]: a.tickers[POSITIVE] };
      return JSON.stringify(ours) === JSON.stringify(theirs)
        ? []
        : [
            `probe ${i} ${hex(c.probes[i]!)}: ours ${JSON.stringify(ours)}, RocksDB ${JSON.stringify(theirs)}`,
          ];
    });
    expect(wrong).toEqual([]);
  });

  test("every probe: the blocks the route reads are those RocksDB's PerfContext counts", () => {
    const wrong = c.answers.flatMap((a, i) => {
      const ours = explained[i]!.steps.reduce((n, s) => n + s.blocksRead, 0);
      return ours === a.block_read_count
        ? []
        : [`probe ${i} ${hex(c.probes[i]!)}: ours ${ours}, RocksDB ${a.block_read_count}`];
    });
    expect(wrong).toEqual([]);
  });

  test("the variant decides what the filters rule out", () => {
    const ruledOut = c.answers.reduce((n, a) => n + a.tickers[USEFUL]!, 0);
    const consulted = c.answers.reduce((n, a) => n + a.tickers[USEFUL]! + a.tickers[POSITIVE]!, 0);
    switch (c.id) {
      case "no_filter":
        // No filter block is read: nothing is counted at all.
        expect(consulted).toBe(0);
        expect(explained.every((e) => e.steps.every((s) => s.filter !== "no" && s.filter !== "maybe"))).toBe(
          true,
        );
        break;
      case "other_prefix_no_whole_key":
      case "no_prefix_no_whole_key":
      case "prefixes_only_other_prefix":
        // The filter is in use but nothing is probed: every table says "maybe".
        expect(ruledOut).toBe(0);
        expect(consulted).toBeGreaterThan(0);
        expect(explained.some((e) => e.steps.some((s) => s.filter === "maybe"))).toBe(true);
        break;
      default:
        expect(ruledOut).toBeGreaterThan(100);
    }
  });
});

test("the same tables read as they describe themselves rule out keys a database without a filter policy reads", async () => {
  const c = CASES.find((x) => x.id === "no_filter");
  expect(c?.id).toBe("no_filter");
  const db = await sf.openDatabase(c!.dirPath);
  try {
    const file = db.levels.find((l) => l.files.length > 0)!.files[0]!;
    const table = await db.openTable(file);
    try {
      const ownView = c!.probes.map((k) => table.explainMayContain(k));
      const asOpened = c!.probes.map((k) => table.explainMayContain(k, { useFilter: false }));
      const own = await Promise.all(ownView);
      const opened = await Promise.all(asOpened);
      expect(own.some((e) => !e.mayContain && e.filterInUse)).toBe(true);
      expect(opened.every((e) => e.mayContain && !e.filterInUse && e.route === "no-filter")).toBe(true);
      // Whole-key filtering off under another extractor: the table's prefixes are not probed.
      const changed = await table.explainMayContain(c!.probes[0]!, {
        wholeKeyFiltering: false,
        prefixExtractor: "rocksdb.FixedPrefix.3",
      });
      expect([changed.route, changed.mayContain, changed.filterInUse]).toEqual([
        "prefix-extractor-changed",
        true,
        true,
      ]);
      await expect(table.explainMayContain(c!.probes[0]!, { useFilter: "no" } as never)).rejects.toThrow(
        SstFilterError,
      );
    } finally {
      table.dispose();
    }
  } finally {
    db.dispose();
  }
});

describe("tableOptionsOf: values it does not understand leave the tables' own view, and say so", () => {
  const options = (table: Record<string, string>, cf: Record<string, string> = {}): DatabaseOptions => ({
    file: "OPTIONS-000007",
    version: {},
    dbOptions: {},
    columnFamilies: [{ name: "default", options: cf, tableFactory: "BlockBasedTable", tableOptions: table }],
  });

  test("built-in policies, short extractor names, defaults for absent values", () => {
    expect(
      tableOptionsOf(
        options({ filter_policy: "ribbonfilter:10:-1" }, { prefix_extractor: "capped:6" }),
        "default",
      ).read,
    ).toEqual({
      useFilter: true,
      wholeKeyFiltering: true,
      prefixExtractor: "rocksdb.CappedPrefix.6",
    });
    expect(tableOptionsOf(options({}), "default").read).toEqual({
      useFilter: false,
      wholeKeyFiltering: true,
      prefixExtractor: null,
    });
  });

  test("a custom policy, an odd boolean, a nested extractor: notes, and the tables' view for each", () => {
    const got = tableOptionsOf(
      options(
        { filter_policy: "my.Policy", whole_key_filtering: "maybe" },
        { prefix_extractor: "{id=x;length=3}" },
      ),
      "default",
    );
    expect(got.read).toEqual({});
    expect(got.notes).toHaveLength(3);
    expect(got.notes.join("\n")).toMatch(/my\.Policy[^]*maybe[^]*id=x/);
  });

  test("no OPTIONS file, another table factory, a column family it does not list", () => {
    expect(tableOptionsOf(null, "default")).toEqual({ source: "tables", file: null, read: {}, notes: [] });
    const plain = options({});
    plain.columnFamilies[0]!.tableFactory = "PlainTable";
    expect(tableOptionsOf(plain, "default")).toMatchObject({
      source: "tables",
      read: {},
      notes: [expect.stringMatching(/PlainTable/)],
    });
    expect(tableOptionsOf(options({}), "other")).toMatchObject({ source: "tables", read: {} });
  });
});

test("an OPTIONS value not understood: the tables' own view, and db get --explain says so", async () => {
  const c = CASES.find((x) => x.id === "as_written");
  expect(c?.id).toBe("as_written");
  const dir = mkdtempSync(path.join(os.tmpdir(), "sstfilter-table-options-"));
  try {
    cpSync(c!.dirPath, dir, { recursive: true });
    const db0 = await sf.openDatabase(dir);
    const file = (await db0.options())!.file;
    db0.dispose();
    const text = readFileSync(path.join(dir, file), "utf8");
    expect(text).toContain("filter_policy=bloomfilter:10:false");
    writeFileSync(
      path.join(dir, file),
      text.replace("filter_policy=bloomfilter:10:false", "filter_policy=my.Policy"),
    );
    const db = await sf.openDatabase(dir);
    try {
      const options = await db.tableOptions();
      expect(options.read.useFilter).toBeUndefined();
      expect(options.notes).toEqual([expect.stringContaining("filter_policy=my.Policy")]);
      // Each table's filter is read as the table describes itself: as in the as_written case.
      const wrong: string[] = [];
      for (const [i, key] of c!.probes.entries()) {
        const ours = routeCounters(await db.explainGet(key));
        const { tickers } = c!.answers[i]!;
        if (ours[USEFUL] !== tickers[USEFUL] || ours[POSITIVE] !== tickers[POSITIVE])
          wrong.push(`probe ${i} ${hex(key)}`);
      }
      expect(wrong).toEqual([]);
    } finally {
      db.dispose();
    }
    const r = spawnSync(process.execPath, [CLI, "db", "get", dir, "p010-k9999", "--explain"], {
      encoding: "utf8",
    });
    expect([r.status, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toMatch(/^note: filter_policy=my\.Policy is not a built-in policy/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
