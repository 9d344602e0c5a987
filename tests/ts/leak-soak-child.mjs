// The leak soak of leak-soak.test.ts, run in a Node process of its own:
//
//   node --expose-gc tests/ts/leak-soak-child.mjs <simd|scalar> <disposed|forgotten> <corpus dir>
//
// disposed:  10^5 create/use/dispose cycles of every wasm-backed object (filters of each kind,
//            LevelDB filter blocks, tables, key walks finished and abandoned through return()).
// forgotten: two rounds of 1000 of each object dropped without dispose(), then full collections
//            until the FinalizationRegistry has freed them.
//
// Why a process of its own: when finalizers run is up to the engine, and in Jest's shared process
// the registries of earlier test files (their contexts torn down) compete with ours for the one
// cleanup task; CI once saw none of ours run there. Here only this module's registry and Embind's
// are in play. Prints one JSON line with the live handle count, the wasm heap's size
// (HEAPU8.length) and the bytes allocated in it (heapInUse) at each step, so a failure shows how far
// things got. heapInUse is the exact measure: the heap keeps the size it once grew to, and its free
// space would hide megabytes of leaks.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { initTesting } from "../testing-module.mjs";

const [backend, phase, corpusDir] = process.argv.slice(2);
const read = (relative) => new Uint8Array(readFileSync(path.join(corpusDir, relative)));
// Smallest golden tables of each family.
const rocksdbTable = read("rocksdb-sst/fv5_ribbon9p9_n10/table.sst");
const leveldbTable = read("leveldb-table/tb_b10_tiny_with_empty/table.ldb");
const filterBlock = read("leveldb-table/tb_b10_tiny_with_empty/filter_block.bin");

// The test build of the module: it counts live handles and heap bytes in use.
const sf = await initTesting(backend === "simd");
const core = sf.heap.module;
const keys = Array.from({ length: 100 }, (_, i) => `key${i}`);
const filters = [
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

const state = () => ({
  handles: core.liveHandles(),
  heapBytes: core.HEAPU8.length,
  heapInUse: core.heapInUse(),
});

/** Cycle i: a filter, a filter block and a table opened and used; their walks and themselves disposed. */
function disposedCycle(i) {
  const [bytes, format] = filters[i % filters.length];
  const filter = sf.openFilter(bytes, { format });
  filter.mayContain("key1");
  filter.dispose();
  const block = sf.openLevelDbFilterBlock(filterBlock);
  block.mayContain(0, "key1");
  block.dispose();
  const table = sf.openTable(i % 2 === 0 ? rocksdbTable : leveldbTable, { internalKeys: i % 2 === 0 });
  table.mayContain("key1");
  if (i % 10 === 0) {
    for (const key of table.keys()) void key; // a finished walk
  } else if (i % 10 === 1) {
    const walk = table.keys();
    walk.next();
    walk.return(); // abandoned
  }
  table.dispose();
}

/** One of each object, used and then dropped: the key walk is left unfinished. */
function forgottenCycle(i) {
  const [bytes, format] = filters[i % filters.length];
  sf.openFilter(bytes, { format }).mayContain("key1");
  sf.openLevelDbFilterBlock(filterBlock).mayContain(0, "key1");
  sf.openTable(rocksdbTable, { internalKeys: true }).keys().next();
}

/** Full collections with turns of the event loop between them (finalizers run in tasks). */
async function collect(targetHandles) {
  if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
  let collections = 0;
  for (; collections < 200 && core.liveHandles() > targetHandles; collections++) {
    globalThis.gc();
    await sleep(10);
  }
  return collections;
}

// Warm-up: scratch buffers grow once and stay.
const WARM_UP = 2_000;
for (let i = 0; i < WARM_UP; i++) disposedCycle(i);
const start = state();
const report = { node: process.version, backend: sf.backend, phase, start, steps: [] };
if (phase === "disposed") {
  const CYCLES = 100_000;
  for (let i = 0; i < CYCLES; i++) disposedCycle(i);
  report.steps.push({ cycles: CYCLES, ...state() });
} else if (phase === "forgotten") {
  const PER_ROUND = 1_000;
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < PER_ROUND; i++) forgottenCycle(i);
    const opened = core.liveHandles();
    const collections = await collect(start.handles);
    report.steps.push({ forgotten: opened - start.handles, collections, ...state() });
  }
} else {
  throw new Error(`unknown phase ${phase}`);
}
console.log(JSON.stringify(report));
