// @ts-check
// Which bytes of a file a Range request asks for, as a server that honours Range reads it (RFC 9110
// 14: one range, a suffix range "bytes=-N" included), and the headers of its 206 answer. CommonJS
// so that both the Jest suites (range-response.ts) and the ES-module bench (bench/remote-bench.mjs)
// load this one copy.

/**
 * The range `header` asks for of a file of `size` bytes, clamped to the file, with the headers of
 * the 206 answer; null when there is no Range header or it is not one range.
 * @param {string | undefined} header the request's Range header
 * @param {number} size
 * @returns {{ first: number, last: number, headers: { "content-range": string, "content-length": number } } | null}
 */
function rangeAnswer(header, size) {
  const range = /^bytes=(\d*)-(\d*)$/.exec(header ?? "");
  if (range === null) return null;
  const first = range[1] === "" ? Math.max(0, size - Number(range[2])) : Number(range[1]);
  const last = range[1] === "" || range[2] === "" ? size - 1 : Math.min(size - 1, Number(range[2]));
  return {
    first,
    last,
    headers: { "content-range": `bytes ${first}-${last}/${size}`, "content-length": last - first + 1 },
  };
}

module.exports = { rangeAnswer };
