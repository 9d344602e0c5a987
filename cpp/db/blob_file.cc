// Blob files (docs/FORMATS.md 6.7), where RocksDB's integrated BlobDB keeps values apart from the
// tables: a 30-byte header, records of a 32-byte header, key and blob, and a 32-byte footer. Facts
// from rocksdb db/blob/blob_log_format.h and .cc, db/blob/blob_file_reader.cc (7.8.3 and main).
#include "sstfilter/blob_file.h"

#include <algorithm>
#include <string>

#include "sstfilter/hash.h"
#include "table/codecs/codecs.h"
#include "table/compression.h"

namespace sstfilter {
namespace {

constexpr uint32_t kBlobMagicNumber = 2395959;  // 0x00248f37, header and footer
constexpr uint32_t kBlobVersion = 1;
constexpr size_t kBlobRecordFixedSize =
    24;  // key size, value size, expiration: what the header CRC covers
constexpr size_t kBlobFooterFixedSize =
    28;  // magic, count, expiration range: what the footer CRC covers

Status BlobError(ErrorCode code, const std::string& what, uint64_t offset) {
  return Status::Error(code, "blob file at offset " + std::to_string(offset) + ": " + what,
                       static_cast<int64_t>(offset));
}

std::string Mismatch(const char* what, uint32_t stored, uint32_t computed) {
  return std::string(what) + " mismatch (stored " + std::to_string(stored) + ", computed " +
         std::to_string(computed) + ")";
}

bool HasTtl(const uint8_t* header) {
  return (header[12] & 1) != 0 || DecodeFixed64(header + 14) != 0 ||
         DecodeFixed64(header + 22) != 0;
}

}  // namespace

Status CheckBlobFile(ByteView file, BlobFileCheck* out) {
  *out = BlobFileCheck{};
  if (file.size() < kBlobFileHeaderSize + kBlobFileFooterSize) {
    return BlobError(ErrorCode::kTruncated,
                     std::to_string(file.size()) + " bytes: too short for a header and a footer",
                     file.size());
  }
  // Header: magic, version, column family id, flags (bit 0: has TTL), compression, expiration
  // range.
  const uint8_t* header = file.data();
  if (DecodeFixed32(header) != kBlobMagicNumber) {
    return BlobError(ErrorCode::kCorrupt, "not a blob file (header magic number)", 0);
  }
  if (DecodeFixed32(header + 4) != kBlobVersion) {
    return BlobError(ErrorCode::kCorrupt,
                     "unknown blob file version " + std::to_string(DecodeFixed32(header + 4)), 4);
  }
  out->column_family_id = DecodeFixed32(header + 8);
  out->has_ttl =
      (header[12] & 1) != 0 || DecodeFixed64(header + 14) != 0 || DecodeFixed64(header + 22) != 0;
  out->compression = header[13];

  // Footer: magic, blob count, expiration range, masked CRC32C of the 28 bytes before it.
  const size_t footer_offset = file.size() - kBlobFileFooterSize;
  const uint8_t* footer = file.data() + footer_offset;
  if (DecodeFixed32(footer) != kBlobMagicNumber) {
    return BlobError(ErrorCode::kCorrupt, "no footer (footer magic number)", footer_offset);
  }
  const uint32_t footer_crc = Crc32cMask(Crc32c(ByteView(footer, kBlobFooterFixedSize)));
  if (DecodeFixed32(footer + kBlobFooterFixedSize) != footer_crc) {
    return BlobError(
        ErrorCode::kChecksumMismatch,
        Mismatch("footer CRC", DecodeFixed32(footer + kBlobFooterFixedSize), footer_crc),
        footer_offset);
  }

  // Records: key size, value size, expiration, header CRC (of those 24 bytes), blob CRC (of key
  // and value, one CRC extended), then the key and the blob as stored.
  size_t pos = kBlobFileHeaderSize;
  while (pos < footer_offset) {
    const size_t left = footer_offset - pos;
    if (left < kBlobRecordHeaderSize) {
      return BlobError(ErrorCode::kCorrupt,
                       std::to_string(left) + " bytes before the footer: too few for a record",
                       pos);
    }
    const uint8_t* record = file.data() + pos;
    const uint32_t header_crc = Crc32cMask(Crc32c(ByteView(record, kBlobRecordFixedSize)));
    if (DecodeFixed32(record + 24) != header_crc) {
      return BlobError(ErrorCode::kChecksumMismatch,
                       Mismatch("record header CRC", DecodeFixed32(record + 24), header_crc), pos);
    }
    const uint64_t key_size = DecodeFixed64(record);
    const uint64_t value_size = DecodeFixed64(record + 8);
    const size_t room = left - kBlobRecordHeaderSize;
    if (key_size > room || value_size > room - key_size) {
      return BlobError(ErrorCode::kCorrupt,
                       "a record of " + std::to_string(key_size) + " + " +
                           std::to_string(value_size) + " bytes overruns the footer",
                       pos);
    }
    const size_t body = static_cast<size_t>(key_size + value_size);
    const uint32_t blob_crc = Crc32cMask(Crc32c(ByteView(record + kBlobRecordHeaderSize, body)));
    if (DecodeFixed32(record + 28) != blob_crc) {
      return BlobError(ErrorCode::kChecksumMismatch,
                       Mismatch("blob CRC", DecodeFixed32(record + 28), blob_crc), pos);
    }
    out->blob_count++;
    out->blob_bytes += kBlobRecordHeaderSize + body;
    pos += kBlobRecordHeaderSize + body;
  }
  if (DecodeFixed64(footer + 4) != out->blob_count) {
    return BlobError(ErrorCode::kCorrupt,
                     "the footer counts " + std::to_string(DecodeFixed64(footer + 4)) +
                         " blobs, the file holds " + std::to_string(out->blob_count),
                     footer_offset);
  }
  return Status::Ok();
}

Status ReadBlobValue(ByteView header, uint64_t file_size, ByteView record, ByteView user_key,
                     const BlobPointer& pointer, Bytes* value) {
  value->clear();
  if (header.size() < kBlobFileHeaderSize) {
    return BlobError(ErrorCode::kTruncated, "the header is cut short", header.size());
  }
  if (DecodeFixed32(header.data()) != kBlobMagicNumber) {
    return BlobError(ErrorCode::kCorrupt, "not a blob file (header magic number)", 0);
  }
  // BlobFileReader::ReadHeader refuses a file of another column family ("Column family ID
  // mismatch") and TTL files; GetBlob a codec other than the file's.
  if (DecodeFixed32(header.data() + 8) != pointer.column_family) {
    return BlobError(ErrorCode::kCorrupt,
                     "the file belongs to column family " +
                         std::to_string(DecodeFixed32(header.data() + 8)) + ", the key to " +
                         std::to_string(pointer.column_family),
                     8);
  }
  if (HasTtl(header.data())) return BlobError(ErrorCode::kCorrupt, "a TTL blob file", 12);
  if (header[13] != pointer.compression) {
    return BlobError(ErrorCode::kCorrupt,
                     "the blob index names compression type " +
                         std::to_string(pointer.compression) + ", the file " +
                         std::to_string(header[13]),
                     13);
  }
  // IsValidBlobOffset: the record header and key before the blob, the footer after it.
  const uint64_t before = kBlobRecordHeaderSize + user_key.size();
  const bool fits = file_size >= kBlobFileFooterSize &&
                    pointer.value_size <= file_size - kBlobFileFooterSize &&
                    pointer.value_offset <= file_size - kBlobFileFooterSize - pointer.value_size;
  if (pointer.value_offset < kBlobFileHeaderSize + before || !fits) {
    return BlobError(ErrorCode::kCorrupt,
                     "invalid blob offset " + std::to_string(pointer.value_offset) + " (" +
                         std::to_string(pointer.value_size) + " bytes)",
                     pointer.value_offset);
  }
  const uint64_t record_offset = pointer.value_offset - before;
  if (record.size() != before + pointer.value_size) {
    return BlobError(ErrorCode::kTruncated,
                     std::to_string(record.size()) + " bytes read of a " +
                         std::to_string(before + pointer.value_size) + "-byte record",
                     record_offset);
  }
  // VerifyBlob: the header's CRC, its sizes and key against the index's, then the blob CRC.
  const uint32_t header_crc = Crc32cMask(Crc32c(record.first(kBlobRecordFixedSize)));
  if (DecodeFixed32(record.data() + 24) != header_crc) {
    return BlobError(ErrorCode::kChecksumMismatch,
                     Mismatch("record header CRC", DecodeFixed32(record.data() + 24), header_crc),
                     record_offset);
  }
  if (DecodeFixed64(record.data()) != user_key.size() ||
      DecodeFixed64(record.data() + 8) != pointer.value_size) {
    return BlobError(ErrorCode::kCorrupt, "the record's key or value size is not the index's",
                     record_offset);
  }
  const ByteView key = record.subspan(kBlobRecordHeaderSize, user_key.size());
  if (!std::equal(key.begin(), key.end(), user_key.begin())) {
    return BlobError(ErrorCode::kCorrupt, "the record holds another key", record_offset);
  }
  const ByteView body = record.subspan(kBlobRecordHeaderSize);
  const uint32_t blob_crc = Crc32cMask(Crc32c(body));
  if (DecodeFixed32(record.data() + 28) != blob_crc) {
    return BlobError(ErrorCode::kChecksumMismatch,
                     Mismatch("blob CRC", DecodeFixed32(record.data() + 28), blob_crc),
                     record_offset);
  }
  const ByteView blob = body.subspan(user_key.size());
  if (pointer.compression == 0) {
    value->assign(blob.begin(), blob.end());
    return Status::Ok();
  }
  // Blobs are compressed as blocks of format_version 2 are framed (BlobFileBuilder::
  // CompressBlobIfNeeded: compress_format_version 2).
  FramingContext context;
  context.format_version = 2;
  context.block_offset = pointer.value_offset;
  CompressedFrame frame;
  if (Status s = UnframeCompressedBlock(context, pointer.compression, blob, &frame); !s.ok()) {
    return BlobError(s.code(), s.message(), pointer.value_offset);
  }
  CodecInput input;
  input.payload = blob.subspan(frame.payload_offset, frame.payload_size);
  input.size = frame.uncompressed_size;
  Decompressor decompressor;
  if (Status s = decompressor.Decompress(frame.codec, input, value); !s.ok()) {
    value->clear();
    return BlobError(s.code(), "the blob does not decompress: " + s.message(),
                     pointer.value_offset);
  }
  return Status::Ok();
}

}  // namespace sstfilter
