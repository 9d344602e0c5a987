// Issue 32's remote reads, measured on the tables the content bench (content-bench.mjs) leaves in
// build/bench/content/, served in place by a local HTTP server that honours Range:
//   open:   requests and bytes the server sent before sf.openTableFrom(url) answered (what
//           `sstfilter inspect URL` shows first), on the 2 GB table (full run) and the main one
//   probe:  the same, from a fresh open to the first answer of table.explainMayContain (what
//           `sstfilter probe URL KEY` prints), for a key of the table
//   walk:   requests, bytes and wall time of `for await (const k of t.keys())` over the URL,
//           against the same walk over the local file (medians of the rounds, alternating)
// Target: at most 3 requests before the first answer of the 2 GB table's open and probe.
// The server runs on a worker thread of this process (the walk's own thread only reads), counts
// what it sends and answers GET /stats with the counts since the last GET /stats.
// Usage: node bench/remote-bench.mjs --out FILE [--quick] [--tables DIR] [--merge-into RESULTS_JSON]
// (the last sets the "remote" member of an existing results.json). Run the content bench first;
// --tables: where its tables are (default build/bench/content).
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import path from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

import { init } from "../dist/esm/platform/node.js";
import { rangeAnswer } from "../tests/ts/range-request.cjs";
import { writeReport } from "./report.mjs";
import { median } from "./timing.mjs";

const MAX_REQUESTS_BEFORE_FIRST_ANSWER = 3;

const args = process.argv.slice(2);
const tables = args.includes("--tables") ? args[args.indexOf("--tables") + 1] : "build/bench/content";

if (isMainThread) await measure();
else serve(workerData.dir);

/**
 * Serves the files of `dir` with ranged answers (206, Content-Range; suffix ranges too: the tests'
 * range-request.cjs), read from the files in place; posts its port to the parent.
 * @param {string} dir
 */
function serve(dir) {
  let counts = { requests: 0, bytes: 0 };
  const server = createServer((request, response) => {
    if (request.url === "/stats") {
      response.end(JSON.stringify(counts));
      counts = { requests: 0, bytes: 0 };
      return;
    }
    counts.requests++;
    const file = path.join(dir, path.basename(decodeURIComponent(request.url ?? "")));
    const size = statSync(file).size;
    const range = rangeAnswer(request.headers.range, size);
    if (range === null) {
      response.writeHead(416).end(); // this server only answers ranges: a full GET would be a bug
      return;
    }
    counts.bytes += range.headers["content-length"];
    response.writeHead(206, range.headers);
    createReadStream(file, { start: range.first, end: range.last }).pipe(response);
  });
  server.listen(0, "127.0.0.1", () => parentPort?.postMessage(server.address().port));
}

async function measure() {
  const quick = args.includes("--quick");
  const outFile = args[args.indexOf("--out") + 1];
  const rounds = quick ? 3 : 5;
  const log = (line) => process.stderr.write(`remote bench: ${line}\n`);
  const table = (name) => {
    const file = path.join(tables, `${name}.sst`);
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run bench -- --content\` first`);
    return file;
  };
  const mainFile = table(quick ? "fillrandom-500k-snappy" : "fillrandom-5m-snappy");
  const bigFile = quick ? null : table("fillrandom-45m-snappy");

  const server = new Worker(new URL(import.meta.url), { workerData: { dir: tables } });
  const port = await new Promise((resolve, reject) => {
    server.once("message", resolve);
    server.once("error", reject);
  });
  const urlOf = (file) => `http://127.0.0.1:${port}/${path.basename(file)}`;
  /** What the server sent since the last call. @returns {Promise<{ requests: number, bytes: number }>} */
  const served = async () => (await fetch(`http://127.0.0.1:${port}/stats`)).json();

  const sf = await init();
  const results = {};
  const targets = [];
  try {
    for (const [name, file] of [
      ["bigTable", bigFile],
      ["mainTable", mainFile],
    ]) {
      if (file === null) continue;
      log(`opening and probing ${file} over HTTP`);
      const local = await sf.openTableFile(file);
      let key;
      try {
        for await (const k of local.keys()) {
          key = k;
          break;
        }
      } finally {
        local.dispose();
      }
      await served();
      const opened = await sf.openTableFrom(urlOf(file));
      const open = await served();
      opened.dispose();
      const probed = await sf.openTableFrom(urlOf(file));
      const answer = await probed.explainMayContain(key);
      const probe = await served();
      probed.dispose();
      if (!answer.mayContain) throw new Error(`${file}: its own first key probed absent`);
      results[name] = { file: path.basename(file), bytes: statSync(file).size, open, probe };
      for (const [what, counts] of [
        ["open (inspect)", open],
        ["open and first probe", probe],
      ]) {
        targets.push({
          name: `requests before the first answer of ${what}, ${name}`,
          value: counts.requests,
          limit: MAX_REQUESTS_BEFORE_FIRST_ANSWER,
          unit: "requests",
          met: counts.requests <= MAX_REQUESTS_BEFORE_FIRST_ANSWER,
        });
      }
    }

    log(`walking ${mainFile}'s keys, local file and URL alternating, ${rounds} rounds`);
    const walk = async (t) => {
      let keys = 0;
      try {
        for await (const _ of t.keys()) keys++;
      } finally {
        t.dispose();
      }
      return keys;
    };
    const runs = { local: [], remote: [] };
    const keyCounts = new Set();
    let remoteCounts = null;
    for (let r = 0; r < rounds; r++) {
      for (const where of r % 2 === 0 ? ["local", "remote"] : ["remote", "local"]) {
        await served();
        const started = performance.now();
        const keys = await walk(
          where === "local" ? await sf.openTableFile(mainFile) : await sf.openTableFrom(urlOf(mainFile)),
        );
        runs[where].push((performance.now() - started) / 1000);
        keyCounts.add(keys);
        if (where === "remote") remoteCounts = await served();
      }
    }
    if (keyCounts.size !== 1) throw new Error(`the walks counted different keys: ${[...keyCounts]}`);
    results.walk = {
      file: path.basename(mainFile),
      keys: [...keyCounts][0],
      localSeconds: median(runs.local),
      remoteSeconds: median(runs.remote),
      ratio: median(runs.remote) / median(runs.local),
      remote: remoteCounts,
      runs,
    };
  } finally {
    await server.terminate();
  }

  for (const t of targets) log(`${t.met ? "met   " : "MISSED"} ${t.name}: ${t.value} (at most ${t.limit})`);
  const { walk } = results;
  log(
    `walk of ${walk.keys} keys: ${walk.localSeconds.toFixed(2)} s local, ${walk.remoteSeconds.toFixed(2)} s ` +
      `over HTTP (${walk.ratio.toFixed(2)}x) in ${walk.remote.requests} requests, ${walk.remote.bytes} bytes`,
  );
  writeReport(args, outFile, "remote", {
    generated: new Date().toISOString(),
    run: quick ? "quick" : "full",
    node: process.version,
    loadAverageAtEnd: loadavg()[0],
    method:
      "a node:http server on a worker thread of the bench's process serves the tables in place with 206 answers and counts requests and body bytes; open and probe: fresh opens of the URL, counted to their first answer; walk: for await over t.keys(), wall time, medians of the rounds, local and URL alternating",
    results,
    targets,
  });
}
