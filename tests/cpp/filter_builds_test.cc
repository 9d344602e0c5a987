// BuildFilters (one call, several bits per key) against BuildFilter (one call each): the same
// bytes for every format. Standard128Ribbon is the case that matters: BuildRocksDbRibbons bands
// once for all bits per key, so the key sets below cover a first seed that fails (the banding is
// retried), small filters where RocksDB's Bloom fallback takes some bits per key but not others,
// and bits per key that RocksDB sanitises (below 1, at or above 100, fractional).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "packed_keys.h"
#include "sstfilter/filter.h"
#include "sstfilter/hash.h"
#include "sstfilter/rocksdb_ribbon.h"

namespace sstfilter {
namespace {

using testing::PackedKeys;
using KeyList = std::vector<std::vector<uint8_t>>;

// 4, 5, ..., 20 as filter-advice builds them, then values RocksDB sanitises or rounds: 0.5 (taken
// as 1), fractional ones, and 100 and above (taken as 100).
std::vector<double> AdviceAndEdgeBitsPerKey() {
  std::vector<double> bits;
  for (int b = 4; b <= 20; ++b) bits.push_back(b);
  for (double b : {9.5, 0.5, 1.0, 2.25, 7.777, 12.4999, 100.0, 250.0}) bits.push_back(b);
  return bits;
}

// The keys of bench/filter-advice-bench.mjs writtenTable(): an 8-byte big-endian number ascending
// by xorshift32 gaps of 1..8, then 8 bytes of '0' (db_bench's key layout).
KeyList AdviceBenchKeys(size_t count) {
  KeyList keys;
  keys.reserve(count);
  uint32_t state = 0x2545f491;
  uint64_t number = 0;
  for (size_t i = 0; i < count; ++i) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    number += 1 + state % 8;
    std::vector<uint8_t> key(16, '0');
    for (int b = 0; b < 8; ++b) key[b] = static_cast<uint8_t>(number >> (56 - 8 * b));
    keys.push_back(std::move(key));
  }
  return keys;
}

KeyList RandomKeys(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  KeyList keys;
  keys.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    std::vector<uint8_t> key(1 + rng() % 24);
    for (uint8_t& byte : key) byte = static_cast<uint8_t>(rng());
    keys.push_back(std::move(key));
  }
  return keys;
}

// Builds `format` at every bits per key both ways and expects equal bytes; returns the filters.
std::vector<Bytes> ExpectBuildsEqualSingleBuilds(const KeyList& keys, FilterFormat format,
                                                 const std::vector<double>& bits_per_key) {
  const PackedKeys packed(keys);
  std::vector<Bytes> filters;
  EXPECT_TRUE(BuildFilters(packed.view(), format, bits_per_key, &filters).ok());
  EXPECT_EQ(filters.size(), bits_per_key.size());
  for (size_t i = 0; i < filters.size(); ++i) {
    Bytes single;
    EXPECT_TRUE(BuildFilter(packed.view(), {format, bits_per_key[i]}, &single).ok());
    EXPECT_EQ(filters[i], single) << FilterFormatName(format) << " at " << bits_per_key[i]
                                  << " bits per key, " << keys.size() << " keys";
  }
  return filters;
}

FilterKind KindOf(const Bytes& filter) { return OpenRocksDbFilter(filter)->kind(); }

// The ordinal seed RocksDB tries first: the low byte of the first key's hash
// (Standard128RibbonBitsBuilder::Finish).
uint8_t FirstSeed(const KeyList& keys) {
  return static_cast<uint8_t>(Xxph3Hash64(ByteView(keys.front().data(), keys.front().size()), 0));
}

TEST(FilterBuilds, RibbonWhoseFirstSeedsFail) {
  const KeyList keys = AdviceBenchKeys(1000000);
  const std::vector<Bytes> filters =
      ExpectBuildsEqualSingleBuilds(keys, FilterFormat::kRocksDbRibbon, AdviceAndEdgeBitsPerKey());
  for (const Bytes& filter : filters) {
    ASSERT_EQ(KindOf(filter), FilterKind::kRocksDbRibbon);
    // The stored ordinal seed (the second metadata byte) is not the first one tried: banding was
    // retried.
    EXPECT_NE(filter[filter.size() - 4], FirstSeed(keys));
  }
}

TEST(FilterBuilds, RibbonOfSeveralSizes) {
  for (const size_t count : {1, 2, 127, 3000, 25000, 200000}) {
    const KeyList keys = RandomKeys(count, count);
    ExpectBuildsEqualSingleBuilds(keys, FilterFormat::kRocksDbRibbon, AdviceAndEdgeBitsPerKey());
  }
}

// Below 1024 slots RocksDB writes FastLocalBloom where it is smaller. Which one is depends on the
// bits per key (whole solution columns of 128-slot blocks against 64-byte Bloom blocks), so for
// these counts one call writes both kinds.
TEST(FilterBuilds, RibbonWithBloomFallbackAtSomeBitsPerKey) {
  for (const size_t count : {3, 150, 250}) {
    const KeyList keys = RandomKeys(count, 7 * count);
    const std::vector<Bytes> filters = ExpectBuildsEqualSingleBuilds(
        keys, FilterFormat::kRocksDbRibbon, AdviceAndEdgeBitsPerKey());
    size_t ribbons = 0;
    size_t blooms = 0;
    for (const Bytes& filter : filters) {
      ribbons += KindOf(filter) == FilterKind::kRocksDbRibbon ? 1 : 0;
      blooms += KindOf(filter) == FilterKind::kRocksDbFastLocalBloom ? 1 : 0;
    }
    EXPECT_GT(ribbons, 0u) << count << " keys";
    EXPECT_GT(blooms, 0u) << count << " keys";
    EXPECT_EQ(ribbons + blooms, filters.size());
  }
}

// Without the fallback (filter-advice's Ribbon row of a filter RocksDB does not write): a Ribbon
// filter at every bits per key, the same bytes where RocksDB keeps Ribbon, holding every key.
TEST(FilterBuilds, RibbonWithoutBloomFallback) {
  const std::vector<double> bits = AdviceAndEdgeBitsPerKey();
  for (const size_t count : {3, 150, 250, 3000}) {
    const KeyList keys = RandomKeys(count, 7 * count);
    const PackedKeys packed(keys);
    std::vector<Bytes> as_rocksdb;
    std::vector<Bytes> pure;
    ASSERT_TRUE(BuildFilters(packed.view(), FilterFormat::kRocksDbRibbon, bits, &as_rocksdb).ok());
    ASSERT_TRUE(BuildFilters(packed.view(), FilterFormat::kRocksDbRibbon, bits, &pure,
                             /*ribbon_bloom_fallback=*/false)
                    .ok());
    size_t replaced = 0;
    for (size_t i = 0; i < bits.size(); ++i) {
      const std::string context = std::to_string(count) + " keys at " + std::to_string(bits[i]);
      ASSERT_EQ(KindOf(pure[i]), FilterKind::kRocksDbRibbon) << context;
      if (KindOf(as_rocksdb[i]) == FilterKind::kRocksDbRibbon) {
        EXPECT_EQ(pure[i], as_rocksdb[i]) << context;
      } else {
        ++replaced;
      }
      const std::unique_ptr<FilterReader> reader = OpenRocksDbFilter(pure[i]);
      for (const std::vector<uint8_t>& key : keys) {
        ASSERT_TRUE(reader->MayMatch(ByteView(key.data(), key.size()))) << context;
      }
    }
    // The small sets (under 1024 slots) are those where RocksDB falls back at some bits per key.
    EXPECT_EQ(replaced > 0, count < 1000) << count << " keys";
  }
}

TEST(FilterBuilds, EveryFormat) {
  const KeyList keys = RandomKeys(20000, 3);
  std::vector<double> whole_bits;
  for (int b = 1; b <= 20; ++b) whole_bits.push_back(b);
  ExpectBuildsEqualSingleBuilds(keys, FilterFormat::kLevelDbBloom, whole_bits);
  for (const FilterFormat format :
       {FilterFormat::kRocksDbLegacyBloom, FilterFormat::kRocksDbFastLocalBloom,
        FilterFormat::kRocksDbRibbon}) {
    ExpectBuildsEqualSingleBuilds(keys, format, AdviceAndEdgeBitsPerKey());
    ExpectBuildsEqualSingleBuilds({}, format, AdviceAndEdgeBitsPerKey());
  }
}

TEST(FilterBuilds, BadBitsPerKeyFailsTheCall) {
  const PackedKeys packed(RandomKeys(100, 1));
  std::vector<Bytes> filters;
  const std::vector<double> with_too_few = {10, 0.4};
  EXPECT_EQ(
      BuildFilters(packed.view(), FilterFormat::kRocksDbRibbon, with_too_few, &filters).code(),
      ErrorCode::kBadOptions);
  const std::vector<double> fractional = {10, 9.5};
  EXPECT_EQ(BuildFilters(packed.view(), FilterFormat::kLevelDbBloom, fractional, &filters).code(),
            ErrorCode::kBadOptions);
  EXPECT_TRUE(BuildFilters(packed.view(), FilterFormat::kRocksDbRibbon, {}, &filters).ok());
  EXPECT_TRUE(filters.empty());
}

}  // namespace
}  // namespace sstfilter
