// The wasm SIMD128 Standard128Ribbon kernel, compiled only into the SIMD128 module (-msimd128).
//
// Equals the scalar Check: a round computes the parities of eight columns at once and compares
// them with eight result bits; the key matches iff no column of any round disagrees
// (RibbonColumnsMatch). Per round (RoundParities):
//   * dot products: one v128 per segment, ANDed with the coefficient row shifted into place, XOR
//     the next block's part;
//   * merging: the parity of a column is the parity of any XOR-fold of its dot product, so each
//     step folds two vectors' lanes in half and blends the halves into one vector: two 64-bit
//     halves per column (shuffles), then 32-bit, then 16-bit lanes, eight columns in one vector;
//     the pairing (0,4), (2,6), (1,5), (3,7) leaves column j in 16-bit lane j;
//   * bitmask: a lane folded into its sign bit gives bit j = parity of column j.
// Loads cover eight columns even when fewer remain; the extra ones come from the next block's
// segments or the reader's padding (kRibbonReadPadding) and are masked out of the comparison.
//
// Batches (MayMatchBatch) do not go through PrepareRibbonProbe: its 128-bit shifts compile to
// branches on the start bit, which a random key mispredicts half the time. PrepareKey computes the
// same masks without a branch, in vector registers (see there), the start block's address with
// LocateRibbonQuery and the result row with RibbonResultRow, so a key's answer is exactly
// Check(PrepareRibbonProbe(key)). Nothing then branches on the data unless a filter has more than
// eight columns, and the engine overlaps consecutive keys.
#include "filter/kernels/ribbon_kernels.h"

#if defined(SSTFILTER_HAVE_SIMD128)
#include <wasm_simd128.h>

namespace sstfilter::simd {
namespace {

// A 128-bit mask (wrapped like the AVX2 kernel's, for use as a template argument).
struct Mask {
  v128_t v;
};

// Column j's dot product: its segment of the start block AND mask_left, XOR its segment of the
// next block AND mask_right.
[[gnu::always_inline]] inline v128_t Dot(const uint8_t* left, const uint8_t* right, Mask mask_left,
                                         Mask mask_right, int j) {
  return wasm_v128_xor(wasm_v128_and(wasm_v128_load(left + 16 * j), mask_left.v),
                       wasm_v128_and(wasm_v128_load(right + 16 * j), mask_right.v));
}

// [fold of column a, fold of column b] in 64-bit lanes: the XOR of each one's two halves.
inline v128_t PairHalves(v128_t a, v128_t b) {
  return wasm_v128_xor(wasm_i64x2_shuffle(a, b, 0, 2), wasm_i64x2_shuffle(a, b, 1, 3));
}

// From 64-bit lanes [a, b] and [c, d] to 32-bit lanes [a, c, b, d], each folded: x's lanes fold
// into their low halves, y's into their high halves, and one blend keeps both.
inline v128_t MergeTo32(v128_t x, v128_t y) {
  return wasm_i32x4_shuffle(wasm_v128_xor(x, wasm_u64x2_shr(x, 32)),
                            wasm_v128_xor(y, wasm_i64x2_shl(y, 32)), 0, 5, 2, 7);
}

// The same from 32-bit lanes to 16-bit lanes: [x0, y0, x1, y1, x2, y2, x3, y3].
inline v128_t MergeTo16(v128_t x, v128_t y) {
  return wasm_i16x8_shuffle(wasm_v128_xor(x, wasm_u32x4_shr(x, 16)),
                            wasm_v128_xor(y, wasm_i32x4_shl(y, 16)), 0, 9, 2, 11, 4, 13, 6, 15);
}

// Bit j (j < 8) is the parity of column j of this round (segments left/right + 16 * j).
inline uint32_t RoundParities(const uint8_t* left, const uint8_t* right, Mask mask_left,
                              Mask mask_right) {
  // 32-bit lanes: columns 0, 2, 4, 6 (even) and 1, 3, 5, 7 (odd).
  const v128_t even = MergeTo32(PairHalves(Dot(left, right, mask_left, mask_right, 0),
                                           Dot(left, right, mask_left, mask_right, 4)),
                                PairHalves(Dot(left, right, mask_left, mask_right, 2),
                                           Dot(left, right, mask_left, mask_right, 6)));
  const v128_t odd = MergeTo32(PairHalves(Dot(left, right, mask_left, mask_right, 1),
                                          Dot(left, right, mask_left, mask_right, 5)),
                               PairHalves(Dot(left, right, mask_left, mask_right, 3),
                                          Dot(left, right, mask_left, mask_right, 7)));
  v128_t c = MergeTo16(even, odd);  // 16-bit lane j: column j
  c = wasm_v128_xor(c, wasm_i16x8_shl(c, 8));
  c = wasm_v128_xor(c, wasm_i16x8_shl(c, 4));
  c = wasm_v128_xor(c, wasm_i16x8_shl(c, 2));
  c = wasm_v128_xor(c, wasm_i16x8_shl(c, 1));
  return wasm_i16x8_bitmask(c);
}

inline Mask ToMask(RibbonU128 mask) {
  return {wasm_u64x2_make(static_cast<uint64_t>(mask), static_cast<uint64_t>(mask >> 64))};
}

bool Check(const RibbonProbe& probe) {
  return RibbonCheckInRoundsOfEight<Mask, ToMask, RoundParities>(probe);
}

// kHighBits[s] = ~0 << s as a little-endian u128, s = 0..127.
struct HighBitsTable {
  alignas(16) uint64_t words[128][2];
};

constexpr HighBitsTable MakeHighBits() {
  HighBitsTable table{};
  for (uint32_t s = 0; s < 128; ++s) {
    table.words[s][0] = s < 64 ? ~uint64_t{0} << s : 0;
    table.words[s][1] = s < 64 ? ~uint64_t{0} : ~uint64_t{0} << (s - 64);
  }
  return table;
}

constexpr HighBitsTable kHighBits = MakeHighBits();

// One key's query with PrepareRibbonProbe's pointers, masks, column count and result row. The
// masks come from the coefficient row rotated left by the start bit s: rot = (coeff << s) |
// (coeff >> (128 - s)) for s > 0, whose two parts occupy bits s..127 and 0..s-1, so
// mask_left = rot AND (~0 << s) and mask_right = rot AND NOT (~0 << s) (0 when s is 0, as
// PrepareRibbonProbe has it). The rotation: swap the 64-bit halves when s >= 64 (selects), then
// rotate both halves left by t = s % 64, each taking the other's top t bits (shifted by 1 and
// then 63 - t, so that t = 0 takes none).
struct KeyQuery {
  const uint8_t* left;
  const uint8_t* right;
  Mask mask_left;
  Mask mask_right;
  uint32_t num_columns;
  uint32_t expected;
};

[[gnu::always_inline]] inline KeyQuery PrepareKey(uint64_t key_hash, const RibbonQueryParams& p) {
  const uint64_t h = rocksdb_ribbon::RibbonSeededHash(key_hash, p.raw_seed);
  const RibbonLocation at = LocateRibbonQuery(h, p);
  const RibbonU128 coeff = rocksdb_ribbon::RibbonCoeffRow(h);
  const uint64_t low = static_cast<uint64_t>(coeff);
  const uint64_t high = static_cast<uint64_t>(coeff >> 64);
  const bool swap = at.start_bit >= 64;
  const uint32_t t = at.start_bit % 64;
  const v128_t halves = wasm_u64x2_make(swap ? high : low, swap ? low : high);
  const v128_t other = wasm_i64x2_shuffle(halves, halves, 1, 0);
  const v128_t rot =
      wasm_v128_or(wasm_i64x2_shl(halves, t), wasm_u64x2_shr(wasm_u64x2_shr(other, 1), 63 - t));
  const v128_t above = wasm_v128_load(kHighBits.words[at.start_bit]);
  KeyQuery q;
  q.left = p.data + size_t{at.segment} * kRibbonSegmentBytes;
  q.right = at.start_bit == 0 ? q.left : q.left + size_t{at.num_columns} * kRibbonSegmentBytes;
  q.mask_left = {wasm_v128_and(rot, above)};
  q.mask_right = {wasm_v128_andnot(rot, above)};
  q.num_columns = at.num_columns;
  q.expected = rocksdb_ribbon::RibbonResultRow(h);
  return q;
}

[[gnu::always_inline]] inline bool MayMatchKey(uint64_t key_hash, const RibbonQueryParams& p) {
  const KeyQuery q = PrepareKey(key_hash, p);
  return RibbonColumnsMatch<Mask, RoundParities>(q.left, q.right, q.mask_left, q.mask_right,
                                                 q.num_columns, q.expected);
}

// Below this solution size touching ahead buys nothing: it stays in L2/L3 between queries.
constexpr uint64_t kTouchAheadMinBytes = 2 * 1024 * 1024;

// Equals the scalar batch key by key (MayMatchKey above). Wasm has no prefetch instruction
// (Emscripten drops __builtin_prefetch), so for a large solution a group of keys first touches
// every cache line its queries will read with plain byte loads, as the FastLocalBloom SIMD128
// batch does: those misses overlap one another, and the queries then hit the cache. The touching
// pass only locates each key (a short loop keeps many misses in flight); the queries recompute it.
void MayMatchBatch(const uint64_t* hashes, size_t n, const RibbonQueryParams& params,
                   uint8_t* out) {
  const uint64_t num_blocks = params.num_starts / 128 + 1;
  if (num_blocks * params.upper_num_columns * kRibbonSegmentBytes < kTouchAheadMinBytes) {
    for (size_t i = 0; i < n; ++i) out[i] = MayMatchKey(hashes[i], params) ? 1 : 0;
    return;
  }
  constexpr size_t kGroup = 32;
  for (size_t start = 0; start < n; start += kGroup) {
    const size_t end = n - start < kGroup ? n : start + kGroup;
    uint32_t touched = 0;
    for (size_t i = start; i < end; ++i) {
      const RibbonLocation at =
          LocateRibbonQuery(rocksdb_ribbon::RibbonSeededHash(hashes[i], params.raw_seed), params);
      const uint8_t* left = params.data + size_t{at.segment} * kRibbonSegmentBytes;
      // The segments read run from `left` to the end of the next block's columns, or of the
      // start block's when the start bit is 0.
      const size_t bytes = size_t{at.num_columns} * kRibbonSegmentBytes * (at.start_bit ? 2 : 1);
      for (size_t offset = 0; offset < bytes; offset += 64) touched += left[offset];
      if (bytes > 0) touched += left[bytes - 1];
    }
    // Keeps the compiler from dropping the touching loads, whose values are not needed.
    __asm__ volatile("" : : "r"(touched));
    for (size_t i = start; i < end; ++i) out[i] = MayMatchKey(hashes[i], params) ? 1 : 0;
  }
}

}  // namespace

const RibbonKernel kRibbonSimd128 = {"simd128", Check, MayMatchBatch};

}  // namespace sstfilter::simd

#endif  // SSTFILTER_HAVE_SIMD128
