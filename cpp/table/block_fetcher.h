// Brings blocks from the file into memory without doing I/O itself: the caller asks for a block,
// the fetcher says which file bytes it needs, the driver (TypeScript over a ByteSource, or
// DriveFromMemory for bytes in memory) supplies them, and the caller asks again and gets the
// contents, checksum verified and decompressed (rocksdb table/block_fetcher.cc does the same steps
// synchronously). Reads are coalesced into a window of the file: a sequential walk reads ahead in
// pieces that grow to kMaxReadahead, as RocksDB's FilePrefetchBuffer does
// (file/file_prefetch_buffer.cc), and opening a table brings in the file's tail at once, where
// footer, metaindex, properties, index and filter lie (BlockBasedTable::PrefetchTail). A block that
// runs past the window keeps the head it has (FilePrefetchBuffer's chunk reuse), so a walk's reads
// follow each other without gaps or overlaps, and each says how much the next one will likely
// be: a driver can read that while the core works on this one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sstfilter/status.h"
#include "sstfilter/table.h"
#include "table/block.h"
#include "table/block_checksum.h"
#include "table/codecs/codecs.h"
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
  bool verify_checksums = true;  // TableOptions::verify_checksums
  // The rocksdb.compression_dict meta block, which data blocks are compressed with; empty if none.
  Bytes compression_dictionary;
  // format_version 7: the compression manager rocksdb.compression names (CompressionManagerName).
  std::string compression_manager;
};

enum class BlockKind : uint8_t { kData, kIndex, kMeta };

// The first read-ahead of a sequential walk, and the most it grows to (doubling per read). 1 MiB
// reads cost no measurable speed against 4 MiB ones and hold ~20 MB less memory on a walk (the
// window, and the driver's buffers for the read and the read ahead).
inline constexpr uint64_t kInitialReadahead = uint64_t{64} << 10;
inline constexpr uint64_t kMaxReadahead = uint64_t{1} << 20;
// How much of the file's end opening reads at once (RocksDB's default tail prefetch is 512 KiB).
inline constexpr uint64_t kTailPrefetchBytes = uint64_t{512} << 10;

class BlockFetcher {
 public:
  explicit BlockFetcher(const TableFileFormat* format) : format_(format) {}

  // Reads from here on are sequential: each read that leaves the window reads ahead.
  void EnableReadahead() { readahead_ = kInitialReadahead; }
  // Each read brings in only the block asked for (a point lookup's few blocks).
  void DisableReadahead() { readahead_ = 0; }
  // The next read that leaves the window also covers the file's last `bytes`.
  void PrefetchTail(uint64_t bytes) { tail_prefetch_ = bytes; }
  // Frees the window (opening is done; later reads come one at a time).
  void ReleaseWindow();

  // The contents of the block at `handle` once they are here (`*contents` set), or Ok with
  // `*contents` unset and need() == kBytes while they are not. A handle outside the file or
  // above kMaxBlockBytes fails before anything is requested. With verify = false the trailer is
  // neither checked nor acted on: the contents come as stored, trailer() gives the trailer (for the
  // properties block, whose checksum may legitimately be stale and which is never compressed,
  // rocksdb table/meta_blocks.cc).
  Status Fetch(BlockHandle handle, BlockKind kind, std::optional<Bytes>* contents,
               bool verify = true);
  // Hands back the contents of a block the caller is done with: the next decompression writes
  // into that buffer instead of a new one.
  void Recycle(Bytes&& contents) { spare_ = std::move(contents); }
  // Raw file bytes without a trailer (the footer).
  Status FetchRaw(uint64_t offset, uint64_t length, std::optional<Bytes>* bytes);

  IoNeed need() const { return waiting_ ? IoNeed::kBytes : IoNeed::kNothing; }
  uint64_t need_offset() const { return need_offset_; }
  uint64_t need_length() const { return need_length_; }
  // On a sequential walk, the length of the read likely to follow this one, which will start at
  // need_offset() + need_length(); 0 when no read is expected.
  uint64_t need_ahead_length() const { return need_ahead_length_; }

  // The driver's answer to need(): the file bytes, copied in by Supply, or written by the driver
  // into SupplyBuffer() (need_length() bytes) and announced by Supplied.
  Status Supply(ByteView bytes);
  uint8_t* SupplyBuffer();
  Status Supplied(size_t size);

  // Type byte and stored checksum of the last block fetched.
  ByteView trailer() const { return ByteView(trailer_, kBlockTrailerSize); }

 private:
  // While a read is pending, only that read may be asked for again (Ok: still waiting).
  Status RepeatOfPending(BlockHandle request, bool raw) const;
  // Ok with `*bytes` pointing into the window when [offset, offset + length) is in it; otherwise
  // asks for a window that covers it.
  Status Acquire(uint64_t offset, uint64_t length, uint64_t limit, ByteView* bytes);
  // The contents of `block` (with its trailer), verified and decompressed as Fetch describes.
  Status Verified(ByteView block, BlockKind kind, bool verify, std::optional<Bytes>* contents);

  const TableFileFormat* format_;
  Decompressor decompressor_;
  Bytes spare_;  // a buffer to decompress into (Recycle)
  bool waiting_ = false;
  BlockHandle request_;  // what the pending read is for
  bool request_raw_ = false;
  uint64_t need_offset_ = 0;
  uint64_t need_length_ = 0;
  uint64_t need_ahead_length_ = 0;
  // How many bytes at the front of window_ the pending read continues (a block's head).
  size_t carried_ = 0;
  uint64_t readahead_ = 0;
  uint64_t tail_prefetch_ = 0;
  // File bytes [window_offset_, window_offset_ + window_size_) in window_.
  Bytes window_;
  uint64_t window_offset_ = 0;
  uint64_t window_size_ = 0;
  uint8_t trailer_[kBlockTrailerSize] = {};
};

}  // namespace sstfilter
