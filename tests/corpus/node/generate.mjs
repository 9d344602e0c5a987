// @ts-check
// node tests/corpus/node/generate.mjs <output folder>: the part of the test corpus that npm's
// database packages write (tests/corpus/README.md): tables of rocksdb-native (RocksDB 10.x, every
// format_version it writes, 2 to 7) with RocksDB's own answer for every probe, read off its
// statistics around each Get, and tables of classic-level (LevelDB). One section, "node_tables".
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  copyFileSync,
  mkdtempSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { ClassicLevel } from "classic-level";

import { databaseCases } from "./databases.mjs";
import { getCases } from "./get-databases.mjs";
import { walCases } from "./wal.mjs";

const require = createRequire(import.meta.url);
/** @type {any} rocksdb-native is CommonJS and ships no types. */
const RocksDB = require("rocksdb-native");

const out = process.argv[2];
if (!out) {
  console.error("usage: node tests/corpus/node/generate.mjs <output folder>");
  process.exit(2);
}

const NUM_KEYS = 3000;
const ABSENT = 1500;

/** @typedef {{ id: string, formatVersion: number, policy: "bloom" | "ribbon", bitsPerKey: number, blockSize: number, shape: "mixed" | "decimal" | "binary" }} RocksConfig */
/** @type {RocksConfig[]} */
const ROCKS_CONFIGS = [
  {
    id: "rn_fv2_bloom10_bs4096",
    formatVersion: 2,
    policy: "bloom",
    bitsPerKey: 10,
    blockSize: 4096,
    shape: "mixed",
  },
  {
    id: "rn_fv3_bloom6_bs1024",
    formatVersion: 3,
    policy: "bloom",
    bitsPerKey: 6,
    blockSize: 1024,
    shape: "binary",
  },
  {
    id: "rn_fv4_bloom16_bs16384",
    formatVersion: 4,
    policy: "bloom",
    bitsPerKey: 16,
    blockSize: 16384,
    shape: "mixed",
  },
  {
    id: "rn_fv5_bloom10_bs4096",
    formatVersion: 5,
    policy: "bloom",
    bitsPerKey: 10,
    blockSize: 4096,
    shape: "decimal",
  },
  {
    id: "rn_fv5_ribbon8_bs2048",
    formatVersion: 5,
    policy: "ribbon",
    bitsPerKey: 8,
    blockSize: 2048,
    shape: "mixed",
  },
  {
    id: "rn_fv6_bloom3p5_bs8192",
    formatVersion: 6,
    policy: "bloom",
    bitsPerKey: 3.5,
    blockSize: 8192,
    shape: "binary",
  },
  {
    id: "rn_fv6_ribbon12_bs4096",
    formatVersion: 6,
    policy: "ribbon",
    bitsPerKey: 12,
    blockSize: 4096,
    shape: "mixed",
  },
  {
    id: "rn_fv7_bloom20_bs512",
    formatVersion: 7,
    policy: "bloom",
    bitsPerKey: 20,
    blockSize: 512,
    shape: "decimal",
  },
  {
    id: "rn_fv7_ribbon10_bs16384",
    formatVersion: 7,
    policy: "ribbon",
    bitsPerKey: 10,
    blockSize: 16384,
    shape: "binary",
  },
  {
    id: "rn_fv7_bloom10_bs256",
    formatVersion: 7,
    policy: "bloom",
    bitsPerKey: 10,
    blockSize: 256,
    shape: "mixed",
  },
];

/** splitmix64, as tests/corpus/native: the same keys on every run. @param {bigint} seed */
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
  };
}

/** @param {string} id */
function seedOf(id) {
  let h = 0xcbf29ce484222325n;
  for (const c of Buffer.from(id)) h = ((h ^ BigInt(c)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

/** One key of a shape: mixed lengths and bytes >= 0x80, decimal text, or random binary.
 * @param {RocksConfig["shape"]} shape @param {() => bigint} next */
function oneKey(shape, next) {
  const r = next();
  if (shape === "decimal") return Buffer.from(String(r % 10_000_000_000n));
  const length = 1 + Number(r % 24n);
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++)
    bytes[i] = Number((next() >> 56n) & 0xffn) | (shape === "mixed" && i % 3 === 0 ? 0x80 : 0);
  return bytes;
}

/** Distinct keys, sorted bytewise, and absent keys of the same shape.
 * @param {string} id @param {RocksConfig["shape"]} shape */
function keySets(id, shape) {
  const next = random(seedOf(id));
  const seen = new Set();
  const take = () => {
    for (;;) {
      const k = oneKey(shape, next);
      const hex = k.toString("hex");
      if (!seen.has(hex)) {
        seen.add(hex);
        return k;
      }
    }
  };
  const keys = Array.from({ length: NUM_KEYS }, take).sort(Buffer.compare);
  const absent = Array.from({ length: ABSENT }, take);
  return { keys, absent };
}

/** @param {Buffer[]} keys */
function keysFile(keys) {
  return Buffer.concat(
    keys.flatMap((k) => {
      const n = Buffer.alloc(4);
      n.writeUInt32LE(k.length);
      return [n, k];
    }),
  );
}

/** @param {string} relative @param {Uint8Array | string} data */
function write(relative, data) {
  const file = path.join(out, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
  return relative;
}

/** RocksDB's own tickers, read through getProperty("rocksdb.options-statistics"). @param {any} db */
async function bloomTickers(db) {
  const stats = String(await db.getProperty("rocksdb.options-statistics"));
  /** @param {string} name */
  const count = (name) => Number(new RegExp(`${name.replace(/\./g, "\\.")} COUNT : (\\d+)`).exec(stats)?.[1]);
  return {
    useful: count("rocksdb.bloom.filter.useful"),
    positive: count("rocksdb.bloom.filter.full.positive"),
  };
}

/** @param {string} dir @param {string} ext */
function filesWith(dir, ext) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => path.join(dir, f));
}

/** The RocksDB version rocksdb-native bundles, as its OPTIONS file records it. @param {string} dir */
function rocksdbVersion(dir) {
  const options = filesWith(dir, "").find((f) => path.basename(f).startsWith("OPTIONS-"));
  return options
    ? (/rocksdb_version=([\d.]+)/.exec(readFileSync(options, "utf8"))?.[1] ?? "unknown")
    : "unknown";
}

const scratch = mkdtempSync(path.join(tmpdir(), "sstfilter-corpus-"));
rmSync(out, { recursive: true, force: true });
const cases = [];
/** @type {Awaited<ReturnType<typeof databaseCases>>} */
let dbCases = [];
/** @type {Awaited<ReturnType<typeof getCases>>} */
let getDbCases = [];
/** @type {Awaited<ReturnType<typeof walCases>>} */
let walCasesWritten = [];
let bundledRocksdb = "unknown";
try {
  for (const config of ROCKS_CONFIGS) {
    const dir = path.join(scratch, config.id);
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
    const { keys, absent } = keySets(config.id, config.shape);
    const probes = [...keys.filter((_, i) => i % 3 === 0), ...absent];
    const isKey = Uint8Array.from(probes, (_, i) => (i < Math.ceil(keys.length / 3) ? 1 : 0));
    const answers = new Uint8Array(probes.length);
    try {
      const batch = db.write({ autoDestroy: true }); // a batch left alive blocks close()
      keys.forEach((k, i) => batch.put(k, Buffer.from([i & 0xff])));
      await batch.flush();
      await db.flush();
      const tables = filesWith(dir, ".sst");
      if (tables.length !== 1)
        throw new Error(`${config.id}: expected one table file, found ${tables.length}`);
      // One L0 file: RocksDB consults its filter for every Get, in range or not.
      let before = await bloomTickers(db);
      for (let i = 0; i < probes.length; i++) {
        await db.get(probes[i]);
        const after = await bloomTickers(db);
        answers[i] = after.useful > before.useful ? 0 : after.positive > before.positive ? 1 : 2;
        if (isKey[i] && answers[i] === 0) throw new Error(`${config.id}: RocksDB said no for key ${i}`);
        before = after;
      }
      bundledRocksdb = rocksdbVersion(dir);
      const folder = `node-tables/${config.id}`;
      mkdirSync(path.join(out, folder), { recursive: true });
      copyFileSync(tables[0], path.join(out, folder, "table.sst"));
      cases.push({
        id: config.id,
        database: "rocksdb",
        writer: "rocksdb-native: a batch of Puts, then flush() to one L0 file; answers from that DB",
        options: {
          format_version: config.formatVersion,
          filter_policy: config.policy === "bloom" ? "bloom" : "ribbon (bloom_before_level -1)",
          bits_per_key: config.bitsPerKey,
          block_size: config.blockSize,
        },
        file: { path: `${folder}/table.sst` },
        keys: { path: write(`${folder}/keys.keys`, keysFile(keys)), count: keys.length },
        probes: { path: write(`${folder}/probes.keys`, keysFile(probes)), count: probes.length },
        probe_is_key: write(`${folder}/probe_is_key.u8`, isKey),
        get_results: write(`${folder}/get_results.u8`, answers),
      });
    } finally {
      await db.close();
    }
  }

  // classic-level exposes no statistics: its tables come with their keys, and the tests check
  // that every key may match and that the filter block rebuilt from the keys is LevelDB's.
  for (const [id, bitsPerKey] of [["cl_default", 10]]) {
    const dir = path.join(scratch, String(id));
    const db = new ClassicLevel(dir, { keyEncoding: "buffer", valueEncoding: "buffer", compression: false });
    await db.open();
    const { keys } = keySets(String(id), "mixed");
    await db.batch(keys.map((k) => ({ type: "put", key: k, value: Buffer.from("v") })));
    await db.compactRange(Buffer.alloc(0), Buffer.alloc(64, 0xff));
    await db.close();
    const folder = `node-tables/${id}`;
    const tables = filesWith(dir, ".ldb").sort();
    mkdirSync(path.join(out, folder), { recursive: true });
    cases.push({
      id,
      database: "leveldb",
      writer: "classic-level: a batch of Puts, then compactRange over every key",
      options: { bits_per_key: bitsPerKey, compression: false },
      files: tables.map((file, i) => {
        copyFileSync(file, path.join(out, folder, `table-${i}.ldb`));
        return { path: `${folder}/table-${i}.ldb` };
      }),
      keys: { path: write(`${folder}/keys.keys`, keysFile(keys)), count: keys.length },
    });
  }
  dbCases = await databaseCases(out, scratch);
  getDbCases = await getCases(out, scratch);
  walCasesWritten = await walCases(out, scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

// The packages' own package.json (their "exports" do not expose it to require).
const pkg = (/** @type {string} */ name) =>
  JSON.parse(readFileSync(path.join(path.dirname(require.resolve(name)), "package.json"), "utf8")).version;
write(
  "node-tables/manifest.json",
  JSON.stringify({ format: "sstfilter-corpus/1", section: "node_tables", cases }, null, 1),
);
write(
  "node-databases/manifest.json",
  JSON.stringify({ format: "sstfilter-corpus/1", section: "node_databases", cases: dbCases }, null, 1),
);
write(
  "node-wal/manifest.json",
  JSON.stringify({ format: "sstfilter-corpus/1", section: "node_wal", cases: walCasesWritten }, null, 1),
);
write(
  "manifest.json",
  JSON.stringify(
    {
      format: "sstfilter-corpus/1",
      generator: {
        tool: "tests/corpus/node/generate.mjs",
        "rocksdb-native": { version: pkg("rocksdb-native"), rocksdb: bundledRocksdb },
        "classic-level": { version: pkg("classic-level") },
      },
      sections: {
        node_tables: { path: "node-tables/manifest.json", cases: cases.length },
        node_databases: { path: "node-databases/manifest.json", cases: dbCases.length },
        node_db_get: { path: "node-db-get/manifest.json", cases: getDbCases.length },
        node_wal: { path: "node-wal/manifest.json", cases: walCasesWritten.length },
      },
    },
    null,
    1,
  ),
);
console.log(
  `corpus-gen (node): ${cases.length + dbCases.length + getDbCases.length + walCasesWritten.length} cases, RocksDB ${bundledRocksdb} via rocksdb-native`,
);
