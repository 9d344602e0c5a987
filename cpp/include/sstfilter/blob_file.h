// Blob files (docs/FORMATS.md 6.7): the files RocksDB's integrated BlobDB keeps large values in,
// checked whole or read one value at a time where a blob index points. Bytes only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

inline constexpr size_t kBlobFileHeaderSize = 30;
inline constexpr size_t kBlobRecordHeaderSize = 32;
inline constexpr size_t kBlobFileFooterSize = 32;

// What CheckBlobFile read from a whole blob file (rocksdb db/blob/blob_log_format.h).
struct BlobFileCheck {
  uint32_t column_family_id = 0;
  uint8_t compression = 0;  // the blobs' CompressionType; the CRCs cover the stored bytes
  // A TTL file (stacked BlobDB's): the header's TTL flag, or a non-zero expiration range.
  // BlobFileReader refuses one in a database (rocksdb db/blob/blob_file_reader.cc ReadHeader).
  bool has_ttl = false;
  uint64_t blob_count = 0;  // records read; the footer's count agrees
  uint64_t blob_bytes = 0;  // the records with their headers and keys: what the MANIFEST records
};

// Checks a blob file as RocksDB's BlobFileReader reads one: the header (magic, version 1), the
// footer (magic, masked CRC32C), and every record between them (its header's masked CRC32C and the
// blob CRC over key and value), the records filling the space exactly and as many as the footer
// counts. kTruncated for a file too short for header and footer, kChecksumMismatch for a CRC that
// disagrees, kCorrupt for anything else; the offset is the header's, the record's or the footer's.
Status CheckBlobFile(ByteView file, BlobFileCheck* out);

// Where a blob index (kBlob) points: its blob's offset and size in the file, and the codec.
struct BlobPointer {
  uint64_t value_offset = 0;
  uint64_t value_size = 0;
  uint8_t compression = 0;     // CompressionType
  uint32_t column_family = 0;  // of the key whose index this is: the file's header must name it
};

// The value `pointer` names for `user_key`, as BlobFileReader::GetBlob reads it with
// verify_checksums (rocksdb db/blob/blob_file_reader.cc): `header` is the file's first
// kBlobFileHeaderSize bytes, `file_size` its size, and `record` the kBlobRecordHeaderSize + key +
// value bytes ending at value_offset + value_size. kCorrupt for a TTL file, a codec other than the
// file's, an offset no record can have ("invalid blob offset"), a key or size that disagrees with
// the record's, or a blob that does not decompress; kChecksumMismatch for either CRC; kTruncated
// when `record` or `header` is short. Offsets are the file's.
Status ReadBlobValue(ByteView header, uint64_t file_size, ByteView record, ByteView user_key,
                     const BlobPointer& pointer, Bytes* value);

}  // namespace sstfilter
