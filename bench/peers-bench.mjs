// sstfilter against the npm peers, in one Node process: `bloomfilter` and `bloom-filters` at the
// false-positive rate sstfilter's FastLocalBloom gets at 10 bits per key (measured first, then
// given to the peers' own sizing), build and probe with hashing included, on the same 16-character
// string keys; and hashing against `xxhash-wasm`. Prints one JSON array of records:
//   op "build"   ns/key to build a filter of all keys
//   op "probe"   ns/key, mode "single" (one call per key) or "batch" (mayContainMany)
// sstfilter takes the string keys as they are (input "string") and, for comparison, packed as
// their UTF-8 bytes once beforehand (input "KeyBatch").
//   op "fp-rate" the measured false-positive rate (unit "ratio")
//   op "string-read" ns/key to read every character of a key string, a floor for string keys
//   op "hash"    ns/key to hash one 16-byte key (input "bytes") or 16-character string
// Usage: node bench/peers-bench.mjs --sizes 10000,1000000 [--quick]
import { randomBytes } from "node:crypto";

import bloomFilters from "bloom-filters";
import { BloomFilter as JasonDaviesBloom } from "bloomfilter";
import xxhash from "xxhash-wasm";

import { init } from "../dist/esm/platform/node.js";
import { nsPer as measure } from "./timing.mjs";

const args = process.argv.slice(2);
const sizes = (args.includes("--sizes") ? args[args.indexOf("--sizes") + 1] : "10000,1000000")
  .split(",")
  .map(Number);
const quick = args.includes("--quick");
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 40 : 150;
// bloom-filters takes microseconds per key: beyond this many keys one round is minutes.
const BLOOM_FILTERS_MAX_KEYS = 1_000_000;
const FP_PROBES = 200_000;

// bloom-filters is CommonJS: its classes hang off the default export.
const BloomFiltersBloom = bloomFilters.BloomFilter;
const log = (message) => process.stderr.write(`peers bench: ${message}\n`);

const nsPer = (items, run, rounds = ROUNDS) => measure(items, run, rounds, ROUND_MS);

// n 16-character keys: hex digits of random bytes (distinct with overwhelming probability), or for
// absent keys an "x" and 15 of them, which no present key equals. Each is a flat string of its own,
// as keys read from a file or parsed from JSON are; built as "x" + hex.slice(1) an absent key would
// be a rope over a slice, which every reader (sstfilter's and the peers' alike) walks slowly.
function stringKeys(n, absent) {
  const bytes = randomBytes(8 * n);
  const keys = new Array(n);
  for (let i = 0; i < n; i++) {
    const text = Buffer.from(bytes.toString("hex", 8 * i, 8 * i + 8), "latin1");
    if (absent) text[0] = 0x78; // "x"
    keys[i] = text.toString("latin1");
  }
  return keys;
}

const results = [];
const record = (fields) => results.push({ target: "node", format: "-", ...fields });
const sf = await init();

// The share of absent keys a filter answers "may contain" for.
function fpRate(mayContain, absent) {
  let positives = 0;
  for (const key of absent) if (mayContain(key)) positives++;
  return positives / absent.length;
}

for (const numKeys of sizes) {
  const keys = stringKeys(numKeys, false);
  const absent = stringKeys(FP_PROBES, true);
  // Half present, half absent. A cache-resident filter gets few enough probe strings to stay in
  // the caches with it (each JavaScript string is a heap object of its own).
  const probes = [];
  const pairs = numKeys <= 100_000 ? 1 << 13 : 1 << 16;
  for (let i = 0; i < pairs; i++) probes.push(keys[(i * 7919) % numKeys], absent[i]);

  const ours = sf.openFilter(sf.buildFilter(keys, { format: "rocksdb-bloom", bitsPerKey: 10 }));
  const fp = fpRate((k) => ours.mayContain(k), absent);
  const base = { keys: numKeys, input: "string", unit: "ns/key" };
  record({ op: "fp-rate", impl: "sstfilter", kernel: sf.backend, keys: numKeys, value: fp, unit: "ratio" });
  const buildRounds = numKeys >= 1_000_000 ? 3 : ROUNDS;
  record({
    op: "build",
    impl: "sstfilter",
    kernel: sf.backend,
    ...base,
    value: nsPer(
      numKeys,
      () => sf.buildFilter(keys, { format: "rocksdb-bloom", bitsPerKey: 10 }),
      buildRounds,
    ),
  });
  record({
    op: "probe",
    impl: "sstfilter",
    kernel: sf.backend,
    mode: "single",
    ...base,
    value: nsPer(probes.length, () => {
      for (const key of probes) ours.mayContain(key);
    }),
  });
  record({
    op: "probe",
    impl: "sstfilter",
    kernel: sf.backend,
    mode: "batch",
    ...base,
    value: nsPer(probes.length, () => ours.mayContainMany(probes)),
  });
  // The same keys as bytes (their UTF-8), the form sstfilter takes without converting: reading a
  // JavaScript string costs about as much as probing a filter in wasm.
  const keyBatch = sf.packKeys(keys);
  const probeBatch = sf.packKeys(probes);
  record({
    op: "build",
    impl: "sstfilter",
    kernel: sf.backend,
    ...base,
    input: "KeyBatch",
    value: nsPer(
      numKeys,
      () => sf.buildFilter(keyBatch, { format: "rocksdb-bloom", bitsPerKey: 10 }),
      buildRounds,
    ),
  });
  record({
    op: "probe",
    impl: "sstfilter",
    kernel: sf.backend,
    mode: "batch",
    ...base,
    input: "KeyBatch",
    value: nsPer(probes.length, () => ours.mayContainMany(probeBatch)),
  });
  ours.dispose();
  // What any JavaScript filter pays before hashing: reading every character of the probe strings.
  record({
    op: "string-read",
    impl: "javascript",
    kernel: "charCodeAt",
    ...base,
    value: nsPer(probes.length, () => {
      let sum = 0;
      for (const key of probes) for (let i = 0; i < key.length; i++) sum += key.charCodeAt(i);
      return sum;
    }),
  });

  // bloomfilter takes bits and hash count: the optimum for the rate, m = -n ln p / ln^2 2 bits.
  const bits = Math.ceil((-numKeys * Math.log(fp)) / Math.LN2 ** 2);
  const hashes = Math.max(1, Math.round((bits / numKeys) * Math.LN2));
  const buildJd = () => {
    const filter = new JasonDaviesBloom(bits, hashes);
    for (const key of keys) filter.add(key);
    return filter;
  };
  const jd = buildJd();
  record({
    op: "fp-rate",
    impl: "bloomfilter",
    kernel: "js",
    keys: numKeys,
    value: fpRate((k) => jd.test(k), absent),
    unit: "ratio",
  });
  record({
    op: "build",
    impl: "bloomfilter",
    kernel: "js",
    ...base,
    value: nsPer(numKeys, buildJd, buildRounds),
  });
  record({
    op: "probe",
    impl: "bloomfilter",
    kernel: "js",
    mode: "single",
    ...base,
    value: nsPer(probes.length, () => {
      for (const key of probes) jd.test(key);
    }),
  });
  log(`bloomfilter ${numKeys} keys done`);

  if (numKeys <= BLOOM_FILTERS_MAX_KEYS) {
    const buildBf = () => {
      const filter = BloomFiltersBloom.create(numKeys, fp);
      for (const key of keys) filter.add(key);
      return filter;
    };
    const bf = buildBf();
    const fewProbes = probes.slice(0, 20_000);
    const fewAbsent = absent.slice(0, 20_000);
    record({
      op: "fp-rate",
      impl: "bloom-filters",
      kernel: "js",
      keys: numKeys,
      value: fpRate((k) => bf.has(k), fewAbsent),
      unit: "ratio",
    });
    record({
      op: "build",
      impl: "bloom-filters",
      kernel: "js",
      ...base,
      value: nsPer(numKeys, buildBf, numKeys >= 1_000_000 ? 1 : 3),
    });
    record({
      op: "probe",
      impl: "bloom-filters",
      kernel: "js",
      mode: "single",
      ...base,
      value: nsPer(
        fewProbes.length,
        () => {
          for (const key of fewProbes) bf.has(key);
        },
        3,
      ),
    });
    log(`bloom-filters ${numKeys} keys done`);
  }
}

// Hashing one 16-byte key: the filter hash (XXPH3) and XXH64, which xxhash-wasm also computes.
const { h64, h64Raw } = await xxhash();
const keyCount = 1 << 16;
const byteKeys = [];
for (let i = 0; i < keyCount; i++) byteKeys.push(new Uint8Array(randomBytes(16)));
const strings = stringKeys(keyCount, false);
const hashCase = (impl, kernel, input, run) =>
  record({ op: "hash", impl, kernel, input, keys: keyCount, value: nsPer(keyCount, run), unit: "ns/key" });
hashCase("sstfilter", "xxph3_64", "bytes", () => {
  for (const key of byteKeys) sf.hash.xxph3_64(key);
});
hashCase("sstfilter", "xxh64", "bytes", () => {
  for (const key of byteKeys) sf.hash.xxh64(key);
});
hashCase("xxhash-wasm", "h64Raw", "bytes", () => {
  for (const key of byteKeys) h64Raw(key);
});
hashCase("sstfilter", "xxh64", "string", () => {
  for (const key of strings) sf.hash.xxh64(key);
});
hashCase("xxhash-wasm", "h64", "string", () => {
  for (const key of strings) h64(key);
});
log("hashing done");
console.log(JSON.stringify(results));
