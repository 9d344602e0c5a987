// Table footers (docs/FORMATS.md 3.5, 3.6.2-3.6.3; leveldb table/format.cc, rocksdb table/format.cc
// Footer::DecodeFrom): the last 48 bytes of a LevelDB table or RocksDB format_version 0 table, or
// the last 53 bytes of a RocksDB block-based table of format_version 1-7.
#pragma once

#include <cstdint>
#include <optional>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "table/block.h"
#include "table/block_checksum.h"

namespace sstfilter {

inline constexpr uint64_t kLegacyTableMagic = 0xdb4775248b80fb57;      // LevelDB, RocksDB fv 0
inline constexpr uint64_t kBlockBasedTableMagic = 0x88e241b785f4cff7;  // RocksDB fv >= 1
inline constexpr size_t kLegacyFooterSize = 48;
inline constexpr size_t kFooterSize = 53;
inline constexpr uint32_t kMaxFormatVersion = 7;

struct Footer {
  // The LevelDB magic: a LevelDB table or a RocksDB format_version 0 table; the metaindex tells.
  bool legacy_magic = false;
  uint32_t format_version = 0;
  ChecksumType checksum = ChecksumType::kCrc32c;
  BlockHandle metaindex;
  std::optional<BlockHandle> index;    // format_version >= 6 keeps it in the metaindex instead
  uint32_t base_context_checksum = 0;  // format_version >= 6
  uint64_t offset = 0;                 // where the footer starts in the file
};

// How many bytes at the end of a file of `file_size` bytes DecodeFooter needs.
inline uint64_t FooterReadSize(uint64_t file_size) {
  return file_size < kFooterSize ? file_size : kFooterSize;
}

// `tail` is the last FooterReadSize(file_size) bytes of the file. Other table types (plain,
// cuckoo), format_versions above 7 and unknown checksum types are kUnsupported; a bad footer
// checksum (format_version >= 6) is kChecksumMismatch; errors carry file offsets.
Status DecodeFooter(ByteView tail, uint64_t file_size, Footer* footer);

// The footer a writer appends at file offset `footer_offset` (rocksdb table/format.cc
// FooterBuilder::Build; leveldb table/format.cc Footer::EncodeTo). format_version 1 to 5: the
// checksum type (RocksDB only), both handles zero-padded to 40 bytes, the format_version (RocksDB
// only) and the magic number. format_version 6 and 7: the checksum type, the extended magic, the
// footer's own checksum (context-modified), `base_context_checksum` (non-zero), the metaindex
// size (the metaindex must end, trailer included, where the footer starts), 24 zero bytes, the
// format_version and the magic; the index handle is then the metaindex's "rocksdb.index".
void AppendRocksDbFooter(uint32_t format_version, ChecksumType checksum,
                         uint32_t base_context_checksum, uint64_t footer_offset,
                         BlockHandle metaindex, BlockHandle index, Bytes* out);
void AppendLevelDbFooter(BlockHandle metaindex, BlockHandle index, Bytes* out);

}  // namespace sstfilter
