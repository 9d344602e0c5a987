// The HTTP server of the remote benches (remote-bench.mjs: tables, remote-db-bench.mjs: a
// database folder): it serves the files of one folder in place with ranged answers (206,
// Content-Range; suffix ranges too: the tests' range-request.cjs) and counts the requests and body
// bytes it sends. It runs on a worker thread of the bench's process, so that it answers while the
// bench's own thread walks a table or waits for a CLI it spawned; GET /stats answers the counts
// since the last GET /stats.
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

import { rangeAnswer } from "../tests/ts/range-request.cjs";

if (!isMainThread && workerData?.rangeServerOf !== undefined) serve(workerData.rangeServerOf);

/**
 * Serves the files of `dir`; posts its port to the parent.
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
    let size;
    try {
      size = statSync(file).size;
    } catch {
      response.writeHead(404).end(); // a probe of a file the folder lacks (remote-db-bench.mjs)
      return;
    }
    // An empty file (a WAL just switched to) has no byte to send: 416, as RFC 9110 15.5.17 has it.
    if (size === 0) {
      response.writeHead(416, { "content-range": "bytes */0" }).end();
      return;
    }
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

/**
 * Starts the server of `dir` on a worker thread: the URL of a file of it (or of the folder itself,
 * ""), what it sent since the last call, and the way to stop it.
 * @param {string} dir
 */
export async function startRangeServer(dir) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { rangeServerOf: dir } });
  const port = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    /** @param {string} name */
    urlOf: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
    /** @returns {Promise<{ requests: number, bytes: number }>} */
    served: async () => (await fetch(`http://127.0.0.1:${port}/stats`)).json(),
    stop: () => worker.terminate(),
  };
}
