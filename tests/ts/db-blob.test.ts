// db.get over values in blob files (ts/api/db-blob.ts, cpp/db/blob_file.cc ReadBlobValue,
// docs/FORMATS.md 6.7) on databases RocksDB 7.8.3's db_bench writes here with integrated BlobDB:
// blobs uncompressed, Snappy and LZ4, values above and below min_blob_size (inline in the tables),
// a WAL left unflushed. Ground truth from RocksDB itself: `ldb scan --hex` on a copy lists every
// key with the value DB::Get returns (its iterator reads the same blobs), `ldb get --hex` prints
// what `sstfilter db get --hex` prints for a sample and an absent key; a flipped byte in a blob
// is "Blob CRC mismatch" for `ldb get`, and for us CHECKSUM_MISMATCH naming the blob file.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { init, type NodeSstFilter } from "sstfilter";
import { CLI } from "./cli-path";

const work = mkdtempSync(path.join(tmpdir(), "sstfilter-db-blob-"));
let sf: NodeSstFilter;

function tool(cmd: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.error !== undefined) throw r.error;
  return { code: r.status, out: r.stdout + r.stderr };
}

const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h.replace(/^0x/, ""), "hex"));
const hexOf = (b: Uint8Array): string => Buffer.from(b).toString("hex").toUpperCase();

// Each database: db_bench fillrandom with blob files; `compression` for its blobs; values of 20 to
// 400 bytes against min_blob_size 200, so about half stay inline.
const DATABASES = [
  { id: "blobs-none", compression: "none" },
  { id: "blobs-snappy", compression: "snappy" },
  { id: "blobs-lz4", compression: "lz4" },
] as const;

/** What `ldb scan --hex` lists on a copy of `dir` ("0xKEY : 0xVALUE" lines): key hex to value hex. */
function ldbScan(dir: string, name: string): Map<string, string> {
  const copy = path.join(work, `${name}-ldb`);
  cpSync(dir, copy, { recursive: true });
  rmSync(path.join(copy, "LOCK"), { force: true });
  const { code, out } = tool("ldb", [`--db=${copy}`, "scan", "--hex"]);
  expect(code).toBe(0);
  const pairs = new Map<string, string>();
  for (const line of out.split("\n")) {
    const m = /^0x([0-9A-F]*) : 0x([0-9A-F]*)$/.exec(line);
    if (m !== null) pairs.set(m[1]!, m[2]!);
  }
  return pairs;
}

beforeAll(async () => {
  sf = (await init()) as NodeSstFilter;
  for (const d of DATABASES) {
    const r = tool("db_bench", [
      "--benchmarks=fillrandom",
      "--num=3000",
      "--key_size=16",
      "--value_size=400",
      "--value_size_distribution_type=uniform",
      "--value_size_min=20",
      "--value_size_max=400",
      "--enable_blob_files=1",
      "--min_blob_size=200",
      `--blob_compression_type=${d.compression}`,
      "--write_buffer_size=131072",
      "--seed=7",
      `--db=${path.join(work, d.id)}`,
    ]);
    expect(r.code).toBe(0);
  }
}, 300000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(DATABASES)("$id", (d) => {
  const dir = () => path.join(work, d.id);

  test("every key: db.get equals what RocksDB reads (ldb scan --hex), blobs and inline values alike", async () => {
    const expected = ldbScan(dir(), d.id);
    expect(expected.size).toBeGreaterThan(1000);
    const db = await sf.openDatabase(dir());
    expect(db.columnFamilies[0]!.blobFiles.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    let fromBlobs = 0;
    for (const [key, value] of expected) {
      const explanation = await db.explainGet(fromHex(key));
      const ours = explanation.result.value === null ? null : hexOf(explanation.result.value);
      if (ours !== value) wrong.push(`key ${key}: ours ${ours ?? "not found"}, RocksDB ${value}`);
      if (explanation.steps.some((s) => s.blobFile !== undefined)) fromBlobs++;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // About half the values are at least min_blob_size: those were read from blob files.
    expect(fromBlobs).toBeGreaterThan(expected.size / 4);
    expect(fromBlobs).toBeLessThan(expected.size);
    db.dispose();
  });

  test("db.scan with values read lists what ldb scan --hex lists, blob indexes read from their files", async () => {
    const expected = [...ldbScan(dir(), `${d.id}-scan`)].map(([key, value]) => `${key}=${value}`);
    const db = await sf.openDatabase(dir());
    try {
      const ours: string[] = [];
      let blobIndexes = 0;
      for await (const r of db.scan({ values: "read" })) {
        ours.push(`${hexOf(r.key)}=${hexOf(r.value)}`);
        if (r.type === "blob-index") blobIndexes++;
      }
      expect(blobIndexes).toBeGreaterThan(0);
      expect(ours).toEqual(expected);
    } finally {
      db.dispose();
    }
  });

  test("sstfilter db get --hex prints what ldb get --hex prints, for blob values too", () => {
    const copy = path.join(work, `${d.id}-get`);
    cpSync(dir(), copy, { recursive: true });
    rmSync(path.join(copy, "LOCK"), { force: true });
    const keys = [...ldbScan(dir(), `${d.id}-keys`).keys()].filter((_, i) => i % 300 === 0);
    expect(keys.length).toBeGreaterThanOrEqual(5);
    for (const key of [...keys, "00"]) {
      const ldb = spawnSync("ldb", [`--db=${copy}`, "get", `0x${key}`, "--hex"], { encoding: "utf8" });
      const ours = spawnSync(process.execPath, [CLI, "db", "get", dir(), `0x${key}`, "--hex"], {
        encoding: "utf8",
      });
      expect([key, ours.stdout, ours.stderr, ours.status]).toEqual([key, ldb.stdout, ldb.stderr, ldb.status]);
    }
  });

  test("a flipped byte in a blob: CHECKSUM_MISMATCH naming the blob file, as ldb get finds", async () => {
    const copy = path.join(work, `${d.id}-flipped`);
    cpSync(dir(), copy, { recursive: true });
    rmSync(path.join(copy, "LOCK"), { force: true });
    const name = readdirSync(copy).find((n) => n.endsWith(".blob"))!;
    const file = path.join(copy, name);
    const bytes = readFileSync(file);
    // The first record whose key's Get reads this file (others were overwritten since): records
    // from 30 on, each a 32-byte header (key size u64, value size u64, ...), the key, the blob.
    const db = await sf.openDatabase(copy);
    let at = 30;
    let key: Uint8Array | null = null;
    while (key === null && at + 32 < bytes.length - 32) {
      const keySize = Number(bytes.readBigUInt64LE(at));
      const valueSize = Number(bytes.readBigUInt64LE(at + 8));
      const candidate = new Uint8Array(bytes.subarray(at + 32, at + 32 + keySize));
      if ((await db.explainGet(candidate)).steps.some((s) => s.blobFile === name)) key = candidate;
      else at += 32 + keySize + valueSize;
    }
    expect(key === null ? `no record of ${name} is read by its Get` : hexOf(key)).toMatch(/^([0-9A-F]{2})+$/);
    bytes[at + 32 + key!.length + 3]! ^= 0x10;
    writeFileSync(file, bytes);
    const damaged = await sf.openDatabase(copy);
    await expect(damaged.get(key!)).rejects.toMatchObject({
      code: "CHECKSUM_MISMATCH",
      file: name,
      offset: at,
    });
    damaged.dispose();
    db.dispose();
    const ldbCopy = path.join(work, `${d.id}-flipped-ldb`);
    cpSync(copy, ldbCopy, { recursive: true });
    expect(tool("ldb", [`--db=${ldbCopy}`, "get", "--key_hex", `0x${hexOf(key!)}`]).out).toMatch(
      /Corruption: Blob CRC mismatch/,
    );
  });
});
