// A table server of another origin for the viewer's tests (?url=, ?diff=): a local HTTP server that
// serves corpus files with ranged requests, with CORS or without, ignoring Range, or slowly.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

import { answerRange } from "./range-response";

/**
 * How the table server answers: CORS and Range, Range without CORS, CORS ignoring Range, or CORS and
 * Range each answer SLOW_MS late (a long walk, for a test to act on while it runs).
 */
export type Mode = "cors" | "no-cors" | "no-range" | "slow";

const SLOW_MS = 300;

/** The server, and the URL of a file it serves in a mode. */
export interface TableServer {
  server: Server;
  url(mode: Mode, file: string): string;
}

/**
 * Serves `files` (by base name) at /<mode>/<name>. With CORS, any origin may read, send Range (a
 * suffix range is no CORS-safelisted header: the browser asks first, OPTIONS) and read
 * Content-Range, as docs/VIEWER.md tells a server to.
 */
export async function startTableServer(files: string[]): Promise<TableServer> {
  const byName = new Map(files.map((f) => [path.basename(f), f]));
  const server = createServer((request, response) => {
    const [, mode, name] = /^\/([^/]+)\/([^/?]+)$/.exec(request.url ?? "") ?? [];
    const file = byName.get(decodeURIComponent(name ?? ""));
    if (mode !== "no-cors") {
      response.setHeader("access-control-allow-origin", "*");
      response.setHeader("access-control-allow-headers", "range");
      response.setHeader("access-control-expose-headers", "content-range");
    }
    if (request.method === "OPTIONS") {
      response.writeHead(204).end();
      return;
    }
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    const bytes = readFileSync(file);
    const answer = (): void => answerRange(request, response, bytes, mode !== "no-range");
    if (mode === "slow") setTimeout(answer, SLOW_MS);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: (mode, file) => `http://127.0.0.1:${port}/${mode}/${encodeURIComponent(path.basename(file))}`,
  };
}
