// How the tests' HTTP servers answer a GET of a whole file's bytes, as a server that honours Range
// does (RFC 9110 14: a single range, a suffix range "bytes=-N" included) or as one that ignores it.
import type { IncomingMessage, ServerResponse } from "node:http";

/** Answers `request` with `bytes`: 206 and the range asked for, or 200 and all of them. */
export function answerRange(
  request: IncomingMessage,
  response: ServerResponse,
  bytes: Uint8Array,
  honoursRange: boolean,
): void {
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? "");
  if (!honoursRange || range === null) {
    response.writeHead(200, { "content-length": bytes.length }).end(bytes);
    return;
  }
  const [first, last] =
    range[1] === ""
      ? [Math.max(0, bytes.length - Number(range[2])), bytes.length - 1]
      : [Number(range[1]), range[2] === "" ? bytes.length - 1 : Math.min(bytes.length - 1, Number(range[2]))];
  response
    .writeHead(206, { "content-range": `bytes ${first}-${last}/${bytes.length}` })
    .end(bytes.subarray(first, last + 1));
}
