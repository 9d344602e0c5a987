// Databases whose WALs are damaged in the middle (docs/FORMATS.md 6.4.2), on the db_wal_damage
// section: RocksDB 7.8.3 databases with two and three live WALs, one of them damaged (a flipped
// byte, a cut), reopened by DB::Open under the recovery mode their OPTIONS file records (point-in-
// time, tolerate corrupted tail, absolute consistency, skip any, paranoid_checks=false), and a
// LevelDB 1.23 WAL with four kinds of damage reopened by leveldb::DB::Open (paranoid_checks
// false). db.get must answer every probe as the reopened database's Get does, or refuse to open
// where DB::Open refuses.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { SstFilterError, type Database, type NodeSstFilter } from "sstfilter";

// The CommonJS package holds only what the Node entry imports; the command's module is taken from source.
import { walAndOptions } from "../../ts/tools/db-wal";
import { loadBackend } from "./backends";
import { getMismatches, parseKeys, sectionCases, type GetAnswer } from "./golden";
import { rejectionOf } from "./rejection";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RocksDB = require("rocksdb-native");

interface LibraryReading {
  /** Status::ToString() of DB::Open. */
  open: string;
  answers?: GetAnswer[];
}
interface DamageCase {
  id: string;
  format: "leveldb" | "rocksdb";
  /** RocksDB: wal_recovery_mode as rocksdb's enum value (2: kPointInTimeRecovery), paranoid_checks. */
  recovery?: { wal_recovery_mode: number; paranoid_checks: boolean };
  dir: string;
  logs: string[];
  damage: { file: string; offset: number; what: string }[];
  probes: { path: string; count: number };
  library: LibraryReading;
  library_paranoid?: LibraryReading;
}

const CASES = sectionCases<DamageCase>("db_wal_damage").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  probes: parseKeys(readFileSync(c.corpus.path(c.probes.path))),
}));
const OPENED = CASES.filter((c) => c.library.open === "OK");
const REFUSED = CASES.filter((c) => c.library.open !== "OK");
const byId = (id: string) => CASES.find((c) => c.id === id);

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the corpus has damaged RocksDB logs that drop later logs, resume, and refuse to open, and a damaged LevelDB log", () => {
  for (const id of [
    "rocksdb_damaged_older_wal",
    "rocksdb_torn_older_wal",
    "rocksdb_resumed_wal",
    "leveldb_damaged_wal",
  ]) {
    expect(byId(id)?.library.open).toBe("OK");
  }
  expect(byId("rocksdb_resumed_wal")!.logs.length).toBe(3);
  expect(byId("rocksdb_sst_ahead")!.library.open).toMatch(/SST file is ahead of WALs/);
  // The other modes: a torn older log read past its tear, damage read past, and refusals.
  for (const id of [
    "rocksdb_tolerate_torn_older_wal",
    "rocksdb_skip_any_damaged_older_wal",
    "rocksdb_unparanoid_damaged_older_wal",
  ]) {
    expect(byId(id)?.library.open).toBe("OK");
  }
  expect(byId("rocksdb_tolerate_damaged_older_wal")!.library.open).toMatch(/checksum mismatch/);
  expect(byId("rocksdb_absolute_torn_newer_wal")!.library.open).toMatch(/truncated record body/);
  // With paranoid_checks, LevelDB refuses the same log its default open reads past.
  expect(byId("leveldb_damaged_wal")!.library_paranoid!.open).toMatch(/Corruption/);
  for (const c of OPENED) expect(c.library.answers).toHaveLength(c.probes.length);
});

describe.each(OPENED)("$name", (c) => {
  let db: Database;
  beforeAll(async () => {
    db = await sf.openDatabase(c.corpus.path(c.dir));
  });
  afterAll(() => db.dispose());

  test("db.get answers every probe as the reopened database's Get", async () => {
    expect(await getMismatches((k) => db.get(k), c.probes, c.library.answers!, "library")).toEqual([]);
  });

  test("the replay says where it stopped and why", async () => {
    const recovery = await db.recoverLogs();
    const stops = recovery.logs.map((l) => `${l.name} ${l.stopped?.reason ?? "whole"}`);
    const [first, second, third] = c.logs;
    switch (c.id) {
      case "rocksdb_damaged_older_wal":
      case "rocksdb_torn_older_wal": {
        expect(stops).toEqual([`${first} damage`, `${second} sequence-gap`]);
        expect(recovery.logs[1]!.records).toEqual([]);
        // db inspect says so.
        const { text: inspected } = await walAndOptions(db);
        expect(inspected).toContain("recovered as kPointInTimeRecovery would");
        expect(inspected).toMatch(new RegExp(`${second}: .*; recovery drops it from byte 0 on: .*${first}`));
        break;
      }
      case "rocksdb_damaged_newer_wal":
        expect(stops).toEqual([`${first} whole`, `${second} damage`]);
        break;
      case "rocksdb_resumed_wal":
        // The second log starts past the lost records; the third where the replay stopped.
        expect(stops).toEqual([`${first} damage`, `${second} sequence-gap`, `${third} whole`]);
        expect(recovery.logs[2]!.records.length).toBeGreaterThan(0);
        break;
      case "rocksdb_tolerate_torn_older_wal":
        // A torn tail is no damage in this mode: the newer log is replayed.
        expect(stops).toEqual([`${first} whole`, `${second} whole`]);
        expect((await db.writeAheadLogs())[0]!.end.kind).toBe("torn");
        break;
      case "rocksdb_skip_any_damaged_older_wal":
      case "rocksdb_unparanoid_damaged_older_wal": {
        // The reader reads past the damage; nothing stops the replay.
        expect(stops).toEqual([`${first} whole`, `${second} whole`]);
        const [older] = await db.writeAheadLogs();
        expect([older!.error, older!.dropped[0]?.error.code]).toEqual([null, "CHECKSUM_MISMATCH"]);
        break;
      }
      case "leveldb_damaged_wal": {
        // LevelDB reads past each damage: every log whole, the damage in WalFile.dropped.
        expect(stops).toEqual(c.logs.map((name) => `${name} whole`));
        const [wal] = await db.writeAheadLogs();
        expect(wal!.error).toBeNull();
        const codes = wal!.dropped.map((d) => `${d.error.code}@${d.offset}`);
        // Each damage is dropped at or before the damaged byte, in the damaged record's block.
        for (const d of c.damage) {
          const drop = wal!.dropped.find((x) => x.offset <= d.offset && d.offset - x.offset < 32768);
          expect([d.what, drop === undefined ? "no drop" : "dropped"]).toEqual([d.what, "dropped"]);
        }
        expect(codes.some((x) => x.startsWith("CHECKSUM_MISMATCH"))).toBe(true);
        expect(wal!.dropped.every((d) => d.error.file === wal!.name)).toBe(true);
        // Byte ranges in file order, none overlapping.
        wal!.dropped.forEach((d, i) => {
          const next = wal!.dropped[i + 1];
          if (next !== undefined) expect([i, d.offset + d.size <= next.offset]).toEqual([i, true]);
        });
        const { text: inspected } = await walAndOptions(db);
        expect(inspected).toContain(`recovery reads past ${wal!.dropped.length} damaged regions`);
        break;
      }
      default:
        throw new Error(`no expectation for ${c.id}`);
    }
  });
});

describe.each(REFUSED)("$name", (c) => {
  test("db.get refuses as DB::Open does, naming the damaged log", async () => {
    const db = await sf.openDatabase(c.corpus.path(c.dir));
    try {
      const error = await rejectionOf(db.get(c.probes[0]!));
      expect(error).toBeInstanceOf(SstFilterError);
      const e = error as SstFilterError;
      expect([e.code, e.file]).toEqual(["CORRUPT", c.damage[0]!.file]);
      // RocksDB's words, after its "Corruption: ".
      expect(e.message).toContain(c.library.open.replace(/^Corruption: /, ""));
    } finally {
      db.dispose();
    }
  });
});

test("db verify reports the damaged LevelDB log that recovery reads past", async () => {
  const c = byId("leveldb_damaged_wal")!;
  const db = await sf.openDatabase(c.corpus.path(c.dir));
  try {
    const report = await db.verify();
    const log = report.files.find((f) => f.name === c.logs[0]);
    expect([log?.status, log?.error?.code]).toEqual(["error", "CHECKSUM_MISMATCH"]);
  } finally {
    db.dispose();
  }
});

// RocksDB 10.x recovers the same damage the same way: rocksdb-native (default options:
// point-in-time recovery) opening a copy of each such 7.8.3 database read-only.
const POINT_IN_TIME = CASES.filter(
  (c) => c.format === "rocksdb" && c.recovery?.wal_recovery_mode === 2 && c.recovery.paranoid_checks,
);
test.each(POINT_IN_TIME)("RocksDB 10.x (rocksdb-native) answers $name as RocksDB 7.8.3 does", async (c) => {
  const copy = mkdtempSync(path.join(tmpdir(), "sstfilter-wal-damage-"));
  try {
    const dir = c.corpus.path(c.dir);
    for (const name of readdirSync(dir)) copyFileSync(path.join(dir, name), path.join(copy, name));
    const families = c.id === "rocksdb_sst_ahead" ? ["default", "side"] : ["default"];
    const db = new RocksDB(copy, {
      readOnly: true,
      columnFamilies: families.map((name) => new RocksDB.ColumnFamily(name)),
    });
    // rocksdb-native rejects with the status's message alone (code EIO): a refusal for another
    // reason has other words and fails the comparison all the same.
    const opened = await db.ready().then(
      () => "OK",
      (e: Error) => `Corruption: ${e.message}`,
    );
    expect(opened).toBe(c.library.open);
    if (opened !== "OK") return;
    const wrong = await getMismatches((k) => db.get(k), c.probes, c.library.answers!, "7.8.3");
    await db.close();
    expect(wrong).toEqual([]);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
