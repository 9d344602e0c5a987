// Issue 17's database verify target, on a database of several GB that RocksDB 7.8.3's db_bench
// writes (Snappy, leveled compaction). The full run fills keys in order: each flushed file is
// moved down the levels without being rewritten, so 3 GB of tables on several levels take minutes
// to write (fillrandom rewrites every byte at each level, about 15 minutes a GB here). The quick
// run fills in random order:
//   `sstfilter db verify DIR` (every live file: MANIFEST, WALs, tables; 1 and 2 threads) against
//   `sst_dump --command=check --verify_checksum --file=X` run over the same live tables one after
//   another (sst_dump has no database mode), wall and CPU time of each, best of the rounds, same run.
// Usage: node bench/db-verify-bench.mjs --out FILE [--quick] [--merge-into RESULTS_JSON] (the last
// sets the "dbVerify" member of an existing results.json). The database is cached in
// build/bench/db-verify/, keyed by the db_bench command that wrote it (minutes, once).
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";

import { init } from "../dist/esm/platform/node.js";
import { dbBenchDatabase } from "./db-bench-database.mjs";
import { logTargets, writeReport } from "./report.mjs";
import { measureCommand } from "./timing.mjs";
import { debianVersion } from "./versions.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outFile = args[args.indexOf("--out") + 1];
const work = "build/bench/db-verify";
mkdirSync(work, { recursive: true });
const rounds = quick ? 2 : 3;
const log = (line) => process.stderr.write(`db verify bench: ${line}\n`);

/** The db_bench database `name` under build/bench/db-verify (db-bench-database.mjs). */
function dbBenchDatabaseOf(name, benchmark, num) {
  return dbBenchDatabase(
    work,
    name,
    [
      `--benchmarks=${benchmark}`,
      `--num=${num}`,
      "--key_size=16",
      "--value_size=100",
      "--compression_type=snappy",
      "--format_version=5",
      "--bloom_bits=10",
      "--seed=17",
      // No WAL while filling (writing one here runs at disk speed); closing flushes the memtable.
      "--disable_wal=1",
    ],
    log,
  );
}

/**
 * The best wall time and the best CPU time in seconds over the rounds of running `commands` one
 * after another: on a shared 2-core machine the wall time moves with the others' load, the CPU
 * time much less.
 */
function best(commands) {
  let wall = Infinity;
  let cpu = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint();
    let used = 0;
    for (const [cmd, cmdArgs] of commands) {
      const run = measureCommand(cmd, cmdArgs);
      if (run.status !== 0)
        throw new Error(`${cmd} ${cmdArgs.join(" ")} exited with ${run.status}: ${run.stderr}`);
      used += run.cpuSeconds;
    }
    wall = Math.min(wall, Number(process.hrtime.bigint() - started) / 1e9);
    cpu = Math.min(cpu, used);
  }
  return { wall, cpu };
}

const sf = await init();
const database = quick
  ? dbBenchDatabaseOf("fillrandom-1m-snappy", "fillrandom", 1000000)
  : dbBenchDatabaseOf("fillseq-48m-snappy", "fillseq", 48000000);
const db = await sf.openDatabase(database.dir);
const tables = db.columnFamilies.flatMap((cf) => cf.levels.flatMap((l) => l.files));
const tableBytes = tables.reduce((n, f) => n + f.size, 0);
// One sound pass first: the figures below are of a database that verifies clean.
const check = await db.verify();
if (!check.ok) {
  const bad = check.files.filter((f) => f.status === "error").map((f) => f.error.message);
  throw new Error(`${database.dir} does not verify: ${bad.join("; ")}`);
}
log(`${tables.length} tables, ${(tableBytes / 1e9).toFixed(2)} GB; ${check.files.length} files verified`);

const sstDump = best(
  tables.map((f) => [
    "sst_dump",
    ["--command=check", "--verify_checksum", `--file=${path.join(database.dir, f.name)}`],
  ]),
);
const cli = (jobs) => [
  process.execPath,
  ["dist/esm/bin/sstfilter.js", "db", "verify", database.dir, "--jobs", String(jobs)],
];
const oneThread = best([cli(1)]);
const twoThreads = best([cli(2)]);
const results = {
  database: {
    dbBench: database.command,
    tables: tables.length,
    tableBytes,
    filesVerified: check.files.length,
    bytesVerified: check.bytesTotal,
    tablesPerLevel: db.levels.map((l) => l.files.length),
  },
  loadAverage: loadavg()[0],
  sstDumpCheckAllTables: sstDump,
  sstfilterDbVerifyOneThread: oneThread,
  sstfilterDbVerifyTwoThreads: twoThreads,
  wallRatioOneThread: oneThread.wall / sstDump.wall,
  wallRatioTwoThreads: twoThreads.wall / sstDump.wall,
  cpuRatioOneThread: oneThread.cpu / sstDump.cpu,
};
const targets = [
  {
    name: "sstfilter db verify --jobs 2 / sst_dump --command=check over the live tables (wall)",
    value: results.wallRatioTwoThreads,
    limit: 1.5,
    unit: "x",
    met: results.wallRatioTwoThreads <= 1.5,
  },
];
const seconds = (t) => `${t.wall.toFixed(2)} s (${t.cpu.toFixed(2)} s CPU)`;
log(
  `sst_dump over ${tables.length} tables ${seconds(sstDump)}; db verify ${seconds(oneThread)} on 1 thread, ` +
    `${seconds(twoThreads)} on 2; load average ${results.loadAverage.toFixed(1)}`,
);

const report = {
  generated: new Date().toISOString(),
  run: quick ? "quick" : "full",
  versions: {
    rocksdb: debianVersion("rocksdb-tools"),
    node: process.version,
  },
  method:
    "wall and CPU (user + system) times, each the best of the rounds; sst_dump once per live table one after another, then sstfilter db verify on the directory",
  results,
  targets,
};
writeReport(args, outFile, "dbVerify", report);
logTargets(log, targets, (value) => value.toFixed(2));
