import type { SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { readBytes } from "./golden";

// Leak soak (issue 8): 10^5 create/dispose cycles of every wasm-backed object (filters of each
// kind, LevelDB filter blocks, tables, key walks finished and abandoned through return()) leave
// the count of live wasm handles, the wasm heap's size (HEAPU8.length) and the bytes allocated in
// it where a warm-up left them. The last one is the exact measure: the heap keeps the size it once
// grew to, and its free space would hide megabytes of leaks. Objects never disposed (and walks
// never finished) are freed by the FinalizationRegistry once collected (node --expose-gc, as npm
// test runs Jest).

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

const gc = (globalThis as { gc?: () => void }).gc;

// Smallest golden tables of each family.
const ROCKSDB_TABLE = readBytes("rocksdb-sst/fv5_ribbon9p9_n10/table.sst");
const LEVELDB_TABLE = readBytes("leveldb-table/tb_b10_tiny_with_empty/table.ldb");
const LEVELDB_FILTER_BLOCK = readBytes("leveldb-table/tb_b10_tiny_with_empty/filter_block.bin");

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

  test("objects never disposed are freed once collected", async () => {
    const core = coreOf(sf);
    const handles = core.liveHandles();
    const round = (): void => {
      for (let i = 0; i < 1000; i++) {
        const [bytes, format] = filters[i % filters.length]!;
        sf.openFilter(bytes, { format });
        sf.openLevelDbFilterBlock(LEVELDB_FILTER_BLOCK);
        sf.openTable(ROCKSDB_TABLE).keys().next();
      }
      // 1000 filters, filter blocks, tables and walks.
      expect(core.liveHandles()).toBe(handles + 4000);
    };
    const inUse = core.heapInUse();
    round();
    await collect(core, handles);
    expect(core.liveHandles()).toBe(handles);
    expect(core.heapInUse()).toBe(inUse);
    // Memory the first round took is reused by the second: nothing was left behind.
    const heap = core.HEAPU8.length;
    round();
    await collect(core, handles);
    expect(core.liveHandles()).toBe(handles);
    expect(core.HEAPU8.length).toBe(heap);
    expect(core.heapInUse()).toBe(inUse);
  });
});

/** Collects garbage, letting finalizers run, until the live handles are down to `target`. */
async function collect(core: Core, target: number): Promise<void> {
  if (gc === undefined) throw new Error("run Jest with node --expose-gc");
  for (let round = 0; round < 100 && core.liveHandles() > target; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
