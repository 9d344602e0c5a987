// Database file names (parseDatabaseFileName) on the folders RocksDB 10.x (rocksdb-native) and
// LevelDB (classic-level) wrote: every numbered file they left reads as its kind and number, and
// agrees with what the MANIFEST and the WAL replay name; and one check of the format ("leveldb" or
// "rocksdb") behind every option that takes it.
import { readdirSync } from "node:fs";

import { parseDatabaseFileName, SstFilterError, type NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { libraryGetCases } from "./golden";

// Files of a database that carry no number (leveldb db/filename.cc, rocksdb file/filename.cc).
const UNNUMBERED = new Set(["CURRENT", "IDENTITY", "LOCK", "LOG", "SESSION_ID"]);

/** The name the libraries give a numbered file of `kind` (MakeFileName's six digits at least). */
function nameOf(kind: string, number: bigint, leveldb: boolean): string {
  const digits = number.toString().padStart(6, "0");
  const suffix = { wal: ".log", table: leveldb ? ".ldb" : ".sst", blob: ".blob" }[kind];
  return suffix === undefined ? `${kind.toUpperCase()}-${digits}` : `${digits}${suffix}`;
}

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

const CASES = libraryGetCases();

test("the corpus has a RocksDB and a LevelDB database", () => {
  expect(new Set(CASES.map((c) => c.format))).toEqual(new Set(["rocksdb", "leveldb"]));
});

test.each(CASES.map((c) => ({ ...c, name: `${c.format}:${c.id}` })))(
  "$name: every numbered file reads as its kind and number, as the MANIFEST and the replay name them",
  async (c) => {
    const numbered = readdirSync(c.dirPath).filter((name) => !UNNUMBERED.has(name));
    expect(numbered.length).toBeGreaterThan(0);
    for (const name of numbered) {
      const parsed = parseDatabaseFileName(name);
      expect({ name, parsed: parsed && nameOf(parsed.kind, parsed.number, c.format === "leveldb") }).toEqual({
        name,
        parsed: name,
      });
    }
    const db = await sf.openDatabase(c.dirPath);
    expect(parseDatabaseFileName(db.manifest)?.kind).toBe("manifest");
    const tables = db.columnFamilies.flatMap((cf) => cf.levels.flatMap((l) => l.files));
    expect(tables.length).toBeGreaterThan(0);
    for (const f of tables)
      expect([f.name, parseDatabaseFileName(f.name)]).toEqual([f.name, { kind: "table", number: f.number }]);
    const logs = await db.memtableLogs();
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs)
      expect([log.name, parseDatabaseFileName(log.name)?.kind]).toEqual([log.name, "wal"]);
  },
);

test("names that are not a database's numbered files read as null", () => {
  const others = [
    "LOG",
    "LOG.old.1700000000",
    "000012.log.tmp",
    "OPTIONS-000005.dbtmp",
    "MANIFEST-",
    "12.txt",
    "x12.sst",
  ];
  expect(others.map((name) => [name, parseDatabaseFileName(name)])).toEqual(
    others.map((name) => [name, null]),
  );
  // ParseFileName takes numbers up to 2^64 - 1 (ConsumeDecimalNumber in util/logging.cc).
  expect(parseDatabaseFileName("18446744073709551615.log")).toEqual({
    kind: "wal",
    number: (1n << 64n) - 1n,
  });
  expect(parseDatabaseFileName("18446744073709551616.log")).toBeNull();
  expect(parseDatabaseFileName("12.sst")).toEqual({ kind: "table", number: 12n });
  expect(parseDatabaseFileName("OPTIONS-000007")).toEqual({ kind: "options", number: 7n });
});

test("every option that takes a format refuses any but leveldb and rocksdb, alike", async () => {
  const message = 'format must be "leveldb" or "rocksdb", got LevelDB';
  const format = "LevelDB" as "leveldb";
  const refusals: [string, () => unknown][] = [
    ["openFilter", () => sf.openFilter(new Uint8Array(8), { format })],
    ["readWriteAheadLog", () => sf.readWriteAheadLog(new Uint8Array(0), { format })],
    ["createTableWriter", () => sf.createTableWriter({ format })],
  ];
  const outcome = (run: () => unknown): string => {
    try {
      run();
      return "accepted";
    } catch (e) {
      return e instanceof SstFilterError ? `${e.code}: ${e.message}` : String(e);
    }
  };
  expect(refusals.map(([call, run]) => [call, outcome(run)])).toEqual(
    refusals.map(([call]) => [call, `BAD_OPTIONS: ${message}`]),
  );
  await expect(sf.openDatabase(CASES[0]!.dirPath, { format })).rejects.toThrow(message);
});
