// @ts-check
// `sstfilter diff` of two 200 MB tables within 2x of `sst_dump --command=scan` over both (issue 32).
// RocksDB 7.8.3's db_bench writes both from one seed: A is 5M `fillrandom` writes (3.16M distinct
// keys, 222 MB), B the same 5M writes and 10,000 more, which add keys (only in B) or overwrite
// keys of A (changed: value and sequence number); every other entry is equal. The peer's time is
// sst_dump's scan of A and then of B, one after the other (sst_dump reads one file); ours is the
// summary a user reads for big tables (`sstfilter diff A B`, the first 10 of each kind), output to
// /dev/null in both. Each round runs both, the first of them alternating; medians of the rounds,
// wall and CPU seconds and peak RSS by GNU time, the load average before and after beside them.
// Usage: node bench/diff-bench.mjs --out FILE [--quick] [--merge-into RESULTS_JSON] (the last sets
// the "diff" member of an existing results.json). Tables are cached in build/bench/diff/.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";

import { dbBenchTable } from "./db-bench-table.mjs";
import { writeReport } from "./report.mjs";
import { measureCommand, median } from "./timing.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outFile = args.includes("--out") ? args[args.indexOf("--out") + 1] : "build/bench/diff.json";
const work = "build/bench/diff";
mkdirSync(work, { recursive: true });
const rounds = quick ? 3 : 5;
const TARGET_RATIO = 2;
const log = (/** @type {string} */ line) => process.stderr.write(`diff bench: ${line}\n`);

const num = quick ? 500_000 : 5_000_000;
const extraWrites = num / 500;
// A fixed seed: both runs of db_bench draw the same keys and values for the first `num` writes.
const common = [`--num=${num}`, "--seed=32", "--compression_type=snappy"];
const tableA = dbBenchTable(work, `fillrandom-${num}-seed32`, common, log);
const tableB = dbBenchTable(
  work,
  `fillrandom-${num}-seed32-plus-${extraWrites}`,
  [...common, `--writes=${num + extraWrites}`],
  log,
);
const cli = ["dist/esm/bin/sstfilter.js", "diff", tableA.file, tableB.file];

// What ours finds, checked against how B was written: nothing only in A, B's extra entries only
// in B, and together with the changed ones no more than the extra writes.
const found = JSON.parse(
  spawnSync(process.execPath, [...cli, "--json"], { maxBuffer: 1 << 26 }).stdout.toString(),
).entries;
if (
  found.onlyInA !== 0 ||
  found.countB - found.countA !== found.onlyInB ||
  found.onlyInB + found.changed > extraWrites ||
  found.changed === 0
) {
  throw new Error(
    `diff found ${JSON.stringify({ ...found, onlyInASamples: [], onlyInBSamples: [], changedSamples: [] })}`,
  );
}

/** One run of ours: `sstfilter diff A B` exits 1, the tables differing. */
function runOurs() {
  const run = measureCommand(process.execPath, cli);
  if (run.status !== 1) throw new Error(`sstfilter diff exited with ${run.status}: ${run.stderr}`);
  return { wall: run.wallSeconds, cpu: run.cpuSeconds, rss: run.peakRssMb };
}

/** One run of the peer: sst_dump's scan of A, then of B; their times summed, the larger peak. */
function runPeer() {
  const runs = [tableA.file, tableB.file].map((file) => {
    const run = measureCommand("sst_dump", [`--file=${file}`, "--command=scan"]);
    if (run.status !== 0) throw new Error(`sst_dump --command=scan exited with ${run.status}: ${run.stderr}`);
    return run;
  });
  return {
    wall: runs[0].wallSeconds + runs[1].wallSeconds,
    cpu: runs[0].cpuSeconds + runs[1].cpuSeconds,
    rss: Math.max(runs[0].peakRssMb, runs[1].peakRssMb),
  };
}

const loadBefore = loadavg()[0];
/** @type {{ wall: number, cpu: number, rss: number }[][]} */
const [ours, peer] = [[], []];
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    ours.push(runOurs());
    peer.push(runPeer());
  } else {
    peer.push(runPeer());
    ours.push(runOurs());
  }
  log(`round ${r + 1}: diff ${ours[r].wall.toFixed(2)} s, sst_dump scans ${peer[r].wall.toFixed(2)} s`);
}
const loadAfter = loadavg()[0];
const medians = (/** @type {{ wall: number, cpu: number, rss: number }[]} */ runs) => ({
  wallSeconds: median(runs.map((x) => x.wall)),
  cpuSeconds: median(runs.map((x) => x.cpu)),
  peakRssMb: median(runs.map((x) => x.rss)),
  walls: runs.map((x) => x.wall),
});
const oursMedians = medians(ours);
const peerMedians = medians(peer);
const ratio = oursMedians.wallSeconds / peerMedians.wallSeconds;
const table = (/** @type {{ file: string, command: string }} */ t) => ({
  file: path.basename(t.file),
  bytes: statSync(t.file).size,
  dbBench: t.command,
});
const report = {
  generated: new Date().toISOString(),
  run: quick ? "quick" : "full",
  versions: {
    rocksdb: execFileSync("dpkg-query", ["-W", "-f=${Version}", "rocksdb-tools"]).toString(),
    node: process.version,
  },
  method:
    "medians of the rounds (5 in a full run), `sstfilter diff A B` and sst_dump's two scans (one after the other, their times summed) alternating first in each round; wall and CPU time and peak RSS by GNU time; output to /dev/null",
  loadAverage: { before: loadBefore, after: loadAfter },
  results: {
    tables: { a: table(tableA), b: table(tableB) },
    found: {
      countA: found.countA,
      countB: found.countB,
      onlyInA: found.onlyInA,
      onlyInB: found.onlyInB,
      changed: found.changed,
    },
    sstfilterDiff: oursMedians,
    sstDumpScans: peerMedians,
    ratio,
  },
  targets: [
    {
      name: "sstfilter diff A B / sst_dump --command=scan of A and of B",
      value: ratio,
      limit: TARGET_RATIO,
      unit: "x",
      met: ratio <= TARGET_RATIO,
    },
  ],
};
writeReport(args, outFile, "diff", report);
log(
  `${ratio <= TARGET_RATIO ? "met    " : "NOT MET"} diff ${oursMedians.wallSeconds.toFixed(2)} s (${oursMedians.peakRssMb.toFixed(0)} MB), sst_dump scans ${peerMedians.wallSeconds.toFixed(2)} s: ${ratio.toFixed(2)}x (target ${TARGET_RATIO}x); load ${loadBefore.toFixed(1)} -> ${loadAfter.toFixed(1)}`,
);
