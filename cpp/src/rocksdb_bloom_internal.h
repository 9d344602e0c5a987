// Private to the RocksDB Bloom files (rocksdb_bloom_policy.cc, rocksdb_legacy_bloom.cc,
// rocksdb_fast_local_bloom.cc, rocksdb_filter_reader.cc): parameter choices and the readers that
// OpenRocksDbFilter dispatches to.
#pragma once

#include <cstdint>
#include <memory>

#include "sstfilter/bytes.h"
#include "sstfilter/filter.h"

namespace sstfilter::rocksdb_bloom {

// Every RocksDB full filter ends in 5 bytes of metadata (kMetadataLen in filter_policy.cc).
inline constexpr size_t kMetadataLen = 5;

// The largest filter, metadata included, that the builders allocate (2 GiB); a larger result is a
// kResourceLimit error instead.
inline constexpr uint64_t kMaxFilterBytes = uint64_t{1} << 31;

// FastLocalBloomImpl::ChooseNumProbes (util/bloom_impl.h): 1..24 probes from millibits per key.
int FastLocalBloomNumProbes(int millibits_per_key);

// LegacyNoLocalityBloomImpl::ChooseNumProbes (util/bloom_impl.h): 1..30 probes from whole bits.
int LegacyBloomNumProbes(int whole_bits_per_key);

// Readers for filter bytes longer than kMetadataLen whose marker byte (filter[L - 5] as int8) is
// 1..127 (the legacy Bloom's probe count) or -1 (a "new Bloom"). Each validates the rest of the
// metadata as RocksDB's GetBuiltinFilterBitsReader / GetBloomBitsReader do and falls back to an
// always-match reader where RocksDB would.
std::unique_ptr<FilterReader> OpenLegacyBloomReader(Bytes filter);
std::unique_ptr<FilterReader> OpenNewBloomReader(Bytes filter);

}  // namespace sstfilter::rocksdb_bloom
