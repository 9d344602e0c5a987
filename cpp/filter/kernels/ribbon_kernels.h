// Query kernels for RocksDB's Standard128Ribbon filter (docs/FORMATS.md 1.7, 2.8.6, 2.8.7; RocksDB
// util/ribbon_impl.h, StandardHasher / StandardRehasherAdapter, and util/ribbon_alg.h,
// InterleavedPrepareQuery / InterleavedFilterQuery), one file per kernel, plus the registry that
// picks one at run time (ribbon_kernels.cc).
//
// A query turns the key's 64-bit hash into a start slot, a 128-bit coefficient row and up to 32
// expected result bits (the hashing below, shared with the builder), then checks every solution
// column j: the parity of (coefficient row AND the 128 solution bits of column j from the start
// slot on) must equal result bit j. That dot product is the kernel's job; every kernel answers
// exactly as the scalar reference (ribbon_query_scalar.cc) and differs only in speed:
//   "scalar"  portable C++, one column at a time with an early exit, the reference
//   "avx2"    x86-64 with AVX2 (ribbon_query_avx2.cc): eight columns per round
//   "simd128" the SIMD128 wasm module (ribbon_query_simd128.cc): eight columns per round
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "filter/kernels/kernel_registry.h"
#include "filter/kernels/prefetched_batch.h"
#include "filter/kernels/rocksdb_ribbon_hashing.h"

namespace sstfilter::simd {

// The solution is stored in 16-byte segments, each a little-endian u128 whose bit i belongs to slot
// 128 * block + i of one column (docs/FORMATS.md 2.8.6).
inline constexpr uint32_t kRibbonSegmentBytes = 16;

// Kernels may load up to this many bytes past the last segment a query addresses (the SIMD kernels
// load eight columns per round and ignore those past the key's last one); readers keep at least
// this many readable bytes after the solution (the filter's metadata, then zero padding).
inline constexpr size_t kRibbonReadPadding = 128;

// Kernels read segments with plain loads: every target (x86-64, wasm32) is little-endian.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);

using rocksdb_ribbon::RibbonU128;

// What a reader knows about one filter (SerializableInterleavedSolution after
// ConfigureForNumBlocks).
struct RibbonQueryParams {
  // The segments, followed by kRibbonReadPadding readable bytes.
  const uint8_t* data;
  uint32_t raw_seed;
  uint32_t num_starts;         // 128 * num_blocks - 127
  uint32_t upper_num_columns;  // 0..32; 0 means every query matches
  uint32_t upper_start_block;  // blocks below this one have upper_num_columns - 1 columns
};

// Shifts of a 128-bit value by 0..127 bits, from 64-bit shifts and selects: wasm has no 128-bit
// shift, and clang calls compiler-rt's __ashlti3 / __lshrti3 for a variable one (two calls per
// query). The carries are split into two shifts so that none is by 64, which C++ leaves undefined.
[[gnu::always_inline]] inline RibbonU128 RibbonShiftLeft(RibbonU128 v, uint32_t s) {
  const uint64_t lo = static_cast<uint64_t>(v);
  const uint64_t hi = static_cast<uint64_t>(v >> 64);
  const uint32_t t = s & 63;
  const uint64_t low = lo << t;
  const uint64_t high = s < 64 ? (hi << t) | ((lo >> 1) >> (63 - t)) : low;
  return (static_cast<RibbonU128>(high) << 64) | (s < 64 ? low : 0);
}

[[gnu::always_inline]] inline RibbonU128 RibbonShiftRight(RibbonU128 v, uint32_t s) {
  const uint64_t lo = static_cast<uint64_t>(v);
  const uint64_t hi = static_cast<uint64_t>(v >> 64);
  const uint32_t t = s & 63;
  const uint64_t high = hi >> t;
  const uint64_t low = s < 64 ? (lo >> t) | ((hi << 1) << (63 - t)) : high;
  return (static_cast<RibbonU128>(s < 64 ? high : 0) << 64) | low;
}

// Where one key's query reads (InterleavedPrepareQuery): the first segment of its start block,
// that block's number of columns, and the start slot's bit within the block.
struct RibbonLocation {
  uint32_t segment;
  uint32_t num_columns;
  uint32_t start_bit;
};

[[gnu::always_inline]] inline RibbonLocation LocateRibbonQuery(uint64_t seeded_hash,
                                                               const RibbonQueryParams& p) {
  const uint32_t start = rocksdb_ribbon::RibbonStart(seeded_hash, p.num_starts);
  const uint32_t block = start / 128;
  // Blocks below upper_start_block store one column less, and come first.
  const uint32_t below = block < p.upper_start_block ? 1 : 0;
  return {block * p.upper_num_columns - (below ? block : p.upper_start_block),
          p.upper_num_columns - below, start % 128};
}

// One key's query, ready for a kernel (InterleavedPrepareQuery). Column j of the 128 slots from the
// start slot on is (left[j] >> start_bit) | (right[j] << (128 - start_bit)); the kernels instead
// shift the coefficient row the other way: mask_left = coeff << start_bit covers the start block's
// segments, mask_right = coeff >> (128 - start_bit) the next block's (0 when start_bit is 0, as
// RocksDB's separate start_bit == 0 branch has it).
struct RibbonProbe {
  const uint8_t* left;   // first segment of the start block
  const uint8_t* right;  // first segment of the next block; `left` when mask_right is 0
  RibbonU128 mask_left;
  RibbonU128 mask_right;
  uint32_t num_columns;
  uint32_t expected;  // result bit j is the parity column j must have
};

[[gnu::always_inline]] inline RibbonProbe PrepareRibbonProbe(uint64_t key_hash,
                                                             const RibbonQueryParams& p) {
  const uint64_t h = rocksdb_ribbon::RibbonSeededHash(key_hash, p.raw_seed);
  const RibbonLocation at = LocateRibbonQuery(h, p);
  const RibbonU128 coeff = rocksdb_ribbon::RibbonCoeffRow(h);
  RibbonProbe probe;
  probe.left = p.data + size_t{at.segment} * kRibbonSegmentBytes;
  probe.mask_left = RibbonShiftLeft(coeff, at.start_bit);
  if (at.start_bit == 0) {
    probe.right = probe.left;
    probe.mask_right = 0;
  } else {
    probe.right = probe.left + size_t{at.num_columns} * kRibbonSegmentBytes;
    probe.mask_right = RibbonShiftRight(coeff, 128 - at.start_bit);
  }
  probe.num_columns = at.num_columns;
  probe.expected = rocksdb_ribbon::RibbonResultRow(h);
  return probe;
}

// The column loop of the SIMD kernels: kRoundParities(left, right, mask_left, mask_right) returns
// bit j = parity of column j for the eight columns from `left` / `right` on. The query matches iff
// every column agrees with its result bit. Rounds continue while columns remain and all agreed so
// far; the last (often only) round decides without a branch on its parities. Columns past
// num_columns are computed from whatever follows (segments or padding) and masked out; with no
// columns at all one round is computed and ignored.
template <typename Mask, uint32_t (*kRoundParities)(const uint8_t*, const uint8_t*, Mask, Mask)>
[[gnu::always_inline]] inline bool RibbonColumnsMatch(const uint8_t* left, const uint8_t* right,
                                                      Mask mask_left, Mask mask_right,
                                                      uint32_t num_columns, uint32_t expected) {
  for (uint32_t remaining = num_columns;; remaining -= 8) {
    const uint32_t in_use = remaining < 8 ? (1u << remaining) - 1 : 0xffu;
    const uint32_t mismatches =
        (kRoundParities(left, right, mask_left, mask_right) ^ expected) & in_use;
    if (remaining <= 8) return mismatches == 0;
    if (mismatches != 0) return false;
    left += 8 * kRibbonSegmentBytes;
    right += 8 * kRibbonSegmentBytes;
    expected >>= 8;
  }
}

// RibbonColumnsMatch for a prepared probe, its masks converted by kSplat.
template <typename Mask, Mask (*kSplat)(RibbonU128),
          uint32_t (*kRoundParities)(const uint8_t*, const uint8_t*, Mask, Mask)>
[[gnu::always_inline]] inline bool RibbonCheckInRoundsOfEight(const RibbonProbe& probe) {
  return RibbonColumnsMatch<Mask, kRoundParities>(probe.left, probe.right, kSplat(probe.mask_left),
                                                  kSplat(probe.mask_right), probe.num_columns,
                                                  probe.expected);
}

// Keys prepared and prefetched together, then checked: MultiGetContext::MAX_BATCH_SIZE, RocksDB's
// own group.
inline constexpr size_t kRibbonPrefetchGroup = 32;

struct RibbonKernel {
  const char* name;
  // True when every column's parity matches (the key may be in the filter).
  bool (*check)(const RibbonProbe& probe);
  // out[i] = 1 when hashes[i] (Xxph3Hash64 of key i) may be in the filter, else 0.
  void (*may_match_batch)(const uint64_t* hashes, size_t n, const RibbonQueryParams& params,
                          uint8_t* out);
};

// The kernel made from a per-key check: a batch is checked in order with the segments of the keys
// ahead prefetched (prefetched_batch.h). Instantiated in each kernel's translation unit with that
// unit's Check (an internal-linkage function, so instantiations never collide).
template <bool (*kCheck)(const RibbonProbe& probe)>
struct CheckedRibbonKernel {
  static void MayMatchBatch(const uint64_t* hashes, size_t n, const RibbonQueryParams& params,
                            uint8_t* out) {
    const RibbonQueryParams p = params;
    const auto prepare = [&](size_t i, RibbonProbe& probe) {
      probe = PrepareRibbonProbe(hashes[i], p);
      // The segments read run from `left` to the end of the right block's columns.
      PrefetchBytes<PrefetchFor::kRead>(probe.left,
                                        static_cast<size_t>(probe.right - probe.left) +
                                            size_t{probe.num_columns} * kRibbonSegmentBytes);
    };
    const auto check = [&](size_t i, const RibbonProbe& probe) { out[i] = kCheck(probe) ? 1 : 0; };
    PrefetchedBatch<RibbonProbe, kRibbonPrefetchGroup, Lookahead::kThisGroup>(n, prepare, check);
  }
};

// The kernels of each instruction set; only those this build compiles are defined, and only the
// registry (kernel_selection.cc, through kernel_registry.h's AvailableKernels<RibbonKernel>) refers
// to them.
extern const RibbonKernel kRibbonScalar;
extern const RibbonKernel kRibbonAvx2;
extern const RibbonKernel kRibbonSimd128;

}  // namespace sstfilter::simd
