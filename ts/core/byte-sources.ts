// Where a table's bytes come from when they are not all in memory: anything with a size and ranged
// reads (a file handle, an HTTP range reader, a Blob). The I/O driver (io-driver.ts) reads them as
// the core asks.
import { SstFilterError } from "./errors.js";

/** Anything with a size and ranged reads, e.g. a file handle or an HTTP range reader. */
export interface ByteSource {
  size: number;
  /** The `length` bytes at `offset` (fewer only at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Optional: reads from `offset` into `target` (from its start, up to its length) and resolves
   * with the number of bytes read. A walk then reuses one buffer instead of a new one per read.
   */
  readInto?(target: Uint8Array, offset: number): Promise<number>;
  /**
   * Optional: the reads of [offset, offset + length) follow, in order, a piece at a time (a large
   * index or filter). A source whose requests are costly (an HTTP range reader) asks for the range
   * at once and serves the pieces from that request.
   */
  expect?(offset: number, length: number): void;
}

// A Blob read is a round trip to the browser's file reader: a walk of a 222 MB table in 1 MiB reads
// spent 0.4-0.6 s reading, in 4 MiB reads 0.3 s (headless Chromium 156). A walk's reads (its
// read-ahead window, at least BLOB_WALK_READ) therefore fetch BLOB_PIECE at once, and the walk's
// next reads are served from that piece; smaller reads (a probe's block) fetch only themselves.
const BLOB_PIECE = 4 << 20;
const BLOB_WALK_READ = 256 << 10;

/** A ByteSource over a Blob or File, read in slices (Blob.slice) as the core asks. */
export function blobSource(blob: Blob): ByteSource {
  const fetch = async (start: number, end: number): Promise<Uint8Array> =>
    new Uint8Array(await blob.slice(start, end).arrayBuffer());
  let piece: { start: number; end: number; bytes: Promise<Uint8Array> } | null = null;
  return {
    size: blob.size,
    async read(offset, length) {
      const end = offset + length;
      if (piece === null || offset < piece.start || end > piece.end) {
        if (length < BLOB_WALK_READ) return fetch(offset, end);
        const wide = Math.min(blob.size, offset + Math.max(length, BLOB_PIECE));
        piece = { start: offset, end: wide, bytes: fetch(offset, wide) };
      }
      const { start, bytes } = piece;
      return (await bytes).subarray(offset - start, end - start);
    },
  };
}

/** A ByteSource over bytes already in memory. */
export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}

/**
 * @internal What openTableFrom was given, as a ByteSource: a Blob is read through blobSource;
 * anything else without a size and a read is BAD_OPTIONS.
 */
export function checkSource(source: unknown): ByteSource {
  if (typeof Blob !== "undefined" && source instanceof Blob) return blobSource(source);
  const s = source as Partial<ByteSource> | null;
  if (s === null || typeof s !== "object" || typeof s.size !== "number" || typeof s.read !== "function") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      "openTableFrom takes a Blob or a { size, read(offset, length) } source",
    );
  }
  return s as ByteSource;
}
