// Embedded blob tables (docs/FORMATS.md 3.10.3; RocksDB 11.6+
// SstFileWriter::OpenWithEmbeddedBlobs): values moved out of their entries into blob records of the
// same file, among the data blocks, each entry then holding a blob index that names file 0. What
// the table records of them, and where an entry's record lies.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "sstfilter/table_io.h"
#include "sstfilter/values.h"

namespace sstfilter {

// The property whose presence marks an embedded blob table (rocksdb table/embedded_blob_sst.h
// kEmbeddedBlobSstStatsPropertyName): RocksDB resolves same-file blob indexes only in a table
// that has it.
inline constexpr std::string_view kEmbeddedBlobStatsProperty = "rocksdb.embedded.blob.stats";

// The property's value: varint64 record count, varint64 payload bytes. Diagnostic upstream: its
// reader never depends on the counts.
struct EmbeddedBlobStats {
  uint64_t blob_count = 0;
  uint64_t payload_bytes = 0;
};

// Decodes the property's value as rocksdb DecodeEmbeddedBlobStats does: kCorrupt (offset within
// `value`) for a truncated or overlong varint, and for bytes counted without a record. Bytes after
// the two varints are ignored, as there.
Status DecodeEmbeddedBlobStats(ByteView value, EmbeddedBlobStats* out);

// Whether a blob index is RocksDB's same-file reference (BlobIndex::IsSameFile: a blob kind, with
// or without TTL, naming file number 0).
bool IsSameFileBlobIndex(const BlobIndex& index);

// Where the record of a same-file blob index lies: a handle as a block's (payload `size` bytes,
// then the 5-byte trailer of compression byte and checksum, docs/FORMATS.md 3.1), within the
// table's blocks (before `blocks_end`, the footer's start). kCorrupt, as rocksdb
// BlockBasedTable::ValidateEmbeddedBlobIndex, for an index with a TTL and for a record that runs
// past that end (RocksDB's bound is the file's end; records always lie before the tail).
Status EmbeddedBlobRecordHandle(const BlobIndex& index, uint64_t blocks_end, BlockHandle* out);

// Checks a fetched record's compression byte against its index's, as
// ReadAndVerifySimpleGen2BlobRecord does: both must be 0 (11.8.1 writes and reads uncompressed
// records only). kCorrupt naming the record's offset otherwise.
Status CheckEmbeddedBlobCompression(const BlobIndex& index, uint8_t stored_compression);

}  // namespace sstfilter
