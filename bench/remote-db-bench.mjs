// Issue 32's remote database: `sstfilter db get --hex URL KEY` on db_bench's levels-200k database
// (db-bench-database.mjs: ~16 tables on levels 0-2 and a live WAL, the database db-get-bench.mjs
// reads, cached in build/bench/db-get/) served in place by a local HTTP server that honours Range
// (range-server.mjs, on a worker thread of this process), against the same command on the local
// folder: wall time and peak RSS (GNU time) of each, and the requests and body bytes the server sent
// for the URL's run (discovery from CURRENT and the MANIFEST, the WAL's replay, the tables the Get
// reads), for a present and an absent key; medians of `runs` runs, local and URL alternating (the
// first of the two changing each run). Both print the same answer.
// Usage: node bench/remote-db-bench.mjs --out FILE [--quick | --runs N] [--merge-into RESULTS_JSON]
// (the last sets the "remoteDb" member of an existing results.json). Runs: 5, --quick 3.
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";

import { init } from "../dist/esm/platform/node.js";
import { dbBenchDatabase, LEVELS_200K_FLAGS } from "./db-bench-database.mjs";
import { startRangeServer } from "./range-server.mjs";
import { writeReport } from "./report.mjs";
import { measureCommand, median } from "./timing.mjs";

const args = process.argv.slice(2);
const log = (/** @type {string} */ line) => process.stderr.write(`remote db bench: ${line}\n`);
const runs = args.includes("--runs")
  ? Number(args[args.indexOf("--runs") + 1])
  : args.includes("--quick")
    ? 3
    : 5;
const outFile = args[args.indexOf("--out") + 1];
const CLI = "dist/esm/bin/sstfilter.js";
const round4 = (/** @type {number} */ x) => Number(x.toPrecision(4));
const hexArg = (/** @type {Uint8Array} */ key) => `0x${Buffer.from(key).toString("hex").toUpperCase()}`;

const work = "build/bench/db-get"; // db-get-bench.mjs's: the database is written once for both
mkdirSync(work, { recursive: true });
const { dir, command } = dbBenchDatabase(work, "levels-200k", LEVELS_200K_FLAGS, log);

// A present key, the smallest of the deepest level's first table (a Get walks the WAL's memtable
// and every level above it first), and an absent one just after it, inside the same table's range.
const sf = await init();
const db = await sf.openDatabase(dir);
const deepest = [...db.levels].reverse().find((l) => l.files.length > 0);
if (deepest === undefined) throw new Error(`${dir}: no live tables`);
const present = deepest.files[0].smallestKey;
const keys = [
  { key: present, present: true },
  { key: Uint8Array.of(...present, 0), present: false },
];
for (const k of keys) {
  if (((await db.get(k.key)) !== null) !== k.present)
    throw new Error(`${hexArg(k.key)}: not ${k.present ? "present" : "absent"}`);
}
const { tables, bytes } = db.levels.reduce(
  (n, l) => ({ tables: n.tables + l.files.length, bytes: n.bytes + l.bytes }),
  { tables: 0, bytes: 0 },
);
db.dispose();

const server = await startRangeServer(dir);
const results = [];
try {
  for (const k of keys) {
    log(`db get ${hexArg(k.key)}, local folder and URL alternating, ${runs} runs`);
    /** @type {Record<"local" | "remote", ReturnType<typeof measureCommand>[]>} */
    const measured = { local: [], remote: [] };
    /** @type {{ requests: number, bytes: number }[]} */
    const servedRuns = [];
    const answers = new Set();
    const run = async (/** @type {"local" | "remote"} */ where) => {
      await server.served();
      const at = where === "local" ? dir : server.urlOf("");
      const r = measureCommand(process.execPath, [CLI, "db", "get", "--hex", at, hexArg(k.key)], true);
      if (where === "remote") servedRuns.push(await server.served());
      // Found: exit 0 and the value; not found: exit 1 (the CLI's answer for an absent key).
      if (r.status !== (k.present ? 0 : 1)) {
        throw new Error(
          `db get ${hexArg(k.key)} on ${at}: exit ${r.status ?? r.signal}: ${r.stderr.slice(-300)}`,
        );
      }
      answers.add(`${r.status} ${r.stdout.toString()}`);
      measured[where].push(r);
    };
    for (let i = 0; i < runs; i++) {
      for (const where of i % 2 === 0 ? ["local", "remote"] : ["remote", "local"]) await run(where);
    }
    if (answers.size !== 1)
      throw new Error(`db get ${hexArg(k.key)}: the folder and the URL answered differently`);
    const summary = (/** @type {ReturnType<typeof measureCommand>[]} */ rs) => ({
      wallSeconds: round4(median(rs.map((r) => r.wallSeconds))),
      peakRssMb: round4(median(rs.map((r) => r.peakRssMb))),
      runsWallSeconds: rs.map((r) => r.wallSeconds),
    });
    const local = summary(measured.local);
    const remote = summary(measured.remote);
    results.push({
      key: hexArg(k.key),
      present: k.present,
      local,
      remote: {
        ...remote,
        requests: median(servedRuns.map((s) => s.requests)),
        bytes: median(servedRuns.map((s) => s.bytes)),
      },
      wallRatio: round4(remote.wallSeconds / local.wallSeconds),
    });
    const last = results[results.length - 1];
    log(
      `${k.present ? "present" : "absent"} key: ${local.wallSeconds} s local, ${remote.wallSeconds} s over HTTP ` +
        `(${last.wallRatio}x) in ${last.remote.requests} requests, ${last.remote.bytes} bytes`,
    );
  }
} finally {
  await server.stop();
}

writeReport(args, outFile, "remoteDb", {
  generated: new Date().toISOString(),
  runs,
  node: process.version,
  loadAverageAtEnd: loadavg()[0],
  database: { name: path.basename(dir), command, tables, tableBytes: bytes },
  method:
    "`sstfilter db get --hex` (the CLI bundle) on the folder and on its URL, served in place by a node:http server on a worker thread of the bench's process (206 answers; requests and body bytes counted per run); wall time and peak RSS by GNU time; medians of the runs, folder and URL alternating; the answers equal",
  results,
});
