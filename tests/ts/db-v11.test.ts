// RocksDB 11.8.1's databases (fixtures section v11_db, written by tests/corpus/rocksdb11/databases.cc):
// WALs that start with predecessor records (types 130 and 131, one in a recycled file) under
// track_and_verify_wals, MANIFESTs with kPersistUserDefinedTimestamps, kLastCompactedManifestFileSize
// and NewFile4's kFileOpenMetadata, and one with user-defined timestamps kept out of its tables
// (persist_user_defined_timestamps = false). db.get (and `sstfilter db get`) equals RocksDB 11's Get
// for every probe (with timestamps: read at the newest, as RocksDB read them), db.scan lists what
// those Gets found, and the chain missing its middle WAL is refused as DB::Open refuses it.
import { spawnSync } from "node:child_process";

import { SstFilterError, type NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { CLI } from "./cli-path";
import { getMismatches, hexToBytes, sectionCases, type GetAnswer } from "./golden";
import { rejectionOf } from "./rejection";

interface V11DbCase {
  id: string;
  dir: string;
  files: string[];
  options: Record<string, unknown>;
  /** Hex. */
  probes: string[];
  /** With a timestamp comparator: the read timestamp of RocksDB's Gets (hex). */
  read_timestamp?: string;
  rocksdb: { open: string; answers?: GetAnswer[] };
}

const CASES = sectionCases<V11DbCase>("v11_db").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  dirPath: c.corpus.path(c.dir),
  keys: c.probes.map(hexToBytes),
}));
const OPENED = CASES.filter((c) => c.rocksdb.open === "OK");
const REFUSED = CASES.filter((c) => c.rocksdb.open !== "OK");
// db.scan is compared with the probes, keys without timestamps: databases with timestamps are left out.
const SCANNED = OPENED.filter((c) => c.read_timestamp === undefined);
const TIMESTAMPS_IN_MEMTABLE_ONLY = CASES.filter(
  (c) => c.options["persist_user_defined_timestamps"] === false,
);

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the fixtures have databases RocksDB opened, one it refused, and one with timestamps kept out of its tables", () => {
  expect(OPENED.map((c) => c.id)).toEqual(expect.arrayContaining(["wal-chain", "wal-recycled"]));
  expect(REFUSED.map((c) => c.id)).toEqual(["wal-chain-missing-middle"]);
  expect(TIMESTAMPS_IN_MEMTABLE_ONLY.length).toBeGreaterThanOrEqual(1);
  for (const c of OPENED) expect(c.rocksdb.answers).toHaveLength(c.keys.length);
  // db.get reads at the newest timestamp only: RocksDB's Gets must have too.
  for (const c of CASES)
    if (c.read_timestamp !== undefined) expect([c.id, c.read_timestamp]).toEqual([c.id, "ff".repeat(8)]);
});

describe.each(OPENED)("$name", (c) => {
  test("recovery checks predecessor records (track_and_verify_wals from the OPTIONS file)", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      expect((await db.recoverySettings()).trackAndVerifyWals).toBe(true);
    } finally {
      db.dispose();
    }
  });

  test("db.get equals RocksDB 11's Get for every probe", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      expect(await getMismatches((k) => db.get(k), c.keys, c.rocksdb.answers!, "RocksDB 11.8.1")).toEqual([]);
    } finally {
      db.dispose();
    }
  });
});

/** `sstfilter db get <dir> <key> --hex`, as a user runs it. */
const cliGet = (dir: string, key: Uint8Array) =>
  spawnSync(process.execPath, [CLI, "db", "get", dir, Buffer.from(key).toString("hex"), "--hex"], {
    encoding: "latin1",
  });

describe.each(OPENED)("$name through the command", (c) => {
  test("`sstfilter db get --hex` prints RocksDB 11's value, or exits 1 for not found, for every third probe", () => {
    const wrong: string[] = [];
    for (let i = 0; i < c.keys.length; i += 3) {
      const run = cliGet(c.dirPath, c.keys[i]!);
      const theirs = c.rocksdb.answers![i]!;
      const expected =
        theirs.status === "ok" ? { status: 0, stdout: `0x${theirs.value!.toUpperCase()}\n` } : { status: 1 };
      const ours = run.status === 0 ? { status: 0, stdout: run.stdout } : { status: run.status };
      if (JSON.stringify(ours) !== JSON.stringify(expected))
        wrong.push(
          `probe ${i}: ours ${JSON.stringify(ours)} ${run.stderr.trim()}, RocksDB ${JSON.stringify(expected)}`,
        );
    }
    expect(wrong).toEqual([]);
  });
});

describe.each(SCANNED)("$name scanned", (c) => {
  test("db.scan of the default family lists exactly the probes RocksDB found, with their values", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      const ours: string[] = [];
      for await (const r of db.scan({ columnFamily: "default" })) {
        ours.push(`${Buffer.from(r.key).toString("hex")}=${Buffer.from(r.value).toString("hex")}`);
      }
      // The probes cover every key written to the default family.
      const theirs = c.probes.flatMap((p, i) => {
        const a = c.rocksdb.answers![i]!;
        return a.status === "ok" ? [`${p}=${a.value!.toLowerCase()}`] : [];
      });
      expect(ours).toEqual(theirs);
    } finally {
      db.dispose();
    }
  });
});

describe.each(REFUSED)("$name", (c) => {
  test("`sstfilter db get` refuses it too (exit 3, CORRUPT)", () => {
    const run = cliGet(c.dirPath, c.keys[0]!);
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("CORRUPT");
  });

  test("db.get refuses the database as DB::Open does (CORRUPT: the predecessor record names a WAL not replayed)", async () => {
    expect(c.rocksdb.open).toContain("beyond the point of corruption in CF side");
    const db = await sf.openDatabase(c.dirPath);
    try {
      const error = await rejectionOf(db.get(c.keys[0]!));
      expect(error).toBeInstanceOf(SstFilterError);
      expect((error as SstFilterError).code).toBe("CORRUPT");
      expect((error as SstFilterError).message).toContain("column family side");
      const recovery = await rejectionOf(db.recoverLogs());
      expect(recovery).toBeInstanceOf(SstFilterError);
    } finally {
      db.dispose();
    }
  });
});

describe.each(TIMESTAMPS_IN_MEMTABLE_ONLY)("$name", (c) => {
  // Besides every probe equal to RocksDB's (above): the WAL's versions, whose keys carry their
  // timestamps, decide some probes, and the table's, whose keys lost them, decide others.
  test("db.get takes answers from both the WAL and the table written without timestamps", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      const decidedBy = new Set<string>();
      for (const key of c.keys) {
        const { steps } = await db.explainGet(key);
        for (const s of steps) if (s.entry === "value" || s.entry === "deletion") decidedBy.add(s.where);
      }
      expect([...decidedBy].sort()).toEqual(["memtable", "table"]);
    } finally {
      db.dispose();
    }
  });
});
