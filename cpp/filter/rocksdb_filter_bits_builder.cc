#include "filter/rocksdb_filter_bits_builder.h"

#include <utility>

#include "filter/rocksdb_bloom_internal.h"
#include "filter/rocksdb_ribbon_internal.h"
#include "sstfilter/hash.h"

namespace sstfilter {

void RocksDbFilterBitsBuilder::AddKey(ByteView key) {
  // XXPH3FilterBitsBuilder::AddKey and LegacyBloomBitsBuilder::AddKey skip a repeated hash.
  if (options_.format == FilterFormat::kRocksDbLegacyBloom) {
    const uint32_t h = rocksdb_bloom::LegacyBloomKeyHash(key);
    if (hashes32_.empty() || hashes32_.back() != h) hashes32_.push_back(h);
    return;
  }
  const uint64_t h = Xxph3Hash64(key, 0);
  if (hashes64_.empty() || hashes64_.back() != h) hashes64_.push_back(h);
}

namespace {

template <typename Hash>
void AddKeyAndAltHashes(Hash key_hash, Hash alt_hash, std::optional<uint64_t>* prev_alt,
                        std::vector<Hash>* entries) {
  const bool has_prev_key = !entries->empty();
  const Hash prev_key = has_prev_key ? entries->back() : 0;
  const bool has_prev_alt = prev_alt->has_value();
  const uint64_t before = prev_alt->value_or(0);
  // The alt first, so that the last entry stays the previous key's.
  if (!(has_prev_alt && alt_hash == before) && alt_hash != key_hash &&
      !(has_prev_key && alt_hash == prev_key)) {
    entries->push_back(alt_hash);
  }
  *prev_alt = alt_hash;
  if (!(has_prev_key && key_hash == prev_key) && !(has_prev_alt && key_hash == before)) {
    entries->push_back(key_hash);
  }
}

}  // namespace

void RocksDbFilterBitsBuilder::AddKeyAndAlt(ByteView key, ByteView alt) {
  // XXPH3FilterBitsBuilder::AddKeyAndAlt and LegacyBloomBitsBuilder::AddKeyAndAlt.
  if (options_.format == FilterFormat::kRocksDbLegacyBloom) {
    AddKeyAndAltHashes(rocksdb_bloom::LegacyBloomKeyHash(key),
                       rocksdb_bloom::LegacyBloomKeyHash(alt), &prev_alt_hash_, &hashes32_);
    return;
  }
  AddKeyAndAltHashes(Xxph3Hash64(key, 0), Xxph3Hash64(alt, 0), &prev_alt_hash_, &hashes64_);
}

size_t RocksDbFilterBitsBuilder::entries() const { return hashes32_.size() + hashes64_.size(); }

Status RocksDbFilterBitsBuilder::Finish(Bytes* out) {
  prev_alt_hash_.reset();
  RocksDbBloomParams params;
  if (Status s = rocksdb_bloom::SanitizeBuilderBitsPerKey(options_.bits_per_key, &params);
      !s.ok()) {
    return s;
  }
  switch (options_.format) {
    case FilterFormat::kRocksDbLegacyBloom: {
      // x86-64's 64-byte cache lines, as the corpus and the golden files have them.
      const Status s =
          rocksdb_bloom::FinishLegacyBloom(hashes32_, params.whole_bits_per_key, 64, out);
      std::vector<uint32_t>().swap(hashes32_);
      return s;
    }
    case FilterFormat::kRocksDbFastLocalBloom: {
      const Status s =
          rocksdb_bloom::FinishFastLocalBloom(hashes64_, params.millibits_per_key, out);
      std::vector<uint64_t>().swap(hashes64_);
      return s;
    }
    case FilterFormat::kRocksDbRibbon:
      return rocksdb_ribbon::FinishRibbon(std::exchange(hashes64_, {}), options_.bits_per_key,
                                          params.millibits_per_key, out);
    case FilterFormat::kLevelDbBloom:
      break;
  }
  return Status::Error(ErrorCode::kBadOptions, "not a RocksDB filter format");
}

uint64_t RocksDbFilterBitsBuilder::ApproximateNumEntries(uint64_t bytes) const {
  RocksDbBloomParams params;
  if (!rocksdb_bloom::SanitizeBuilderBitsPerKey(options_.bits_per_key, &params).ok()) return 0;
  switch (options_.format) {
    case FilterFormat::kRocksDbLegacyBloom:
      return rocksdb_bloom::LegacyBloomApproximateNumEntries(bytes, params.whole_bits_per_key, 64);
    case FilterFormat::kRocksDbFastLocalBloom:
      return rocksdb_bloom::FastLocalBloomApproximateNumEntries(bytes, params.millibits_per_key);
    case FilterFormat::kRocksDbRibbon:
      return rocksdb_ribbon::ApproximateNumEntries(
          bytes, rocksdb_ribbon::DesiredOneInFpRate(options_.bits_per_key),
          params.millibits_per_key);
    case FilterFormat::kLevelDbBloom:
      break;
  }
  return 0;
}

}  // namespace sstfilter
