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

// A finished block as both databases store it: its contents compressed by `compressor` (none when
// null) when that saves at least an eighth (GoodCompressionRatio in rocksdb
// table/block_based/block_based_table_builder.cc, TableBuilder::WriteBlock in leveldb), then the
// type byte and the checksum of contents and type. Appends the stored contents and trailer to
// `out` and returns the contents' size (the handle's).
size_t AppendBlock(ByteView raw, BlockCompressor* compressor, ChecksumType checksum, Bytes* out);

Status BadOptions(std::string message);

}  // namespace sstfilter
