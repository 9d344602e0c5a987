// A server of this machine's database folders, for the tests that open a database over HTTP
// (http-database with the library, viewer-database-url with the viewer's ?db=): the URL path is a
// file's absolute path, 404 where there is none. It honours Range or ignores it, as the test sets,
// and answers any origin with the CORS headers docs/VIEWER.md tells a server to send, so that the
// viewer (another origin) may read it.
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";

import { answerCors, answerRange } from "./range-response";
import { withTestServer } from "./test-server";

/** The folder server of a test file; honoursRange may be changed between tests. */
export interface FolderServer {
  honoursRange: boolean;
  /** The URL of `dir` (a folder path on this machine), ending in "/". */
  url(dir: string): string;
}

/** Registers the server's beforeAll and afterAll (withTestServer) and returns it. */
export function withFolderServer(): FolderServer {
  const state = { honoursRange: true };
  const server = withTestServer((request, response) => {
    if (answerCors(request, response)) return;
    const file = decodeURIComponent(new URL(request.url!, "http://x").pathname);
    if (!existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const bytes = readFileSync(file);
    // An empty file has no first byte to send: 416, as RFC 9110 15.5.17 has a server answer.
    if (bytes.length === 0 && state.honoursRange && request.headers.range !== undefined) {
      response.writeHead(416, { "content-range": "bytes */0" }).end();
      return;
    }
    answerRange(request, response, bytes, state.honoursRange);
  });
  return Object.assign(state, {
    url: (dir: string): string => `${server.origin}${encodeURI(path.resolve(dir))}/`,
  });
}
