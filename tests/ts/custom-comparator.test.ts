// Tables and databases ordered by a custom comparator (the custom_comparator corpus section,
// tests/corpus/native/custom_comparator_section.cc; the comparators: ./custom-comparators.ts).
// Given the comparator, a table answers exactly as RocksDB's Get does (filter answer and value),
// and a database's get equals RocksDB's or LevelDB's Get. Without it, a RocksDB table says its order
// is unknown and never rules out a key it holds, and a database's get refuses (UNSUPPORTED, naming
// the comparator) instead of guessing.
// Answer codes: 0 = the filter said no, 1 = maybe, 2 = RocksDB consulted no filter (the probe is
// outside the table's key range in the comparator's order).
import * as path from "node:path";

import { SstFilterError, type NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { CUSTOM_COMPARATORS } from "./custom-comparators";
import {
  expectSameEntries,
  getMismatches,
  recordedEntries,
  sectionCases,
  type EntriesRecord,
  type GetAnswer,
  type RecordedEntry,
} from "./golden";
import { rejectionOf } from "./rejection";

interface TableCase {
  id: string;
  kind: "table";
  comparator: string;
  file: { path: string; bytes: number };
  filter_partitions: number;
  properties: Record<string, string | number>;
  keys_count: number;
  probes: { path: string; count: number };
  probe_is_key: string;
  get_results: string;
  get_found: string;
  get_values: string;
}

interface DbCase {
  id: string;
  kind: "rocksdb-db" | "leveldb-db";
  comparator: string;
  dir: string;
  files: string[];
  wal: string[];
  /** RocksDB: the live tables and their levels. */
  levels?: { name: string; level: number }[];
  /** LevelDB: each table's entries as LevelDB's iterator over it yields them. */
  tables?: {
    name: string;
    bytes: number;
    data_blocks: number;
    /** Whether the index's keys happen to be in bytewise (internal-key) order too. */
    index_in_bytewise_order: boolean;
    entries: EntriesRecord;
  }[];
  probes: { path: string; count: number };
  probe_is_key: string;
  kinds: string[];
  answers: GetAnswer[];
}

const SECTION = sectionCases<TableCase | DbCase>("custom_comparator");

/** The case's comparator as the API takes it; throws for a name this file does not know. */
function comparatorOf(c: { id: string; comparator: string }): {
  name: string;
  compare: (a: Uint8Array, b: Uint8Array) => number;
} {
  const compare = CUSTOM_COMPARATORS[c.comparator];
  if (compare === undefined)
    throw new Error(`${c.id}: no comparator ${c.comparator} in custom-comparators.ts`);
  return { name: c.comparator, compare };
}

const TABLES = SECTION.filter((c): c is TableCase & (typeof SECTION)[number] => c.kind === "table").map(
  (c) => ({
    ...c,
    name: `${c.corpus.name}:${c.id}`,
    bytes: c.corpus.readBytes(c.file.path),
    probeKeys: c.corpus.readKeys(c.probes.path),
    isKey: c.corpus.readBytes(c.probe_is_key),
    filterAnswers: c.corpus.readBytes(c.get_results),
    found: c.corpus.readBytes(c.get_found),
    values: c.corpus.readKeys(c.get_values),
  }),
);

const DATABASES = SECTION.filter((c): c is DbCase & (typeof SECTION)[number] => c.kind !== "table").map(
  (c) => ({
    ...c,
    name: `${c.corpus.name}:${c.id}`,
    dirPath: c.corpus.path(c.dir),
    probeKeys: c.corpus.readKeys(c.probes.path),
  }),
);

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the section has tables under both comparators with each filter kind, and databases of both libraries", () => {
  const tableIds = TABLES.map((c) => c.id);
  for (const order of ["u64_suffix", "reverse_prefix"]) {
    for (const filter of ["bloom", "ribbon", "partitioned"])
      expect(tableIds).toContain(`sst_${order}_${filter}`);
  }
  expect(DATABASES.filter((c) => c.kind === "rocksdb-db").length).toBeGreaterThanOrEqual(2);
  expect(DATABASES.filter((c) => c.kind === "leveldb-db").length).toBeGreaterThanOrEqual(1);
  for (const c of TABLES) {
    expect([c.name, c.probeKeys.length, c.filterAnswers.length, c.values.length]).toEqual([
      c.name,
      c.probes.count,
      c.probes.count,
      c.probes.count,
    ]);
    // Real "no" answers for absent keys, and every key a "maybe".
    expect(c.filterAnswers.filter((a, i) => a === 0 && c.isKey[i] === 0).length).toBeGreaterThan(500);
    expect(c.filterAnswers.filter((a, i) => a === 1 && c.isKey[i] === 1).length).toBe(c.keys_count);
    if (c.id.endsWith("_partitioned")) expect(c.filter_partitions).toBeGreaterThanOrEqual(3);
  }
  for (const c of DATABASES) {
    expect([c.name, c.probeKeys.length, c.answers.length]).toEqual([c.name, c.probes.count, c.probes.count]);
    for (const kind of ["written", "overwritten", "deleted", "absent"]) expect(c.kinds).toContain(kind);
    expect(c.wal.length).toBe(1);
  }
});

describe.each(TABLES)("$name", (c) => {
  const comparator = comparatorOf(c);

  test("the comparator in TypeScript orders the table's keys as the C++ one did (strictly ascending)", () => {
    const wrong: string[] = [];
    for (let i = 1; i < c.keys_count; i++) {
      if (comparator.compare(c.probeKeys[i - 1]!, c.probeKeys[i]!) >= 0)
        wrong.push(`keys ${i - 1} and ${i}: ${hex(c.probeKeys[i - 1]!)} ${hex(c.probeKeys[i]!)}`);
    }
    expect(wrong).toEqual([]);
    expect(c.properties["rocksdb.comparator"]).toBe(c.comparator);
  });

  test("with the comparator: mayContain is RocksDB's filter answer for every probe (single and batched)", () => {
    using t = sf.openTable(c.bytes, { comparator });
    const batched = t.mayContainMany(c.probeKeys);
    const wrong: string[] = [];
    for (const [i, key] of c.probeKeys.entries()) {
      const single = t.mayContain(key) ? 1 : 0;
      if (single !== batched[i])
        wrong.push(`probe ${i} ${hex(key)}: single ${single}, batched ${batched[i]}`);
      const theirs = c.filterAnswers[i]!;
      if (theirs === 2) {
        // RocksDB skipped the file: the probe is outside its range, so it must not be a key.
        if (c.isKey[i] === 1)
          wrong.push(`probe ${i} ${hex(key)}: a key RocksDB did not consult a filter for`);
      } else if (single !== theirs) {
        wrong.push(`probe ${i} ${hex(key)}: ours ${single}, RocksDB ${theirs}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("with the comparator: get's newest entry is Get's value; [] where Get found nothing", () => {
    using t = sf.openTable(c.bytes, { comparator });
    const wrong: string[] = [];
    for (const [i, key] of c.probeKeys.entries()) {
      const entries = t.get(key);
      if (c.found[i] === 1) {
        const newest = entries[0];
        if (newest === undefined || newest.type !== "put" || hex(newest.value) !== hex(c.values[i]!))
          wrong.push(
            `probe ${i} ${hex(key)}: ours ${newest?.type} ${newest && hex(newest.value)}, RocksDB ${hex(c.values[i]!)}`,
          );
      } else if (entries.length !== 0) {
        wrong.push(`probe ${i} ${hex(key)}: ${entries.length} entries, RocksDB found none`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("without the comparator: the order is unknown, and no key of the table is ruled out", () => {
    using u = sf.openTable(c.bytes);
    expect(u.order.known).toBe(false);
    const keys = c.probeKeys.slice(0, c.keys_count);
    const missed = keys.flatMap((key, i) => (u.mayContain(key) ? [] : [`key ${i} ${hex(key)}`]));
    expect(missed).toEqual([]);
    expect(u.mayContainMany(keys).every((a) => a === 1)).toBe(true);
  });
});

describe.each(DATABASES)("$name", (c) => {
  const comparator = comparatorOf(c);
  const library = c.kind === "leveldb-db" ? "LevelDB" : "RocksDB";

  test(`with the comparator: db.get equals ${library}'s Get for every probe`, async () => {
    const db = await sf.openDatabase(c.dirPath, { comparators: { [comparator.name]: comparator.compare } });
    try {
      if (c.levels !== undefined) {
        const ours = db.levels.flatMap((l) => l.files.map((f) => `${f.name} ${l.level}`)).sort();
        expect(ours).toEqual(c.levels.map((f) => `${f.name} ${f.level}`).sort());
      }
      expect(await getMismatches((key) => db.get(key), c.probeKeys, c.answers, library)).toEqual([]);
    } finally {
      db.dispose();
    }
  });

  test("without it: db.get refuses with UNSUPPORTED, naming the comparator", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      for (const key of [c.probeKeys[0]!, c.probeKeys[c.probeKeys.length - 1]!]) {
        const error: unknown = await rejectionOf((async () => db.get(key))());
        expect(error).toBeInstanceOf(SstFilterError);
        expect((error as SstFilterError).code).toBe("UNSUPPORTED");
        expect((error as SstFilterError).message).toContain(c.comparator);
      }
    } finally {
      db.dispose();
    }
  });

  if (c.tables !== undefined) {
    const tables = c.tables.map((table) => {
      const recorded = recordedEntries(c.corpus, table.entries);
      const byKey = new Map<string, RecordedEntry[]>();
      for (const e of recorded) byKey.set(hex(e.key), [...(byKey.get(hex(e.key)) ?? []), e]);
      return { ...table, bytes: c.corpus.readBytes(path.join(c.dir, table.name)), byKey };
    });

    test("each LevelDB table, given the comparator: every key may match and get yields its versions as LevelDB's iterator", () => {
      expect(tables.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...tables.map((t) => t.data_blocks))).toBeGreaterThanOrEqual(20);
      for (const table of tables) {
        using t = sf.openTable(table.bytes, { comparator });
        const missed: string[] = [];
        for (const [k, versions] of table.byKey) {
          const key = Buffer.from(k, "hex");
          if (!t.mayContain(key)) missed.push(`${table.name} ${k}`);
          expectSameEntries(`${c.name} ${table.name} get(${k})`, t.get(key), versions);
        }
        expect(missed).toEqual([]);
      }
    });

    // A LevelDB table does not name its comparator. These tables' index keys are out of bytewise
    // order, which a reader can see; a bytewise index seek would send most keys to the wrong
    // block's filter.
    test("each LevelDB table without the comparator (its index out of bytewise order): no key of it is ruled out", () => {
      for (const table of tables) {
        expect([table.name, table.index_in_bytewise_order]).toEqual([table.name, false]);
        using u = sf.openTable(table.bytes);
        const keys = [...table.byKey.keys()].map((k) => Buffer.from(k, "hex"));
        const missed = keys.flatMap((key) => (u.mayContain(key) ? [] : [`${table.name} ${hex(key)}`]));
        expect(missed).toEqual([]);
      }
    });
  }
});
