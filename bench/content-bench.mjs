// Issue 14's content-path targets, measured on tables RocksDB 7.8.3's db_bench writes:
//   verify:   `sstfilter verify FILE` against `sst_dump --command=check --verify_checksum` (wall
//             time of each command, median of the rounds, alternating with sst_dump)
//   walk:     `for await (const k of t.keys())` over openTableFile from Node, in keys per second
//             (and the synchronous walk over bytes, and keyBatches())
//   codecs:   walking a table of each codec in wasm SIMD128 against the same walk natively
//             (sstfilter_bench walk/<codec>): reads, checksums, decompression, key decoding
//   probes:   table.mayContainMany(keyBatch) against filter.mayContainMany on the same filter bytes
//   memory:   peak RSS of `sstfilter verify` (GNU time), on a 2 GB table in the full run
//   viewer:   the viewer verifying the main table in headless Chromium, against the Node figure
//   scan:     `sstfilter scan FILE --output-hex` against `sst_dump --command=scan --output_hex`
//             on the main table, output to /dev/null (issue 15)
// Usage: node bench/content-bench.mjs --out FILE [--quick] [--merge-into RESULTS_JSON] (the last
// sets the "content" member of an existing results.json). Tables are cached in
// build/bench/content/, keyed by the db_bench command that wrote them.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { init } from "../dist/esm/platform/node.js";
import { dbBenchTable } from "./db-bench-table.mjs";
import { logTargets, writeReport } from "./report.mjs";
import { measureCommand, median } from "./timing.mjs";
import { debianVersion } from "./versions.mjs";
import { openViewerPage } from "./viewer-page.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outFile = args[args.indexOf("--out") + 1];
const work = "build/bench/content";
mkdirSync(work, { recursive: true });
const rounds = quick ? 3 : 5;
const log = (line) => process.stderr.write(`content bench: ${line}\n`);

/**
 * Runs each of `commands` ([cmd, args]) `rounds` times, alternating (one run of each, then the next
 * round, the first of them changing each round) so that the shared machine's drift reaches them
 * alike; their output is discarded. Per command: the median wall and CPU seconds and every run's wall.
 */
function alternatingMedians(commands) {
  const runs = commands.map(() => ({ wall: [], cpu: [] }));
  for (let r = 0; r < rounds; r++) {
    const order = commands.map((_, i) => (i + r) % commands.length);
    for (const i of order) {
      const [cmd, cmdArgs] = commands[i];
      const run = measureCommand(cmd, cmdArgs);
      if (run.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(" ")} exited with ${run.status}`);
      runs[i].wall.push(run.wallSeconds);
      runs[i].cpu.push(run.cpuSeconds);
    }
  }
  return runs.map(({ wall, cpu }) => ({ wall: median(wall), cpu: median(cpu), walls: wall }));
}

/** Median time in seconds of an async function over `times` rounds (default: the run's rounds). */
async function medianTime(fn, times = rounds) {
  const seconds = [];
  for (let r = 0; r < times; r++) {
    const started = performance.now();
    await fn();
    seconds.push((performance.now() - started) / 1000);
  }
  return median(seconds);
}

/** Peak resident memory of a command in MB (GNU time's maximum resident set size). */
function peakRssMb(cmd, cmdArgs) {
  const run = measureCommand(cmd, cmdArgs);
  if (run.status !== 0) throw new Error(`${cmd} exited with ${run.status}: ${run.stderr}`);
  return run.peakRssMb;
}

const cliPath = "dist/esm/bin/sstfilter.js";
const cli = [cliPath, "verify"];
const sf = await init();
const results = {};
const targets = [];
const target = (name, value, limit, unit, better = "lower") =>
  targets.push({ name, value, limit, unit, met: better === "lower" ? value <= limit : value >= limit });

// ---- the main table: verify and the key walk ----
const mainTable = dbBenchTable(
  work,
  quick ? "fillrandom-500k-snappy" : "fillrandom-5m-snappy",
  [`--num=${quick ? 500000 : 5000000}`, "--compression_type=snappy"],
  log,
);
{
  const [check, verify, verifyOneThread] = alternatingMedians([
    ["sst_dump", [`--file=${mainTable.file}`, "--command=check", "--verify_checksum"]],
    [process.execPath, [...cli, mainTable.file]],
    [process.execPath, [...cli, "--jobs", "1", mainTable.file]],
  ]);
  const [scanPeer, scanOurs] = alternatingMedians([
    ["sst_dump", [`--file=${mainTable.file}`, "--command=scan", "--output_hex"]],
    [process.execPath, [cliPath, "scan", mainTable.file, "--output-hex"]],
  ]);
  const sstDump = check.wall;
  const ours = verify.wall;
  const sstDumpScan = scanPeer.wall;
  const oursScan = scanOurs.wall;
  const t = await sf.openTableFile(mainTable.file);
  const entries = Number(t.properties["rocksdb.num.entries"]);
  let counted = 0;
  const walkAsync = await medianTime(async () => {
    counted = 0;
    for await (const _ of t.keys()) counted++;
  });
  if (counted !== entries) throw new Error(`walked ${counted} keys of ${entries}`);
  const batchesAsync = await medianTime(async () => {
    for await (const _ of t.keyBatches());
  });
  const bytes = readFileSync(mainTable.file);
  const inMemory = sf.openTable(bytes);
  const walkSync = await medianTime(() => {
    for (const _ of inMemory.keys());
  });
  inMemory.dispose();
  t.dispose();
  results.main = {
    table: { file: path.basename(mainTable.file), bytes: bytes.length, entries, dbBench: mainTable.command },
    sstDumpCheckSeconds: sstDump,
    sstfilterVerifySeconds: ours,
    verifyRatio: ours / sstDump,
    sstDumpCheckCpuSeconds: check.cpu,
    sstfilterVerifyCpuSeconds: verify.cpu,
    verifyWalls: { sstDump: check.walls, sstfilter: verify.walls },
    sstfilterVerifyOneThreadSeconds: verifyOneThread.wall,
    sstDumpScanHexSeconds: sstDumpScan,
    sstfilterScanHexSeconds: oursScan,
    scanRatio: oursScan / sstDumpScan,
    keyWalk: {
      forAwaitKeysPerSecond: entries / walkAsync,
      syncKeysPerSecond: entries / walkSync,
      keyBatchesAsyncKeysPerSecond: entries / batchesAsync,
    },
    verifyPeakRssMb: peakRssMb(process.execPath, [...cli, mainTable.file]),
    sstDumpPeakRssMb: peakRssMb("sst_dump", [
      `--file=${mainTable.file}`,
      "--command=check",
      "--verify_checksum",
    ]),
  };
  target("sstfilter verify / sst_dump check --verify_checksum", ours / sstDump, 1.5, "x");
  target(
    "sstfilter scan --output-hex / sst_dump --command=scan --output_hex",
    oursScan / sstDumpScan,
    1,
    "x",
  );
  target("key walk from Node (for await t.keys())", entries / walkAsync / 1e6, 10, "M keys/s", "higher");
  log(
    `verify ${ours.toFixed(3)} s, sst_dump ${sstDump.toFixed(3)} s; scan ${oursScan.toFixed(3)} s, sst_dump ${sstDumpScan.toFixed(3)} s; walk ${(entries / walkAsync / 1e6).toFixed(2)} M keys/s`,
  );
}

// ---- per codec: wasm SIMD128 walk against the native one ----
{
  const codecs = ["snappy", "zlib", "bzip2", "lz4", "zstd"];
  const num = quick ? 100000 : 500000;
  const tables = Object.fromEntries(
    codecs.map((codec) => [
      codec,
      dbBenchTable(work, `fillrandom-${num}-${codec}`, [`--num=${num}`, `--compression_type=${codec}`], log),
    ]),
  );
  const gbench = JSON.parse(
    execFileSync("build/native/sstfilter_bench", [
      `--walk_tables=${codecs.map((c) => `${c}=${tables[c].file}`).join(",")}`,
      "--benchmark_format=json",
      `--benchmark_min_time=${quick ? 0.2 : 0.5}`,
    ]).toString(),
  ).benchmarks;
  results.codecs = {};
  for (const codec of codecs) {
    const native = gbench.find((b) => b.name === `walk/${codec}`);
    const bytes = readFileSync(tables[codec].file);
    const t = sf.openTable(bytes);
    let keys = 0;
    // A walk of these tables takes tens of milliseconds, where the shared machine's hiccups weigh
    // most: the median of more rounds (Google Benchmark's native figure is a mean over half a second).
    const seconds = await medianTime(() => {
      keys = 0;
      for (const batch of t.keyBatches()) keys += batch.offsets.length - 1;
    }, 3 * rounds);
    t.dispose();
    const wasmNs = (seconds * 1e9) / keys;
    results.codecs[codec] = {
      table: { bytes: bytes.length, keys, dbBench: tables[codec].command },
      nativeNsPerKey: native.ns_per_key,
      wasmSimdNsPerKey: wasmNs,
      ratio: wasmNs / native.ns_per_key,
    };
    target(`${codec}: wasm SIMD128 walk / native walk`, wasmNs / native.ns_per_key, 2, "x");
  }
}

// ---- table.mayContainMany against filter.mayContainMany on the same filter ----
{
  const t = sf.openTable(readFileSync(mainTable.file));
  const filter = sf.openFilter(t.filterBytes()[0]);
  const n = 1 << 20;
  const keys = sf.packKeys(Array.from({ length: n }, (_, i) => `probe-key-${i * 7919}`));
  const repeat = 8;
  const tableSeconds = await medianTime(() => {
    for (let r = 0; r < repeat; r++) t.mayContainMany(keys);
  });
  const filterSeconds = await medianTime(() => {
    for (let r = 0; r < repeat; r++) filter.mayContainMany(keys);
  });
  const same = Buffer.compare(t.mayContainMany(keys), filter.mayContainMany(keys)) === 0;
  if (!same) throw new Error("table.mayContainMany and filter.mayContainMany disagree");
  filter.dispose();
  t.dispose();
  results.probes = {
    keys: n,
    tableNsPerKey: (tableSeconds * 1e9) / (n * repeat),
    filterNsPerKey: (filterSeconds * 1e9) / (n * repeat),
    ratio: tableSeconds / filterSeconds,
  };
  target("table.mayContainMany / filter.mayContainMany", tableSeconds / filterSeconds, 1.25, "x");
}

// ---- memory on a 2 GB table (full run only: db_bench takes minutes to write it) ----
if (!quick) {
  const big = dbBenchTable(
    work,
    "fillrandom-45m-snappy",
    ["--num=45000000", "--compression_type=snappy"],
    log,
  );
  const bytes = Number(execFileSync("stat", ["-c", "%s", big.file]).toString());
  const rss = peakRssMb(process.execPath, [...cli, big.file]);
  const rssTwoThreads = peakRssMb(process.execPath, [...cli, "--jobs", "2", big.file]);
  results.bigTable = {
    bytes,
    dbBench: big.command,
    verifyPeakRssMb: rss,
    verifyTwoThreadsPeakRssMb: rssTwoThreads,
  };
  target("peak RSS of sstfilter verify on a 2 GB table", rss, 150, "MB");
}

// ---- the viewer in headless Chromium ----
{
  const { page, close } = await openViewerPage();
  try {
    await page.setInputFiles("#file", mainTable.file);
    await page.waitForSelector("#status.ok", { timeout: 120000 });
    // The time the viewer itself shows under the bar (from its click handler to the report), and
    // the time from playwright's click to the report on the page, which adds the driver's round
    // trips (0.1-0.4 s here).
    const viewerRuns = [];
    const clickToReportRuns = [];
    for (let r = 0; r < rounds; r++) {
      const started = performance.now();
      await page.click("#verify");
      await page.waitForSelector("#verify-result:not([hidden])", { timeout: 600000 });
      clickToReportRuns.push((performance.now() - started) / 1000);
      const shown = /^([\d.]+) s$/.exec((await page.textContent("#verify-progress")) ?? "");
      if (!shown) throw new Error("the viewer did not show its verify time");
      viewerRuns.push(Number(shown[1]));
      await page.waitForSelector("#verify:not([disabled])");
    }
    const viewer = median(viewerRuns);
    const clickToReport = median(clickToReportRuns);
    results.viewer = {
      verifySeconds: viewer,
      clickToReportSeconds: clickToReport,
      cores: await page.evaluate(() => navigator.hardwareConcurrency),
      ratioToNodeVerify: viewer / results.main.sstfilterVerifySeconds,
    };
    target("viewer verify in Chromium / Node verify", viewer / results.main.sstfilterVerifySeconds, 2, "x");
  } finally {
    await close();
  }
}

const report = {
  generated: new Date().toISOString(),
  run: quick ? "quick" : "full",
  versions: {
    rocksdb: debianVersion("rocksdb-tools"),
    node: process.version,
    chromium: debianVersion("chromium"),
  },
  method:
    "medians of the rounds (5 in a full run), the commands alternating with their peer's in each round (wall and CPU time by GNU time); in-process walks: medians of the rounds; sstfilter verify runs with its default --jobs",
  results,
  targets,
};
writeReport(args, outFile, "content", report);
logTargets(log, targets, (value) => value.toFixed(2));
