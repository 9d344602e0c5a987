// RocksDB's Standard128Ribbon builder (docs/FORMATS.md 2.8.2, 2.8.5, 2.8.6; RocksDB
// table/block_based/ filter_policy.cc, Standard128RibbonBitsBuilder::Finish /
// CalculateSpaceAndSlots, and util/ribbon_impl.h + util/ribbon_alg.h:
// StandardBanding::ResetAndFindSeedToSolve, BandingAdd, InterleavedBackSubst). Identical in
// RocksDB 7.8.3 and 10.x apart from formatting.
//
// Memory follows RocksDB's: the 8-byte hash of every key, then the banding storage (16 + 4 bytes
// per slot, slots about 1.03 per key), then, with the hashes released, the filter itself; built
// at several bits per key (FinishRibbons), every filter beside the one banding.
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "filter/kernels/prefetched_batch.h"
#include "filter/kernels/ribbon_kernels.h"
#include "filter/kernels/rocksdb_ribbon_hashing.h"
#include "filter/rocksdb_bloom_internal.h"
#include "filter/rocksdb_ribbon_internal.h"
#include "sstfilter/rocksdb_bloom.h"
#include "sstfilter/rocksdb_ribbon.h"

namespace sstfilter {
namespace rocksdb_ribbon {
namespace {

using rocksdb_bloom::kMetadataLen;

// RocksDB tries ordinal seeds start, start + 1, ... modulo 256 (ordinal_seed_mask 255).
constexpr uint32_t kNumSeeds = 256;

// Entries per group whose rows are prefetched a group ahead while banding (BandingAddRange
// pipelines one ahead when num_starts > 1500; prefetching changes no result).
constexpr size_t kPrefetchGroup = 8;

inline int CountTrailingZeros(RibbonU128 v) {
  const uint64_t lo = static_cast<uint64_t>(v);
  return lo != 0 ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<uint64_t>(v >> 64));
}

inline uint32_t Parity(RibbonU128 v) {
  return static_cast<uint32_t>(
      __builtin_parityll(static_cast<uint64_t>(v) ^ static_cast<uint64_t>(v >> 64)));
}

// StandardBanding: Gaussian elimination on the fly. Row i holds an equation whose first
// coefficient is slot i (bit 0 of its coefficient row), or zeros for a free slot.
class Banding {
 public:
  // Allocates storage for num_slots >= 256 rows; false when memory is short.
  bool Allocate(uint32_t num_slots) {
    num_slots_ = num_slots;
    coeff_rows_.reset(new (std::nothrow) RibbonU128[num_slots]);
    result_rows_.reset(new (std::nothrow) uint32_t[num_slots]);
    return coeff_rows_ != nullptr && result_rows_ != nullptr;
  }

  static uint64_t BytesPerSlot() { return sizeof(RibbonU128) + sizeof(uint32_t); }

  // ResetAndFindSeedToSolve: the first ordinal seed, from `first_seed` on, for which every hash
  // bands without contradiction; nullopt when all 256 fail.
  std::optional<uint32_t> FindSeed(const std::vector<uint64_t>& hashes, uint32_t first_seed) {
    for (uint32_t i = 0; i < kNumSeeds; ++i) {
      const uint32_t ordinal = (first_seed + i) % kNumSeeds;
      if (AddAll(hashes, RawSeed(ordinal))) return ordinal;
    }
    return std::nullopt;
  }

  // InterleavedBackSubst: solves from the last slot down, free slots taking 0, into the segments
  // of `layout` (little-endian u128 each) at `out`. state[j] holds column j of the 128 slots
  // above the current one, so a slot's value is the parity of its equation's other coefficients
  // against them, XOR its result bit.
  void BackSubstitute(const SolutionLayout& layout, uint8_t* out) const {
    if (layout.upper_num_columns == 0) return;  // no space: every query matches
    RibbonU128 state[32] = {};
    uint32_t segment = layout.num_segments;
    for (uint32_t block = num_slots_ / kCoeffBits; block-- > 0;) {
      const uint32_t num_columns =
          layout.upper_num_columns - (block < layout.upper_start_block ? 1 : 0);
      for (uint32_t i = (block + 1) * kCoeffBits; i-- > block * kCoeffBits;) {
        const RibbonU128 coeff = coeff_rows_[i];
        const uint32_t result = result_rows_[i];
        for (uint32_t j = 0; j < num_columns; ++j) {
          const RibbonU128 shifted = state[j] << 1;
          state[j] = shifted | (Parity(shifted & coeff) ^ ((result >> j) & 1));
        }
      }
      segment -= num_columns;
      std::memcpy(out + size_t{segment} * simd::kRibbonSegmentBytes, state,
                  num_columns * sizeof(RibbonU128));
    }
  }

 private:
  // Resets the rows, then BandingAddRange: every hash's equation, or false on the first that
  // contradicts the earlier ones.
  bool AddAll(const std::vector<uint64_t>& hashes, uint32_t raw_seed) {
    std::memset(coeff_rows_.get(), 0, num_slots_ * sizeof(RibbonU128));
    std::memset(result_rows_.get(), 0, num_slots_ * sizeof(uint32_t));
    const uint32_t num_starts = num_slots_ - kCoeffBits + 1;
    struct Equation {
      uint64_t seeded_hash;
      uint32_t start;
    };
    const auto prefetch_rows = [&](size_t k, Equation& e) {
      e.seeded_hash = RibbonSeededHash(hashes[k], raw_seed);
      e.start = RibbonStart(e.seeded_hash, num_starts);
      __builtin_prefetch(&coeff_rows_[e.start], 1, 1);
      __builtin_prefetch(&result_rows_[e.start], 1, 1);
    };
    const auto add = [&](size_t, const Equation& e) {
      return Add(e.start, RibbonCoeffRow(e.seeded_hash), RibbonResultRow(e.seeded_hash));
    };
    return simd::PrefetchedBatch<Equation, kPrefetchGroup, simd::Lookahead::kNextGroup>(
        hashes.size(), prefetch_rows, add);
  }

  // BandingAdd with kFirstCoeffAlwaysOne: eliminate against the stored rows until the equation's
  // first coefficient lands on a free row. An equation that eliminates to nothing is redundant
  // (e.g. a repeated hash) when its result also cancels, else the system has no solution.
  bool Add(uint32_t start, RibbonU128 coeff, uint32_t result) {
    uint32_t i = start;
    for (;;) {
      const RibbonU128 row = coeff_rows_[i];
      if (row == 0) {
        coeff_rows_[i] = coeff;
        result_rows_[i] = result;
        return true;
      }
      coeff ^= row;
      result ^= result_rows_[i];
      if (coeff == 0) return result == 0;
      const int shift = CountTrailingZeros(coeff);
      i += static_cast<uint32_t>(shift);
      coeff >>= shift;
    }
  }

  std::unique_ptr<RibbonU128[]> coeff_rows_;
  std::unique_ptr<uint32_t[]> result_rows_;
  uint32_t num_slots_ = 0;
};

Status ResourceLimit(const char* what, uint64_t bytes) {
  return Status::Error(ErrorCode::kResourceLimit, std::string("a Standard128Ribbon ") + what +
                                                      " of " + std::to_string(bytes) +
                                                      " bytes is larger than the 2 GiB limit");
}

}  // namespace

// Standard128RibbonBitsBuilder::Finish for each target over the same hashes. Only the filter
// length (CalculateSpaceAndSlots) depends on the bits per key: num_slots comes from the entry
// count, the first ordinal seed from the first hash, and the banded rows from the seeded hashes
// (ResetAndFindSeedToSolve), so one banding serves every target whose filter is a Ribbon, and each
// is its own back substitution (InterleavedBackSubst into the layout of its length).
Status FinishRibbons(std::vector<uint64_t> hashes, std::span<const RibbonTarget> targets,
                     bool bloom_fallback) {
  for (const RibbonTarget& t : targets) t.out->clear();
  const auto finish_bloom = [&hashes, bloom_fallback](const RibbonTarget& t) {
    if (!bloom_fallback) {
      return Status::Error(ErrorCode::kUnsupported,
                           "no Standard128Ribbon filter solves these " +
                               std::to_string(hashes.size()) +
                               " keys (RocksDB writes a FastLocalBloom filter instead)");
    }
    return rocksdb_bloom::FinishFastLocalBloom(hashes, t.millibits_per_key, t.out);
  };
  // Too many entries for 32-bit slot arithmetic: Bloom.
  if (hashes.size() > kMaxRibbonEntries) {
    for (const RibbonTarget& t : targets) {
      if (Status s = finish_bloom(t); !s.ok()) return s;
    }
    return Status::Ok();
  }
  // No entries: the 0-byte filter, which readers take as "matches nothing" (FinishAlwaysFalse).
  if (hashes.empty()) return Status::Ok();

  // CalculateSpaceAndSlots. The first hash seeds the choices that should look random.
  const uint32_t num_entries = static_cast<uint32_t>(hashes.size());
  const uint32_t num_slots = RoundUpNumSlots(GetNumSlots(num_entries));
  struct RibbonFilter {
    const RibbonTarget* target;
    uint64_t len_with_metadata;
  };
  std::vector<RibbonFilter> ribbons;
  for (const RibbonTarget& t : targets) {
    const uint64_t len_with_metadata =
        GetBytesForOneInFpRate(num_slots, DesiredOneInFpRate(t.bits_per_key),
                               static_cast<uint32_t>(hashes.front() >> 32)) +
        kMetadataLen;
    // Small filters: Bloom when it is strictly smaller.
    if (bloom_fallback && num_slots < 1024 &&
        rocksdb_bloom::FastLocalBloomDataBytes(num_entries, t.millibits_per_key) + kMetadataLen <
            len_with_metadata) {
      if (Status s = finish_bloom(t); !s.ok()) return s;
      continue;
    }
    if (len_with_metadata > rocksdb_bloom::kMaxFilterBytes) {
      return ResourceLimit("filter", len_with_metadata);
    }
    ribbons.push_back({&t, len_with_metadata});
  }
  if (ribbons.empty()) return Status::Ok();

  const uint64_t banding_bytes = uint64_t{num_slots} * Banding::BytesPerSlot();
  Banding banding;
  if (banding_bytes > SIZE_MAX || !banding.Allocate(num_slots)) {
    return Status::Error(ErrorCode::kResourceLimit,
                         "cannot allocate " + std::to_string(banding_bytes) +
                             " bytes of Standard128Ribbon banding storage");
  }
  const std::optional<uint32_t> seed =
      banding.FindSeed(hashes, static_cast<uint32_t>(hashes.front()) & (kNumSeeds - 1));
  // Every seed failed (practically only with many repeated hashes that are not adjacent): Bloom.
  if (!seed) {
    for (const RibbonFilter& r : ribbons) {
      if (Status s = finish_bloom(*r.target); !s.ok()) return s;
    }
    return Status::Ok();
  }
  // RocksDB releases the hashes before allocating the filter (ResetEntries).
  std::vector<uint64_t>().swap(hashes);

  const uint32_t num_blocks = num_slots / kCoeffBits;
  for (const RibbonFilter& r : ribbons) {
    Bytes& out = *r.target->out;
    const size_t len = static_cast<size_t>(r.len_with_metadata);
    out.assign(len, 0);
    banding.BackSubstitute(ConfigureLayout(num_blocks, len), out.data());
    // Metadata: the Ribbon marker, the ordinal seed, then num_blocks as 24 bits little-endian
    // (num_blocks < 2^24 because num_slots < 2^31).
    uint8_t* meta = out.data() + len - kMetadataLen;
    meta[0] = kRibbonMarker;
    meta[1] = static_cast<uint8_t>(*seed);
    meta[2] = static_cast<uint8_t>(num_blocks);
    meta[3] = static_cast<uint8_t>(num_blocks >> 8);
    meta[4] = static_cast<uint8_t>(num_blocks >> 16);
  }
  return Status::Ok();
}

Status FinishRibbon(std::vector<uint64_t> hashes, double bits_per_key, int millibits_per_key,
                    Bytes* out) {
  const RibbonTarget target{bits_per_key, millibits_per_key, out};
  return FinishRibbons(std::move(hashes), {&target, 1});
}

}  // namespace rocksdb_ribbon

Status BuildRocksDbRibbons(const KeyBatchView& keys, std::span<const double> bits_per_key,
                           std::vector<Bytes>* out, bool bloom_fallback) {
  out->assign(bits_per_key.size(), Bytes());
  std::vector<rocksdb_ribbon::RibbonTarget> targets;
  targets.reserve(bits_per_key.size());
  for (size_t i = 0; i < bits_per_key.size(); ++i) {
    RocksDbBloomParams params;
    if (Status s = rocksdb_bloom::SanitizeBuilderBitsPerKey(bits_per_key[i], &params); !s.ok()) {
      return s;
    }
    targets.push_back({bits_per_key[i], params.millibits_per_key, &(*out)[i]});
  }
  return rocksdb_ribbon::FinishRibbons(rocksdb_bloom::CollectFilterHashes(keys), targets,
                                       bloom_fallback);
}

Status BuildRocksDbRibbon(const KeyBatchView& keys, double bits_per_key, Bytes* out) {
  std::vector<Bytes> filters;
  Status s = BuildRocksDbRibbons(keys, {&bits_per_key, 1}, &filters);
  *out = std::move(filters.front());
  return s;
}

}  // namespace sstfilter
