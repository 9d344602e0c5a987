// Embedded blob tables (sstfilter/embedded_blobs.h): the stats property and where an entry's
// same-file blob record lies (rocksdb table/embedded_blob_sst.h, db/blob/blob_gen2_format.cc,
// table/block_based/block_based_table_reader.cc ValidateEmbeddedBlobIndex, all 11.8.1).
#include "sstfilter/embedded_blobs.h"

#include <string>

namespace sstfilter {

Status DecodeEmbeddedBlobStats(ByteView value, EmbeddedBlobStats* out) {
  *out = EmbeddedBlobStats();
  size_t pos = 0;
  const auto count = GetVarint64(value, &pos);
  const size_t bytes_at = pos;
  const auto bytes = count ? GetVarint64(value, &pos) : std::nullopt;
  if (!count || !bytes) {
    return Status::Error(ErrorCode::kCorrupt,
                         std::string(kEmbeddedBlobStatsProperty) + ": bad varint",
                         static_cast<int64_t>(count ? bytes_at : 0));
  }
  if (*count == 0 && *bytes != 0) {
    return Status::Error(ErrorCode::kCorrupt,
                         std::string(kEmbeddedBlobStatsProperty) + ": bytes but no records",
                         static_cast<int64_t>(bytes_at));
  }
  *out = EmbeddedBlobStats{*count, *bytes};
  return Status::Ok();
}

bool IsSameFileBlobIndex(const BlobIndex& index) {
  return index.type != BlobIndex::Type::kInlinedTtl && index.file_number == 0;
}

Status EmbeddedBlobRecordHandle(const BlobIndex& index, uint64_t blocks_end, BlockHandle* out) {
  if (index.type != BlobIndex::Type::kBlob) {
    return Status::Error(ErrorCode::kCorrupt, "embedded blob index with a TTL");
  }
  // Written so that no sum can wrap: the record is size + 5 bytes from offset.
  if (index.offset > blocks_end || blocks_end - index.offset < kBlockTrailerSize ||
      index.size > blocks_end - index.offset - kBlockTrailerSize) {
    return Status::Error(ErrorCode::kCorrupt,
                         "embedded blob record at " + std::to_string(index.offset) + " of " +
                             std::to_string(index.size) + " bytes runs past the table's blocks");
  }
  *out = BlockHandle{index.offset, index.size};
  return Status::Ok();
}

Status CheckEmbeddedBlobCompression(const BlobIndex& index, uint8_t stored_compression) {
  if (stored_compression != index.compression) {
    return Status::Error(ErrorCode::kCorrupt,
                         "embedded blob record's compression byte " +
                             std::to_string(stored_compression) + " is not its index's " +
                             std::to_string(index.compression),
                         static_cast<int64_t>(index.offset + index.size));
  }
  if (stored_compression != 0) {
    return Status::Error(ErrorCode::kUnsupported,
                         "embedded blob record compressed (type " +
                             std::to_string(stored_compression) +
                             "): RocksDB 11.8.1 reads uncompressed embedded blobs only",
                         static_cast<int64_t>(index.offset + index.size));
  }
  return Status::Ok();
}

}  // namespace sstfilter
