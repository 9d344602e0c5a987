// Private to the RocksDB Bloom files (rocksdb_bloom_policy.cc, rocksdb_legacy_bloom.cc,
// rocksdb_fast_local_bloom.cc, rocksdb_filter_reader.cc): parameter choices and the readers that
// OpenRocksDbFilter dispatches to.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/filter.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/rocksdb_bloom.h"
#include "sstfilter/status.h"

namespace sstfilter::rocksdb_bloom {

// Every RocksDB full filter ends in 5 bytes of metadata (kMetadataLen in filter_policy.cc).
inline constexpr size_t kMetadataLen = 5;

// The largest filter, metadata included, that the builders allocate (2 GiB); a larger result is a
// kResourceLimit error instead.
inline constexpr uint64_t kMaxFilterBytes = uint64_t{1} << 31;

// SanitizeRocksDbBitsPerKey for a builder: kBadOptions below 0.5 bits per key, where RocksDB
// writes no filter at all.
Status SanitizeBuilderBitsPerKey(double bits_per_key, RocksDbBloomParams* params);

// FastLocalBloomImpl::ChooseNumProbes (util/bloom_impl.h): 1..24 probes from millibits per key.
int FastLocalBloomNumProbes(int millibits_per_key);

// LegacyNoLocalityBloomImpl::ChooseNumProbes (util/bloom_impl.h): 1..30 probes from whole bits.
int LegacyBloomNumProbes(int whole_bits_per_key);

// FastLocalBloomBitsBuilder::CalculateSpace without the metadata: ceil(n * millibits / 8000)
// bytes, capped at 0xffffffc0 (the most its 32-bit block arithmetic supports), rounded up to whole
// 64-byte blocks.
uint64_t FastLocalBloomDataBytes(uint64_t num_entries, int millibits_per_key);
// FastLocalBloomBitsBuilder::ApproximateNumEntries: how many entries a filter of `bytes` bytes
// (metadata included) holds at `millibits_per_key`, the inverse of the size rule above.
uint64_t FastLocalBloomApproximateNumEntries(uint64_t bytes, int millibits_per_key);

// XXPH3FilterBitsBuilder::AddKey for each key in order: the 64-bit hashes (Xxph3Hash64, seed 0)
// FastLocalBloom and Standard128Ribbon build from, a hash equal to the previous one skipped.
std::vector<uint64_t> CollectFilterHashes(const KeyBatchView& keys);

// FastLocalBloomBitsBuilder::Finish over collected hashes. Also Standard128Ribbon's Bloom
// fallback, which hands its hashes to an embedded FastLocalBloom builder
// (rocksdb_ribbon_builder.cc).
Status FinishFastLocalBloom(const std::vector<uint64_t>& hashes, int millibits_per_key, Bytes* out);

// The 32-bit key hash the legacy Bloom is built from (rocksdb::Hash with its Bloom seed).
uint32_t LegacyBloomKeyHash(ByteView key);

// LegacyBloomBitsBuilder::Finish over collected hashes (adjacent repeats already skipped), with
// `cache_line_bytes`-byte lines (64, 128 or 256).
Status FinishLegacyBloom(const std::vector<uint32_t>& hashes, int whole_bits_per_key,
                         uint32_t cache_line_bytes, Bytes* out);

// LegacyBloomBitsBuilder::CalculateSpace: the number of cache lines (0 for no entries); the bit
// array is num_lines * cache_line_bytes bytes.
uint32_t LegacyBloomNumLines(size_t num_entries, int whole_bits_per_key, uint32_t cache_line_bytes);
// LegacyBloomBitsBuilder::ApproximateNumEntries: the most entries (counting down from a bound)
// whose filter, metadata included, fits `bytes` >= 1; 0 when not even one does.
uint32_t LegacyBloomApproximateNumEntries(uint64_t bytes, int whole_bits_per_key,
                                          uint32_t cache_line_bytes);

// Keys hashed per kernel call in batch probes: enough for the kernels' prefetching to overlap
// misses, few enough for the hashes to stay on the stack.
inline constexpr size_t kHashChunk = 256;

// A batch probe over keys: hashes them kHashChunk at a time with key_hash and hands each chunk to
// probe_hashes(hashes, count, results of the chunk).
template <typename Hash, typename KeyHash, typename ProbeHashes>
void ProbeInHashChunks(const KeyBatchView& keys, uint8_t* results, KeyHash key_hash,
                       ProbeHashes probe_hashes) {
  Hash hashes[kHashChunk];
  for (size_t start = 0; start < keys.size(); start += kHashChunk) {
    const size_t count = std::min(kHashChunk, keys.size() - start);
    for (size_t i = 0; i < count; ++i) hashes[i] = key_hash(keys[start + i]);
    probe_hashes(hashes, count, results + start);
  }
}

// Readers for filter bytes longer than kMetadataLen whose marker byte (filter[L - 5] as int8) is
// 1..127 (the legacy Bloom's probe count) or -1 (a "new Bloom"). Each validates the rest of the
// metadata as RocksDB's GetBuiltinFilterBitsReader / GetBloomBitsReader do and falls back to an
// always-match reader where RocksDB would.
std::unique_ptr<FilterReader> OpenLegacyBloomReader(Bytes filter);
std::unique_ptr<FilterReader> OpenNewBloomReader(Bytes filter);

}  // namespace sstfilter::rocksdb_bloom
