// Issue 16's writer targets: writing 10^6 entries (16-byte keys, 100-byte values, Snappy,
// FastLocalBloom at 10 bits per key) natively within 1.2x of RocksDB 7.8.3's SstFileWriter, and in
// wasm SIMD128 from Node within 2.5x. The native figures come from
// build/bench-rocksdb/sstfilter_rocksdb_table_writer_bench (bench/rocksdb/table_writer_bench.cc:
// both native writers, same entries, files equal byte for byte); this script then writes the same
// entries through sf.createTableWriter on the SIMD128 module, streamed to a file in /dev/shm
// (takeOutput each MiB, fsync at the end), checks the file equals SstFileWriter's, and times it
// with the same clock (this process's CPU time), best of the rounds.
// Usage: node bench/writer-bench.mjs --out FILE [--quick] [--merge-into RESULTS_JSON] (the last
// sets the "writer" member of an existing results.json).
import { execFileSync } from "node:child_process";
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";

import { init, VOLATILE_PROPERTIES } from "../dist/esm/platform/node.js";
import { writeReport } from "./report.mjs";
import { cpuMs } from "./timing.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outFile = args[args.indexOf("--out") + 1];
const entries = quick ? 100_000 : 1_000_000;
const rounds = quick ? 1 : 3;
const log = (line) => process.stderr.write(`writer bench: ${line}\n`);
const KEY_BYTES = 16;
const VALUE_BYTES = 100;

log(`native: SstFileWriter and sstfilter's TableWriter, ${entries} entries`);
const native = JSON.parse(
  execFileSync(
    "build/bench-rocksdb/sstfilter_rocksdb_table_writer_bench",
    [`--entries=${entries}`, `--rounds=${rounds}`],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  ),
);

/** The entries of table_writer_bench.cc's Entries, byte for byte. */
function makeEntries(n) {
  const keys = new Uint8Array(KEY_BYTES * n);
  const values = new Uint8Array(VALUE_BYTES * n);
  const encoder = new TextEncoder();
  for (let i = 0; i < n; i++) {
    encoder.encodeInto(String(7 * i).padStart(KEY_BYTES, "0"), keys.subarray(KEY_BYTES * i));
    let x = i >>> 0;
    for (let j = 0; j < VALUE_BYTES / 2; j++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      values[VALUE_BYTES * i + j] = values[VALUE_BYTES * i + j + VALUE_BYTES / 2] = 32 + ((x >>> 24) % 95);
    }
  }
  return { keys, values };
}

const sf = await init({ simd: true });
const expected = readFileSync(native.rocksdbFile);
// The identity and clock SstFileWriter recorded, so that the wasm writer's file can equal it.
const identity = (() => {
  const t = sf.openTable(expected);
  const properties = t.properties;
  t.dispose();
  return Object.fromEntries(
    VOLATILE_PROPERTIES.filter((n) => n in properties).map((n) => [n, String(properties[n])]),
  );
})();
const { keys, values } = makeEntries(entries);
const wasmFile = "/dev/shm/sstfilter-bench-wasm.sst";

/** Writes the table to wasmFile as a user streaming to a file would; returns CPU seconds. */
function writeWasm() {
  const start = cpuMs();
  const fd = openSync(wasmFile, "w");
  const w = sf.createTableWriter({
    format: "rocksdb",
    formatVersion: 5,
    filter: "rocksdb-bloom",
    bitsPerKey: 10,
    compression: "snappy",
    checksum: "xxh3",
    properties: identity,
  });
  for (let i = 0; i < entries; i++) {
    w.put(
      keys.subarray(KEY_BYTES * i, KEY_BYTES * (i + 1)),
      values.subarray(VALUE_BYTES * i, VALUE_BYTES * (i + 1)),
    );
    if (w.pendingBytes >= 1 << 20) writeSync(fd, w.takeOutput());
  }
  writeSync(fd, w.finish());
  w.dispose();
  fsyncSync(fd);
  closeSync(fd);
  return (cpuMs() - start) / 1000;
}

log(`wasm SIMD128: sf.createTableWriter, ${entries} entries`);
writeWasm(); // warm-up, and the check
if (!Buffer.from(readFileSync(wasmFile)).equals(expected)) {
  throw new Error("the wasm writer's file differs from SstFileWriter's");
}
let wasmSeconds = Infinity;
for (let round = 0; round < rounds; round++) wasmSeconds = Math.min(wasmSeconds, writeWasm());
rmSync(wasmFile, { force: true });
rmSync(native.rocksdbFile, { force: true });

const round4 = (x) => Number(x.toPrecision(4));
const report = {
  generated: new Date().toISOString(),
  run: quick ? "quick" : "full",
  method:
    "CPU time of the writing process, best of the rounds; each writer streams its file to /dev/shm and syncs it; " +
    "all three files are equal byte for byte (sstfilter given SstFileWriter's session id, host and times)",
  table: {
    entries,
    keyBytes: KEY_BYTES,
    valueBytes: VALUE_BYTES,
    compression: "snappy",
    filter: "rocksdb-bloom (FastLocalBloom), 10 bits per key, format_version 5",
    checksum: "xxh3",
    fileBytes: native.fileBytes,
  },
  results: {
    rocksdbSstFileWriterSeconds: round4(native.rocksdbSstFileWriterSeconds),
    nativeSeconds: round4(native.nativeSeconds),
    wasmSimdSeconds: round4(wasmSeconds),
  },
  targets: {
    native: { ratio: round4(native.nativeSeconds / native.rocksdbSstFileWriterSeconds), target: 1.2 },
    wasmSimd: { ratio: round4(wasmSeconds / native.rocksdbSstFileWriterSeconds), target: 2.5 },
  },
};
for (const t of Object.values(report.targets)) t.met = t.ratio <= t.target;
log(JSON.stringify(report.results) + " " + JSON.stringify(report.targets));
writeReport(args, outFile, "writer", report);
