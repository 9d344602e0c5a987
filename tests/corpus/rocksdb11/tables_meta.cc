// The tables of tests/corpus/fixtures/v11-meta/ (README.md beside this file): what RocksDB 11.8.1
// records of compression at format_version 7 (rocksdb.compression_name "<manager>;<types>;"),
// a table compressed by a custom codec of a compression manager readers other than RocksDB with
// that manager do not have, and a table with a user-defined index (the trie index of
// utilities/trie_index) beside its ordinary one.
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "generator.h"
#include "rocksdb/advanced_compression.h"
#include "utilities/trie_index/trie_index_factory.h"

namespace {

using rocksdb::CompressionType;

// The custom codec: LZ4's block format under the type byte 0x81. A reader that took the byte for
// LZ4 would decode it, so the fixture shows whether a reader names what it does not know instead
// (upstream's own test codec, test_util/testutil.h CompressorCustomAlg, works the same way).
constexpr CompressionType kFixtureCodec = rocksdb::kCustomCompression81;
constexpr char kManagerName[] = "SstfilterFixtureCodecs";

class RelabelledLz4Compressor : public rocksdb::CompressorWrapper {
 public:
  using CompressorWrapper::CompressorWrapper;
  const char* Name() const override { return "RelabelledLz4Compressor"; }
  CompressionType GetPreferredCompressionType() const override { return kFixtureCodec; }
  std::unique_ptr<Compressor> Clone() const override {
    return std::make_unique<RelabelledLz4Compressor>(wrapped_->Clone());
  }
  rocksdb::Status CompressBlock(rocksdb::Slice in, char* out, size_t* out_size,
                                CompressionType* type, ManagedWorkingArea* area) override {
    rocksdb::Status s = wrapped_->CompressBlock(in, out, out_size, type, area);
    if (s.ok() && *type == rocksdb::kLZ4Compression) *type = kFixtureCodec;
    return s;
  }
};

class RelabelledLz4Decompressor : public rocksdb::DecompressorWrapper {
 public:
  using DecompressorWrapper::DecompressorWrapper;
  rocksdb::Status ExtractUncompressedSize(Args& args) override {
    const CompressionType stored = args.compression_type;
    if (stored == kFixtureCodec) args.compression_type = rocksdb::kLZ4Compression;
    rocksdb::Status s = wrapped_->ExtractUncompressedSize(args);
    args.compression_type = stored;
    return s;
  }
  rocksdb::Status DecompressBlock(const Args& args, char* out) override {
    Args lz4 = args;
    if (lz4.compression_type == kFixtureCodec) lz4.compression_type = rocksdb::kLZ4Compression;
    return wrapped_->DecompressBlock(lz4, out);
  }
};

// BuiltinV2 plus the codec, under its own compatibility name: what rocksdb.compression_name
// records and what a reader must find to read the table (CompressionManager::
// FindCompatibleCompressionManager).
class FixtureCompressionManager : public rocksdb::CompressionManagerWrapper {
 public:
  FixtureCompressionManager()
      : CompressionManagerWrapper(rocksdb::GetBuiltinV2CompressionManager()) {}
  const char* Name() const override { return kManagerName; }
  const char* CompatibilityName() const override { return kManagerName; }
  bool SupportsCompressionType(CompressionType type) const override {
    return type == kFixtureCodec || wrapped_->SupportsCompressionType(type);
  }
  std::unique_ptr<rocksdb::Compressor> GetCompressorForSST(const rocksdb::FilterBuildingContext&,
                                                           const rocksdb::CompressionOptions& opts,
                                                           CompressionType preferred) override {
    return GetCompressor(opts, preferred);
  }
  std::unique_ptr<rocksdb::Compressor> GetCompressor(const rocksdb::CompressionOptions& opts,
                                                     CompressionType type) override {
    if (type != kFixtureCodec) return wrapped_->GetCompressor(opts, type);
    return std::make_unique<RelabelledLz4Compressor>(
        wrapped_->GetCompressor(opts, rocksdb::kLZ4Compression));
  }
  std::shared_ptr<rocksdb::Decompressor> GetDecompressor() override {
    return std::make_shared<RelabelledLz4Decompressor>(wrapped_->GetDecompressor());
  }
  std::shared_ptr<rocksdb::Decompressor> GetDecompressorOptimizeFor(CompressionType) override {
    return GetDecompressor();
  }
  std::shared_ptr<rocksdb::Decompressor> GetDecompressorForTypes(const CompressionType*,
                                                                 const CompressionType*) override {
    return GetDecompressor();
  }
};

std::vector<Case> MetaCases() {
  std::vector<Case> cases;
  // format_version 7 with each builtin codec, and none: rocksdb.compression_name is
  // "BuiltinV2;<types used, hex>;" (";;" without compression; block_based_table_builder.cc,
  // PrePopulateCompressionProperties / PostPopulateCompressionProperties).
  const std::pair<const char*, CompressionType> codecs[] = {{"none", rocksdb::kNoCompression},
                                                            {"snappy", rocksdb::kSnappyCompression},
                                                            {"zlib", rocksdb::kZlibCompression},
                                                            {"bzip2", rocksdb::kBZip2Compression},
                                                            {"lz4", rocksdb::kLZ4Compression},
                                                            {"lz4hc", rocksdb::kLZ4HCCompression},
                                                            {"zstd", rocksdb::kZSTD}};
  for (const auto& [name, type] : codecs) {
    cases.push_back(
        {.id = std::string("fv7-") + name, .filter = "bloom", .compression = type, .keys = 400});
  }
  cases.push_back({.id = "custom-codec-0x81",
                   .filter = "bloom",
                   .compression = kFixtureCodec,
                   .compression_label = "custom:0x81",
                   .keys = 400,
                   .customize = [](rocksdb::Options* o, rocksdb::BlockBasedTableOptions*) {
                     o->compression_manager = std::make_shared<FixtureCompressionManager>();
                   }});
  // A user-defined index (rocksdb.user_defined_index.trie_index, 10.6+) beside the ordinary
  // index; once with index blocks marked uniform (bit 29) and a partitioned filter.
  const auto trie = [](rocksdb::Options*, rocksdb::BlockBasedTableOptions* t) {
    t->user_defined_index_factory = std::make_shared<rocksdb::trie_index::TrieIndexFactory>();
  };
  cases.push_back({.id = "trie-index", .filter = "bloom", .keys = 400, .customize = trie});
  // The trie as the index RocksDB reads through (use_udi_as_primary_index: property
  // rocksdb.udi.is.primary.index = 1); the ordinary index is still written in full.
  cases.push_back({.id = "trie-index-primary",
                   .filter = "bloom",
                   .compression = rocksdb::kLZ4Compression,
                   .keys = 400,
                   .customize = [trie](rocksdb::Options* o, rocksdb::BlockBasedTableOptions* t) {
                     trie(o, t);
                     t->use_udi_as_primary_index = true;
                   }});
  cases.push_back({.id = "trie-index-zstd-uniform",
                   .filter = "ribbon",
                   .partitioned = true,
                   .compression = rocksdb::kZSTD,
                   .uniform_cv_threshold = 1e9,
                   .keys = 400,
                   .customize = trie});
  return cases;
}

}  // namespace

void WriteMetaTables(const std::filesystem::path& out_dir, const std::filesystem::path& scratch) {
  std::filesystem::create_directories(out_dir);
  nlohmann::json cases = nlohmann::json::array();
  for (const Case& c : MetaCases()) cases.push_back(RunCase(c, out_dir, scratch));
  const nlohmann::json manifest = {
      {"generator", "tests/corpus/rocksdb11/tables_meta.cc"},
      {"library", "RocksDB 11.8.1 (git tag v11.8.1, built from upstream source)"},
      {"cases", cases}};
  std::ofstream(out_dir / "manifest.json") << manifest.dump(1) << "\n";
}
