// The tables of tests/corpus/fixtures/v11-blob/ (README.md beside this file): embedded blob
// tables as SstFileWriter::OpenWithEmbeddedBlobs writes them (RocksDB 11.6+, format_version 7),
// values of at least min_blob_size bytes in same-file blob records among the data blocks, their
// entries holding a blob index naming file 0 (docs/FORMATS.md 3.10.3). The entries' values are
// 0 to 59 bytes long (generator.cc MakeEntries), so a threshold of 32 moves about half of them
// out and 0 moves every one, the empty values too. Blob records are always uncompressed in 11.8.1
// (SstFileWriterEmbeddedBlobOptions::compression_type is a placeholder), so the data blocks'
// codec is the only compression these tables vary.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "generator.h"

namespace {

std::vector<Case> EmbeddedBlobCases() {
  std::vector<Case> cases;
  // RocksDB 11's default data block layout (keys and values together), Bloom, XXH3.
  cases.push_back({.id = "blob-min32-bloom",
                   .filter = "bloom",
                   .separate_key_value_in_data_block = false,
                   .keys = 300,
                   .embedded_min_blob_size = 32});
  // Every value a record, even the empty ones (a 5-byte record of trailer alone); CRC32C.
  cases.push_back({.id = "blob-min0-ribbon-crc32c",
                   .filter = "ribbon",
                   .checksum = rocksdb::kCRC32c,
                   .separate_key_value_in_data_block = false,
                   .keys = 300,
                   .embedded_min_blob_size = 0});
  // Compressed data blocks and uncompressed records side by side, with a partitioned filter, a
  // prefix extractor and values kept apart from keys in the data blocks.
  cases.push_back({.id = "blob-min32-lz4-part-fixed4",
                   .filter = "bloom",
                   .partitioned = true,
                   .prefix = "fixed:4",
                   .compression = rocksdb::kLZ4Compression,
                   .checksum = rocksdb::kxxHash64,
                   .keys = 300,
                   .embedded_min_blob_size = 32});
  // Wide-column entities among the values (every odd-numbered key, so that half the probed keys,
  // every third, are entities): each column of at least 32 bytes in its own record, the entity
  // stored in version 2 with those columns typed as blob indexes (block_based_table_builder.cc
  // BuildEmbeddedWideColumnEntity).
  cases.push_back({.id = "blob-min32-entities",
                   .filter = "bloom",
                   .separate_key_value_in_data_block = false,
                   .keys = 300,
                   .embedded_min_blob_size = 32,
                   .entity_every = 2});
  return cases;
}

}  // namespace

void WriteEmbeddedBlobTables(const std::filesystem::path& out_dir,
                             const std::filesystem::path& scratch) {
  std::filesystem::create_directories(out_dir);
  nlohmann::json cases = nlohmann::json::array();
  for (const Case& c : EmbeddedBlobCases()) cases.push_back(RunCase(c, out_dir, scratch));
  const nlohmann::json manifest = {
      {"generator", "tests/corpus/rocksdb11/tables_embedded_blobs.cc"},
      {"library", "RocksDB 11.8.1 (git tag v11.8.1, built from upstream source)"},
      {"cases", cases}};
  std::ofstream(out_dir / "manifest.json") << manifest.dump(1) << "\n";
}
