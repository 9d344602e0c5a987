// Issue 17's database verify target, on a database RocksDB 7.8.3's db_bench writes (fillrandom,
// Snappy, leveled compaction: tables on several levels):
//   `sstfilter db verify DIR` (every live file: MANIFEST, WALs, tables; 1 and 2 threads) against
//   `sst_dump --command=check --verify_checksum --file=X` run over the same live tables one after
//   another (sst_dump has no database mode), wall time of each, best of the rounds, same run.
// Usage: node bench/db-verify-bench.mjs --out FILE [--quick] [--merge-into RESULTS_JSON] (the last
// sets the "dbVerify" member of an existing results.json). The database is cached in
// build/bench/db-verify/, keyed by the db_bench command that wrote it (minutes, once).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import { init } from "../dist/esm/platform/node.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outFile = args[args.indexOf("--out") + 1];
const work = "build/bench/db-verify";
mkdirSync(work, { recursive: true });
const rounds = quick ? 2 : 3;
const log = (line) => process.stderr.write(`db verify bench: ${line}\n`);

/** Runs db_bench into `name` under build/bench/db-verify unless the same command wrote it. */
function dbBenchDatabase(name, num) {
  const command = [
    "db_bench",
    "--benchmarks=fillrandom",
    `--num=${num}`,
    "--key_size=16",
    "--value_size=100",
    "--compression_type=snappy",
    "--format_version=5",
    "--bloom_bits=10",
    "--seed=17",
    // No WAL while filling (writing one here runs at disk speed); closing flushes the memtable.
    "--disable_wal=1",
  ];
  const dir = path.join(work, name);
  const stamp = `${dir}.command`;
  if (existsSync(dir) && existsSync(stamp) && readFileSync(stamp, "utf8") === command.join(" ")) {
    return { dir, command: command.join(" ") };
  }
  rmSync(dir, { recursive: true, force: true });
  log(`writing ${name}: ${command.join(" ")}`);
  const run = spawnSync(command[0], [...command.slice(1), `--db=${path.resolve(dir)}`], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (run.status !== 0) throw new Error(`db_bench exited with ${run.status}: ${run.stderr}`);
  writeFileSync(stamp, command.join(" "));
  return { dir, command: command.join(" ") };
}

/** Best wall time in seconds of `once()` over the rounds. */
function bestOf(once) {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint();
    once();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e9);
  }
  return best;
}

/** Runs a command, output discarded; throws unless it exits 0. */
function quiet(cmd, cmdArgs) {
  const run = spawnSync(cmd, cmdArgs, { stdio: ["ignore", "ignore", "inherit"] });
  if (run.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(" ")} exited with ${run.status}`);
}

const sf = await init();
const database = dbBenchDatabase(
  quick ? "fillrandom-1m-snappy" : "fillrandom-20m-snappy",
  quick ? 1000000 : 20000000,
);
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

const sstDump = bestOf(() => {
  for (const f of tables) {
    quiet("sst_dump", ["--command=check", "--verify_checksum", `--file=${path.join(database.dir, f.name)}`]);
  }
});
const cli = (jobs) => ["dist/esm/tools/cli.js", "db", "verify", database.dir, "--jobs", String(jobs)];
const oneThread = bestOf(() => quiet(process.execPath, cli(1)));
const twoThreads = bestOf(() => quiet(process.execPath, cli(2)));
const results = {
  database: {
    dbBench: database.command,
    tables: tables.length,
    tableBytes,
    filesVerified: check.files.length,
    bytesVerified: check.bytesVerified,
    levels: db.levels.map((l) => l.files.length),
  },
  sstDumpCheckAllTablesSeconds: sstDump,
  sstfilterDbVerifyOneThreadSeconds: oneThread,
  sstfilterDbVerifyTwoThreadsSeconds: twoThreads,
  ratioOneThread: oneThread / sstDump,
  ratioTwoThreads: twoThreads / sstDump,
};
const targets = [
  {
    name: "sstfilter db verify --jobs 2 / sst_dump --command=check over the live tables",
    value: twoThreads / sstDump,
    limit: 1.5,
    unit: "x",
    met: twoThreads / sstDump <= 1.5,
  },
];
log(
  `sst_dump over ${tables.length} tables ${sstDump.toFixed(2)} s; db verify ${oneThread.toFixed(2)} s (1 thread), ` +
    `${twoThreads.toFixed(2)} s (2 threads)`,
);

const report = {
  generated: new Date().toISOString(),
  run: quick ? "quick" : "full",
  versions: {
    rocksdb: execFileSync("dpkg-query", ["-W", "-f=${Version}", "rocksdb-tools"]).toString(),
    node: process.version,
  },
  method:
    "wall times, best of the rounds; sst_dump once per live table one after another, then sstfilter db verify on the directory",
  results,
  targets,
};
writeFileSync(outFile, JSON.stringify(report, null, 2) + "\n");
if (args.includes("--merge-into")) {
  const into = args[args.indexOf("--merge-into") + 1];
  const merged = JSON.parse(readFileSync(into, "utf8"));
  merged.dbVerify = report;
  writeFileSync(into, JSON.stringify(merged, null, 2) + "\n");
}
for (const t of targets)
  log(`${t.met ? "met    " : "NOT MET"} ${t.name}: ${t.value.toFixed(2)} ${t.unit} (target ${t.limit})`);
