// Child process of leak-soak.test.ts: objects that are never disposed are freed by the
// FinalizationRegistry once collected.
//
//   node --expose-gc tests/ts/forgotten-objects.mjs <simd|scalar> <table.sst> <filter_block.bin>
//
// It runs in a plain Node process of its own rather than inside Jest: when finalizers run is up to
// the engine, and in Jest's shared process the cleanup of earlier test files' registries (their
// contexts torn down) competes with ours. Here only this module's registry and Embind's are in
// play. Prints one JSON line: the live handle count and the bytes allocated in the wasm heap at the
// start and after each round, so a failure shows how far collection got.
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

import { init } from "sstfilter";

const [backend, tablePath, filterBlockPath] = process.argv.slice(2);
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
const gc = globalThis.gc;

const sf = await init({ simd: backend === "simd" });
const core = sf.heap.module;
const table = new Uint8Array(readFileSync(tablePath));
const filterBlock = new Uint8Array(readFileSync(filterBlockPath));
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
const PER_ROUND = 1000;

/** One of each object, used once: a filter, a filter block, a table and an unfinished key walk. */
function openEach(i) {
  const [bytes, format] = filters[i % filters.length];
  const filter = sf.openFilter(bytes, { format });
  filter.mayContain("key1");
  const block = sf.openLevelDbFilterBlock(filterBlock);
  block.mayContain(0, "key1");
  const opened = sf.openTable(table);
  opened.mayContain("key1");
  const walk = opened.keys();
  walk.next();
  return [filter, block, opened, walk];
}

// Warm-up: scratch buffers the objects use grow once and stay; disposed objects leave nothing.
for (let i = 0; i < filters.length; i++) {
  const [filter, block, opened, walk] = openEach(i);
  walk.return();
  for (const object of [filter, block, opened]) object.dispose();
}

/** Opens PER_ROUND of each object and drops them all without disposing. */
function leakOneRound() {
  for (let i = 0; i < PER_ROUND; i++) openEach(i);
}

/** Full collections with turns of the event loop between them (finalizers run in tasks). */
async function collect(target) {
  let rounds = 0;
  for (; rounds < 200 && core.liveHandles() > target; rounds++) {
    gc();
    await sleep(10);
  }
  return rounds;
}

const start = { handles: core.liveHandles(), heapInUse: core.heapInUse(), heapBytes: core.HEAPU8.length };
const rounds = [];
for (let round = 0; round < 2; round++) {
  leakOneRound();
  const opened = core.liveHandles();
  const collections = await collect(start.handles);
  rounds.push({
    opened,
    collections,
    handles: core.liveHandles(),
    heapInUse: core.heapInUse(),
    heapBytes: core.HEAPU8.length,
  });
}
console.log(
  JSON.stringify({ node: process.version, backend: sf.backend, perRound: 4 * PER_ROUND, start, rounds }),
);
