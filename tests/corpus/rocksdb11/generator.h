// What the generator's table writers share (generator.cc): a table's options, and the run that
// writes it with its keys and values and records RocksDB's answer per probe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "rocksdb/options.h"
#include "rocksdb/table.h"

struct Case {
  std::string id;
  uint32_t format_version = 7;
  std::string filter;  // "bloom", "ribbon" or "none"
  double bits_per_key = 10;
  bool partitioned = false;
  std::string prefix;  // "" or "fixed:N"
  bool whole_key_filtering = true;
  rocksdb::CompressionType compression = rocksdb::kNoCompression;
  std::string compression_label;  // the manifest's name for a codec CompressionName lacks
  rocksdb::ChecksumType checksum = rocksdb::kXXH3;
  int block_restart_interval = 16;
  bool hash_index = false;           // data_block_index_type kDataBlockBinaryAndHash
  double uniform_cv_threshold = -1;  // >= 0 lets index blocks carry bit 29
  bool separate_key_value_in_data_block = true;
  size_t keys = 800;
  // Set: values of at least this many bytes go to same-file blob records, as
  // SstFileWriter::OpenWithEmbeddedBlobs writes them (11.6+); probes then record Get's value too.
  std::optional<uint64_t> embedded_min_blob_size;
  // n > 0: every n-th key (index i % n == 1) is a wide-column entity (PutEntity) whose default
  // column is the value MakeEntries made, beside a longer and a short column (generator.cc
  // EntityColumns); probes then record GetEntity's columns too.
  size_t entity_every = 0;
  // Options the fields above do not say (a compression manager, a user-defined index), set last.
  std::function<void(rocksdb::Options*, rocksdb::BlockBasedTableOptions*)> customize;
};

// Writes <id>.sst, .keys and .values into out_dir and returns the case's manifest record.
nlohmann::json RunCase(const Case& c, const std::filesystem::path& out_dir,
                       const std::filesystem::path& scratch);

// tables_meta.cc: the tables of fixtures/v11-meta and their manifest.
void WriteMetaTables(const std::filesystem::path& out_dir, const std::filesystem::path& scratch);

// tables_embedded_blobs.cc: the tables of fixtures/v11-blob and their manifest.
void WriteEmbeddedBlobTables(const std::filesystem::path& out_dir,
                             const std::filesystem::path& scratch);
