// Brings one block at a time from the file into memory without doing I/O itself: the caller asks
// for a block, the fetcher says which file bytes it needs, the driver (TypeScript over a
// ByteSource, or DriveFromMemory for bytes in memory) supplies them, the fetcher verifies
// the trailer checksum and strips the compression framing, the driver decompresses and supplies
// the contents, and the caller asks again and gets them (rocksdb table/block_fetcher.cc does the
// same steps synchronously).
#pragma once

#include <cstdint>
#include <optional>

#include "sstfilter/status.h"
#include "sstfilter/table.h"
#include "table/block.h"
#include "table/block_checksum.h"
#include "table/compression.h"

namespace sstfilter {

// What every block read of one table needs to know.
struct TableFileFormat {
  uint64_t file_size = 0;
  uint64_t blocks_end = 0;  // blocks (with trailers) lie in [0, blocks_end): the footer follows
  TableFamily family = TableFamily::kRocksDb;
  uint32_t format_version = 0;
  ChecksumType checksum = ChecksumType::kCrc32c;
  uint32_t base_context_checksum = 0;
  bool has_compression_dictionary = false;
};

enum class BlockKind : uint8_t { kData, kIndex, kMeta };

class BlockFetcher {
 public:
  explicit BlockFetcher(const TableFileFormat* format) : format_(format) {}

  // The contents of the block at `handle` once they are here (`*contents` set), or Ok with
  // `*contents` unset and need() != kNothing while they are not. A handle outside the file or
  // above kMaxBlockBytes fails before anything is requested. With verify = false the trailer is
  // neither checked nor acted on: the contents come as stored, trailer() gives the trailer (for the
  // properties block, whose checksum may legitimately be stale and which is never compressed,
  // rocksdb table/meta_blocks.cc).
  Status Fetch(BlockHandle handle, BlockKind kind, std::optional<Bytes>* contents,
               bool verify = true);
  // Raw file bytes without a trailer (the footer).
  Status FetchRaw(uint64_t offset, uint64_t length, std::optional<Bytes>* bytes);

  IoNeed need() const { return need_; }
  uint64_t need_offset() const { return need_offset_; }
  uint64_t need_length() const { return need_length_; }
  Codec codec() const { return frame_.codec; }
  ByteView payload() const;
  std::optional<uint64_t> uncompressed_size() const { return frame_.uncompressed_size; }
  // The offset of the block being fetched (for errors the driver reports).
  uint64_t block_offset() const { return handle_.offset; }

  // The driver's answer to need(): file bytes, or decompressed contents.
  Status Supply(ByteView bytes);

  // Type byte and stored checksum of the last block fetched.
  ByteView trailer() const { return ByteView(trailer_, kBlockTrailerSize); }

 private:
  enum class State : uint8_t { kIdle, kWaitingBytes, kWaitingDecompression, kReady };

  Status Start(BlockHandle handle, uint64_t length);
  Status Complete(std::optional<Bytes>* out);

  const TableFileFormat* format_;
  State state_ = State::kIdle;
  IoNeed need_ = IoNeed::kNothing;
  bool raw_ = false;
  bool verify_ = true;
  BlockKind kind_ = BlockKind::kMeta;
  BlockHandle handle_;
  uint64_t need_offset_ = 0;
  uint64_t need_length_ = 0;
  Bytes buffer_;  // raw bytes while decompressing, then the contents
  CompressedFrame frame_;
  uint8_t trailer_[kBlockTrailerSize] = {};
};

}  // namespace sstfilter
