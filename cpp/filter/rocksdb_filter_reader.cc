// OpenRocksDbFilter: which reader a RocksDB full filter (or filter partition) gets, decided by its
// 5-byte metadata trailer as BuiltinFilterPolicy::GetBuiltinFilterBitsReader does (docs/FORMATS.md
// 2.9, 2.10; RocksDB table/block_based/filter_policy.cc).
#include <cstdint>
#include <limits>

#include "filter/rocksdb_bloom_internal.h"
#include "filter/rocksdb_ribbon_internal.h"
#include "sstfilter/filter.h"

namespace sstfilter {

std::unique_ptr<FilterReader> OpenRocksDbFilter(Bytes filter) {
  using rocksdb_bloom::kMetadataLen;
  // Empty or too short for metadata: treated as a filter of zero keys.
  if (filter.size() <= kMetadataLen) return MakeConstantFilterReader(false, std::move(filter));
  // RocksDB takes the length as 32 bits; no block can be this large, so stay conservative.
  if (filter.size() > std::numeric_limits<uint32_t>::max()) {
    return MakeConstantFilterReader(true, std::move(filter));
  }
  const int8_t marker = static_cast<int8_t>(filter[filter.size() - kMetadataLen]);
  if (marker >= 1) return rocksdb_bloom::OpenLegacyBloomReader(std::move(filter));
  switch (marker) {
    case -1:
      return rocksdb_bloom::OpenNewBloomReader(std::move(filter));
    case -2:
      return rocksdb_ribbon::OpenRibbonReader(std::move(filter));
    default:
      // 0 = zero probes; -3 .. -128 are reserved for future formats.
      return MakeConstantFilterReader(true, std::move(filter));
  }
}

}  // namespace sstfilter
