// Decompression of table blocks with maintained codec libraries. The core has already verified
// the block's checksum, stripped the framing RocksDB/LevelDB put around the codec's stream, and
// checked any recorded uncompressed size against its limit; this module only runs the codec and
// insists on exactly the size the block records.
import { Inflate, inflateSync } from "fflate";
import { decompress as zstdDecompress } from "fzstd";
import { decompressBlock as lz4DecompressBlock } from "lz4js";
import { uncompress as snappyUncompress } from "snappyjs";

import { SstFilterError } from "./errors.js";

// Numbering shared with cpp/include/sstfilter/compression.h (enum class Codec).
const SNAPPY = 1;
const DEFLATE_RAW = 2; // RocksDB's zlib: raw deflate (window_bits -14)
const LZ4_BLOCK = 3;
const ZSTD = 4;
const NAMES: Record<number, string> = {
  [SNAPPY]: "snappy",
  [DEFLATE_RAW]: "zlib",
  [LZ4_BLOCK]: "lz4",
  [ZSTD]: "zstd",
};

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

function run(codec: number, payload: Uint8Array, expected: number, max: number): Uint8Array {
  switch (codec) {
    case SNAPPY:
      return snappyUncompress(payload, max);
    case DEFLATE_RAW:
      // One spare byte: fflate stops silently at the end of `out`, so output longer than
      // expected shows up as a length mismatch instead of being cut off unnoticed.
      return expected >= 0
        ? inflateSync(payload, { out: new Uint8Array(expected + 1) })
        : inflateBounded(payload, max);
    case LZ4_BLOCK: {
      // The decoder ignores writes past the end of `out`; the spare byte makes overlong output
      // visible as a length mismatch.
      const out = new Uint8Array(Math.max(expected, 0) + 1);
      return out.subarray(0, lz4DecompressBlock(payload, out, 0, payload.length, 0));
    }
    case ZSTD:
      return zstdDecompress(payload);
    default:
      throw new Error(`unknown codec ${codec}`);
  }
}

/**
 * Decompresses the payload of the block at `blockOffset`. `expected` is its uncompressed size, or
 * -1 when the block does not record it (then at most `max` bytes are produced).
 */
export function decompressBlock(
  codec: number,
  payload: Uint8Array,
  expected: number,
  max: number,
  blockOffset: number,
): Uint8Array {
  const name = NAMES[codec] ?? `codec ${codec}`;
  let out: Uint8Array;
  try {
    out = run(codec, payload, expected, max);
  } catch (error) {
    throw new SstFilterError("CORRUPT", `${name} block does not decompress: ${String(error)}`, blockOffset);
  }
  if ((expected >= 0 && out.length !== expected) || out.length > max) {
    throw new SstFilterError(
      "CORRUPT",
      `${name} block decompressed to ${out.length} bytes, expected ${expected >= 0 ? expected : `at most ${max}`}`,
      blockOffset,
    );
  }
  return out;
}
