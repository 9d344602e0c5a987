// Private to the Standard128Ribbon files (rocksdb_ribbon_math.cc, rocksdb_ribbon_sizing.cc,
// rocksdb_ribbon_builder.cc, rocksdb_ribbon_reader.cc), the reader dispatch
// (rocksdb_filter_reader.cc) and their tests. docs/FORMATS.md 2.8 describes every formula here;
// RocksDB sources are cited per function.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/filter.h"

namespace sstfilter::rocksdb_ribbon {

// Standard128RibbonBitsBuilder::kMaxRibbonEntries: more hashes than this get a FastLocalBloom.
inline constexpr uint32_t kMaxRibbonEntries = 950000000;

// Slots per block: the width of a coefficient row (Unsigned128).
inline constexpr uint32_t kCoeffBits = 128;

// The first metadata byte of a Standard128Ribbon filter (int8 -2).
inline constexpr uint8_t kRibbonMarker = 0xfe;

// StandardHasher::SetOrdinalSeed (util/ribbon_impl.h): the raw seed of the ordinal seed stored in
// the metadata, a reversible mixing truncated to the 32-bit Seed type. RawSeed(0) == 0.
constexpr uint32_t RawSeed(uint32_t ordinal) {
  uint64_t t = uint64_t{ordinal} * 0xc78219a23eeadd03;
  t ^= (t & 0xf0f0f0f0f0f0f0f0) >> 4;
  return static_cast<uint32_t>(t);
}

// ---- Sizing (rocksdb_ribbon_sizing.cc) ----
//
// Everything here is a pure function of its arguments computed with IEEE-754 double operations
// that every target rounds the same way (+ - * / and sqrt), and no C library transcendental
// function: RocksDB's sizing calls glibc's log, exp and pow, whose last bit differs between glibc's
// FMA and non-FMA code paths (chosen by the CPU) and from other C libraries (the wasm builds link
// musl). See rocksdb_ribbon_sizing.cc for why the results equal RocksDB's.

// BloomLikeFilterPolicy's desired_one_in_fp_rate_ for NewRibbonFilterPolicy(bits_per_key) (table/
// block_based/filter_policy.cc): 1 / BloomMath::CacheLocalFpRate of the sanitised bits per key and
// FastLocalBloom's probe count, i.e. the FP rate of the Bloom filter the Ribbon filter replaces.
// bits_per_key >= 0.5 (below that RocksDB builds no filter).
double DesiredOneInFpRate(double bits_per_key);

// BandingConfigHelper1<kOneIn20, 128, false, false>::GetNumSlots (util/ribbon_config.cc): slots
// for 1 <= num_entries <= kMaxRibbonEntries at about 1 in 20 construction failures per seed.
uint32_t GetNumSlots(uint32_t num_entries);

// SerializableInterleavedSolution::RoundUpNumSlots (util/ribbon_impl.h): whole blocks, at least 2.
uint32_t RoundUpNumSlots(uint32_t num_slots);

// SerializableInterleavedSolution::GetBytesForOneInFpRate: solution bytes (a multiple of 16) for a
// rounded num_slots; `rounding` (the upper 32 bits of the first hash) biases the choice between
// the two column counts around log2(one_in).
uint64_t GetBytesForOneInFpRate(uint32_t num_slots, double one_in, uint32_t rounding);

// Standard128RibbonBitsBuilder::ApproximateNumEntries (table/block_based/filter_policy.cc): the
// entries a filter of `bytes` bytes (metadata included) holds at `one_in` (DesiredOneInFpRate),
// the larger Bloom count for small filters, as partitioned filters size their partitions.
uint32_t ApproximateNumEntries(uint64_t bytes, double one_in, int millibits_per_key);

// SerializableInterleavedSolution::InternalConfigure: how `data_len` bytes hold the solution of
// num_blocks >= 1 blocks. The builder passes the whole filter length, the reader the length without
// metadata; both give the same layout because the solution is a multiple of 16 bytes.
struct SolutionLayout {
  uint32_t num_segments;       // 16-byte segments in use
  uint32_t upper_num_columns;  // 0..32
  uint32_t upper_start_block;  // blocks below it have upper_num_columns - 1 columns
};
SolutionLayout ConfigureLayout(uint32_t num_blocks, uint64_t data_len);

// exp(x) and x^k correctly rounded (the double nearest the exact value), computed in double-double
// arithmetic from + - * / only; rocksdb_ribbon_math.cc states the domains and error bounds.
double CorrectlyRoundedExp(double x);
double CorrectlyRoundedPow(double x, int k);

// Sweeps for comparing builds (tests/cpp/rocksdb_ribbon_test.cc, tests/ts/ribbon-sizing.test.ts):
// FNV-1a digests of every sizing decision, so one call covers a whole sweep.
//
// For num_entries = first, first + step, ... <= last (within 1..kMaxRibbonEntries; step >= 1): the
// rounded slot count, and the solution bytes for each of kSweepBitsPerKey's values and four
// roundings.
uint64_t SizingSweepDigest(uint32_t first, uint32_t last, uint32_t step);
// DesiredOneInFpRate's bits for bits per key = m / 1000 (m = 500..100000), then for `random_count`
// pseudo-random doubles in [0.5, 100.5).
uint64_t OneInFpRateSweepDigest(uint32_t random_count);

// ---- Builder (rocksdb_ribbon_builder.cc) ----

// Standard128RibbonBitsBuilder::Finish over the collected hashes (adjacent repeats already
// skipped), with NewRibbonFilterPolicy's bits per key and its sanitised millibits.
Status FinishRibbon(std::vector<uint64_t> hashes, double bits_per_key, int millibits_per_key,
                    Bytes* out);

// One filter of FinishRibbons: NewRibbonFilterPolicy's bits per key, its sanitised millibits, and
// where the filter's bytes go.
struct RibbonTarget {
  double bits_per_key;
  int millibits_per_key;
  Bytes* out;
};

// FinishRibbon for each target over the same hashes, banding them once for all (FinishRibbon is
// the one-target case): each target's bytes equal FinishRibbon's. Without `bloom_fallback`, each
// is the Ribbon filter even where RocksDB writes a FastLocalBloom instead (filter-advice's row of
// Ribbon alone), and kUnsupported where no Ribbon filter can be built. On an error (a filter over
// 2 GiB, banding storage not allocated) the targets' bytes are unspecified.
Status FinishRibbons(std::vector<uint64_t> hashes, std::span<const RibbonTarget> targets,
                     bool bloom_fallback = true);

// ---- Reader (rocksdb_ribbon_reader.cc) ----

// GetRibbonBitsReader for filter bytes longer than 5 whose marker byte is 0xfe (-2): the reader, or
// an always-match reader when num_blocks < 2 as RocksDB has it.
std::unique_ptr<FilterReader> OpenRibbonReader(Bytes filter);

}  // namespace sstfilter::rocksdb_ribbon
