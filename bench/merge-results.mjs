// Merges the four benchmark outputs into bench/results.json (machine, versions, every figure with
// its unit, the ratios against issue 7's targets) and draws bench/results.svg. Prints the ratios.
// Usage: node bench/merge-results.mjs --native F[,F...] --rocksdb F[,F...] --wasm F --peers F
//          --out DIR [--quick]
// Native figures are the best of the Google Benchmark repetitions; the Node harnesses already
// report the best of their rounds.
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";

import { debianVersion, firstLineOf, npmVersion } from "./versions.mjs";

const args = process.argv.slice(2);
const arg = (name) => args[args.indexOf(name) + 1];
const quick = args.includes("--quick");
const outDir = arg("--out");

// Google Benchmark JSON files -> records. Names: build/<format>/<keys>, probe/<format>/<kernel>/<input>/
// <mode>/<keys>, floor/random-read-64B/1GiB/<shape>; the best (lowest) of the repetitions.
function googleBenchmark(paths, impl) {
  const best = new Map();
  const runs = paths.flatMap((path) => JSON.parse(readFileSync(path, "utf8")).benchmarks);
  for (const b of runs) {
    if (b.run_type !== "iteration") continue;
    const name = b.run_name ?? b.name;
    const [op, ...parts] = name.replace(/\/iterations:\d+$/, "").split("/");
    const records = [];
    if (op === "build") {
      const [format, keys] = parts;
      const base = { impl, target: "native", kernel: "-", format, keys: Number(keys) };
      records.push({ ...base, op: "build", value: b.ns_per_key, unit: "ns/key" });
      records.push({ ...base, op: "build-memory", value: b.peak_bytes_per_key, unit: "peak bytes/key" });
    } else if (op === "probe") {
      const [format, kernel, input, mode, keys] = parts;
      records.push({
        impl,
        target: "native",
        kernel,
        format,
        keys: Number(keys),
        op,
        input,
        mode,
        value: b.ns_per_key,
        unit: "ns/key",
      });
    } else if (op === "floor") {
      records.push({
        impl: "machine",
        target: "native",
        kernel: parts[2],
        format: "-",
        keys: 0,
        op: "random-read",
        value: b.ns_per_read,
        unit: "ns/read",
      });
    }
    for (const r of records) {
      const key = JSON.stringify({ ...r, value: undefined });
      if (!best.has(key) || (r.unit !== "peak bytes/key" && r.value < best.get(key).value)) best.set(key, r);
    }
  }
  return [...best.values()].map((r) => ({ ...r, value: Number(r.value.toPrecision(4)) }));
}

const results = [
  ...googleBenchmark(arg("--native").split(","), "sstfilter"),
  ...googleBenchmark(arg("--rocksdb").split(","), "rocksdb-7.8.3"),
  ...JSON.parse(readFileSync(arg("--wasm"), "utf8")).map((r) => ({
    impl: r.op === "random-read" ? "machine" : "sstfilter",
    ...r,
  })),
  ...JSON.parse(readFileSync(arg("--peers"), "utf8")),
];

const find = (where) => results.find((r) => Object.entries(where).every(([k, v]) => r[k] === v));
const sizes = [
  ...new Set(results.filter((r) => r.op === "probe" && r.target === "native").map((r) => r.keys)),
].sort((a, b) => a - b);
const largest = sizes.at(-1);
const floorOf = (target) =>
  Math.min(
    ...results.filter((r) => r.op === "random-read" && r.target.startsWith(target)).map((r) => r.value),
  );

// Each target: rows of { what, ours, theirs, ratio, required, met }. "ratio" is always oriented so
// that the requirement reads ratio >= required (speed-ups) or ratio <= required (slow-downs), as
// `better` says.
const targets = [];
function check(target, required, better, what, ours, theirs, ratio) {
  if (ours === undefined || theirs === undefined) return;
  const value = Number(ratio(ours.value, theirs.value).toFixed(2));
  const met = better === "higher" ? value >= required : value <= required;
  targets.push({
    target,
    what,
    ours: ours.value,
    theirs: theirs.value,
    unit: ours.unit,
    ratio: value,
    required,
    met,
  });
}

// 1. Native AVX2 probe and build no slower than RocksDB's own (Debian's build: portable code).
for (const keys of sizes) {
  for (const format of ["rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"]) {
    const kernel = format === "rocksdb-legacy-bloom" ? "portable" : "avx2";
    for (const [input, mode] of [
      ["keys", "single"],
      ["keys", "batch"],
      ["hashes", "single"],
    ]) {
      check(
        "native probe no slower than RocksDB 7.8.3",
        1,
        "higher",
        `${format} ${kernel} ${input}/${mode}, ${keys} keys (RocksDB ns / sstfilter ns)`,
        find({ impl: "sstfilter", target: "native", op: "probe", format, kernel, input, mode, keys }),
        find({ impl: "rocksdb-7.8.3", op: "probe", format, input, mode, keys }),
        (ours, theirs) => theirs / ours,
      );
    }
    check(
      "native build no slower than RocksDB 7.8.3",
      1,
      "higher",
      `${format}, ${keys} keys (RocksDB ns / sstfilter ns)`,
      find({ impl: "sstfilter", target: "native", op: "build", format, keys }),
      find({ impl: "rocksdb-7.8.3", op: "build", format, keys }),
      (ours, theirs) => theirs / ours,
    );
  }
}
// The issue's reference figures for RocksDB's AVX2 build (not measurable here: Debian's librocksdb
// is compiled without AVX2): 2.3 ns at 10^4 keys, 21 ns single and 17.5 ns batched at 10^8.
const reference = (value) => ({ value, unit: "ns/key" });
for (const [keys, mode, value] of [
  [10_000, "single", 2.3],
  [100_000_000, "single", 21],
  [100_000_000, "batch", 17.5],
]) {
  check(
    "native AVX2 probe vs the issue's RocksDB AVX2 reference figures",
    1,
    "higher",
    `rocksdb-bloom avx2 hashes/${mode}, ${keys} keys (reference ns / sstfilter ns)`,
    find({
      impl: "sstfilter",
      target: "native",
      op: "probe",
      format: "rocksdb-bloom",
      kernel: "avx2",
      input: "hashes",
      mode,
      keys,
    }),
    reference(value),
    (ours, theirs) => theirs / ours,
  );
}

// 2. Wasm SIMD128 batched probe >= 1.3x the scalar module, and within 2x of native AVX2.
for (const keys of sizes) {
  for (const format of ["rocksdb-bloom", "rocksdb-ribbon"]) {
    for (const input of ["hashes", "keys"]) {
      const simd = find({
        target: "wasm-simd128",
        op: "probe",
        format,
        kernel: "simd128",
        input,
        mode: "batch",
        keys,
      });
      check(
        "wasm SIMD128 batched probe >= 1.3x faster than wasm scalar",
        1.3,
        "higher",
        `${format} ${input}/batch, ${keys} keys (scalar ns / SIMD128 ns)`,
        simd,
        find({ target: "wasm-scalar", op: "probe", format, kernel: "scalar", input, mode: "batch", keys }),
        (ours, theirs) => theirs / ours,
      );
      check(
        "wasm SIMD128 batched probe within 2x of native AVX2",
        2,
        "lower",
        `${format} ${input}/batch, ${keys} keys (SIMD128 ns / AVX2 ns)`,
        simd,
        find({
          impl: "sstfilter",
          target: "native",
          op: "probe",
          format,
          kernel: "avx2",
          input,
          mode: "batch",
          keys,
        }),
        (ours, theirs) => ours / theirs,
      );
    }
  }
}

// 3. The TypeScript mayContainMany within 1.25x of the raw wasm loop, batches of >= 1000 keys.
for (const r of results.filter((x) => x.op === "api-vs-raw" && x.batch >= 1000)) {
  check(
    "TypeScript mayContainMany within 1.25x of the raw wasm loop (>= 1000 keys)",
    1.25,
    "lower",
    `${r.target} ${r.input}, batches of ${r.batch}, ${r.keys}-key filter (API ns / raw ns)`,
    r,
    { value: r.raw },
    (ours, theirs) => ours / theirs,
  );
}

// 4. At least 5x faster than bloomfilter and 300x faster than bloom-filters, build and probe.
for (const [peer, required] of [
  ["bloomfilter", 5],
  ["bloom-filters", 300],
]) {
  for (const keys of new Set(results.filter((x) => x.impl === peer).map((x) => x.keys))) {
    for (const [op, mode] of [
      ["build", undefined],
      ["probe", "single"],
      ["probe", "batch"],
    ]) {
      const theirs = find({ impl: peer, op, keys, ...(op === "probe" ? { mode: "single" } : {}) });
      for (const input of ["string", "KeyBatch"]) {
        check(
          `at least ${required}x faster than ${peer} (equal false-positive rate)`,
          required,
          "higher",
          `${op}${mode ? ` ${mode}` : ""}, sstfilter input ${input}, ${keys} keys (${peer} ns / sstfilter ns)`,
          find({ impl: "sstfilter", target: "node", op, keys, input, ...(mode ? { mode } : {}) }),
          theirs,
          (ours, t) => t / ours,
        );
      }
    }
  }
}

// 5. Memory-resident batched probes within 1.5x (native) / 2.5x (wasm) of the random-read floor.
for (const input of ["hashes", "keys"]) {
  check(
    "memory-resident batched probe within 1.5x of the native random-read floor",
    1.5,
    "lower",
    `rocksdb-bloom avx2 ${input}/batch, ${largest} keys (ns / floor ns)`,
    find({
      impl: "sstfilter",
      target: "native",
      op: "probe",
      format: "rocksdb-bloom",
      kernel: "avx2",
      input,
      mode: "batch",
      keys: largest,
    }),
    { value: floorOf("native") },
    (ours, floor) => ours / floor,
  );
  check(
    "memory-resident batched probe within 2.5x of the wasm random-read floor",
    2.5,
    "lower",
    `rocksdb-bloom wasm simd128 ${input}/batch, ${largest} keys (ns / floor ns)`,
    find({
      target: "wasm-simd128",
      op: "probe",
      format: "rocksdb-bloom",
      kernel: "simd128",
      input,
      mode: "batch",
      keys: largest,
    }),
    { value: floorOf("wasm") },
    (ours, floor) => ours / floor,
  );
}

const out = {
  generated: new Date().toISOString(),
  run: quick ? "quick" : "full",
  machine: {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    // Other work on the machine skews the memory-bound figures most: say how busy it was.
    loadAverageAtEnd: { "1min": loadavg()[0], "5min": loadavg()[1], "15min": loadavg()[2] },
  },
  versions: {
    sstfilter: JSON.parse(readFileSync("package.json", "utf8")).version,
    node: process.version,
    v8: process.versions.v8,
    compiler: firstLineOf("c++", ["--version"]),
    emscripten: firstLineOf("emcc", ["--version"]),
    googleBenchmark: debianVersion("libbenchmark-dev"),
    rocksdb: `${debianVersion("librocksdb-dev")} (Debian librocksdb-dev; built without AVX2, so its portable FastLocalBloom path)`,
    "bloom-filters": npmVersion("bloom-filters"),
    bloomfilter: npmVersion("bloomfilter"),
    "xxhash-wasm": npmVersion("xxhash-wasm"),
  },
  method: {
    keys: "16-byte keys, 10 bits per key (Ribbon: 10 Bloom-equivalent bits, NewRibbonFilterPolicy)",
    probes:
      "half keys of the filter, half absent; 2^16 probes for 10^4 keys, 2^22 (wasm single: 2^20) for larger filters",
    timing:
      "native: Google Benchmark CPU time, best of the repetitions, sstfilter and RocksDB run one after the other size by size; Node: best of several rounds of >= 150 ms",
    rocksdb:
      "FilterPolicy::GetBuilderWithContext / GetFilterBitsReader of Debian's librocksdb, called through interfaces declaring the 7.8.3 vtable layout (the headers only forward-declare FilterBitsBuilder/Reader); its bytes and answers are checked against sstfilter's every run",
    floor:
      "independent reads of random 64-byte lines of 1 GiB; each load shape is measured and the floor is the fastest",
    memory: "peak bytes allocated through operator new while building, per key (input keys excluded)",
  },
  results,
  targets,
};
writeFileSync(`${outDir}/results.json`, JSON.stringify(out, null, 2) + "\n");
writeFileSync(`${outDir}/results.svg`, chart(out));

for (const t of targets) {
  console.log(`${t.met ? "met   " : "MISSED"} ${t.target}: ${t.what} = ${t.ratio} (needs ${t.required})`);
}
console.log(`wrote ${outDir}/results.json and ${outDir}/results.svg`);

// A horizontal bar chart on a log scale: FastLocalBloom batched probes per implementation and
// filter size, and sstfilter against the npm peers.
function chart(data) {
  const r = data.results;
  const panels = [];
  const sizeLabel = (n) => `10^${Math.round(Math.log10(n))} keys`;
  for (const keys of sizes) {
    const rows = [
      [
        "sstfilter native AVX2",
        find({
          impl: "sstfilter",
          target: "native",
          op: "probe",
          format: "rocksdb-bloom",
          kernel: "avx2",
          input: "keys",
          mode: "batch",
          keys,
        }),
      ],
      [
        "sstfilter native scalar",
        find({
          impl: "sstfilter",
          target: "native",
          op: "probe",
          format: "rocksdb-bloom",
          kernel: "scalar",
          input: "keys",
          mode: "batch",
          keys,
        }),
      ],
      [
        "RocksDB 7.8.3 (Debian)",
        find({
          impl: "rocksdb-7.8.3",
          op: "probe",
          format: "rocksdb-bloom",
          input: "keys",
          mode: "batch",
          keys,
        }),
      ],
      [
        "sstfilter wasm SIMD128",
        find({
          target: "wasm-simd128",
          op: "probe",
          format: "rocksdb-bloom",
          kernel: "simd128",
          input: "keys",
          mode: "batch",
          keys,
        }),
      ],
      [
        "sstfilter wasm scalar",
        find({
          target: "wasm-scalar",
          op: "probe",
          format: "rocksdb-bloom",
          kernel: "scalar",
          input: "keys",
          mode: "batch",
          keys,
        }),
      ],
    ].filter(([, rec]) => rec);
    panels.push({ title: `FastLocalBloom batched probe, 16-byte keys hashed, ${sizeLabel(keys)}`, rows });
  }
  const peerKeys = Math.min(...r.filter((x) => x.impl === "bloom-filters").map((x) => x.keys));
  panels.push({
    title: `Probe at equal false-positive rate, ${sizeLabel(peerKeys)}, 16-character keys, hashing included`,
    rows: [
      [
        "sstfilter mayContainMany",
        find({
          impl: "sstfilter",
          target: "node",
          op: "probe",
          mode: "batch",
          input: "string",
          keys: peerKeys,
        }),
      ],
      [
        "sstfilter mayContain",
        find({
          impl: "sstfilter",
          target: "node",
          op: "probe",
          mode: "single",
          input: "string",
          keys: peerKeys,
        }),
      ],
      [
        "sstfilter, keys as bytes",
        find({
          impl: "sstfilter",
          target: "node",
          op: "probe",
          mode: "batch",
          input: "KeyBatch",
          keys: peerKeys,
        }),
      ],
      ["bloomfilter test", find({ impl: "bloomfilter", op: "probe", keys: peerKeys })],
      ["bloom-filters has", find({ impl: "bloom-filters", op: "probe", keys: peerKeys })],
    ].filter(([, rec]) => rec),
  });

  const width = 760;
  const left = 190;
  const plot = width - left - 70;
  const rowHeight = 20;
  const values = panels.flatMap((p) => p.rows.map(([, rec]) => rec.value));
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const x = (v) => left + (plot * Math.log10(v / lo)) / Math.log10(hi / lo);
  const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const colors = ["#1f6feb", "#6e9ef5", "#d1242f", "#1a7f37", "#6fcf8a", "#8250df", "#bf8700"];
  let y = 48;
  const parts = [];
  for (const panel of panels) {
    parts.push(`<text x="${left}" y="${y}" font-weight="bold">${escape(panel.title)}</text>`);
    y += 8;
    panel.rows.forEach(([label, rec], i) => {
      const top = y + i * rowHeight;
      parts.push(`<text x="${left - 8}" y="${top + 14}" text-anchor="end">${escape(label)}</text>`);
      parts.push(
        `<rect x="${left}" y="${top + 3}" width="${Math.max(1, x(rec.value) - left).toFixed(1)}" height="${rowHeight - 6}" fill="${colors[i % colors.length]}"/>`,
      );
      parts.push(`<text x="${(x(rec.value) + 5).toFixed(1)}" y="${top + 14}">${rec.value} ns</text>`);
    });
    y += panel.rows.length * rowHeight + 26;
  }
  const grid = [];
  for (let v = lo; v <= hi; v *= 10) {
    grid.push(
      `<line x1="${x(v).toFixed(1)}" y1="30" x2="${x(v).toFixed(1)}" y2="${y - 20}" stroke="#d0d7de"/>`,
    );
    grid.push(`<text x="${x(v).toFixed(1)}" y="${y - 4}" text-anchor="middle" fill="#57606a">${v} ns</text>`);
  }
  const title = `sstfilter benchmarks (${data.run} run): ns per key, log scale, lower is better`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y + 24}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="12" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`,
    ...grid,
    ...parts,
    `<text x="12" y="${y + 16}" fill="#57606a" font-size="10">${escape(data.machine.cpu)}, ${data.machine.cores} cores; ${escape(data.versions.node)}</text>`,
    `</svg>`,
    "",
  ].join("\n");
}
