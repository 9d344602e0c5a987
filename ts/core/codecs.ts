// Decompression of table blocks. The core has already verified the block's checksum, stripped the
// framing RocksDB/LevelDB put around the codec's stream, and checked any recorded uncompressed size
// against its limit; this module only runs the codec and insists on exactly the size the block
// records. Deflate and zstd use maintained libraries (fflate, fzstd). Snappy and LZ4 blocks are
// decoded here: the npm decoders (snappyjs 0.7, lz4js 0.2) check no lengths or offsets, so a
// checksum-valid hostile block of six bytes sends snappyjs into an endless loop and lz4js runs for
// up to 255 iterations per input byte whatever the block's size.
import { Inflate, inflateSync } from "fflate";
import { decompress as zstdDecompress } from "fzstd";

import { SstFilterError } from "../api/errors.js";

/** Raw deflate of unknown size (compress_format_version 1), stopped once it exceeds `max`. */
function inflateBounded(payload: Uint8Array, max: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflate = new Inflate((chunk) => {
    total += chunk.length;
    if (total > max) throw new Error(`more than ${max} bytes`);
    chunks.push(chunk);
  });
  inflate.push(payload, true);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Copies `n` bytes from `offset` bytes back; overlapping copies repeat the pattern, as LZ77 means. */
function copyBack(out: Uint8Array, at: number, offset: number, n: number): void {
  if (offset >= n) {
    out.copyWithin(at, at - offset, at - offset + n);
    return;
  }
  for (let i = 0; i < n; i++) out[at + i] = out[at + i - offset]!;
}

/** Raw Snappy (snappy's format_description.txt): a varint32 length, then literals and copies. */
function snappyDecompress(input: Uint8Array, expected: number): Uint8Array {
  let pos = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= input.length || shift > 28) throw new Error("bad length preamble");
    const b = input[pos++]!;
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  if (length !== expected) throw new Error(`length preamble ${length}, expected ${expected}`);
  const out = new Uint8Array(length);
  let at = 0;
  const need = (n: number): void => {
    if (input.length - pos < n) throw new Error(`element at ${pos} runs past the input`);
  };
  while (pos < input.length) {
    const tag = input[pos++]!;
    let n = tag >>> 2;
    let offset: number;
    switch (tag & 3) {
      case 0: {
        if (n >= 60) {
          // 1-4 little-endian bytes hold the length - 1.
          const bytes = n - 59;
          need(bytes);
          n = 0;
          for (let i = 0; i < bytes; i++) n += input[pos + i]! * 2 ** (8 * i);
          pos += bytes;
        }
        n += 1;
        need(n);
        if (n > length - at) throw new Error(`literal at ${pos} runs past ${length} bytes`);
        out.set(input.subarray(pos, pos + n), at);
        pos += n;
        at += n;
        continue;
      }
      case 1:
        need(1);
        n = 4 + (n & 7);
        offset = ((tag >>> 5) << 8) | input[pos++]!;
        break;
      case 2:
        need(2);
        n += 1;
        offset = input[pos]! | (input[pos + 1]! << 8);
        pos += 2;
        break;
      default:
        need(4);
        n += 1;
        offset =
          (input[pos]! | (input[pos + 1]! << 8) | (input[pos + 2]! << 16) | (input[pos + 3]! << 24)) >>> 0;
        pos += 4;
    }
    if (offset === 0 || offset > at || n > length - at) throw new Error(`bad copy at ${pos}`);
    copyBack(out, at, offset, n);
    at += n;
  }
  if (at !== length) throw new Error(`${at} bytes, the preamble says ${length}`);
  return out;
}

/** An LZ4 block (lz4's Block_format.md): sequences of literals and a match, the last one literals. */
function lz4Decompress(input: Uint8Array, expected: number): Uint8Array {
  const out = new Uint8Array(expected);
  let pos = 0;
  let at = 0;
  // A 4-bit length of 15 continues in bytes of 255 up to one below it.
  const length = (nibble: number): number => {
    let n = nibble;
    if (nibble === 15) {
      for (let b = 255; b === 255; n += b) {
        if (pos >= input.length) throw new Error("length runs past the input");
        b = input[pos++]!;
      }
    }
    return n;
  };
  for (;;) {
    if (pos >= input.length) throw new Error("missing final literals");
    const token = input[pos++]!;
    const literals = length(token >>> 4);
    if (literals > input.length - pos || literals > expected - at) {
      throw new Error(`literals at ${pos} run past the input or the block`);
    }
    out.set(input.subarray(pos, pos + literals), at);
    pos += literals;
    at += literals;
    if (pos === input.length) break;
    if (input.length - pos < 2) throw new Error("match offset runs past the input");
    const offset = input[pos]! | (input[pos + 1]! << 8);
    pos += 2;
    const n = length(token & 15) + 4;
    if (offset === 0 || offset > at || n > expected - at) throw new Error(`bad match at ${pos}`);
    copyBack(out, at, offset, n);
    at += n;
  }
  if (at !== expected) throw new Error(`${at} bytes, the block records ${expected}`);
  return out;
}

function run(codec: string, payload: Uint8Array, expected: number, max: number): Uint8Array {
  switch (codec) {
    case "snappy":
      return snappyDecompress(payload, expected);
    case "zlib": // raw deflate (window_bits -14)
      // One spare byte: fflate stops silently at the end of `out`, so output longer than
      // expected shows up as a length mismatch instead of being cut off unnoticed.
      return expected >= 0
        ? inflateSync(payload, { out: new Uint8Array(expected + 1) })
        : inflateBounded(payload, max);
    case "lz4":
      return lz4Decompress(payload, expected);
    case "zstd":
      // Into a buffer of the recorded size (the core insists on one, equal to the frame's own):
      // left to itself, fzstd allocates whatever a frame header claims and slides a window of
      // that size over every block. It does not report how much it wrote, so a frame decoding to
      // less than it records leaves zeros and one decoding to more is cut off or fails; only a
      // deliberately inconsistent frame can (the block checksum covers the compressed bytes).
      return zstdDecompress(payload, new Uint8Array(expected));
    default:
      throw new Error(`unknown codec ${codec}`);
  }
}

/**
 * Decompresses the payload of the block at `blockOffset`. `expected` is its uncompressed size, or
 * -1 when the block does not record it (then at most `max` bytes are produced).
 */
export function decompressBlock(
  codec: string,
  payload: Uint8Array,
  expected: number,
  max: number,
  blockOffset: number,
): Uint8Array {
  let out: Uint8Array;
  try {
    out = run(codec, payload, expected, max);
  } catch (error) {
    throw new SstFilterError("CORRUPT", `${codec} block does not decompress: ${String(error)}`, blockOffset);
  }
  if ((expected >= 0 && out.length !== expected) || out.length > max) {
    throw new SstFilterError(
      "CORRUPT",
      `${codec} block decompressed to ${out.length} bytes, expected ${expected >= 0 ? expected : `at most ${max}`}`,
      blockOffset,
    );
  }
  return out;
}
