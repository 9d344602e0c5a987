// The two table writers behind sstfilter/table_writer.h: RocksDB's block-based table as
// SstFileWriter writes it (rocksdb_table_writer.cc) and LevelDB's TableBuilder
// (leveldb_table_writer.cc). Each validates the options that concern it.
#pragma once

#include <memory>

#include "sstfilter/table_writer.h"
#include "table/block_checksum.h"
#include "table/compression.h"

namespace sstfilter {

Status NewRocksDbTableWriter(const TableWriteOptions& options, std::unique_ptr<TableWriter>* out);
Status NewLevelDbTableWriter(const TableWriteOptions& options, std::unique_ptr<TableWriter>* out);

// Options both share: block size, restart interval, bits per key for `filter`.
Status ValidateCommonWriteOptions(const TableWriteOptions& options);

// CompressionOptions::max_compressed_bytes_per_kb's default (rocksdb include/rocksdb/
// advanced_options.h at main): 7/8 of the raw size, rounded down.
inline constexpr uint32_t kMaxCompressedBytesPerKb = 896;

// How a writer seals its blocks: the trailer's checksum, the context that format_version >= 6
// adds to it (rocksdb table/format.h ChecksumModifierForContext; 0 for older formats and
// LevelDB), and when a compressed block is kept.
struct BlockSealing {
  ChecksumType checksum = ChecksumType::kCrc32c;
  uint32_t base_context_checksum = 0;
  // RocksDB 7.8.3 and LevelDB keep a compressed block that saves at least an eighth
  // (GoodCompressionRatio in 7.8.3's block_based_table_builder.cc, TableBuilder::WriteBlock in
  // leveldb); RocksDB 11.x one of at most max_compressed_bytes_per_kb (896) bytes per KiB of the
  // raw block (BlockBasedTableBuilder::CompressAndVerifyBlock at main).
  bool per_kb_limit = false;
};

struct SealedBlock {
  size_t size = 0;   // the stored contents (the handle's size)
  uint8_t type = 0;  // the trailer's compression-type byte
  // A compressor was given but the block is stored raw (rocksdb.num.data.blocks.compression.
  // rejected counts these data blocks).
  bool compression_rejected = false;
};

// A finished block as both databases store it at file offset `offset`: its contents compressed by
// `compressor` (none when null) when that pays off by `sealing`'s rule, then the type byte and
// the checksum of contents and type plus the context modifier. Appends the stored contents and
// trailer to `out`.
SealedBlock AppendBlock(ByteView raw, BlockCompressor* compressor, const BlockSealing& sealing,
                        uint64_t offset, Bytes* out);

Status BadOptions(std::string message);

}  // namespace sstfilter
