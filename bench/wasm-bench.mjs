// Wasm probe benchmarks through the package: both modules, every kernel each has, a cache-resident
// (10^4 keys) and a memory-resident (10^7 keys, or --keys-large N) filter, with 64-bit hashes
// precomputed (Filter.mayContainHashes) and with 16-byte keys hashed (mayContainMany on a KeyBatch,
// and mayContain one key at a time). Prints one JSON array of results to stdout.
import { randomFillSync } from "node:crypto";
import { performance } from "node:perf_hooks";

import { init } from "../dist/esm/node.js";

const args = process.argv.slice(2);
const largeAt = args.indexOf("--keys-large");
const largeKeys = largeAt >= 0 ? Number(args[largeAt + 1]) : 10_000_000;
const PROBES = 1 << 16;

function keyBatch(n) {
  const data = new Uint8Array(16 * n);
  randomFillSync(data);
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i <= n; i++) offsets[i] = 16 * i;
  return { data, offsets };
}

// Half of the probes are keys of the filter, spread over the whole set; half are fresh.
function probeBatch(keys, n) {
  const fresh = keyBatch(PROBES);
  const data = new Uint8Array(16 * PROBES);
  for (let i = 0; i < PROBES; i++) {
    const from =
      i % 2 === 0
        ? keys.data.subarray(16 * ((i * 2654435761) % n), 16 * ((i * 2654435761) % n) + 16)
        : fresh.data.subarray(16 * i, 16 * i + 16);
    data.set(from, 16 * i);
  }
  return { data, offsets: fresh.offsets };
}

// ns per probe: the best of 5 rounds, each repeating `run` for at least 100 ms.
function nsPerProbe(run) {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    let reps = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      run();
      reps++;
      elapsed = performance.now() - start;
    } while (elapsed < 100);
    best = Math.min(best, (elapsed * 1e6) / (reps * PROBES));
  }
  return Number(best.toFixed(3));
}

const results = [];
for (const simd of [true, false]) {
  const sf = await init({ simd });
  for (const numKeys of [10_000, largeKeys]) {
    const keys = keyBatch(numKeys);
    const filter = sf.openFilter(sf.buildFilter(keys, { format: "rocksdb-bloom", bitsPerKey: 10 }));
    const probes = probeBatch(keys, numKeys);
    const hashes = new BigUint64Array(PROBES);
    const probeKeys = [];
    for (let i = 0; i < PROBES; i++) {
      const key = probes.data.subarray(16 * i, 16 * i + 16);
      hashes[i] = sf.hash.xxph3_64(key);
      probeKeys.push(key);
    }
    const { available, active } = sf.kernels().fastLocalBloom;
    for (const kernel of available) {
      sf.selectKernel("fastLocalBloom", kernel);
      const base = { target: sf.backend, kernel, format: "rocksdb-bloom", keys: numKeys, unit: "ns/probe" };
      results.push({
        ...base,
        input: "hashes",
        mode: "batch",
        value: nsPerProbe(() => filter.mayContainHashes(hashes)),
      });
      results.push({
        ...base,
        input: "keys",
        mode: "batch",
        value: nsPerProbe(() => filter.mayContainMany(probes)),
      });
      results.push({
        ...base,
        input: "keys",
        mode: "single",
        value: nsPerProbe(() => {
          for (let i = 0; i < PROBES; i++) filter.mayContain(probeKeys[i]);
        }),
      });
      console.error(`wasm ${sf.backend} ${kernel} ${numKeys} keys: done`);
    }
    sf.selectKernel("fastLocalBloom", active);
    filter.dispose();
  }
}
console.log(JSON.stringify(results));
