// How large RocksDB makes a Standard128Ribbon filter (docs/FORMATS.md 2.5, 2.8.3, 2.8.4, 2.8.6):
// the FP-rate target from the policy's bits per key (table/block_based/filter_policy.cc,
// BloomLikeFilterPolicy; util/bloom_impl.h, BloomMath), the slot count for a number of entries
// (util/ribbon_config.cc, BandingConfigHelper1MaybeSupported::GetNumSlots) and the solution bytes
// and layout (util/ribbon_impl.h, SerializableInterleavedSolution).
//
// Every step uses RocksDB's formulas in RocksDB's operation order, with each double operation
// rounded as RocksDB's baseline x86-64 build rounds it (the portable translation units are compiled
// without FMA, and wasm has none, so no multiply-add is fused). RocksDB's three C library calls are
// replaced so that all targets agree:
//   * log in GetNumSlots only decides round(log2(n)) as trunc(ln(n) * 1.4426950409 + 0.5); a table
//     of the integers where that value steps gives the same answer for every n (see
//     kApproxLog2Steps), without a log call;
//   * exp and pow in the FP-rate target are computed correctly rounded (rocksdb_ribbon_math.cc),
//     which is what glibc returns for all but about 0.1% of arguments. Where glibc's last bit
//     differs, the target differs by one ulp, which changes a filter's size only if the size
//     formula sits on an integer boundary within that ulp: tests/cpp/rocksdb_ribbon_test.cc checks
//     every size of a wide sweep against RocksDB's formulas evaluated with glibc.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "filter/rocksdb_bloom_internal.h"
#include "filter/rocksdb_ribbon_internal.h"
#include "sstfilter/rocksdb_bloom.h"

namespace sstfilter::rocksdb_ribbon {
namespace {

// FastLocalBloom's cache line, the block BloomMath::CacheLocalFpRate models.
constexpr int kCacheLineBits = 512;

// BloomMath::StandardFpRate: pow(1 - exp(-k / b), k).
double StandardFpRate(double bits_per_key, int num_probes) {
  return CorrectlyRoundedPow(1.0 - CorrectlyRoundedExp(-num_probes / bits_per_key), num_probes);
}

// BloomMath::CacheLocalFpRate for bits_per_key > 0: the mean of the standard FP rates one standard
// deviation of cache line occupancy above and below the mean.
double CacheLocalFpRate(double bits_per_key, int num_probes) {
  const double keys_per_cache_line = kCacheLineBits / bits_per_key;
  const double keys_stddev = std::sqrt(keys_per_cache_line);  // IEEE: correctly rounded
  const double crowded_fp =
      StandardFpRate(kCacheLineBits / (keys_per_cache_line + keys_stddev), num_probes);
  const double uncrowded_fp =
      StandardFpRate(kCacheLineBits / (keys_per_cache_line - keys_stddev), num_probes);
  return (crowded_fp + uncrowded_fp) / 2;
}

// BandingConfigHelperData<kOneIn20, 128U, false>::kKnownToAddByPow2: how many entries 2^i slots
// take with about 1 in 20 construction failures per seed, measured; 0 = too few slots.
constexpr double kKnownToAddByPow2[] = {
    0,       0,       0,       0,       0,       0,       0,       0,       248.851,
    499.532, 1001.26, 2003.97, 4005.59, 8000.39, 15966.6, 31828.1, 63447.3, 126506,
};
constexpr uint32_t kKnownSize = std::size(kKnownToAddByPow2);
// GetFactorPerPow2 for 128-bit rows: each doubling of slots adds this much overhead.
constexpr double kFactorPerPow2 = 0.0038;

// GetFactorForLarge: slots over entries beyond the table, growing by kFactorPerPow2 per doubling
// from the table's last measured factor.
double FactorForLarge(double log2_num_slots) {
  const double final_known_factor =
      1.0 * (uint32_t{1} << (kKnownSize - 1)) / kKnownToAddByPow2[kKnownSize - 1];
  const double base_factor = final_known_factor - (kKnownSize - 1) * kFactorPerPow2;
  return base_factor + log2_num_slots * kFactorPerPow2;
}

// GetNumToAddForPow2: the table, then GetFactorForLarge's overhead model beyond it.
double NumToAddForPow2(uint32_t log2_num_slots) {
  if (log2_num_slots < kKnownSize) return kKnownToAddByPow2[log2_num_slots];
  return static_cast<double>(uint64_t{1} << log2_num_slots) / FactorForLarge(1.0 * log2_num_slots);
}

// BandingConfigHelper1MaybeSupported::GetNumToAdd (util/ribbon_config.cc) for a multiple of
// kCoeffBits: how many entries num_slots take, interpolated between the table's powers of two.
// RocksDB takes the whole log2 as trunc(log(num_slots) * 1.4426950409); that constant is above
// 1/ln 2 by less than 1e-11 relative, so the product exceeds log2(num_slots) by less than 4e-10,
// while a multiple of 128 below 2^32 that is not a power of two lies more than 4e-8 below the next
// whole log2: the truncation is the bit width's. Beyond the table the fractional log2 itself
// enters the overhead factor, and there libm's log is used as RocksDB uses it (a last-bit
// difference can only matter at 2^17 slots and more, partitions of over 150 KB).
uint32_t GetNumToAdd(uint32_t num_slots) {
  if (num_slots == 0) return 0;
  const uint32_t floor_log2 = static_cast<uint32_t>(std::bit_width(num_slots) - 1);
  if (floor_log2 + 1 < kKnownSize) {
    const double ceil_portion = 1.0 * num_slots / (uint32_t{1} << floor_log2) - 1.0;
    return static_cast<uint32_t>(ceil_portion * kKnownToAddByPow2[floor_log2 + 1] +
                                 (1.0 - ceil_portion) * kKnownToAddByPow2[floor_log2]);
  }
  const double factor = FactorForLarge(std::log(num_slots) * 1.4426950409);
  return static_cast<uint32_t>(num_slots / factor);
}

// SerializableInterleavedSolution::RoundDownNumSlots: whole blocks, and none rather than one.
uint32_t RoundDownNumSlots(uint32_t num_slots) {
  const uint32_t corrected = num_slots / kCoeffBits * kCoeffBits;
  return corrected == kCoeffBits ? 0 : corrected;
}

// GetNumSlots computes approx_log2_slots = trunc(std::log(n) * 1.4426950409 + 0.5), a rounded
// log2 with a slightly short constant. It is a step function of n: entry k - 1 here is the
// smallest n where it reaches k, i.e. ceil(e^((k - 0.5) / c)) with c the double nearest
// 1.4426950409 (computed in 60-digit decimal arithmetic). For n just below and at each step, the
// exact ln(n) * c + 0.5 is at least 2.3e-10 away from the integer k, while a libm's log is within
// 1 ulp (< 3.6e-15 for n < 2^31) and the multiply and add round by 2 ulp more: every libm yields
// this table. Steps up to k = 30 cover kMaxRibbonEntries.
constexpr uint32_t kApproxLog2Steps[] = {
    2,        3,        6,        12,        23,        46,        91,      182,
    363,      725,      1449,     2897,      5793,      11586,     23171,   46341,
    92682,    185364,   370728,   741456,    1482911,   2965821,   5931642, 11863284,
    23726567, 47453133, 94906266, 189812532, 379625063, 759250125,
};

uint32_t ApproxLog2Slots(uint32_t num_entries) {
  return static_cast<uint32_t>(
      std::upper_bound(std::begin(kApproxLog2Steps), std::end(kApproxLog2Steps), num_entries) -
      std::begin(kApproxLog2Steps));
}

// Bits per key swept by SizingSweepDigest: the golden corpus's values, every half bit to 16, then
// wider steps, values written with three decimals, and the clamped extremes.
constexpr double kSweepBitsPerKey[] = {
    0.5,     0.75,   1,      1.5,  2,  2.5,  3,  3.3,  3.5,  4,   4.5,  5,      5.5,
    6,       6.5,    7,      7.5,  8,  8.5,  9,  9.5,  9.9,  10,  10.5, 11,     11.5,
    12,      12.5,   13,     13.5, 14, 14.5, 15, 15.5, 16,   18,  20,   22,     24,
    25,      28,     30,     32,   40, 50,   64, 80,   99.9, 100, 1000, 10.499, 7.4999999999999,
    3.14159, 23.456, 66.667,
};

class Fnv1a64 {
 public:
  void Add(uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      digest_ = (digest_ ^ ((value >> (8 * i)) & 0xff)) * 0x100000001b3;
    }
  }
  void Add(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    Add(bits);
  }
  uint64_t digest() const { return digest_; }

 private:
  uint64_t digest_ = 0xcbf29ce484222325;
};

}  // namespace

double DesiredOneInFpRate(double bits_per_key) {
  // The BloomLikeFilterPolicy constructor: at least 1, at most 100 (also for NaN), and the probe
  // count FastLocalBloom would use for the same millibits.
  if (bits_per_key < 1.0) {
    bits_per_key = 1.0;
  } else if (!(bits_per_key < 100.0)) {
    bits_per_key = 100.0;
  }
  const int num_probes = rocksdb_bloom::FastLocalBloomNumProbes(
      SanitizeRocksDbBitsPerKey(bits_per_key).millibits_per_key);
  return 1.0 / CacheLocalFpRate(bits_per_key, num_probes);
}

uint32_t GetNumSlots(uint32_t num_entries) {
  uint32_t approx_log2_slots = ApproxLog2Slots(num_entries);
  double lower_num_to_add = NumToAddForPow2(approx_log2_slots);
  double upper_num_to_add;
  if (approx_log2_slots == 0 || lower_num_to_add == 0) {
    return 2 * kCoeffBits;  // the minimum without smash
  } else if (num_entries < lower_num_to_add) {
    upper_num_to_add = lower_num_to_add;
    --approx_log2_slots;
    lower_num_to_add = NumToAddForPow2(approx_log2_slots);
  } else {
    upper_num_to_add = NumToAddForPow2(approx_log2_slots + 1);
  }
  // Interpolate between the powers of two, rounding up.
  const double upper_portion =
      (num_entries - lower_num_to_add) / (upper_num_to_add - lower_num_to_add);
  const double lower_num_slots = static_cast<double>(uint64_t{1} << approx_log2_slots);
  return static_cast<uint32_t>(upper_portion * lower_num_slots + lower_num_slots + 0.999999999);
}

uint32_t RoundUpNumSlots(uint32_t num_slots) {
  uint32_t corrected = (num_slots + kCoeffBits - 1) / kCoeffBits * kCoeffBits;
  // One block would be a single start position, which the hashing is not made for.
  if (corrected == kCoeffBits) corrected += kCoeffBits;
  return corrected;
}

uint64_t GetBytesForOneInFpRate(uint32_t num_slots, double one_in, uint32_t rounding) {
  const double fp_rate = 1.0 / one_in;
  if (!(one_in > 1.0 && fp_rate < 1.0)) return 16;  // 100% FP rate (or NaN): one segment
  if (!(one_in <= 4294967295.0)) return uint64_t{num_slots} * 4;  // the maximum, 32 columns
  // lower_columns = floor(log2(one_in)) columns give an FP rate of at least fp_rate, one more
  // column at most; blocks from upper_start_block on get the extra column, so that the mix meets
  // fp_rate, with `rounding` deciding the block where the exact mix falls inside one.
  const uint32_t rounded = static_cast<uint32_t>(one_in);
  const int lower_columns = std::bit_width(rounded) - 1;
  // RocksDB's std::pow(2.0, -c), exact in every libm and in ldexp.
  const double lower_columns_fp_rate = std::ldexp(1.0, -lower_columns);
  const double upper_columns_fp_rate = std::ldexp(1.0, -(lower_columns + 1));
  const double lower_portion =
      (fp_rate - upper_columns_fp_rate) / (lower_columns_fp_rate - upper_columns_fp_rate);
  const double rounding_bias = (rounding + 0.5) / double{0x100000000};
  const uint32_t num_starts = num_slots - kCoeffBits + 1;
  const uint32_t upper_start_block =
      static_cast<uint32_t>((lower_portion * num_starts + rounding_bias) / kCoeffBits);
  const uint32_t num_blocks = num_slots / kCoeffBits;
  const uint32_t num_segments =
      num_blocks * static_cast<uint32_t>(lower_columns) + (num_blocks - upper_start_block);
  return uint64_t{num_segments} * 16;
}

uint32_t ApproximateNumEntries(uint64_t bytes, double one_in, int millibits_per_key) {
  // RoundDownUsableSpace: the solution is whole 16-byte segments.
  using rocksdb_bloom::kMetadataLen;
  const uint64_t data_bytes = (std::max<uint64_t>(bytes, kMetadataLen) - kMetadataLen) & ~15ull;
  if (!(one_in > 1.0)) return kMaxRibbonEntries;  // a 100% FP rate (or NaN) needs no space
  // A slight under-estimate of the bits each slot takes: the mix of b and b + 1 solution columns
  // meeting the FP rate, or the 32 columns at most.
  double min_real_bits_per_slot = 32.0;
  if (!(one_in >= 1.0 + 4294967295.0)) {
    const int upper_bits_per_key = std::bit_width(static_cast<uint32_t>(one_in));
    const double fp_rate_for_upper = std::ldexp(1.0, -upper_bits_per_key);  // pow(2.0, -b)
    const double portion_lower = (1.0 / one_in - fp_rate_for_upper) / fp_rate_for_upper;
    min_real_bits_per_slot = upper_bits_per_key - portion_lower;
  }
  // An over-estimate of the slots by O(1), then at most two steps down to the slots that fit.
  const double max_slots = static_cast<double>(data_bytes) * 8.0 / min_real_bits_per_slot;
  if (!(max_slots < GetNumSlots(kMaxRibbonEntries))) return kMaxRibbonEntries;
  uint32_t slots = RoundUpNumSlots(static_cast<uint32_t>(max_slots));
  for (int i = 0; slots > 0; ++i) {
    if (GetBytesForOneInFpRate(slots, one_in, 0) <= data_bytes || i >= 2) break;
    slots = RoundDownNumSlots(slots - 1);
  }
  const uint32_t num_entries = GetNumToAdd(slots);
  // Small filters may fall back to Bloom, which may hold more.
  if (slots < 1024) {
    const uint64_t bloom =
        rocksdb_bloom::FastLocalBloomApproximateNumEntries(bytes, millibits_per_key);
    return static_cast<uint32_t>(std::max<uint64_t>(bloom, num_entries));
  }
  return std::min(num_entries, kMaxRibbonEntries);
}

SolutionLayout ConfigureLayout(uint32_t num_blocks, uint64_t data_len) {
  // data_len < 2^32 (a filter's length is 32-bit in RocksDB), so segments fit the 32-bit Index.
  SolutionLayout layout;
  layout.num_segments = static_cast<uint32_t>(data_len / 16);
  layout.upper_num_columns = (layout.num_segments + num_blocks - 1) / num_blocks;
  layout.upper_start_block = layout.upper_num_columns * num_blocks - layout.num_segments;
  if (layout.upper_num_columns > 32) {
    // More space than 32 result bits use: the rest stays unused.
    layout.upper_num_columns = 32;
    layout.upper_start_block = 0;
    layout.num_segments = 32 * num_blocks;
  }
  return layout;
}

uint64_t SizingSweepDigest(uint32_t first, uint32_t last, uint32_t step) {
  double one_in[std::size(kSweepBitsPerKey)];
  for (size_t b = 0; b < std::size(kSweepBitsPerKey); ++b) {
    one_in[b] = DesiredOneInFpRate(kSweepBitsPerKey[b]);
  }
  Fnv1a64 digest;
  first = std::max<uint32_t>(first, 1);
  last = std::min(last, kMaxRibbonEntries);
  step = std::max<uint32_t>(step, 1);
  for (uint64_t n = first; n <= last; n += step) {
    const uint32_t num_slots = RoundUpNumSlots(GetNumSlots(static_cast<uint32_t>(n)));
    digest.Add(uint64_t{num_slots});
    // Roundings at both extremes, the middle, and one that varies with n.
    const uint32_t roundings[] = {0, 0x80000000u, 0xffffffffu,
                                  static_cast<uint32_t>((n * 0x9e3779b97f4a7c15) >> 32)};
    for (double target : one_in) {
      for (uint32_t rounding : roundings) {
        digest.Add(GetBytesForOneInFpRate(num_slots, target, rounding));
      }
    }
  }
  return digest.digest();
}

uint64_t OneInFpRateSweepDigest(uint32_t random_count) {
  Fnv1a64 digest;
  for (int millibits = 500; millibits <= 100000; ++millibits) {
    digest.Add(DesiredOneInFpRate(millibits / 1000.0));
  }
  uint64_t state = 0x853c49e6748fea9b;
  for (uint32_t i = 0; i < random_count; ++i) {
    state = state * 6364136223846793005 + 1442695040888963407;  // a 64-bit LCG
    digest.Add(DesiredOneInFpRate(0.5 + 100.0 * static_cast<double>(state >> 11) * 0x1p-53));
  }
  return digest.digest();
}

}  // namespace sstfilter::rocksdb_ribbon
