// RocksDB's legacy full filter, the Bloom filter of table format_version < 5 (docs/FORMATS.md 2.6;
// RocksDB table/block_based/filter_policy.cc, LegacyBloomBitsBuilder / LegacyBloomBitsReader /
// GetBuiltinFilterBitsReader, and util/bloom_impl.h, LegacyLocalityBloomImpl<false>).
//
// Each 32-bit key hash picks a cache line (h mod num_lines) and sets or tests k bits inside it by
// double hashing; the probe and add loops are the legacy Bloom kernel
// (kernels/legacy_bloom_kernels.h).
#include <algorithm>
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "base/aligned_buffer.h"
#include "filter/kernels/legacy_bloom_kernels.h"
#include "filter/rocksdb_bloom_internal.h"
#include "sstfilter/hash.h"
#include "sstfilter/rocksdb_bloom.h"

namespace sstfilter {
namespace rocksdb_bloom {
namespace {

inline uint32_t KeyHash(ByteView key) { return RocksDbLegacyHash32(key, kBloomHashSeed); }

using simd::LegacyBloomGeometry;

class LegacyBloomReader final : public FilterReader {
 public:
  LegacyBloomReader(Bytes filter, int num_probes, LegacyBloomGeometry geometry)
      : filter_(std::move(filter)), num_probes_(num_probes), geometry_(geometry) {}

  ByteView contents() const override { return filter_.view(); }

  FilterInfo info() const override {
    FilterInfo info;
    info.kind = FilterKind::kRocksDbLegacyBloom;
    info.num_probes = static_cast<uint32_t>(num_probes_);
    info.data_bytes = static_cast<uint32_t>(filter_.size() - kMetadataLen);
    info.block_bytes = uint32_t{1} << geometry_.log2_line_bytes;
    return info;
  }

  bool MayMatch(ByteView key) const override {
    return simd::LegacyBloomMayMatch(KeyHash(key), num_probes_, geometry_, filter_.data());
  }

  void MayMatchBatch(const KeyBatchView& keys, uint8_t* results) const override {
    ProbeInHashChunks<uint32_t>(keys, results, KeyHash,
                                [&](const uint32_t* hashes, size_t count, uint8_t* out) {
                                  simd::LegacyBloomMayMatchBatch(hashes, count, num_probes_,
                                                                 geometry_, filter_.data(), out);
                                });
  }

 private:
  // Aligned (base/aligned_buffer.h): a 64-byte line, as x86-64 builders write them, is one cache
  // line.
  AlignedBuffer filter_;
  int num_probes_;
  LegacyBloomGeometry geometry_;
};

}  // namespace

uint32_t LegacyBloomNumLines(size_t num_entries, int whole_bits_per_key,
                             uint32_t cache_line_bytes) {
  // Finish passes the entry count through an int, so on RocksDB's 64-bit builds a count of 2^31 or
  // more wraps (and, sign-extended, meets the cap below), and the product wraps modulo 2^64.
  const uint64_t count =
      static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(num_entries)));
  if (count == 0) return 0;
  // Total bits are capped so that the line arithmetic stays within 32 bits, then rounded up to
  // whole lines; the line count is made odd so that more hash bits take part in choosing a line.
  const uint64_t bits =
      std::min<uint64_t>(count * static_cast<uint64_t>(whole_bits_per_key), 0xffff0000);
  const uint64_t line_bits = uint64_t{cache_line_bytes} * 8;
  uint32_t num_lines = static_cast<uint32_t>((bits + line_bits - 1) / line_bits);
  if (num_lines % 2 == 0) ++num_lines;
  return num_lines;
}

uint32_t LegacyBloomApproximateNumEntries(uint64_t bytes, int whole_bits_per_key,
                                          uint32_t cache_line_bytes) {
  // From one more than the bits allow, down to the first count whose CalculateSpace fits.
  const uint64_t bits = std::min<uint64_t>(bytes * 8, 0xffff0000);
  uint32_t n = static_cast<uint32_t>(bits) / static_cast<uint32_t>(whole_bits_per_key) + 1;
  for (; n >= 1; --n) {
    const uint64_t space =
        uint64_t{LegacyBloomNumLines(n, whole_bits_per_key, cache_line_bytes)} * cache_line_bytes +
        kMetadataLen;
    if (space <= bytes) break;
  }
  return n;
}

std::unique_ptr<FilterReader> OpenLegacyBloomReader(Bytes filter) {
  const uint32_t len = static_cast<uint32_t>(filter.size() - kMetadataLen);
  const int num_probes = filter[len];  // 1..127; 31..127 are never written but read as given
  const uint32_t num_lines = DecodeFixed32(&filter[len + 1]);
  // The line size is whatever the writer's CACHE_LINE_SIZE was: len / num_lines, which must be an
  // exact power of two, else RocksDB answers "may match". (RocksDB first tries its own line size
  // with a 32-bit product num_lines * 64 == len; a product that only matches modulo 2^32 would make
  // it read past the filter. Requiring the exact quotient gives the same geometry for every
  // filter RocksDB can read safely and "may match" for the rest.)
  if (num_lines == 0 || len % num_lines != 0) {
    return MakeConstantFilterReader(true, std::move(filter));
  }
  const uint32_t line_bytes = len / num_lines;
  if (!std::has_single_bit(line_bytes)) return MakeConstantFilterReader(true, std::move(filter));
  const LegacyBloomGeometry geometry{num_lines, std::countr_zero(line_bytes)};
  return std::make_unique<LegacyBloomReader>(std::move(filter), num_probes, geometry);
}

}  // namespace rocksdb_bloom

namespace rocksdb_bloom {

uint32_t LegacyBloomKeyHash(ByteView key) { return KeyHash(key); }

Status FinishLegacyBloom(const std::vector<uint32_t>& hashes, int whole_bits_per_key,
                         uint32_t cache_line_bytes, Bytes* out) {
  const int num_probes = LegacyBloomNumProbes(whole_bits_per_key);
  const uint32_t num_lines =
      LegacyBloomNumLines(hashes.size(), whole_bits_per_key, cache_line_bytes);
  const size_t len = size_t{num_lines} * cache_line_bytes;
  out->assign(len + kMetadataLen, 0);
  if (num_lines != 0) {
    const simd::LegacyBloomGeometry geometry{num_lines, std::countr_zero(cache_line_bytes)};
    simd::LegacyBloomAdd(hashes.data(), hashes.size(), num_probes, geometry, out->data());
  }
  // Metadata: the probe count (the marker byte, 1..30), then num_lines as fixed32. Zero entries
  // give the 5-byte filter k 00 00 00 00, read as "never matches".
  (*out)[len] = static_cast<uint8_t>(num_probes);
  for (int i = 0; i < 4; ++i) (*out)[len + 1 + i] = static_cast<uint8_t>(num_lines >> (8 * i));
  return Status::Ok();
}

}  // namespace rocksdb_bloom

Status BuildRocksDbLegacyBloom(const KeyBatchView& keys, double bits_per_key, Bytes* out,
                               uint32_t cache_line_bytes) {
  RocksDbBloomParams params;
  if (Status s = rocksdb_bloom::SanitizeBuilderBitsPerKey(bits_per_key, &params); !s.ok()) return s;
  if (cache_line_bytes != 64 && cache_line_bytes != 128 && cache_line_bytes != 256) {
    return Status::Error(ErrorCode::kBadOptions,
                         "RocksDB's CACHE_LINE_SIZE is 64, 128 or 256 bytes, got " +
                             std::to_string(cache_line_bytes));
  }
  // LegacyBloomBitsBuilder::AddKey: a hash equal to the previous one is not added again.
  std::vector<uint32_t> hashes;
  hashes.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint32_t h = rocksdb_bloom::KeyHash(keys[i]);
    if (hashes.empty() || h != hashes.back()) hashes.push_back(h);
  }
  return rocksdb_bloom::FinishLegacyBloom(hashes, params.whole_bits_per_key, cache_line_bytes, out);
}

}  // namespace sstfilter
