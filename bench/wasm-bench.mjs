// Wasm benchmarks through the npm package (dist/esm/platform/node.js), both modules (SIMD128 and scalar),
// every kernel each has. For each size it probes the filters and probe keys the native benchmark
// exported (--fixtures DIR: probes-<keys>.bin, <format>-<keys>.bin), so native and wasm answer
// the very same probes; builds use fresh random 16-byte keys. Prints one JSON array of records:
//   op "build"        buildFilter(KeyBatch) per format, ns/key
//   op "probe"        mayContain (single), mayContainMany(KeyBatch) (batch, keys),
//                     mayContainHashes (batch, hashes precomputed), ns/key
//   op "api-vs-raw"   the TypeScript API against the raw wasm export on keys already in wasm
//                     memory, per batch size, ns/key for both
//   op "key-copy"     copying a Key[] of Uint8Arrays into wasm memory, the floor of that input
//   op "random-read"  the random-read floor inside wasm (wasm/bench_bindings.cc), ns/read
// Usage: node --expose-gc bench/wasm-bench.mjs --fixtures DIR --sizes 10000,10000000 [--quick]
import { randomFillSync } from "node:crypto";
import { readFileSync } from "node:fs";

import { init } from "../dist/esm/platform/node.js";
import { initTesting } from "../tests/testing-module.mjs";
import { cpuMs, nsPer as measure, nsPerEach } from "./timing.mjs";

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const fixtures = arg("--fixtures", "build/bench/fixtures");
const sizes = arg("--sizes", "10000,10000000").split(",").map(Number);
const quick = args.includes("--quick");
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 40 : 150;
const FORMATS = ["leveldb", "rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"];
const HASHED = new Set(["rocksdb-bloom", "rocksdb-ribbon"]);
const KERNEL_FAMILY = { "rocksdb-bloom": "fastLocalBloom", "rocksdb-ribbon": "ribbon" };
const KEY_BYTES = 16;
// Single-key probes make one JavaScript object per key: at most this many.
const SINGLE_PROBES = 1 << 20;

const log = (message) => process.stderr.write(`wasm bench: ${message}\n`);
const gc = globalThis.gc ?? (() => {});

const nsPer = (items, run, rounds = ROUNDS) => measure(items, run, rounds, ROUND_MS);

function packed(data) {
  const n = data.length / KEY_BYTES;
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i <= n; i++) offsets[i] = KEY_BYTES * i;
  return { data, offsets };
}

function randomKeys(n) {
  const data = new Uint8Array(KEY_BYTES * n);
  // randomFillSync fills at most 2^31 - 1 bytes per call.
  for (let at = 0; at < data.length; at += 1 << 30) randomFillSync(data.subarray(at, at + (1 << 30)));
  return packed(data);
}

const results = [];
const record = (fields) => results.push(fields);

// Builds: fresh keys per size, and a module of its own per format, so that one build's scratch
// memory (wasm memory never shrinks) does not crowd the next one out of its 4 GiB.
async function benchBuilds(simd, backend, numKeys) {
  const keys = randomKeys(numKeys);
  const rounds = numKeys >= 10_000_000 ? (numKeys >= 100_000_000 ? 1 : 3) : ROUNDS;
  for (const format of FORMATS) {
    let sf = await init({ simd });
    const options = { format, bitsPerKey: 10 };
    try {
      let best = Infinity;
      for (let round = 0; round < rounds; round++) {
        const start = cpuMs();
        let reps = 0;
        do {
          sf.buildFilter(keys, options);
          reps++;
        } while (numKeys < 10_000_000 && cpuMs() - start < ROUND_MS);
        best = Math.min(best, ((cpuMs() - start) * 1e6) / (reps * numKeys));
      }
      record({
        op: "build",
        target: backend,
        kernel: "-",
        format,
        keys: numKeys,
        value: Number(best.toPrecision(4)),
        unit: "ns/key",
      });
    } catch (error) {
      // A wasm32 module has 4 GiB: the keys are copied in, then the builder's own memory.
      record({
        op: "build",
        target: backend,
        kernel: "-",
        format,
        keys: numKeys,
        value: null,
        unit: "ns/key",
        note: `${error.code ?? ""} ${error.message}`.trim(),
      });
    }
    // Unreachable before the collection, so that its memory is gone before the next module's.
    sf = null;
    gc();
  }
}

function benchProbes(sf, numKeys, probeData) {
  const probes = packed(probeData);
  const n = probes.offsets.length - 1;
  const hashes = new BigUint64Array(n);
  for (let i = 0; i < n; i++)
    hashes[i] = sf.hash.xxph3_64(probeData.subarray(KEY_BYTES * i, KEY_BYTES * (i + 1)));
  const singles = [];
  for (let i = 0; i < Math.min(n, SINGLE_PROBES); i++)
    singles.push(probeData.subarray(KEY_BYTES * i, KEY_BYTES * (i + 1)));
  for (const format of FORMATS) {
    const filter = sf.openFilter(readFileSync(`${fixtures}/${format}-${numKeys}.bin`), {
      format: format === "leveldb" ? "leveldb" : "rocksdb",
    });
    const family = KERNEL_FAMILY[format];
    const kernels = family ? sf.kernels()[family].available : ["portable"];
    for (const kernel of kernels) {
      if (family) sf.selectKernel(family, kernel);
      const base = { op: "probe", target: sf.backend, kernel, format, keys: numKeys, unit: "ns/key" };
      record({
        ...base,
        input: "keys",
        mode: "single",
        value: nsPer(singles.length, () => {
          for (const key of singles) filter.mayContain(key);
        }),
      });
      record({ ...base, input: "keys", mode: "batch", value: nsPer(n, () => filter.mayContainMany(probes)) });
      if (HASHED.has(format)) {
        record({
          ...base,
          input: "hashes",
          mode: "batch",
          value: nsPer(n, () => filter.mayContainHashes(hashes)),
        });
      }
      if (family) sf.selectKernel(family, sf.kernels()[family].available.at(-1));
    }
    log(`${sf.backend} ${format} ${numKeys} keys probed`);
    filter.dispose();
  }
}

// The TypeScript API against the raw exports it wraps, on a FastLocalBloom filter: the raw loop
// has its keys in wasm memory already and calls _sstfilter_may_match_batch (one call per batch,
// the loop inside wasm) or _sstfilter_may_match (one call per key) directly.
function benchApiVsRaw(sf, numKeys, probeData) {
  const filter = sf.openFilter(readFileSync(`${fixtures}/rocksdb-bloom-${numKeys}.bin`));
  const m = sf.heap.module;
  const reader = filter.readerAddress;
  const n = Math.min(probeData.length / KEY_BYTES, SINGLE_PROBES);
  const dataPtr = m._malloc(n * KEY_BYTES) >>> 0;
  m.HEAPU8.set(probeData.subarray(0, n * KEY_BYTES), dataPtr);
  for (const batch of [1000, 10_000, 65_536]) {
    const offsets = packed(new Uint8Array(batch * KEY_BYTES)).offsets;
    const offsetsPtr = m._malloc(offsets.byteLength) >>> 0;
    const outPtr = m._malloc(batch) >>> 0;
    new Uint32Array(m.HEAPU8.buffer, offsetsPtr, offsets.length).set(offsets);
    const chunks = Math.floor(n / batch);
    const batches = [];
    const arrays = [];
    for (let c = 0; c < chunks; c++) {
      const data = probeData.subarray(c * batch * KEY_BYTES, (c + 1) * batch * KEY_BYTES);
      batches.push({ data, offsets });
      const keys = [];
      for (let i = 0; i < batch; i++) keys.push(data.subarray(KEY_BYTES * i, KEY_BYTES * (i + 1)));
      arrays.push(keys);
    }
    const items = chunks * batch;
    // What any API taking a Key[] pays before it probes: each key copied into wasm memory (one
    // TypedArray.set per key, the fastest copy for 16-byte keys measured here).
    const heap = m.HEAPU8;
    const [raw, api, apiArray, copy] = nsPerEach(
      items,
      [
        () => {
          for (let c = 0; c < chunks; c++) {
            m._sstfilter_may_match_batch(
              reader,
              dataPtr + c * batch * KEY_BYTES,
              batch * KEY_BYTES,
              offsetsPtr,
              batch,
              outPtr,
            );
          }
        },
        () => {
          for (const b of batches) filter.mayContainMany(b);
        },
        () => {
          for (const keys of arrays) filter.mayContainMany(keys);
        },
        () => {
          for (const keys of arrays) {
            let at = dataPtr;
            for (const key of keys) {
              heap.set(key, at);
              at += key.length;
            }
          }
        },
      ],
      ROUNDS,
      ROUND_MS,
    );
    const base = {
      op: "api-vs-raw",
      target: sf.backend,
      kernel: sf.kernels().fastLocalBloom.active,
      format: "rocksdb-bloom",
      keys: numKeys,
      batch,
      unit: "ns/key",
    };
    record({ ...base, input: "KeyBatch", raw, value: api });
    record({ ...base, input: "Key[]", raw, value: apiArray });
    record({ ...base, op: "key-copy", input: "Key[]", value: copy });
    m._free(offsetsPtr);
    m._free(outPtr);
  }
  const singles = [];
  for (let i = 0; i < n; i++) singles.push(probeData.subarray(KEY_BYTES * i, KEY_BYTES * (i + 1)));
  const [raw, api] = nsPerEach(
    n,
    [
      () => {
        for (let i = 0; i < n; i++) m._sstfilter_may_match(reader, dataPtr + KEY_BYTES * i, KEY_BYTES);
      },
      () => {
        for (const key of singles) filter.mayContain(key);
      },
    ],
    ROUNDS,
    ROUND_MS,
  );
  record({
    op: "api-vs-raw",
    target: sf.backend,
    kernel: sf.kernels().fastLocalBloom.active,
    format: "rocksdb-bloom",
    keys: numKeys,
    batch: 1,
    input: "Key",
    raw,
    value: api,
    unit: "ns/key",
  });
  m._free(dataPtr);
  filter.dispose();
}

// The random-read floor inside wasm: independent reads of random 64-byte lines of 1 GiB of wasm
// memory, in each shape wasm/testing/bench_bindings.cc offers (linked into the test build of the
// module only); the floor is the fastest.
async function benchFloor(simd) {
  const sf = await initTesting(simd);
  const m = sf.heap.module;
  const bytes = 2 ** 30;
  const reads = 1 << 22;
  // 64 bytes of slack to align the buffer to a cache line.
  const raw = m._malloc(bytes + 64) >>> 0;
  const base = raw + ((64 - (raw % 64)) % 64);
  const linesPtr = m._malloc(reads * 4) >>> 0;
  // Written, not just allocated: every page must be backed by its own memory.
  new Uint32Array(m.HEAPU8.buffer, base, bytes / 4).fill(0x9e3779b9);
  const lines = new Uint32Array(m.HEAPU8.buffer, linesPtr, reads);
  const random = new Uint32Array(reads);
  randomFillSync(random);
  for (let i = 0; i < reads; i++) lines[i] = random[i] % (bytes / 64);
  const shapes = simd ? ["load8", "8x8B", "4x16B"] : ["load8", "8x8B"];
  shapes.forEach((shape, i) => {
    const value = nsPer(
      reads,
      () => m._sstfilter_bench_random_reads(base, linesPtr, reads, i),
      quick ? 2 : 5,
    );
    record({
      op: "random-read",
      target: sf.backend,
      kernel: shape,
      format: "-",
      keys: 0,
      value,
      unit: "ns/read",
    });
  });
  m._free(linesPtr);
  m._free(raw);
}

for (const simd of [true, false]) {
  const backend = simd ? "wasm-simd128" : "wasm-scalar";
  for (const numKeys of sizes) {
    const probeData = new Uint8Array(readFileSync(`${fixtures}/probes-${numKeys}.bin`));
    const sf = await init({ simd });
    benchProbes(sf, numKeys, probeData);
    if (numKeys <= 10_000_000) benchApiVsRaw(sf, numKeys, probeData);
    gc();
    await benchBuilds(simd, backend, numKeys);
    log(`${backend} ${numKeys} keys built`);
  }
  await benchFloor(simd);
  log(`${backend} floor measured`);
  gc();
}
console.log(JSON.stringify(results));
