// The harness of embedded_blobs_fuzz (harness_support.h says how harnesses are built and replayed):
// the parsers of embedded blob tables (sstfilter/embedded_blobs.h, docs/FORMATS.md 3.10.3) on
// their own; the table and table_get targets read the records inside v11-blob tables.
#pragma once

#include <cstdint>

#include "harness_support.h"
#include "sstfilter/bytes.h"
#include "sstfilter/embedded_blobs.h"
#include "sstfilter/table_io.h"
#include "sstfilter/values.h"

namespace sstfilter::fuzz {

// ---- embedded_blobs_fuzz: [blocks_end u64 LE][stored compression u8][value] ----
// The value is decoded as rocksdb.embedded.blob.stats, and as a blob index whose record is then
// located before `blocks_end` and whose stored compression byte is checked. Errors of the stats
// must be kCorrupt inside the value; decoded stats must re-encode to varints that decode the same,
// and count bytes only with records. A located record must be the index's bytes and end, trailer
// included, at or before `blocks_end`; one that is not must have a TTL or run past it.
inline void FuzzEmbeddedBlobs(const uint8_t* data, size_t size) {
  Input in(data, size);
  uint64_t blocks_end = 0;
  for (int i = 0; i < 8; ++i) blocks_end |= static_cast<uint64_t>(in.Byte()) << (8 * i);
  const uint8_t stored_compression = in.Byte();
  const ByteView value = in.Rest();

  EmbeddedBlobStats stats;
  const Status decoded = DecodeEmbeddedBlobStats(value, &stats);
  if (decoded.ok()) {
    FUZZ_CHECK(stats.blob_count != 0 || stats.payload_bytes == 0);
    Bytes again;
    PutVarint64(&again, stats.blob_count);
    PutVarint64(&again, stats.payload_bytes);
    EmbeddedBlobStats reread;
    FUZZ_CHECK(DecodeEmbeddedBlobStats(again, &reread).ok());
    FUZZ_CHECK(reread.blob_count == stats.blob_count &&
               reread.payload_bytes == stats.payload_bytes);
  } else {
    FUZZ_CHECK(decoded.code() == ErrorCode::kCorrupt && decoded.offset() >= 0 &&
               static_cast<uint64_t>(decoded.offset()) <= value.size());
  }

  BlobIndex index;
  if (!DecodeBlobIndex(value, &index).ok() || !IsSameFileBlobIndex(index)) return;
  FUZZ_CHECK(index.file_number == 0 && index.type != BlobIndex::Type::kInlinedTtl);
  BlockHandle handle;
  const Status located = EmbeddedBlobRecordHandle(index, blocks_end, &handle);
  // Whether offset + size + the trailer ends past blocks_end, without wrapping.
  const bool past_end = index.offset > blocks_end ||
                        blocks_end - index.offset < kBlockTrailerSize ||
                        index.size > blocks_end - index.offset - kBlockTrailerSize;
  if (located.ok()) {
    FUZZ_CHECK(index.type == BlobIndex::Type::kBlob && !past_end);
    FUZZ_CHECK(handle.offset == index.offset && handle.size == index.size);
  } else {
    FUZZ_CHECK(located.code() == ErrorCode::kCorrupt &&
               (index.type != BlobIndex::Type::kBlob || past_end));
  }
  const Status checked = CheckEmbeddedBlobCompression(index, stored_compression);
  if (stored_compression != index.compression) {
    FUZZ_CHECK(checked.code() == ErrorCode::kCorrupt);
  } else {
    FUZZ_CHECK(checked.ok() == (stored_compression == 0));
    if (!checked.ok()) FUZZ_CHECK(checked.code() == ErrorCode::kUnsupported);
  }
}

}  // namespace sstfilter::fuzz
