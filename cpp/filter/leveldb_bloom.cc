#include "sstfilter/leveldb_bloom.h"

#include <algorithm>
#include <string>

#include "sstfilter/filter.h"
#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

// Largest bit array we allocate for one filter (256 MiB), far above any real 2 KiB-range filter.
constexpr uint64_t kMaxFilterBits = uint64_t{1} << 31;

// Each probe after the first adds delta = rotr32(h, 17) ("double hashing", util/bloom.cc).
inline uint32_t ProbeDelta(uint32_t h) { return (h >> 17) | (h << 15); }

class LevelDbBloomReader final : public FilterReader {
 public:
  explicit LevelDbBloomReader(Bytes filter) : filter_(std::move(filter)) {}

  FilterInfo info() const override {
    FilterInfo info;
    info.kind = FilterKind::kLevelDbBloom;
    info.num_probes = filter_.back();
    info.data_bytes = static_cast<uint32_t>(filter_.size() - 1);
    return info;
  }

  ByteView contents() const override { return filter_; }

  bool MayMatch(ByteView key) const override { return LevelDbBloomMayMatch(filter_, key); }

 private:
  Bytes filter_;
};

}  // namespace

int LevelDbBloomNumProbes(int bits_per_key) {
  // 0.69 ~= ln(2); the double literal and the truncation are part of the format.
  int k = static_cast<int>(bits_per_key * 0.69);
  return std::clamp(k, 1, 30);
}

Status AppendLevelDbBloomFilter(const KeyBatchView& keys, int bits_per_key, Bytes* out) {
  uint64_t bits = static_cast<uint64_t>(keys.size()) * static_cast<uint64_t>(bits_per_key);
  // Tiny key sets would otherwise have a very high false-positive rate.
  bits = std::max<uint64_t>(bits, 64);
  if (bits > kMaxFilterBits) {
    return Status::Error(ErrorCode::kResourceLimit,
                         "a LevelDB filter of " + std::to_string(bits) + " bits is too large");
  }
  const size_t bytes = static_cast<size_t>((bits + 7) / 8);
  const uint32_t bit_count = static_cast<uint32_t>(bytes * 8);
  const int k = LevelDbBloomNumProbes(bits_per_key);

  const size_t start = out->size();
  out->resize(start + bytes + 1, 0);
  uint8_t* array = out->data() + start;
  array[bytes] = static_cast<uint8_t>(k);
  for (size_t i = 0; i < keys.size(); ++i) {
    uint32_t h = LevelDbHash32(keys[i], kBloomHashSeed);
    const uint32_t delta = ProbeDelta(h);
    for (int j = 0; j < k; ++j) {
      const uint32_t pos = h % bit_count;
      array[pos / 8] = static_cast<uint8_t>(array[pos / 8] | (1u << (pos % 8)));
      h += delta;
    }
  }
  return Status::Ok();
}

bool LevelDbBloomMayMatch(ByteView filter, ByteView key) {
  const size_t len = filter.size();
  if (len < 2) return false;
  const size_t k = filter[len - 1];
  // Counts above 30 are reserved for new encodings of short Bloom filters: match everything.
  if (k > 30) return true;
  if (len - 1 > UINT32_MAX / 8) return true;  // not a size LevelDB can write: stay conservative
  const uint32_t bit_count = static_cast<uint32_t>((len - 1) * 8);
  uint32_t h = LevelDbHash32(key, kBloomHashSeed);
  const uint32_t delta = ProbeDelta(h);
  for (size_t j = 0; j < k; ++j) {
    const uint32_t pos = h % bit_count;
    if ((filter[pos / 8] & (1u << (pos % 8))) == 0) return false;
    h += delta;
  }
  return true;
}

std::unique_ptr<FilterReader> OpenLevelDbFilter(Bytes filter) {
  if (filter.size() < 2) return MakeConstantFilterReader(false, std::move(filter));
  if (filter.back() > 30) return MakeConstantFilterReader(true, std::move(filter));
  return std::make_unique<LevelDbBloomReader>(std::move(filter));
}

}  // namespace sstfilter
