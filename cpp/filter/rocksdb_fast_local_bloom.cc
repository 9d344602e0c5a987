// RocksDB's FastLocalBloom, the Bloom filter of table format_version >= 5 (docs/FORMATS.md 2.7;
// RocksDB table/block_based/filter_policy.cc, FastLocalBloomBitsBuilder / FastLocalBloomBitsReader
// / GetBloomBitsReader, and util/bloom_impl.h, FastLocalBloomImpl). The bit-level work is done by
// the kernels in cpp/filter/kernels/.
#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/aligned_buffer.h"
#include "filter/kernels/bloom_kernels.h"
#include "filter/rocksdb_bloom_internal.h"
#include "sstfilter/hash.h"
#include "sstfilter/rocksdb_bloom.h"

namespace sstfilter {
namespace rocksdb_bloom {
namespace {

constexpr uint32_t kBlockBytes = 64;

// Metadata trailer: -1 (new Bloom), sub-implementation 0, then block size and probe count packed
// as (log2(block bytes) - 6) << 5 | num_probes, then two reserved zero bytes.
constexpr uint8_t kNewBloomMarker = 0xff;
constexpr uint8_t kFastLocalSubImpl = 0;

inline uint64_t KeyHash(ByteView key) { return Xxph3Hash64(key, 0); }

class FastLocalBloomReader final : public FilterReader {
 public:
  FastLocalBloomReader(Bytes filter, int num_probes)
      : filter_(std::move(filter)),
        len_bytes_(static_cast<uint32_t>(filter_.size() - kMetadataLen)),
        num_probes_(num_probes) {}

  ByteView contents() const override { return filter_.view(); }

  FilterInfo info() const override {
    FilterInfo info;
    info.kind = FilterKind::kRocksDbFastLocalBloom;
    info.num_probes = static_cast<uint32_t>(num_probes_);
    info.data_bytes = len_bytes_;
    info.block_bytes = kBlockBytes;
    return info;
  }

  bool MayMatch(ByteView key) const override {
    return simd::ActiveKernel<simd::FastLocalBloomKernel>().may_match(KeyHash(key), num_probes_,
                                                                      filter_.data(), len_bytes_);
  }

  void MayMatchBatch(const KeyBatchView& keys, uint8_t* results) const override {
    const simd::FastLocalBloomKernel& kernel = simd::ActiveKernel<simd::FastLocalBloomKernel>();
    ProbeInHashChunks<uint64_t>(
        keys, results, KeyHash, [&](const uint64_t* hashes, size_t count, uint8_t* out) {
          kernel.may_match_batch(hashes, count, num_probes_, filter_.data(), len_bytes_, out);
        });
  }

  bool MayMatchHashes(const uint64_t* hashes, size_t n, uint8_t* results) const override {
    simd::ActiveKernel<simd::FastLocalBloomKernel>().may_match_batch(
        hashes, n, num_probes_, filter_.data(), len_bytes_, results);
    return true;
  }

 private:
  // Each 64-byte block one cache line (base/aligned_buffer.h).
  static_assert(AlignedBuffer::kAlignment % kBlockBytes == 0);
  AlignedBuffer filter_;
  uint32_t len_bytes_;
  int num_probes_;
};

}  // namespace

uint64_t FastLocalBloomDataBytes(uint64_t num_entries, int millibits_per_key) {
  const uint64_t target = (num_entries * static_cast<uint64_t>(millibits_per_key) + 7999) / 8000;
  return (std::min<uint64_t>(target, 0xffffffc0) + 63) & ~uint64_t{63};
}

uint64_t FastLocalBloomApproximateNumEntries(uint64_t bytes, int millibits_per_key) {
  // RoundDownUsableSpace: the bit array is whole 64-byte blocks of at most 0xffffffc0 bytes.
  const uint64_t data_bytes =
      bytes >= kMetadataLen ? std::min<uint64_t>(bytes - kMetadataLen, 0xffffffc0) & ~uint64_t{63}
                            : 0;
  return 8000 * data_bytes / static_cast<uint64_t>(millibits_per_key);
}

std::unique_ptr<FilterReader> OpenNewBloomReader(Bytes filter) {
  const size_t meta = filter.size() - kMetadataLen;
  const uint8_t sub_impl = filter[meta + 1];
  const uint8_t block_and_probes = filter[meta + 2];
  const int log2_block_bytes = ((block_and_probes >> 5) & 7) + 6;
  const int num_probes = block_and_probes & 31;
  // Probe counts 0 and 31, non-zero reserved bytes (perhaps a future seed), other
  // sub-implementations and other block sizes are reserved: RocksDB answers "may match".
  if (num_probes < 1 || num_probes > 30) return MakeConstantFilterReader(true, std::move(filter));
  if (DecodeFixed16(&filter[meta + 3]) != 0) {
    return MakeConstantFilterReader(true, std::move(filter));
  }
  if (sub_impl != kFastLocalSubImpl || log2_block_bytes != 6) {
    return MakeConstantFilterReader(true, std::move(filter));
  }
  // With fewer than 64 data bytes RocksDB still probes "block 0", the first 64 bytes of the filter.
  // Those are the filter's own bytes (metadata included) when it has 64 bytes in all; a shorter
  // filter would make RocksDB read past it, and no builder writes one: stay conservative.
  if (filter.size() < kBlockBytes) return MakeConstantFilterReader(true, std::move(filter));
  return std::make_unique<FastLocalBloomReader>(std::move(filter), num_probes);
}

std::vector<uint64_t> CollectFilterHashes(const KeyBatchView& keys) {
  // XXPH3FilterBitsBuilder::AddKey: a hash equal to the previous one is not added again.
  std::vector<uint64_t> hashes;
  hashes.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint64_t h = KeyHash(keys[i]);
    if (hashes.empty() || h != hashes.back()) hashes.push_back(h);
  }
  return hashes;
}

Status FinishFastLocalBloom(const std::vector<uint64_t>& hashes, int millibits_per_key,
                            Bytes* out) {
  const int num_probes = FastLocalBloomNumProbes(millibits_per_key);
  const uint64_t len = FastLocalBloomDataBytes(hashes.size(), millibits_per_key);
  if (len + kMetadataLen > kMaxFilterBytes) {
    return Status::Error(ErrorCode::kResourceLimit, "a FastLocalBloom filter of " +
                                                        std::to_string(len + kMetadataLen) +
                                                        " bytes is larger than the 2 GiB limit");
  }

  out->assign(static_cast<size_t>(len) + kMetadataLen, 0);
  const uint32_t len_bytes = static_cast<uint32_t>(len);
  if (len_bytes > 0) {
    simd::FastLocalBloomAdd(hashes.data(), hashes.size(), num_probes, out->data(), len_bytes);
  }
  // Zero entries give len 0 and the 5-byte filter FF 00 k 00 00, read as "never matches".
  uint8_t* meta = out->data() + len_bytes;
  meta[0] = kNewBloomMarker;
  meta[1] = kFastLocalSubImpl;
  meta[2] = static_cast<uint8_t>(num_probes);  // block size 64: top three bits 0
  return Status::Ok();
}

}  // namespace rocksdb_bloom

Status BuildRocksDbFastLocalBlooms(const KeyBatchView& keys, std::span<const double> bits_per_key,
                                   std::vector<Bytes>* out) {
  out->assign(bits_per_key.size(), Bytes());
  std::vector<int> millibits_per_key;
  millibits_per_key.reserve(bits_per_key.size());
  for (const double b : bits_per_key) {
    RocksDbBloomParams params;
    if (Status s = rocksdb_bloom::SanitizeBuilderBitsPerKey(b, &params); !s.ok()) return s;
    millibits_per_key.push_back(params.millibits_per_key);
  }
  const std::vector<uint64_t> hashes = rocksdb_bloom::CollectFilterHashes(keys);
  for (size_t i = 0; i < millibits_per_key.size(); ++i) {
    if (Status s = rocksdb_bloom::FinishFastLocalBloom(hashes, millibits_per_key[i], &(*out)[i]);
        !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

Status BuildRocksDbFastLocalBloom(const KeyBatchView& keys, double bits_per_key, Bytes* out) {
  std::vector<Bytes> filters;
  Status s = BuildRocksDbFastLocalBlooms(keys, {&bits_per_key, 1}, &filters);
  *out = std::move(filters.front());
  return s;
}

}  // namespace sstfilter
