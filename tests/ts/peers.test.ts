// Real databases as peers: tables that rocksdb-native (RocksDB 10.x) and classic-level (LevelDB)
// wrote, with RocksDB's own answers read off its statistics around each Get (the node corpus,
// tests/corpus/node/generate.mjs). sstfilter opens every one and must agree with them: the format
// version and filter kind, every key, every key may match, the filter rebuilt from the table's
// keys equals the stored bytes, and for every probe sstfilter's answer equals RocksDB's.
import { readFileSync } from "node:fs";
import * as path from "node:path";

import type { AsyncTable, BuildOptions, NodeSstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { blockEntries, blockHandle, bytesEqual, Corpus, firstDifference } from "./golden";

const NODE_CORPUS = Corpus.load(
  "node",
  process.env.SSTFILTER_NODE_CORPUS_DIR ?? path.join(__dirname, "..", "..", "build", "corpus", "node"),
);
if (!NODE_CORPUS) throw new Error("the node corpus is missing (run `bash scripts/corpus.sh`)");

interface NodeCase {
  id: string;
  database: "rocksdb" | "leveldb";
  options: { format_version?: number; filter_policy?: string; bits_per_key: number };
  file?: { path: string };
  files?: { path: string }[];
  keys: { path: string; count: number };
  probes?: { path: string };
  get_results?: string;
}
const CASES = NODE_CORPUS.section<{ cases: NodeCase[] }>("node_tables")?.cases ?? [];
const ROCKSDB = CASES.filter((c) => c.database === "rocksdb");
const LEVELDB = CASES.filter((c) => c.database === "leveldb");

async function allKeys(t: AsyncTable): Promise<Uint8Array[]> {
  const keys: Uint8Array[] = [];
  for await (const k of t.keys()) keys.push(k);
  return keys;
}

test("the node corpus has RocksDB and LevelDB tables", () => {
  expect(ROCKSDB.length).toBeGreaterThan(0);
  expect(LEVELDB.length).toBeGreaterThan(0);
});

describe.each(BACKENDS)("real databases as peers on $name", ({ name, simd }) => {
  let sf: NodeSstFilter;
  beforeAll(async () => {
    sf = (await loadBackend(simd)) as NodeSstFilter;
  });

  test.each(ROCKSDB.map((c) => [c.id, c] as const))("RocksDB table %s", async (_id, c) => {
    const corpus = NODE_CORPUS;
    const t = await sf.openTableFile(corpus.path(c.file!.path));
    try {
      expect(t.format).toBe("rocksdb");
      expect(t.footer.formatVersion).toBe(c.options.format_version);
      const ribbon = c.options.filter_policy !== "bloom";
      const format: BuildOptions["format"] = ribbon
        ? "rocksdb-ribbon"
        : c.options.format_version! >= 5
          ? "rocksdb-bloom"
          : "rocksdb-legacy-bloom";
      expect(t.filter?.kind).toBe(format);
      const keys = await allKeys(t);
      expect(keys).toEqual(corpus.readKeys(c.keys.path));
      expect((await t.mayContainMany(keys)).every((a) => a === 1)).toBe(true);

      // The filter sstfilter builds from the table's keys is the filter in the file.
      const built = sf.buildFilter(keys, { format, bitsPerKey: c.options.bits_per_key });
      const [stored] = await t.filterBytes();
      if (!bytesEqual(built, stored!)) {
        throw new Error(`${name} ${c.id}: built filter differs at byte ${firstDifference(built, stored!)}`);
      }

      // RocksDB's answer for every probe (one L0 file: it consulted the filter every time).
      const probes = corpus.readKeys(c.probes!.path);
      const answers = corpus.readBytes(c.get_results!);
      const ours = await t.mayContainMany(probes);
      const wrong = probes.flatMap((_, i) =>
        answers[i] !== 2 && ours[i] !== answers[i]
          ? [`probe ${i}: RocksDB ${answers[i]}, sstfilter ${ours[i]}`]
          : [],
      );
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(answers.filter((a) => a !== 2).length).toBeGreaterThan(probes.length / 2);
    } finally {
      t.dispose();
    }
  });

  test.each(LEVELDB.map((c) => [c.id, c] as const))(
    "LevelDB (classic-level) %s: every key may match, the filter block is rebuilt byte for byte",
    async (_id, c) => {
      const corpus = NODE_CORPUS;
      let total = 0;
      for (const { path: relative } of c.files!) {
        const file = corpus.path(relative);
        const t = await sf.openTableFile(file);
        try {
          expect(t.format).toBe("leveldb");
          const keys = await allKeys(t);
          total += keys.length;
          expect((await t.mayContainMany(keys)).every((a) => a === 1)).toBe(true);
          // Rebuild the filter block from the data blocks (uncompressed: the test oracle reads them).
          const bytes = new Uint8Array(readFileSync(file));
          const [indexOffset, indexSize] = t.footer.indexHandle;
          const blocks = blockEntries(bytes.subarray(indexOffset, indexOffset + indexSize)).map(
            ({ value }) => {
              const h = blockHandle(value);
              const entries = blockEntries(bytes.subarray(h.offset, h.offset + h.size));
              return {
                offset: h.offset,
                size: h.size,
                keys: entries.map((e) => e.key.subarray(0, e.key.length - 8)),
              };
            },
          );
          const rebuilt = sf.buildLevelDbFilterBlock(blocks, c.options.bits_per_key);
          expect(bytesEqual(rebuilt, (await t.filterBytes())[0]!)).toBe(true);
        } finally {
          t.dispose();
        }
      }
      expect(total).toBe(c.keys.count);
    },
  );
});
