// The values of RocksDB's structured entry types (docs/FORMATS.md 3.10): blob indexes (entries of
// type kTypeBlobIndex, the value stored in a blob file or inlined with a TTL) and wide-column
// entities (kTypeWideColumnEntity, named columns). Decoding only reads the value's bytes: the
// results point into them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

// A decoded blob index (rocksdb db/blob/blob_index.h). The first byte is the kind.
struct BlobIndex {
  enum class Type : uint8_t {
    kInlinedTtl = 0,  // expiration, then the value itself (the rest of the bytes)
    kBlob = 1,        // where the value lies in a blob file
    kBlobTtl = 2,     // expiration, then as kBlob
  };
  Type type = Type::kBlob;
  uint64_t expiration = 0;   // kInlinedTtl, kBlobTtl: seconds since the epoch
  ByteView value;            // kInlinedTtl: within the decoded bytes
  uint64_t file_number = 0;  // kBlob, kBlobTtl: the blob file (<number>.blob)
  uint64_t offset = 0;       // of the blob record's value within that file
  uint64_t size = 0;         // of the value as stored (compressed, if so)
  uint8_t compression = 0;   // RocksDB's CompressionType byte (CompressionTypeName)
};

// "inlined-ttl", "blob", "blob-ttl".
const char* BlobIndexTypeName(BlobIndex::Type type);

// RocksDB's name for a CompressionType byte (rocksdb util/compression.h CompressionTypeToString,
// as sst_dump prints it): "NoCompression", "Snappy", "Zlib", "BZip2", "LZ4", "LZ4HC", "Xpress",
// "ZSTD", "ZSTDNotFinal", "DisableOption"; "" for any other byte, as a 7.8.3 release build prints.
const char* CompressionTypeName(uint8_t type);

// Decodes a blob index. kCorrupt, with the offset within `value`, for an empty value, an unknown
// kind, a truncated or overlong varint, and for a kBlob / kBlobTtl index with bytes missing or left
// after the compression byte (RocksDB 7.8.3 and main reject both the same way).
Status DecodeBlobIndex(ByteView value, BlobIndex* out);

// One column of a wide-column entity. Names are unique and in ascending bytewise order; the
// default column has the empty name.
struct WideColumn {
  ByteView name;
  ByteView value;  // for a blob reference: the serialized blob index
  // Set for a column whose value lives in a blob file (entity version 2, column type
  // kTypeBlobIndex).
  std::optional<BlobIndex> blob_index;
};

// Decodes a wide-column entity (rocksdb db/wide/wide_column_serialization.{h,cc}): version 0 or 1
// (names and value sizes, then the values) and version 2 (per-column types, so a column may be a
// blob reference). kCorrupt with the offset within `value` for truncation, columns out of order,
// a column type other than a plain value or a blob index, a blob reference that does not decode,
// sizes that disagree and bytes after the entity (RocksDB main rejects those; 7.8.3 ignored them),
// and for versions above 2. Column counts are checked against the bytes present before anything
// is allocated.
Status DecodeWideColumns(ByteView value, std::vector<WideColumn>* out);

// Encodes `columns` (names ascending, as DecodeWideColumns gives them) as RocksDB serializes an
// entity: version 1 when no column has a blob_index (rocksdb db/wide/wide_column_serialization.cc
// Serialize), else version 2 with those columns typed kTypeBlobIndex and their `value` (the
// serialized index) as stored (SerializeV2, which encodes the decoded index back to the same
// bytes). Appends to `out`.
void EncodeWideColumns(const std::vector<WideColumn>& columns, Bytes* out);

}  // namespace sstfilter
