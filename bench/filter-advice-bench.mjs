// @ts-check
// `sstfilter filter-advice` on 10^6 keys under 10 s (issue 32): filterAdvice with its defaults
// (the four policies at 4..20 bits per key, 100,000 absent keys, a sample of 10^6 keys) on
//   - a table the package writes itself: 10^6 db_bench-like keys (an 8-byte big-endian number,
//     ascending by seeded random gaps, then 8 bytes of "0" padding, as db_bench's
//     GenerateKeyFromInt lays keys out), 100-byte values, FastLocalBloom at 10 bits per key;
//   - db_bench's 5M fillrandom table when bench/content-bench.mjs has made it (3.16M distinct
//     keys: the reservoir sample of 10^6 is taken over all of them), or the table --table names.
// Each figure is the median of `runs` runs: wall seconds (what a user waits) and this process's
// CPU seconds (bench/timing.mjs; the machine is shared), with the load average beside them.
// Usage: node bench/filter-advice-bench.mjs --out FILE [--quick] [--table PATH]
// [--merge-into RESULTS_JSON] (the last sets the "filterAdvice" member of an existing results.json).
import { existsSync, mkdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";

import { filterAdvice, init } from "../dist/esm/platform/node.js";
import { writeReport } from "./report.mjs";
import { cpuMs, median } from "./timing.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outFile = args.includes("--out") ? args[args.indexOf("--out") + 1] : "build/bench/filter-advice.json";
const KEYS = quick ? 100_000 : 1_000_000;
const runs = quick ? 1 : 5;
const TARGET_SECONDS = 10;
const log = (/** @type {string} */ line) => process.stderr.write(`filter-advice bench: ${line}\n`);

const sf = await init({ simd: true });

/** The table of KEYS db_bench-like keys, written by sf.createTableWriter. */
function writtenTable() {
  const w = sf.createTableWriter({ format: "rocksdb", filter: "rocksdb-bloom", bitsPerKey: 10 });
  const key = new Uint8Array(16).fill(0x30);
  const view = new DataView(key.buffer);
  const value = new Uint8Array(100).fill(0x76);
  let state = 0x2545f491;
  let number = 0;
  for (let i = 0; i < KEYS; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    number += 1 + ((state >>> 0) % 8);
    view.setBigUint64(0, BigInt(number));
    w.put(key, value);
  }
  const bytes = w.finish();
  w.dispose();
  return bytes;
}

/**
 * Runs filterAdvice `runs` times on the table `open` gives: the median wall and CPU seconds.
 * @param {string} name @param {() => Promise<import("../dist/esm/platform/node.js").AsyncTable | import("../dist/esm/platform/node.js").Table>} open
 */
async function measure(name, open) {
  const wall = [];
  const cpu = [];
  /** @type {import("../dist/esm/platform/node.js").FilterAdvice | null} */
  let advice = null;
  for (let run = 0; run < runs; run++) {
    const table = await open();
    const startWall = performance.now();
    const startCpu = cpuMs();
    advice = await filterAdvice(sf, table, { sample: KEYS });
    cpu.push((cpuMs() - startCpu) / 1000);
    wall.push((performance.now() - startWall) / 1000);
    table.dispose();
    log(`${name}: run ${run + 1}, ${wall[run].toFixed(2)} s wall, ${cpu[run].toFixed(2)} s CPU`);
  }
  const set = advice?.sets[0];
  return {
    input: name,
    totalKeys: set?.totalKeys ?? 0,
    sampledKeys: set?.sampledKeys ?? 0,
    filters: set?.rows.length ?? 0,
    absentKeysPerFilter: set?.rows[0]?.probes ?? 0,
    wallSeconds: Number(median(wall).toFixed(2)),
    cpuSeconds: Number(median(cpu).toFixed(2)),
    targetSeconds: TARGET_SECONDS,
    met: median(wall) < TARGET_SECONDS,
  };
}

mkdirSync(path.dirname(outFile), { recursive: true });
const bytes = writtenTable();
const results = [await measure(`written table, ${KEYS} keys`, async () => sf.openTable(bytes))];
const dbBench = args.includes("--table")
  ? args[args.indexOf("--table") + 1]
  : "build/bench/content/fillrandom-5m-snappy.sst";
if (!quick && existsSync(dbBench)) {
  results.push(await measure(path.basename(dbBench), () => sf.openTableFile(dbBench)));
} else log(`${dbBench}: not measured (${quick ? "--quick" : "absent; bench/content-bench.mjs makes it"})`);

writeReport(args, outFile, "filterAdvice", {
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}`,
  loadAverage: Number(loadavg()[0].toFixed(1)),
  node: process.version,
  backend: sf.backend,
  method: `filterAdvice defaults (4 policies × bits per key 4..20, 100,000 absent keys), sample ${KEYS}; median of ${runs} runs`,
  results,
});
