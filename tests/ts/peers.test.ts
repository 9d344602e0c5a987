// Real databases as peers: RocksDB (rocksdb-native, which bundles RocksDB 10.5.1) and LevelDB
// (classic-level) write tables; sstfilter opens every one and must agree with them: every key may
// match, the filter rebuilt from the table's keys equals the stored bytes, and for absent keys
// sstfilter's answer equals RocksDB's own (read from its statistics around each Get).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { ClassicLevel } from "classic-level";
import type { AsyncTable, BuildOptions, NodeSstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { blockEntries, blockHandle, bytesEqual, firstDifference } from "./golden";

// rocksdb-native is CommonJS with `module.exports = RocksDB` (types: rocksdb-native.d.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RocksDB = require("rocksdb-native") as typeof import("rocksdb-native");
type RocksDB = InstanceType<typeof RocksDB>;

interface RocksConfig {
  formatVersion: number;
  policy: "bloom" | "ribbon";
  bitsPerKey: number;
  blockSize: number;
}

// format_version 2 through 7, Bloom and Ribbon at several bits per key, several block sizes.
const ROCKS_CONFIGS: RocksConfig[] = [
  { formatVersion: 2, policy: "bloom", bitsPerKey: 10, blockSize: 4096 },
  { formatVersion: 3, policy: "bloom", bitsPerKey: 6, blockSize: 1024 },
  { formatVersion: 4, policy: "bloom", bitsPerKey: 16, blockSize: 16384 },
  { formatVersion: 5, policy: "bloom", bitsPerKey: 10, blockSize: 4096 },
  { formatVersion: 5, policy: "ribbon", bitsPerKey: 8, blockSize: 2048 },
  { formatVersion: 6, policy: "bloom", bitsPerKey: 3.5, blockSize: 8192 },
  { formatVersion: 6, policy: "ribbon", bitsPerKey: 12, blockSize: 4096 },
  { formatVersion: 7, policy: "bloom", bitsPerKey: 20, blockSize: 512 },
  { formatVersion: 7, policy: "ribbon", bitsPerKey: 10, blockSize: 16384 },
];
const NUM_KEYS = 3000;
const ABSENT_PROBES = 250;

function key(i: number, salt: string): Buffer {
  // Mixed lengths and bytes >= 0x80, so hash tails and sign extension matter.
  return Buffer.concat([
    Buffer.from(`${salt}${(i * 7919) % 100003}`),
    Buffer.from([i & 0xff, 0x80 | (i % 7)]),
  ]);
}

function tableFiles(dir: string, ext: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => path.join(dir, f));
}

async function allKeys(t: AsyncTable): Promise<Uint8Array[]> {
  const keys: Uint8Array[] = [];
  for await (const k of t.keys()) keys.push(k);
  return keys;
}

/** RocksDB's own tickers, read through getProperty("rocksdb.options-statistics"). */
async function bloomTickers(db: RocksDB): Promise<{ useful: number; positive: number }> {
  const stats = String(await db.getProperty("rocksdb.options-statistics"));
  const count = (name: string): number =>
    Number(new RegExp(`${name.replace(/\./g, "\\.")} COUNT : (\\d+)`).exec(stats)![1]);
  return {
    useful: count("rocksdb.bloom.filter.useful"),
    positive: count("rocksdb.bloom.filter.full.positive"),
  };
}

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(BACKENDS)("real databases as peers on $name", ({ name, simd }) => {
  let sf: NodeSstFilter;
  beforeAll(async () => {
    sf = (await loadBackend(simd)) as NodeSstFilter;
  });

  test.each(ROCKS_CONFIGS)(
    "RocksDB fv$formatVersion $policy $bitsPerKey bits/key, blocks of $blockSize",
    async (config) => {
      const dir = mkdtempSync(path.join(tmpdir(), "sstfilter-rocksdb-"));
      tmpDirs.push(dir);
      const filterPolicy =
        config.policy === "bloom"
          ? new RocksDB.BloomFilterPolicy(config.bitsPerKey)
          : new RocksDB.RibbonFilterPolicy(config.bitsPerKey, -1); // Ribbon at every level
      const db = new RocksDB(dir, {
        enableStatistics: true,
        tableFormatVersion: config.formatVersion,
        tableBlockSize: config.blockSize,
        filterPolicy,
      });
      await db.ready();
      try {
        const write = db.write({ autoDestroy: true }); // a batch left alive blocks close()
        for (let i = 0; i < NUM_KEYS; i++) write.put(key(i, "k"), Buffer.from([i & 0xff]));
        await write.flush();
        await db.flush();
        const files = tableFiles(dir, ".sst");
        expect(files).toHaveLength(1);
        const t = await sf.openTableFile(files[0]!);
        try {
          expect(t.format).toBe("rocksdb");
          expect(t.footer.formatVersion).toBe(config.formatVersion);
          const kind =
            config.policy === "ribbon"
              ? "rocksdb-ribbon"
              : config.formatVersion >= 5
                ? "rocksdb-bloom"
                : "rocksdb-legacy-bloom";
          expect(t.filter?.kind).toBe(kind);
          const keys = await allKeys(t);
          expect(keys).toHaveLength(NUM_KEYS);
          expect((await t.mayContainMany(keys)).every((a) => a === 1)).toBe(true);

          // The filter sstfilter builds from the table's keys is the filter in the file.
          const format: BuildOptions["format"] =
            config.policy === "ribbon"
              ? "rocksdb-ribbon"
              : config.formatVersion >= 5
                ? "rocksdb-bloom"
                : "rocksdb-legacy-bloom";
          const built = sf.buildFilter(keys, { format, bitsPerKey: config.bitsPerKey });
          const [stored] = await t.filterBytes();
          if (!bytesEqual(built, stored!)) {
            throw new Error(
              `${name} ${JSON.stringify(config)}: built filter differs at byte ${firstDifference(built, stored!)}`,
            );
          }

          // Absent keys: RocksDB's answer from its tickers (one L0 file: the filter is always consulted).
          let before = await bloomTickers(db);
          let positives = 0;
          for (let i = 0; i < ABSENT_PROBES; i++) {
            const probe = key(i, "absent-");
            expect(await db.get(probe)).toBeNull();
            const after = await bloomTickers(db);
            const rocks = after.useful > before.useful ? 0 : after.positive > before.positive ? 1 : -1;
            before = after;
            const ours = (await t.mayContain(probe)) ? 1 : 0;
            if (rocks !== ours)
              throw new Error(
                `${JSON.stringify(config)} absent probe ${i}: RocksDB ${rocks}, sstfilter ${ours}`,
              );
            positives += ours;
          }
          expect(positives).toBeLessThan(ABSENT_PROBES / 2);
        } finally {
          t.dispose();
        }
      } finally {
        await db.close();
      }
    },
  );

  test("LevelDB (classic-level): every key may match, the filter block is rebuilt byte for byte", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sstfilter-leveldb-"));
    tmpDirs.push(dir);
    const db = new ClassicLevel<Buffer, Buffer>(dir, {
      keyEncoding: "buffer",
      valueEncoding: "buffer",
      compression: false,
    });
    await db.open();
    const inserted: Buffer[] = [];
    for (let i = 0; i < NUM_KEYS; i++) inserted.push(key(i, "l"));
    await db.batch(inserted.map((k) => ({ type: "put" as const, key: k, value: Buffer.from("v") })));
    await db.compactRange(Buffer.alloc(0), Buffer.alloc(64, 0xff));
    await db.close();
    const files = tableFiles(dir, ".ldb");
    expect(files.length).toBeGreaterThan(0);
    let total = 0;
    for (const file of files) {
      const t = await sf.openTableFile(file);
      try {
        expect(t.format).toBe("leveldb");
        const keys = await allKeys(t);
        total += keys.length;
        expect((await t.mayContainMany(keys)).every((a) => a === 1)).toBe(true);
        // Rebuild the filter block from the data blocks (uncompressed: the test oracle reads them).
        const bytes = new Uint8Array(await (await import("node:fs/promises")).readFile(file));
        const [indexOffset, indexSize] = t.footer.indexHandle;
        const blocks = blockEntries(bytes.subarray(indexOffset, indexOffset + indexSize)).map(({ value }) => {
          const h = blockHandle(value);
          const entries = blockEntries(bytes.subarray(h.offset, h.offset + h.size));
          return { offset: h.offset, keys: entries.map((e) => e.key.subarray(0, e.key.length - 8)) };
        });
        const rebuilt = sf.buildLevelDbFilterBlock(blocks, 10);
        expect(bytesEqual(rebuilt, (await t.filterBytes())[0]!)).toBe(true);
      } finally {
        t.dispose();
      }
    }
    expect(total).toBe(NUM_KEYS);
  });
});
