import { execFileSync } from "node:child_process";
import * as path from "node:path";

import type { SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { goldenPath, readBytes } from "./golden";

// Leak soak (issue 8): 10^5 create/dispose cycles of every wasm-backed object (filters of each
// kind, LevelDB filter blocks, tables, key walks finished and abandoned through return()) leave
// the count of live wasm handles, the wasm heap's size (HEAPU8.length) and the bytes allocated in
// it where a warm-up left them. The last one is the exact measure: the heap keeps the size it once
// grew to, and its free space would hide megabytes of leaks. Objects never disposed (and walks
// never finished) are freed by the FinalizationRegistry once collected, checked in a Node process of
// its own (forgotten-objects.mjs).

const CYCLES = 100_000;
const WARM_UP = 2_000;

interface Core {
  liveHandles(): number;
  heapInUse(): number;
  HEAPU8: Uint8Array;
}

function coreOf(sf: SstFilter): Core {
  return (sf as unknown as { heap: { module: Core } }).heap.module;
}

/** What forgotten-objects.mjs prints. */
interface ForgottenObjectsReport {
  node: string;
  backend: string;
  perRound: number;
  start: { handles: number; heapInUse: number; heapBytes: number };
  rounds: { opened: number; collections: number; handles: number; heapInUse: number; heapBytes: number }[];
}

// Smallest golden tables of each family.
const ROCKSDB_TABLE_PATH = "rocksdb-sst/fv5_ribbon9p9_n10/table.sst";
const LEVELDB_FILTER_BLOCK_PATH = "leveldb-table/tb_b10_tiny_with_empty/filter_block.bin";
const ROCKSDB_TABLE = readBytes(ROCKSDB_TABLE_PATH);
const LEVELDB_TABLE = readBytes("leveldb-table/tb_b10_tiny_with_empty/table.ldb");
const LEVELDB_FILTER_BLOCK = readBytes(LEVELDB_FILTER_BLOCK_PATH);

describe.each(BACKENDS)("leak soak on $name", ({ simd }) => {
  let sf: SstFilter;
  let filters: [Uint8Array, "leveldb" | "rocksdb"][];
  beforeAll(async () => {
    sf = await loadBackend(simd);
    const keys = Array.from({ length: 100 }, (_, i) => `key${i}`);
    filters = [
      [sf.buildFilter(keys, { format: "leveldb", bitsPerKey: 10 }), "leveldb"],
      [sf.buildFilter(keys, { format: "rocksdb-legacy-bloom", bitsPerKey: 10 }), "rocksdb"],
      [sf.buildFilter(keys, { format: "rocksdb-bloom", bitsPerKey: 10 }), "rocksdb"],
      [
        sf.buildFilter(
          Array.from({ length: 3000 }, (_, i) => `k${i}`),
          { format: "rocksdb-ribbon", bitsPerKey: 10 },
        ),
        "rocksdb",
      ],
    ];
  });

  /** One cycle: a filter, a filter block and a table opened, used and disposed. */
  function cycle(i: number): void {
    const [bytes, format] = filters[i % filters.length]!;
    const filter = sf.openFilter(bytes, { format });
    filter.mayContain("key1");
    filter.dispose();
    const block = sf.openLevelDbFilterBlock(LEVELDB_FILTER_BLOCK);
    block.mayContain(0, "key1");
    block.dispose();
    const table = sf.openTable(i % 2 === 0 ? ROCKSDB_TABLE : LEVELDB_TABLE, { internalKeys: i % 2 === 0 });
    table.mayContain("key1");
    if (i % 10 === 0) {
      for (const key of table.keys()) void key; // a finished walk
    } else if (i % 10 === 1) {
      const walk = table.keys();
      walk.next();
      walk.return!(undefined); // abandoned
    }
    table.dispose();
  }

  test(`${CYCLES} create/dispose cycles leave handles and heap as they were`, () => {
    const core = coreOf(sf);
    const handles = core.liveHandles();
    for (let i = 0; i < WARM_UP; i++) cycle(i);
    expect(core.liveHandles()).toBe(handles);
    const heap = core.HEAPU8.length;
    const inUse = core.heapInUse();
    for (let i = 0; i < CYCLES; i++) cycle(i);
    expect(core.liveHandles()).toBe(handles);
    expect(core.HEAPU8.length).toBe(heap);
    expect(core.heapInUse()).toBe(inUse);
  });

  test("objects never disposed are freed once collected (FinalizationRegistry)", () => {
    // In a Node process of its own: see tests/ts/forgotten-objects.mjs for why.
    const out = execFileSync(
      process.execPath,
      [
        "--expose-gc",
        path.join(__dirname, "forgotten-objects.mjs"),
        simd ? "simd" : "scalar",
        goldenPath(ROCKSDB_TABLE_PATH),
        goldenPath(LEVELDB_FILTER_BLOCK_PATH),
      ],
      { cwd: path.join(__dirname, "..", "..") },
    ).toString();
    const report = JSON.parse(out) as ForgottenObjectsReport;
    const trace = `forgotten-objects.mjs reported ${out.trim()}`;
    expect(report.rounds).toHaveLength(2);
    for (const round of report.rounds) {
      // Each round leaves 1000 filters, filter blocks, tables and key walks for the collector.
      expect({ opened: round.opened, trace }).toEqual({
        opened: report.start.handles + report.perRound,
        trace,
      });
      expect({ handles: round.handles, heapInUse: round.heapInUse, trace }).toEqual({
        handles: report.start.handles,
        heapInUse: report.start.heapInUse,
        trace,
      });
    }
    // Memory the first round took is reused by the second: nothing was left behind.
    expect(report.rounds[1]!.heapBytes).toBe(report.rounds[0]!.heapBytes);
  });
});
