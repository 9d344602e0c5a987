// RocksDB's Standard128Ribbon filter (docs/FORMATS.md 2.8; RocksDB
// table/block_based/filter_policy.cc, Standard128RibbonBitsBuilder, and util/ribbon_*.h): about 30%
// smaller than a Bloom filter with the same false-positive rate. Its reader comes from
// OpenRocksDbFilter (filter.h), which dispatches on the metadata trailer.
#pragma once

#include <span>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/status.h"

namespace sstfilter {

// Builds what NewRibbonFilterPolicy(bits_per_key, /*bloom_before_level=*/-1) writes for these keys,
// added in this order: a Ribbon filter targeting the FP rate of the FastLocalBloom filter of the
// same bits per key, or that FastLocalBloom filter where RocksDB falls back to it (small key sets
// where it is smaller, more than 950 million distinct hashes, no banding seed found); 0 bytes for
// no keys. kResourceLimit when the filter would exceed 2 GiB or its banding storage cannot be
// allocated.
Status BuildRocksDbRibbon(const KeyBatchView& keys, double bits_per_key, Bytes* out);

// BuildRocksDbRibbon at each of `bits_per_key`, (*out)[i] for bits_per_key[i]: the same bytes, but
// the keys are hashed and banded once for all (only the solution's width depends on the bits per
// key), so n filters cost about one banding and n back substitutions. The first failure is
// returned (kBadOptions for bits per key below 0.5, or BuildRocksDbRibbon's), the filters then
// unspecified. Without `bloom_fallback`, every filter is the Ribbon one, also where RocksDB writes
// the FastLocalBloom filter instead (what the fallback costs or saves: filter-advice), and
// kUnsupported where no Ribbon filter can be built (no seed, over 950 million hashes).
Status BuildRocksDbRibbons(const KeyBatchView& keys, std::span<const double> bits_per_key,
                           std::vector<Bytes>* out, bool bloom_fallback = true);

}  // namespace sstfilter
