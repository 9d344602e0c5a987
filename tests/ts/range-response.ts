// How the tests' HTTP servers answer a GET of a whole file's bytes, as a server that honours Range
// does (the range read by range-request.cjs, which the remote bench's server uses too) or as one
// that ignores it.
import type { IncomingMessage, ServerResponse } from "node:http";

import { rangeAnswer } from "./range-request.cjs";

/** Answers `request` with `bytes`: 206 and the range asked for, or 200 and all of them. */
export function answerRange(
  request: IncomingMessage,
  response: ServerResponse,
  bytes: Uint8Array,
  honoursRange: boolean,
): void {
  const range = honoursRange ? rangeAnswer(request.headers.range, bytes.length) : null;
  if (range === null) {
    response.writeHead(200, { "content-length": bytes.length }).end(bytes);
    return;
  }
  response.writeHead(206, range.headers).end(bytes.subarray(range.first, range.last + 1));
}
