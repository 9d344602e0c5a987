// RocksDB 11.8.1's databases (fixtures section v11_db, written by tests/corpus/rocksdb11/databases.cc):
// WALs that start with predecessor records (types 130 and 131, one in a recycled file) under
// track_and_verify_wals, MANIFESTs with kPersistUserDefinedTimestamps, kLastCompactedManifestFileSize
// and NewFile4's kFileOpenMetadata, and one with user-defined timestamps kept out of its tables
// (persist_user_defined_timestamps = false; its WAL also holds range deletions with timestamps and
// writes at older timestamps than earlier ones), one of wide-column entities whose large columns a
// flush moved to a blob file, and one that ingested a table with embedded blob records. db.get (and `sstfilter db get`) equals RocksDB 11's Get for
// every probe (with timestamps: read at the newest, as RocksDB read them, and with readTimestamp
// at each older timestamp RocksDB read them at), db.scan with values "read" (and `sstfilter db
// dump --values read`) lists what RocksDB's iterator does, the entities stored decode to
// GetEntity's columns, `sstfilter db verify` finds every file good, and the chain missing its
// middle WAL is refused as DB::Open refuses it (db verify too).
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

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
  rocksdb: {
    open: string;
    answers?: GetAnswer[];
    scan?: ScanEntry[];
    /** With timestamps: the Gets again, each set read at an older timestamp (hex). */
    answers_at_older_timestamps?: { read_timestamp: string; answers: GetAnswer[] }[];
    /** With entities: GetEntity per probe, its columns as [name, value] in hex. */
    entities?: { status: string; columns?: [string, string][] }[];
  };
}

/** One entry RocksDB's iterator over the default family lists (hex; with timestamps, the version's). */
interface ScanEntry {
  key: string;
  value: string;
  timestamp?: string;
}

const CASES = sectionCases<V11DbCase>("v11_db").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  dirPath: c.corpus.path(c.dir),
  keys: c.probes.map(hexToBytes),
}));
const OPENED = CASES.filter((c) => c.rocksdb.open === "OK");
const REFUSED = CASES.filter((c) => c.rocksdb.open !== "OK");
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
  for (const c of OPENED) expect([c.id, (c.rocksdb.scan ?? []).length > 0]).toEqual([c.id, true]);
  // db.get reads at the newest timestamp only: RocksDB's Gets must have too.
  for (const c of CASES)
    if (c.read_timestamp !== undefined) expect([c.id, c.read_timestamp]).toEqual([c.id, "ff".repeat(8)]);
});

describe.each(OPENED.filter((c) => c.read_timestamp === undefined))("$name without timestamps", (c) => {
  test("db.get refuses a readTimestamp (BAD_OPTIONS): the family's keys have none", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      const error = await rejectionOf(db.get(c.keys[0]!, { readTimestamp: 1n }));
      expect(error).toBeInstanceOf(SstFilterError);
      expect((error as SstFilterError).code).toBe("BAD_OPTIONS");
    } finally {
      db.dispose();
    }
  });
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

test("each WAL's predecessor record names the live WAL before it as RocksDB 11 recorded it: its size and last batch", async () => {
  const wrong: string[] = [];
  let pairs = 0;
  for (const c of CASES) {
    const db = await sf.openDatabase(c.dirPath);
    try {
      const logs = await db.writeAheadLogs();
      for (const log of logs) {
        const p = log.predecessor;
        // Written first in each log (no compression record in these WALs).
        if (p === null || p.offset !== 0 || p.number >= log.number) {
          wrong.push(`${c.name} ${log.name}: predecessor ${String(p && `${p.number} at ${p.offset}`)}`);
          continue;
        }
        const before = logs.find((l) => l.number === p.number);
        if (before === undefined) continue; // flushed and deleted, or the missing middle
        ++pairs;
        const size = BigInt(statSync(join(c.dirPath, before.name)).size);
        const lastBatch = before.batches[before.batches.length - 1];
        // A recycled file may hold an earlier log's bytes past the ones this log wrote.
        const sizeHolds = c.options["recycle_log_file_num"] === undefined ? p.size === size : p.size <= size;
        if (!sizeHolds || p.lastSequence !== lastBatch?.sequence)
          wrong.push(
            `${c.name} ${log.name}: names ${before.name} of ${p.size} bytes, last batch ${p.lastSequence}; ` +
              `the file has ${size} bytes, last batch ${String(lastBatch?.sequence)}`,
          );
        // `sstfilter db inspect` prints it on the log's line (these sizes are under 1,000).
        const inspect = spawnSync(process.execPath, [CLI, "db", "inspect", c.dirPath], { encoding: "utf8" });
        const line = inspect.stdout.split("\n").find((l) => l.trim().startsWith(`${log.name}:`));
        const expected = `follows ${before.name} (${p.size} bytes, last batch seq ${p.lastSequence})`;
        if (line?.includes(expected) !== true)
          wrong.push(`${c.name} db inspect: ${String(line)} lacks ${expected}`);
      }
    } finally {
      db.dispose();
    }
  }
  expect(wrong).toEqual([]);
  expect(pairs).toBeGreaterThanOrEqual(2); // wal-chain: 000010.log and 000012.log
});

/** `sstfilter db get <dir> <key> --hex`, as a user runs it. */
const cliGet = (dir: string, key: Uint8Array, extra: string[] = []) =>
  spawnSync(process.execPath, [CLI, "db", "get", dir, Buffer.from(key).toString("hex"), "--hex", ...extra], {
    encoding: "latin1",
  });

/** Every third probe through `sstfilter db get --hex` (with `extra` arguments) against RocksDB's answers. */
function cliGetMismatches(
  dir: string,
  keys: Uint8Array[],
  answers: GetAnswer[],
  extra: string[] = [],
): string[] {
  const wrong: string[] = [];
  for (let i = 0; i < keys.length; i += 3) {
    const run = cliGet(dir, keys[i]!, extra);
    const theirs = answers[i]!;
    const expected =
      theirs.status === "ok" ? { status: 0, stdout: `0x${theirs.value!.toUpperCase()}\n` } : { status: 1 };
    const ours = run.status === 0 ? { status: 0, stdout: run.stdout } : { status: run.status };
    if (JSON.stringify(ours) !== JSON.stringify(expected))
      wrong.push(
        `probe ${i} ${extra.join(" ")}: ours ${JSON.stringify(ours)} ${run.stderr.trim()}, RocksDB ${JSON.stringify(expected)}`,
      );
  }
  return wrong;
}

describe.each(OPENED)("$name through the command", (c) => {
  test("`sstfilter db get --hex` prints RocksDB 11's value, or exits 1 for not found, for every third probe", () => {
    expect(cliGetMismatches(c.dirPath, c.keys, c.rocksdb.answers!)).toEqual([]);
  });
});

/** RocksDB's iterator as "key=value" lines (hex), the form the scans below are compared in. */
const iteratorLines = (c: (typeof OPENED)[number]): string[] =>
  c.rocksdb.scan!.map((e) => `${e.key.toLowerCase()}=${e.value.toLowerCase()}`);

/** A `db dump --json` key or value: text as a string, other bytes as {"hex"}; as hex. */
const dumpedHex = (field: string | { hex: string }): string =>
  typeof field === "string" ? Buffer.from(field, "utf8").toString("hex") : field.hex.toLowerCase();

describe.each(OPENED)("$name scanned", (c) => {
  test("db.scan of the default family (values read) lists what RocksDB 11's iterator lists (at the newest timestamp)", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      const ours: string[] = [];
      for await (const r of db.scan({ columnFamily: "default", values: "read" })) {
        ours.push(`${Buffer.from(r.key).toString("hex")}=${Buffer.from(r.value).toString("hex")}`);
      }
      expect(ours).toEqual(iteratorLines(c));
    } finally {
      db.dispose();
    }
  });

  test("`sstfilter db dump --json` lists it too, and `sstfilter db verify` finds every file good", () => {
    const dump = spawnSync(process.execPath, [CLI, "db", "dump", c.dirPath, "--json", "--values", "read"], {
      encoding: "utf8",
    });
    expect([dump.status, dump.stderr]).toEqual([0, ""]);
    const lines = dump.stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { key: string | { hex: string }; value: string | { hex: string } })
      .map((r) => `${dumpedHex(r.key)}=${dumpedHex(r.value)}`);
    expect(lines).toEqual(iteratorLines(c));
    const verify = spawnSync(process.execPath, [CLI, "db", "verify", c.dirPath, "--json"], {
      encoding: "utf8",
    });
    expect([verify.status, verify.stderr]).toEqual([0, ""]);
    const report = JSON.parse(verify.stdout) as { ok: boolean; bad: number; recovery: { status: string } };
    expect([report.ok, report.recovery.status]).toEqual([true, "ok"]);
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

  test("db.verify and `sstfilter db verify`: every file good, the database refused (not ok, exit 1)", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      const report = await db.verify();
      expect([report.bad, report.ok, report.recovery?.status, report.recovery?.error?.code]).toEqual([
        0,
        false,
        "refused",
        "CORRUPT",
      ]);
      expect(report.recovery?.error?.message).toContain("column family side");
    } finally {
      db.dispose();
    }
    const run = spawnSync(process.execPath, [CLI, "db", "verify", c.dirPath], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("recovery refuses the database: CORRUPT:");
    expect(run.stdout).toContain("every file is good");
    // db inspect lists the logs, then why recovery cannot replay them.
    const inspect = spawnSync(process.execPath, [CLI, "db", "inspect", c.dirPath], { encoding: "utf8" });
    expect(inspect.stdout).toMatch(
      /\n {2}000012\.log: .*\n {2}recovery: 000012\.log: the database does not open: /,
    );
  });
});

/** A read timestamp as the manifest writes it (8 bytes, little-endian, in hex) as a number. */
const timestampOf = (hex: string): bigint => Buffer.from(hex, "hex").readBigUInt64LE(0);

describe.each(TIMESTAMPS_IN_MEMTABLE_ONLY)("$name", (c) => {
  test("db.get with readTimestamp equals RocksDB 11's Get at each older timestamp, for every probe", async () => {
    const older = c.rocksdb.answers_at_older_timestamps ?? [];
    expect(older.length).toBeGreaterThan(0);
    const db = await sf.openDatabase(c.dirPath);
    try {
      for (const { read_timestamp, answers } of older) {
        const readTimestamp = timestampOf(read_timestamp);
        const library = `RocksDB 11.8.1 at timestamp ${readTimestamp}`;
        expect(await getMismatches((k) => db.get(k, { readTimestamp }), c.keys, answers, library)).toEqual(
          [],
        );
      }
      // The newest, named, reads as no read timestamp does.
      const newest = (1n << 64n) - 1n;
      expect(
        await getMismatches(
          (k) => db.get(k, { readTimestamp: newest }),
          c.keys,
          c.rocksdb.answers!,
          "RocksDB 11.8.1",
        ),
      ).toEqual([]);
    } finally {
      db.dispose();
    }
  });

  test("`sstfilter db get --read-timestamp T` equals RocksDB 11's Get at each older timestamp (every third probe)", () => {
    const older = c.rocksdb.answers_at_older_timestamps ?? [];
    expect(older.length).toBeGreaterThan(0);
    for (const { read_timestamp, answers } of older) {
      const at = ["--read-timestamp", timestampOf(read_timestamp).toString()];
      expect(cliGetMismatches(c.dirPath, c.keys, answers, at)).toEqual([]);
    }
    // Not a decimal u64: a usage error (exit code 2) naming the option.
    for (const bad of ["-1", "0x10", "18446744073709551616", "soon"]) {
      const run = cliGet(c.dirPath, c.keys[0]!, ["--read-timestamp", bad]);
      expect([bad, run.status, run.stderr.includes("--read-timestamp")]).toEqual([bad, 2, true]);
    }
  });

  test("readTimestamp must be a u64 bigint", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      for (const readTimestamp of [-1n, 1n << 64n, 5 as unknown as bigint]) {
        const error = await rejectionOf(db.get(c.keys[0]!, { readTimestamp }));
        expect([String(readTimestamp), (error as SstFilterError).code]).toEqual([
          String(readTimestamp),
          "BAD_OPTIONS",
        ]);
      }
    } finally {
      db.dispose();
    }
  });

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

  // What the answers above are compared on: the WAL's range deletions with timestamps decide some
  // probes, and one key was written again at an older timestamp than before (a read at the newest
  // takes the newer timestamp's value, not the newer sequence number's).
  test("the WAL's range deletions decide probes, and a later write has an older timestamp", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      let byRangeDeletion = 0;
      for (const key of c.keys) {
        const { steps } = await db.explainGet(key);
        if (steps.some((s) => s.where === "memtable" && s.entry === "range-deletion")) byRangeDeletion++;
      }
      expect(byRangeDeletion).toBeGreaterThan(0);
      const newest = new Map<string, bigint>();
      let olderLater = 0;
      for (const log of (await db.recoverLogs()).logs) {
        for (const r of log.records) {
          if (r.kind !== "put") continue;
          const view = Buffer.from(r.key);
          const user = view.subarray(0, view.length - 8).toString("hex");
          const timestamp = view.readBigUInt64LE(view.length - 8);
          const before = newest.get(user);
          if (before !== undefined && before > timestamp) olderLater++;
          if (before === undefined || timestamp > before) newest.set(user, timestamp);
        }
      }
      expect(olderLater).toBeGreaterThan(0);
    } finally {
      db.dispose();
    }
  });
});

describe.each(OPENED.filter((c) => c.rocksdb.entities !== undefined))(
  "$name, with wide-column entities",
  (c) => {
    const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

    // The flushed entities are stored in version 2, their large columns (the default one among
    // them) blob indexes into the live blob file; every column kept inline is GetEntity's, and the
    // default column kept in the blob file reads as RocksDB's Get (compared above for every probe).
    test("db.scan (values stored) gives entities whose inline columns are GetEntity's and whose columns kept in a blob file name a live one", async () => {
      const db = await sf.openDatabase(c.dirPath);
      try {
        const family = db.columnFamilies.find((cf) => cf.name === "default")!;
        const blobFiles = new Set(family.blobFiles.map((b) => b.number));
        const wrong: string[] = [];
        let inBlobFile = 0;
        let defaultInBlobFile = 0;
        for await (const r of db.scan({ values: "stored" })) {
          if (r.type !== "wide-column-entity") continue;
          const probe = c.probes.indexOf(hex(r.key));
          const theirs = c.rocksdb.entities![probe]?.columns ?? [];
          const ours = sf.decodeWideColumns(r.value);
          if (ours.length !== theirs.length)
            wrong.push(`${hex(r.key)}: ${ours.length} columns, RocksDB ${theirs.length}`);
          ours.forEach((col, i) => {
            const [name, value] = theirs[i] ?? ["?", "?"];
            if (hex(col.name) !== name)
              wrong.push(`${hex(r.key)} column ${i}: named ${hex(col.name)}, RocksDB ${name}`);
            if (col.blobIndex === undefined) {
              if (hex(col.value) !== value)
                wrong.push(`${hex(r.key)} column ${name}: ${hex(col.value)}, RocksDB ${value}`);
              return;
            }
            inBlobFile++;
            if (col.name.length === 0) defaultInBlobFile++;
            if (
              !blobFiles.has(col.blobIndex.fileNumber!) ||
              col.blobIndex.size !== BigInt(value.length / 2)
            ) {
              wrong.push(
                `${hex(r.key)} column ${name}: blob file ${col.blobIndex.fileNumber} size ${col.blobIndex.size}`,
              );
            }
          });
        }
        expect(wrong).toEqual([]);
        // Columns stay in the blob file only there; a table's own blob records were read already.
        const blobFilesUsed = c.options["enable_blob_files"] === true;
        expect([inBlobFile > 0, defaultInBlobFile > 0]).toEqual([blobFilesUsed, blobFilesUsed]);
      } finally {
        db.dispose();
      }
    });

    test("the answers read some values and entity columns from blob records or a blob file", () => {
      // As stored: blob indexes (whole values) and entities with blob-index columns, in the tables.
      let entries = 0;
      let columns = 0;
      for (const name of c.files.filter((f) => f.endsWith(".sst"))) {
        const t = sf.openTable(new Uint8Array(readFileSync(join(c.dirPath, name))));
        for (const e of t.entries({ embeddedBlobs: "index" })) {
          if (e.type === "blob-index") entries++;
          if (e.type === "wide-column-entity")
            columns += sf.decodeWideColumns(e.value).filter((col) => col.blobIndex !== undefined).length;
        }
        t.dispose();
      }
      expect([c.id, entries > 0, columns > 0]).toEqual([c.id, true, true]);
    });

    test("db.getEntity equals RocksDB 11's GetEntity for every probe", async () => {
      const db = await sf.openDatabase(c.dirPath);
      try {
        const wrong: string[] = [];
        let entities = 0;
        for (const [i, key] of c.keys.entries()) {
          const theirs = c.rocksdb.entities![i]!;
          const columns = await db.getEntity(key);
          const ours =
            columns === null
              ? { status: "not-found" }
              : { columns: columns.map((col) => [hex(col.name), hex(col.value)]), status: "ok" };
          if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
            wrong.push(`${c.probes[i]}: ${JSON.stringify(ours)}, RocksDB ${JSON.stringify(theirs)}`);
          }
          if ((columns?.length ?? 0) > 1) entities++;
        }
        expect(wrong).toEqual([]);
        expect(entities).toBeGreaterThan(0);
      } finally {
        db.dispose();
      }
    });

    test("db.scan's values must be stored or read (BAD_OPTIONS)", async () => {
      const db = await sf.openDatabase(c.dirPath);
      try {
        const scan = db.scan({ values: "resolved" as "read" });
        const error = await rejectionOf(scan.next());
        expect((error as SstFilterError).code).toBe("BAD_OPTIONS");
      } finally {
        db.dispose();
      }
    });
  },
);
