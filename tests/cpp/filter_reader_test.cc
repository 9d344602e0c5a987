// What every FilterReader promises whatever its format (sstfilter/filter.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "packed_keys.h"
#include "sstfilter/filter.h"

namespace sstfilter {
namespace {

struct OpenedBytes {
  Bytes bytes;
  bool leveldb;  // opened with OpenLevelDbFilter, else OpenRocksDbFilter
};

// A reader holds the only copy of its filter that a table keeps (TableFilter::RawFilters reads it
// back), so contents() must be exactly the bytes it was opened with, for every kind of reader:
// the aligned Bloom copies, Ribbon's padded one, and the constant readers of unusable bytes.
TEST(FilterReader, ContentsAreTheBytesItWasOpenedWith) {
  std::vector<std::vector<uint8_t>> keys;
  for (int i = 0; i < 500; ++i) {
    const std::string key = "key" + std::to_string(i);
    keys.emplace_back(key.begin(), key.end());
  }
  const testing::PackedKeys packed(keys);
  std::vector<OpenedBytes> filters;
  for (FilterFormat format : {FilterFormat::kLevelDbBloom, FilterFormat::kRocksDbLegacyBloom,
                              FilterFormat::kRocksDbFastLocalBloom, FilterFormat::kRocksDbRibbon}) {
    Bytes built;
    ASSERT_TRUE(BuildFilter(packed.view(), {format, 10}, &built).ok());
    filters.push_back({built, format == FilterFormat::kLevelDbBloom});
  }
  filters.push_back({Bytes{1, 2, 3}, false});                          // too short: never matches
  filters.push_back({Bytes{0, 0, 0, 0, 0, 0xfd, 0, 0, 0, 0}, false});  // reserved marker
  filters.push_back({Bytes{0, 0, 0, 0, 0, 0, 0, 0, 200}, true});       // reserved probe count
  for (const OpenedBytes& f : filters) {
    const auto reader = f.leveldb ? OpenLevelDbFilter(f.bytes) : OpenRocksDbFilter(f.bytes);
    EXPECT_TRUE(std::ranges::equal(reader->contents(), f.bytes)) << FilterKindName(reader->kind());
  }
}

}  // namespace
}  // namespace sstfilter
