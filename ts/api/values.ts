// The values of RocksDB's structured entry types (docs/FORMATS.md 3.10), decoded in the core
// (cpp/table/blob_index.cc, cpp/table/wide_columns.cc): what t.entries() gives as the value of a
// "blob-index" or "wide-column-entity" entry; and the property an embedded blob table counts its
// blob records in (3.10.3, cpp/table/embedded_blobs.cc).
import type { WasmHeap } from "../core/heap.js";
import { SstFilterError } from "../core/errors.js";

/** A decoded blob index (rocksdb db/blob/blob_index.h). */
export interface BlobIndex {
  /** "blob": where the value lies in a blob file; "blob-ttl": the same with an expiration;
   * "inlined-ttl": the value itself with an expiration. */
  type: "blob" | "blob-ttl" | "inlined-ttl";
  /** The blob file's number (<number>.blob). */
  fileNumber?: bigint;
  /** Of the blob record's value within that file. */
  offset?: bigint;
  /** Of the value as stored in the blob file (compressed, if so). */
  size?: bigint;
  /** RocksDB's name for the codec ("NoCompression", "Snappy", "LZ4", "ZSTD"...; "" if unknown). */
  compression?: string;
  /** The CompressionType byte itself. */
  compressionType?: number;
  /** Seconds since the epoch ("blob-ttl", "inlined-ttl"). */
  expiration?: bigint;
  /** "inlined-ttl": the value. */
  value?: Uint8Array;
}

/** One column of a wide-column entity; the default column has the empty name. */
export interface WideColumn {
  name: Uint8Array;
  /** The column's value; for a blob reference, the serialized blob index. */
  value: Uint8Array;
  /** Set when the value lives in a blob file (entity format version 2). */
  blobIndex?: BlobIndex;
}

/** What rocksdb.embedded.blob.stats counts (rocksdb table/embedded_blob_sst.h, 11.8.1). */
export interface EmbeddedBlobStats {
  /** The blob records the table holds among its data blocks. */
  blobCount: bigint;
  /** Their payloads' bytes, trailers not counted. */
  payloadBytes: bigint;
}

function checkValue(value: unknown, caller: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new SstFilterError("BAD_OPTIONS", `${caller} takes the value as a Uint8Array`);
  }
}

/** Decodes a blob index; SstFilterError CORRUPT (offset within `value`) when it does not decode. */
export function decodeBlobIndex(heap: WasmHeap, value: Uint8Array): BlobIndex {
  checkValue(value, "decodeBlobIndex");
  const [ptr, size] = heap.putKey(value);
  // wasm/value_bindings.cc builds the BlobIndex.
  const index = heap.module.decodeBlobIndex(ptr, size);
  if (index === null) throw heap.lastError();
  return index as BlobIndex;
}

/**
 * Decodes a wide-column entity (format version 0, 1 or 2) into its columns, in stored (ascending
 * name) order; SstFilterError CORRUPT (offset within `value`) when it does not decode.
 */
export function decodeWideColumns(heap: WasmHeap, value: Uint8Array): WideColumn[] {
  checkValue(value, "decodeWideColumns");
  const [ptr, size] = heap.putKey(value);
  // wasm/value_bindings.cc builds the WideColumns.
  const columns = heap.module.decodeWideColumns(ptr, size);
  if (columns === null) throw heap.lastError();
  return columns as WideColumn[];
}

/**
 * Decodes the value of a table's rocksdb.embedded.blob.stats property as RocksDB's
 * DecodeEmbeddedBlobStats does; SstFilterError CORRUPT (offset within `value`) when it does not.
 */
export function decodeEmbeddedBlobStats(heap: WasmHeap, value: Uint8Array): EmbeddedBlobStats {
  checkValue(value, "decodeEmbeddedBlobStats");
  const [ptr, size] = heap.putKey(value);
  // wasm/value_bindings.cc builds the EmbeddedBlobStats.
  const stats = heap.module.decodeEmbeddedBlobStats(ptr, size);
  if (stats === null) throw heap.lastError();
  return stats as EmbeddedBlobStats;
}
