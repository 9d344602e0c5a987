// The wasm SIMD128 Standard128Ribbon kernel, compiled only into the SIMD128 module (-msimd128).
//
// Equals the scalar Check: a round computes the parities of eight columns at once and compares
// them with eight result bits; the key matches iff no column of any round disagrees. Per round:
//   * dot products: one v128 per segment, ANDed with the coefficient row shifted into place, XOR
//   the
//     next block's part;
//   * folding and packing: shuffles pair the 64-bit halves of two columns (their XOR has the
//     column's parity), then each fold (x ^ x >> half) lets half as many bits carry the parity, so
//     the columns pack into 32-bit, then 16-bit lanes: eight columns in one vector, in order;
//   * bitmask: bit 0 of each 16-bit lane shifted to its sign gives bit j = parity of column j.
// Loads cover eight columns even when fewer remain; the extra ones come from the next block's
// segments or the reader's padding (kRibbonReadPadding) and are masked out of the comparison.
#include "simd/ribbon_kernels.h"

#if defined(SSTFILTER_HAVE_SIMD128)
#include <wasm_simd128.h>

namespace sstfilter::simd {
namespace {

// A 128-bit mask (wrapped like the AVX2 kernel's, for use as a template argument).
struct Mask {
  v128_t v;
};

// [parity-carrying 64 bits of column a, of column b] from the dot products of columns a and b.
inline v128_t PairHalves(v128_t a, v128_t b) {
  return wasm_v128_xor(wasm_i64x2_shuffle(a, b, 0, 2), wasm_i64x2_shuffle(a, b, 1, 3));
}

inline v128_t FoldTo32(v128_t x) { return wasm_v128_xor(x, wasm_u64x2_shr(x, 32)); }

// Bit j (j < 8) is the parity of column j of this round (segments left/right + 16 * j).
inline uint32_t RoundParities(const uint8_t* left, const uint8_t* right, Mask mask_left,
                              Mask mask_right) {
  v128_t dot[8];
  for (int j = 0; j < 8; ++j) {
    dot[j] = wasm_v128_xor(wasm_v128_and(wasm_v128_load(left + 16 * j), mask_left.v),
                           wasm_v128_and(wasm_v128_load(right + 16 * j), mask_right.v));
  }
  const v128_t c01 = FoldTo32(PairHalves(dot[0], dot[1]));
  const v128_t c23 = FoldTo32(PairHalves(dot[2], dot[3]));
  const v128_t c45 = FoldTo32(PairHalves(dot[4], dot[5]));
  const v128_t c67 = FoldTo32(PairHalves(dot[6], dot[7]));
  v128_t c0123 = wasm_i32x4_shuffle(c01, c23, 0, 2, 4, 6);
  v128_t c4567 = wasm_i32x4_shuffle(c45, c67, 0, 2, 4, 6);
  c0123 = wasm_v128_xor(c0123, wasm_u32x4_shr(c0123, 16));
  c4567 = wasm_v128_xor(c4567, wasm_u32x4_shr(c4567, 16));
  v128_t c = wasm_i16x8_shuffle(c0123, c4567, 0, 2, 4, 6, 8, 10, 12, 14);
  c = wasm_v128_xor(c, wasm_u16x8_shr(c, 8));
  c = wasm_v128_xor(c, wasm_u16x8_shr(c, 4));
  c = wasm_v128_xor(c, wasm_u16x8_shr(c, 2));
  c = wasm_v128_xor(c, wasm_u16x8_shr(c, 1));
  return wasm_i16x8_bitmask(wasm_i16x8_shl(c, 15));
}

inline Mask ToMask(RibbonU128 mask) {
  return {wasm_u64x2_make(static_cast<uint64_t>(mask), static_cast<uint64_t>(mask >> 64))};
}

bool Check(const RibbonProbe& probe) {
  return RibbonCheckInRoundsOfEight<Mask, ToMask, RoundParities>(probe);
}

// Below this solution size touching ahead buys nothing: it stays in L2/L3 between queries.
constexpr uint64_t kTouchAheadMinBytes = 2 * 1024 * 1024;

// The native batch shape (RibbonPrefetchedBatch) for wasm, which has no prefetch instruction
// (Emscripten drops __builtin_prefetch): a group of keys first touches every cache line its
// queries will read with plain byte loads, so that those misses overlap one another and the
// checks then hit the cache, as the FastLocalBloom SIMD128 batch does. Equals the scalar batch key
// by key.
void MayMatchBatch(const uint64_t* hashes, size_t n, const RibbonQueryParams& params,
                   uint8_t* out) {
  const uint64_t num_blocks = params.num_starts / 128 + 1;
  if (num_blocks * params.upper_num_columns * kRibbonSegmentBytes < kTouchAheadMinBytes) {
    for (size_t i = 0; i < n; ++i) out[i] = Check(PrepareRibbonProbe(hashes[i], params)) ? 1 : 0;
    return;
  }
  constexpr size_t kGroup = 32;
  RibbonProbe probes[kGroup];
  for (size_t start = 0; start < n; start += kGroup) {
    const size_t count = n - start < kGroup ? n - start : kGroup;
    uint32_t touched = 0;
    for (size_t i = 0; i < count; ++i) {
      probes[i] = PrepareRibbonProbe(hashes[start + i], params);
      // The segments read run from `left` to the end of the right block's columns.
      const size_t bytes = static_cast<size_t>(probes[i].right - probes[i].left) +
                           size_t{probes[i].num_columns} * kRibbonSegmentBytes;
      for (size_t offset = 0; offset < bytes; offset += 64) touched += probes[i].left[offset];
      if (bytes > 0) touched += probes[i].left[bytes - 1];
    }
    // Keeps the compiler from dropping the touching loads, whose values are not needed.
    __asm__ volatile("" : : "r"(touched));
    for (size_t i = 0; i < count; ++i) out[start + i] = Check(probes[i]) ? 1 : 0;
  }
}

}  // namespace

const RibbonKernel kRibbonSimd128 = {"simd128", Check, MayMatchBatch};

}  // namespace sstfilter::simd

#endif  // SSTFILTER_HAVE_SIMD128
