// RocksDB's two Bloom filter formats (docs/FORMATS.md 2.5-2.7; RocksDB util/bloom_impl.h and
// table/block_based/filter_policy.cc): the legacy full filter written for table format_version < 5
// and FastLocalBloom written for format_version >= 5. Readers for both come from
// OpenRocksDbFilter (filter.h), which dispatches on the metadata trailer.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/status.h"

namespace sstfilter {

// NewBloomFilterPolicy(bits_per_key) as RocksDB sanitises it (BloomLikeFilterPolicy constructor).
struct RocksDbBloomParams {
  int millibits_per_key = 0;
  int whole_bits_per_key = 0;
};
RocksDbBloomParams SanitizeRocksDbBitsPerKey(double bits_per_key);

// Builds the legacy full filter (LegacyBloomBitsBuilder) with `cache_line_bytes`-byte lines: 64
// on x86-64 (what the golden files use), 128 on aarch64/POWER, 256 on s390x.
Status BuildRocksDbLegacyBloom(const KeyBatchView& keys, double bits_per_key, Bytes* out,
                               uint32_t cache_line_bytes = 64);

// Builds FastLocalBloom (FastLocalBloomBitsBuilder, optimize_filters_for_memory off).
Status BuildRocksDbFastLocalBloom(const KeyBatchView& keys, double bits_per_key, Bytes* out);

// BuildRocksDbFastLocalBloom at each of `bits_per_key`, (*out)[i] for bits_per_key[i], the keys
// hashed once for all. The first failure is returned, the filters then unspecified.
Status BuildRocksDbFastLocalBlooms(const KeyBatchView& keys, std::span<const double> bits_per_key,
                                   std::vector<Bytes>* out);

}  // namespace sstfilter
