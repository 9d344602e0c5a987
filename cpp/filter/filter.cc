#include "sstfilter/filter.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/enum_names.h"
#include "sstfilter/leveldb_bloom.h"
#include "sstfilter/rocksdb_bloom.h"
#include "sstfilter/rocksdb_ribbon.h"

namespace sstfilter {
namespace {

class ConstantFilterReader final : public FilterReader {
 public:
  ConstantFilterReader(bool may_match, Bytes contents)
      : may_match_(may_match), contents_(std::move(contents)) {}

  FilterInfo info() const override {
    FilterInfo info;
    info.kind = may_match_ ? FilterKind::kAlwaysMatch : FilterKind::kNeverMatch;
    return info;
  }
  ByteView contents() const override { return contents_; }
  bool MayMatch(ByteView) const override { return may_match_; }
  void MayMatchBatch(const KeyBatchView& keys, uint8_t* results) const override {
    std::fill(results, results + keys.size(), may_match_ ? 1 : 0);
  }
  bool MayMatchHashes(const uint64_t*, size_t n, uint8_t* results) const override {
    std::fill(results, results + n, may_match_ ? 1 : 0);
    return true;
  }

 private:
  bool may_match_;
  Bytes contents_;
};

}  // namespace

const char* FilterKindName(FilterKind kind) {
  // In FilterKind's order.
  static constexpr const char* kNames[] = {"leveldb-bloom", "rocksdb-legacy-bloom",
                                           "rocksdb-bloom", "rocksdb-ribbon",
                                           "always-match",  "never-match"};
  return EnumName<FilterKind::kNeverMatch>(kind, kNames, "unknown");
}

const char* FilterFormatName(FilterFormat format) {
  // In FilterFormat's order.
  static constexpr const char* kNames[] = {"leveldb", "rocksdb-legacy-bloom", "rocksdb-bloom",
                                           "rocksdb-ribbon"};
  return EnumName<FilterFormat::kRocksDbRibbon>(format, kNames, "unknown");
}

void FilterReader::MayMatchBatch(const KeyBatchView& keys, uint8_t* results) const {
  for (size_t i = 0; i < keys.size(); ++i) results[i] = MayMatch(keys[i]) ? 1 : 0;
}

bool FilterReader::MayMatchHashes(const uint64_t*, size_t, uint8_t*) const { return false; }

std::unique_ptr<FilterReader> MakeConstantFilterReader(bool may_match, Bytes contents) {
  return std::make_unique<ConstantFilterReader>(may_match, std::move(contents));
}

Status ValidateBuildOptions(const BuildOptions& options) {
  const double b = options.bits_per_key;
  if (!std::isfinite(b) || b <= 0 || b > kMaxBitsPerKey) {
    return Status::Error(ErrorCode::kBadOptions,
                         "bitsPerKey must be a number above 0 and at most " +
                             std::to_string(static_cast<int>(kMaxBitsPerKey)) + ", got " +
                             std::to_string(b));
  }
  if (options.format == FilterFormat::kLevelDbBloom) {
    if (b != std::floor(b)) {
      return Status::Error(
          ErrorCode::kBadOptions,
          "LevelDB's NewBloomFilterPolicy takes whole bits per key, got " + std::to_string(b));
    }
  } else if (b < 0.5) {
    return Status::Error(
        ErrorCode::kBadOptions,
        "RocksDB writes no filter below 0.5 bits per key, got " + std::to_string(b));
  }
  return Status::Ok();
}

Status BuildFilter(const KeyBatchView& keys, const BuildOptions& options, Bytes* out) {
  if (Status s = ValidateBuildOptions(options); !s.ok()) return s;
  if (Status s = keys.Validate(); !s.ok()) return s;
  out->clear();
  switch (options.format) {
    case FilterFormat::kLevelDbBloom:
      return AppendLevelDbBloomFilter(keys, static_cast<int>(options.bits_per_key), out);
    case FilterFormat::kRocksDbLegacyBloom:
      return BuildRocksDbLegacyBloom(keys, options.bits_per_key, out);
    case FilterFormat::kRocksDbFastLocalBloom:
      return BuildRocksDbFastLocalBloom(keys, options.bits_per_key, out);
    case FilterFormat::kRocksDbRibbon:
      return BuildRocksDbRibbon(keys, options.bits_per_key, out);
  }
  return Status::Error(ErrorCode::kBadOptions, "unknown filter format");
}

Status BuildFilters(const KeyBatchView& keys, FilterFormat format,
                    std::span<const double> bits_per_key, std::vector<Bytes>* out,
                    bool ribbon_bloom_fallback) {
  out->assign(bits_per_key.size(), Bytes());
  for (const double b : bits_per_key) {
    if (Status s = ValidateBuildOptions({format, b}); !s.ok()) return s;
  }
  if (Status s = keys.Validate(); !s.ok()) return s;
  switch (format) {
    case FilterFormat::kRocksDbFastLocalBloom:
      return BuildRocksDbFastLocalBlooms(keys, bits_per_key, out);
    case FilterFormat::kRocksDbRibbon:
      return BuildRocksDbRibbons(keys, bits_per_key, out, ribbon_bloom_fallback);
    case FilterFormat::kLevelDbBloom:
    case FilterFormat::kRocksDbLegacyBloom:
      break;
  }
  for (size_t i = 0; i < bits_per_key.size(); ++i) {
    if (Status s = BuildFilter(keys, {format, bits_per_key[i]}, &(*out)[i]); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace sstfilter
