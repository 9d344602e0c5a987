// db.verify, sf.verifyDatabase and `sstfilter db verify` on real databases written here: RocksDB
// 7.8.3 (Debian's db_bench: several levels of Snappy tables, two live WALs; and one with blob
// files) and LevelDB (classic-level: tables and a log). Ground truth from RocksDB itself: `ldb
// list_live_files_metadata` names the live tables, `ldb dump_wal` counts each WAL's records and
// calls a damaged one a checksum mismatch, `ldb scan` names the offset of a damaged data block and
// the truncated table, `ldb get` finds a damaged blob. Each damage (a flipped bit in a data block,
// a WAL, the MANIFEST, a blob; a truncated table) is reported for that file alone, the others
// still verified; abort stops the workers; one and two threads agree.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { ClassicLevel } from "classic-level";
import { init, type DatabaseFileReport, type DatabaseVerifyReport, type NodeSstFilter } from "sstfilter";
import { CLI } from "./cli-path";

const work = mkdtempSync(path.join(tmpdir(), "sstfilter-db-verify-"));
const ROCKS = path.join(work, "rocks");
const LEVEL = path.join(work, "level");
const BLOBS = path.join(work, "blobs");

let sf: NodeSstFilter;

function tool(cmd: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.error !== undefined) throw r.error;
  return { code: r.status, out: r.stdout + r.stderr };
}

/** A fresh copy of `dir` to damage. */
function copyOf(dir: string, name: string): string {
  const copy = path.join(work, name);
  cpSync(dir, copy, { recursive: true });
  rmSync(path.join(copy, "LOCK"), { force: true });
  return copy;
}

function flipByte(file: string, offset: number): void {
  const bytes = readFileSync(file);
  bytes[offset]! ^= 0x10;
  writeFileSync(file, bytes);
}

const fileOf = (report: DatabaseVerifyReport, name: string): DatabaseFileReport => {
  const f = report.files.find((r) => r.name === name);
  if (f === undefined)
    throw new Error(`${name} is not in the report: ${report.files.map((r) => r.name).join(" ")}`);
  return f;
};

/** Every file but `name` verified and good. */
function othersGood(report: DatabaseVerifyReport, name: string): void {
  const others = report.files.filter((r) => r.name !== name && r.status !== "ok");
  expect(others.map((r) => `${r.name}: ${r.error?.message ?? r.status}`)).toEqual([]);
  expect(report.bad).toBe(1);
}

/** The header offset of the log fragment holding byte `at` (docs/FORMATS.md 6.1: 7-byte headers, 32 KiB blocks). */
function fragmentAt(log: Uint8Array, at: number): number {
  let pos = 0;
  for (;;) {
    const room = 32768 - (pos % 32768);
    if (room < 7) pos += room;
    const length = log[pos + 4]! | (log[pos + 5]! << 8);
    if (at < pos + 7 + length) return pos;
    pos += 7 + length;
  }
}

/** The live tables RocksDB itself lists. */
function rocksLiveTables(dir: string): string[] {
  const { code, out } = tool("ldb", [`--db=${dir}`, "list_live_files_metadata"]);
  expect(code).toBe(0);
  return [...out.matchAll(/(\d+\.sst)/g)].map((m) => m[1]!).sort();
}

const tablesIn = (report: DatabaseVerifyReport): string[] =>
  report.files
    .filter((r) => r.kind === "table")
    .map((r) => r.name)
    .sort();

beforeAll(async () => {
  sf = (await init()) as NodeSstFilter;
  // Small buffers and targets: flushes, compactions into L1 and L2, and a WAL still live at exit.
  const bench = tool("db_bench", [
    "--benchmarks=fillrandom",
    "--num=30000",
    "--key_size=16",
    "--value_size=100",
    "--write_buffer_size=262144",
    "--target_file_size_base=262144",
    "--max_bytes_for_level_base=1048576",
    "--compression_type=snappy",
    "--seed=1",
    `--db=${ROCKS}`,
  ]);
  expect(bench.code).toBe(0);
  // Integrated BlobDB: every value in a blob file.
  const blobs = tool("db_bench", [
    "--benchmarks=fillrandom",
    "--num=5000",
    "--key_size=16",
    "--value_size=100",
    "--enable_blob_files=1",
    "--min_blob_size=0",
    "--write_buffer_size=262144",
    "--seed=1",
    `--db=${BLOBS}`,
  ]);
  expect(blobs.code).toBe(0);
  const level = new ClassicLevel(LEVEL, { writeBufferSize: 64 << 10 });
  await level.open();
  for (let i = 0; i < 4000; i++) await level.put(`key${(i * 7919) % 4000}`, `value ${i} `.repeat(20));
  await level.close();
}, 300000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a sound database verifies clean", () => {
  test("RocksDB: the MANIFEST, every live WAL with RocksDB's record count, every live table", async () => {
    const db = await sf.openDatabase(ROCKS);
    const report = await db.verify();
    expect(report.files.filter((r) => r.status !== "ok")).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.filesFrom).toBe("manifest");
    expect(report.files[0]!.name).toBe(db.manifest);
    expect(tablesIn(report)).toEqual(rocksLiveTables(ROCKS));
    const wals = report.files.filter((r) => r.kind === "wal");
    expect(wals.length).toBeGreaterThan(0);
    for (const wal of wals) {
      const dump = tool("ldb", ["dump_wal", `--walfile=${path.join(ROCKS, wal.name)}`]);
      const records = dump.out.split("\n").filter((l) => /^\d+,\d+,\d+,\d+,/.test(l)).length;
      expect({ wal: wal.name, records: wal.log!.records }).toEqual({ wal: wal.name, records });
    }
    for (const t of report.files.filter((r) => r.kind === "table")) {
      const table = await db.openTable(t.name);
      expect({ table: t.name, keys: t.table!.keys }).toEqual({
        table: t.name,
        keys: Number(table.properties["rocksdb.num.entries"]),
      });
      table.dispose();
    }
    const sizes = report.files.reduce((n, r) => n + r.bytes, 0);
    expect(report.bytesTotal).toBe(sizes);
  });

  test("LevelDB (classic-level): the MANIFEST, the log and the .ldb tables", async () => {
    const db = await sf.openDatabase(LEVEL);
    expect(db.format).toBe("leveldb");
    const report = await db.verify();
    expect(report.files.filter((r) => r.status !== "ok")).toEqual([]);
    const live = db.levels.flatMap((l) => l.files.map((f) => f.name)).sort();
    expect(live.length).toBeGreaterThan(1);
    expect(tablesIn(report)).toEqual(live);
    expect(report.files.filter((r) => r.kind === "wal").map((r) => r.name)).toEqual(
      readdirSync(LEVEL).filter((n) => n.endsWith(".log")),
    );
  });

  test("RocksDB BlobDB: every blob file's records, as many as the MANIFEST records", async () => {
    const db = await sf.openDatabase(BLOBS);
    const recorded = db.columnFamilies.flatMap((cf) => cf.blobFiles);
    expect(recorded.length).toBeGreaterThan(0);
    const report = await db.verify();
    expect(report.files.filter((r) => r.status !== "ok")).toEqual([]);
    for (const blob of recorded) {
      const f = fileOf(report, `${blob.number.toString().padStart(6, "0")}.blob`);
      expect(f.kind).toBe("blob");
      expect(f.blob).toEqual({ count: blob.totalBlobCount, bytes: blob.totalBlobBytes });
      // Header (30 bytes), the records, footer (32 bytes).
      expect(BigInt(f.bytes)).toBe(30n + blob.totalBlobBytes + 32n);
    }
  });

  test("one thread and two agree, and progress reaches every byte", async () => {
    const db = await sf.openDatabase(ROCKS);
    const seen: number[] = [];
    const one = await db.verify({ jobs: 1 });
    const two = await db.verify({ jobs: 2, onProgress: (p) => seen.push(p.bytesDone / p.bytesTotal) });
    expect(one.jobs).toBe(1);
    expect(two.jobs).toBe(2);
    const summary = (r: DatabaseVerifyReport): unknown =>
      r.files.map((f) => [f.name, f.status, f.bytes, f.table?.keys, f.table?.dataBlocks, f.log?.records]);
    expect(summary(two)).toEqual(summary(one));
    expect(seen.at(-1)).toBe(1);
  });
});

describe("damage is reported for the damaged file, the others still verified", () => {
  test("a flipped bit in a table's data block: CHECKSUM_MISMATCH at the block ldb scan names", async () => {
    const dir = copyOf(ROCKS, "table-bit");
    const victim = rocksLiveTables(dir)[1]!;
    flipByte(path.join(dir, victim), 5000);
    const scan = tool("ldb", [`--db=${dir}`, "scan"]);
    const named = /checksum mismatch.* in (\S+) offset (\d+) size/.exec(scan.out);
    expect(named?.[1]).toBe(path.join(dir, victim));
    for (const jobs of [1, 2]) {
      const report = await sf.verifyDatabase(dir, { jobs });
      const bad = fileOf(report, victim);
      expect({ jobs, code: bad.error?.code, offset: bad.error?.offset, file: bad.error?.file }).toEqual({
        jobs,
        code: "CHECKSUM_MISMATCH",
        offset: Number(named![2]),
        file: victim,
      });
      othersGood(report, victim);
    }
  });

  test("a truncated table: TRUNCATED at its size, RocksDB refusing it too", async () => {
    const dir = copyOf(ROCKS, "table-cut");
    const victim = rocksLiveTables(dir)[0]!;
    truncateSync(path.join(dir, victim), 1000);
    expect(tool("ldb", [`--db=${dir}`, "scan"]).out).toMatch(new RegExp(`Corruption: .*${victim}`));
    const report = await (await sf.openDatabase(dir)).verify();
    const bad = fileOf(report, victim);
    expect([bad.error?.code, bad.error?.offset]).toEqual(["TRUNCATED", 1000]);
    expect(bad.error?.message).toMatch(/the file has 1000 bytes, the MANIFEST records \d+/);
    othersGood(report, victim);
  });

  test("a flipped bit in a WAL: CHECKSUM_MISMATCH at that fragment, as ldb dump_wal finds", async () => {
    // A WAL of known size: RocksDB reopening the copy flushes the WALs db_bench left, then logs one
    // batch of 20 values of 3,000 bytes (a record over two 32 KiB blocks) to a new one.
    const dir = copyOf(ROCKS, "wal-bit");
    const values = Array.from({ length: 20 }, (_, i) => [`wal-key-${i}`, "v".repeat(3000)]).flat();
    expect(tool("ldb", [`--db=${dir}`, "batchput", ...values]).code).toBe(0);
    const db = await sf.openDatabase(dir);
    const wal = (await db.verify()).files
      .filter((r) => r.kind === "wal")
      .sort((a, b) => b.bytes - a.bytes)[0]!;
    expect(wal.bytes).toBeGreaterThan(60000);
    const file = path.join(dir, wal.name);
    const at = 32768 + 7 + 3; // inside the payload of the fragment that opens the second block
    const fragment = fragmentAt(readFileSync(file), at);
    expect(fragment).toBe(32768);
    flipByte(file, at);
    expect(tool("ldb", ["dump_wal", `--walfile=${file}`]).out).toMatch(/checksum mismatch/);
    const report = await db.verify();
    const bad = fileOf(report, wal.name);
    expect([bad.error?.code, bad.error?.offset]).toEqual(["CHECKSUM_MISMATCH", fragment]);
    othersGood(report, wal.name);
  });

  test("a flipped bit in a blob: CHECKSUM_MISMATCH at its record, as ldb get finds", async () => {
    const dir = copyOf(BLOBS, "blob-bit");
    const name = readdirSync(dir).find((n) => n.endsWith(".blob"))!;
    const file = path.join(dir, name);
    const bytes = readFileSync(file);
    // The first record: at 30, its key (key size u64 at 30) from 62, its blob after the key.
    const keySize = Number(bytes.readBigUInt64LE(30));
    const key = bytes.subarray(62, 62 + keySize).toString("hex");
    flipByte(file, 62 + keySize + 5);
    expect(tool("ldb", [`--db=${copyOf(dir, "blob-bit-ldb")}`, "get", "--key_hex", `0x${key}`]).out).toMatch(
      /Corruption: Blob CRC mismatch/,
    );
    const report = await sf.verifyDatabase(dir);
    const bad = fileOf(report, name);
    expect([bad.error?.code, bad.error?.offset]).toEqual(["CHECKSUM_MISMATCH", 30]);
    othersGood(report, name);
  });

  test("a write batch whose count disagrees (its checksum made good): CORRUPT at the count, as RocksDB's recovery refuses it", async () => {
    const dir = copyOf(ROCKS, "wal-count");
    // Reopening flushes db_bench's WALs; the put goes alone into a new one: a 7-byte header, then
    // the batch (sequence u64, count u32, one put).
    expect(tool("ldb", [`--db=${dir}`, "put", "count-key", "count-value"]).code).toBe(0);
    const db = await sf.openDatabase(dir);
    const [wal] = await db.writeAheadLogs();
    expect(wal?.batches).toHaveLength(1);
    const file = path.join(dir, wal!.name);
    const bytes = readFileSync(file);
    bytes.writeUInt32LE(2, 7 + 8);
    bytes.writeUInt32LE(sf.hash.crc32cMask(sf.hash.crc32c(bytes.subarray(6))), 0);
    writeFileSync(file, bytes);
    expect(tool("ldb", ["dump_wal", `--walfile=${file}`]).out).toMatch(/WriteBatch has wrong count/);
    const report = await sf.verifyDatabase(dir);
    const bad = fileOf(report, wal!.name);
    expect([bad.error?.code, bad.error?.offset]).toEqual(["CORRUPT", 7 + 8]);
    expect(bad.error?.message).toMatch(/count 2 in the header, 1 records/);
    othersGood(report, wal!.name);
  });

  test("a blob file whose header names another column family, or TTL: CORRUPT, as BlobFileReader refuses it", async () => {
    for (const [what, offset, value, message] of [
      ["cf", 8, 7, /header names column family 7, the MANIFEST lists it under 0/],
      ["ttl flag", 12, 1, /TTL blob file/],
      ["expiration range", 20, 1, /TTL blob file/],
    ] as const) {
      const dir = copyOf(BLOBS, `blob-${what}`);
      const name = readdirSync(dir).find((n) => n.endsWith(".blob"))!;
      const file = path.join(dir, name);
      // The header (docs/FORMATS.md 6.7): magic, version, column family id u32 at 8, flags at 12
      // (bit 0: has TTL), compression at 13, the expiration range (two u64) from 14; no checksum
      // covers it.
      const bytes = readFileSync(file);
      bytes[offset] = value;
      writeFileSync(file, bytes);
      const report = await sf.verifyDatabase(dir);
      const bad = fileOf(report, name);
      expect([what, bad.error?.code, bad.error?.offset]).toEqual([what, "CORRUPT", 0]);
      expect(bad.error?.message).toMatch(message);
      othersGood(report, name);
    }
  });

  test("a log named past 2^64 is no file of the database, as ParseFileName has it", async () => {
    const dir = copyOf(ROCKS, "wal-huge-name");
    const live = (await (await sf.openDatabase(dir)).writeAheadLogs()).map((w) => w.name);
    cpSync(path.join(dir, live[0]!), path.join(dir, "99999999999999999999999.log"));
    const db = await sf.openDatabase(dir);
    expect((await db.writeAheadLogs()).map((w) => w.name)).toEqual(live);
    const report = await db.verify();
    expect(report.files.map((f) => f.name)).not.toContain("99999999999999999999999.log");
    expect(report.ok).toBe(true);
  });

  test("a live table missing from the folder: TRUNCATED for get as for verify", async () => {
    const dir = copyOf(ROCKS, "table-missing");
    const deepest = (await sf.openDatabase(dir)).levels.filter((l) => l.files.length > 0).pop()!;
    const file = deepest.files[0]!;
    rmSync(path.join(dir, file.name));
    const db = await sf.openDatabase(dir);
    await expect(db.openTable(file)).rejects.toMatchObject({ code: "TRUNCATED", file: file.name });
    await expect(db.openTable("nope.sst")).rejects.toMatchObject({ code: "BAD_OPTIONS" });
    expect(fileOf(await db.verify(), file.name).error?.code).toBe("TRUNCATED");
  });

  test("a torn WAL tail is reported, not an error", async () => {
    const dir = copyOf(ROCKS, "wal-torn");
    const db = await sf.openDatabase(dir);
    const wal = (await db.verify()).files.find((r) => r.kind === "wal" && r.bytes > 100)!;
    truncateSync(path.join(dir, wal.name), wal.bytes - 3);
    const report = await db.verify();
    const torn = fileOf(report, wal.name);
    expect(torn.status).toBe("ok");
    expect(torn.log?.end.kind).toBe("torn");
    expect(report.ok).toBe(true);
  });

  test("a flipped bit in the MANIFEST: that file's CHECKSUM_MISMATCH, every table and log still verified", async () => {
    const dir = copyOf(ROCKS, "manifest-bit");
    const manifest = readdirSync(dir).find((n) => n.startsWith("MANIFEST-"))!;
    const file = path.join(dir, manifest);
    const bytes = readFileSync(file);
    // A payload byte of the record in the middle (a flipped length could read as a torn tail).
    const fragment = fragmentAt(bytes, Math.floor(bytes.length / 2));
    flipByte(file, fragment + 7 + 1);
    expect(tool("ldb", [`--db=${dir}`, "scan"]).out).toMatch(/Corruption: checksum mismatch/);
    await expect(sf.openDatabase(dir)).rejects.toMatchObject({ code: "CHECKSUM_MISMATCH", file: manifest });
    const report = await sf.verifyDatabase(dir);
    expect(report.filesFrom).toBe("directory");
    const bad = report.files[0]!;
    expect([bad.name, bad.kind, bad.error?.code, bad.error?.offset]).toEqual([
      manifest,
      "manifest",
      "CHECKSUM_MISMATCH",
      fragment,
    ]);
    othersGood(report, manifest);
    // Every table present, live or not, and every log.
    expect(tablesIn(report)).toEqual(
      readdirSync(dir)
        .filter((n) => n.endsWith(".sst"))
        .sort(),
    );
    expect(report.files.filter((r) => r.kind === "wal").length).toBe(
      readdirSync(dir).filter((n) => n.endsWith(".log")).length,
    );
  });
});

describe("abort", () => {
  test("an abort signal stops the verification with its reason", async () => {
    const db = await sf.openDatabase(ROCKS);
    const controller = new AbortController();
    const reason = new Error("stop here");
    const verifying = db.verify({
      jobs: 2,
      signal: controller.signal,
      onProgress: () => controller.abort(reason),
    });
    await expect(verifying).rejects.toBe(reason);
    const already = new AbortController();
    already.abort(reason);
    await expect(db.verify({ signal: already.signal })).rejects.toBe(reason);
  });

  test("bad options are BAD_OPTIONS", async () => {
    const db = await sf.openDatabase(ROCKS);
    await expect(db.verify({ jobs: 0 })).rejects.toMatchObject({ code: "BAD_OPTIONS" });
  });
});

describe("sstfilter db verify", () => {
  const cli = (...args: string[]): { code: number | null; stdout: string } => {
    const r = spawnSync(process.execPath, [CLI, "db", "verify", ...args], { encoding: "utf8" });
    return { code: r.status, stdout: r.stdout };
  };

  test("a sound database: exit 0; --json lists every file", () => {
    const text = cli(ROCKS);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/: ok\n/);
    const json = cli(LEVEL, "--json", "--jobs", "2");
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      ok: boolean;
      jobs: number;
      files: { kind: string; status: string }[];
    };
    expect(parsed.ok).toBe(true);
    expect(parsed.jobs).toBe(2);
    expect(parsed.files.filter((f) => f.kind === "table").length).toBeGreaterThan(1);
  });

  test("a damaged table: exit 1, the file listed with its code and offset", () => {
    const dir = copyOf(ROCKS, "cli-table-bit");
    const victim = rocksLiveTables(dir)[0]!;
    flipByte(path.join(dir, victim), 100);
    const r = cli(dir, "--jobs", "1");
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(`${victim} \\(table, .*\\): CHECKSUM_MISMATCH: .*\\(at byte \\d+\\)`),
    );
  });

  test("usage errors: exit 2", () => {
    expect(cli(ROCKS, "--jobs", "0").code).toBe(2);
    expect(cli().code).toBe(2);
  });
});
