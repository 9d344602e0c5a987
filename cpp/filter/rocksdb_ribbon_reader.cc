// RocksDB's Standard128Ribbon reader (docs/FORMATS.md 2.8.1, 2.8.6, 2.8.7; RocksDB
// table/block_based/ filter_policy.cc, GetRibbonBitsReader / Standard128RibbonBitsReader, and
// util/ribbon_impl.h, SerializableInterleavedSolution::ConfigureForNumBlocks). The column checks
// are done by the kernels in cpp/filter/kernels/.
//
// Safe on any bytes: the layout is derived from the filter's own length and block count so that
// every segment a query addresses lies inside the solution (a start block b reads its own
// segments and, when the query spans two blocks, b + 1's; b + 1 < num_blocks then), and the
// kernels' whole-vector over-reads land in the rest of the filter or in the zero padding after it
// (columns past a query's last one are masked out, so what they read never changes an answer).
#include <algorithm>

#include "base/aligned_buffer.h"
#include "filter/kernels/ribbon_kernels.h"
#include "filter/rocksdb_bloom_internal.h"
#include "filter/rocksdb_ribbon_internal.h"
#include "sstfilter/hash.h"

namespace sstfilter::rocksdb_ribbon {
namespace {

using rocksdb_bloom::kMetadataLen;

inline uint64_t KeyHash(ByteView key) { return Xxph3Hash64(key, 0); }

class RibbonReader final : public FilterReader {
 public:
  // `filter` is longer than kMetadataLen; num_blocks >= 2.
  RibbonReader(Bytes filter, uint32_t seed, uint32_t num_blocks)
      : filter_(std::move(filter), simd::kRibbonReadPadding),
        data_bytes_(static_cast<uint32_t>(filter_.size() - kMetadataLen)),
        seed_(seed),
        num_blocks_(num_blocks) {
    const SolutionLayout layout = ConfigureLayout(num_blocks, data_bytes_);
    params_.data = filter_.data();
    params_.raw_seed = RawSeed(seed);
    params_.num_starts = num_blocks * kCoeffBits - kCoeffBits + 1;
    params_.upper_num_columns = layout.upper_num_columns;
    params_.upper_start_block = layout.upper_start_block;
  }

  FilterInfo info() const override {
    FilterInfo info;
    info.kind = FilterKind::kRocksDbRibbon;
    info.data_bytes = data_bytes_;
    info.ribbon_seed = seed_;
    info.ribbon_blocks = num_blocks_;
    return info;
  }

  ByteView contents() const override { return filter_.view(); }

  bool MayMatch(ByteView key) const override {
    return simd::ActiveKernel<simd::RibbonKernel>().check(
        simd::PrepareRibbonProbe(KeyHash(key), params_));
  }

  void MayMatchBatch(const KeyBatchView& keys, uint8_t* results) const override {
    const simd::RibbonKernel& kernel = simd::ActiveKernel<simd::RibbonKernel>();
    rocksdb_bloom::ProbeInHashChunks<uint64_t>(
        keys, results, KeyHash, [&](const uint64_t* hashes, size_t count, uint8_t* out) {
          kernel.may_match_batch(hashes, count, params_, out);
        });
  }

  // Standard128RibbonBitsReader::HashMayMatch.
  bool MayMatchHashes(const uint64_t* hashes, size_t n, uint8_t* results) const override {
    simd::ActiveKernel<simd::RibbonKernel>().may_match_batch(hashes, n, params_, results);
    return true;
  }

 private:
  // The solution starts the filter; the kernels' padding follows it.
  AlignedBuffer filter_;
  uint32_t data_bytes_;
  uint32_t seed_;
  uint32_t num_blocks_;
  simd::RibbonQueryParams params_;
};

}  // namespace

std::unique_ptr<FilterReader> OpenRibbonReader(Bytes filter) {
  // Metadata: FE, ordinal seed, 24-bit little-endian num_blocks.
  const size_t meta = filter.size() - kMetadataLen;
  const uint32_t seed = filter[meta + 1];
  const uint32_t num_blocks = static_cast<uint32_t>(filter[meta + 2]) |
                              (static_cast<uint32_t>(filter[meta + 3]) << 8) |
                              (static_cast<uint32_t>(filter[meta + 4]) << 16);
  // One block would be problematic for Ribbon's hashing and zero has a shorter "never" encoding,
  // so RocksDB never writes either; it reads them as "may match".
  if (num_blocks < 2) return MakeConstantFilterReader(true, std::move(filter));
  return std::make_unique<RibbonReader>(std::move(filter), seed, num_blocks);
}

}  // namespace sstfilter::rocksdb_ribbon
