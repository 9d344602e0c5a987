// The AVX2 Standard128Ribbon kernel. Compiled with -mavx2 and used only after the registry
// (ribbon_kernels.cc) saw the CPU support AVX2.
//
// Equals the scalar Check: a round computes the parities of eight columns at once and compares
// them with eight result bits; the key matches iff no column of any round disagrees, which is the
// scalar "every column agrees". Per round:
//   * dot products: each 256-bit load holds two segments (columns j, j+1); AND with the coefficient
//     row shifted into place (the same 128-bit mask in both lanes) and XOR the next block's part;
//   * folding: the parity of a 128-bit dot product is the parity of its two 64-bit halves XORed;
//     unpacklo ^ unpackhi does that for two loads at once, then shifts fold 64 -> 32 -> 1 bits;
//   * order: the folds leave the columns in lanes 0,4,2,6,1,5,3,7, which one permute restores, so
//     movemask gives bit j = parity of column j.
// Loads cover eight columns even when fewer remain; the extra ones come from the next block's
// segments or the reader's padding (kRibbonReadPadding) and are masked out of the comparison.
#include "filter/kernels/ribbon_kernels.h"

#if defined(SSTFILTER_HAVE_AVX2)
#include <immintrin.h>

namespace sstfilter::simd {
namespace {

// A 128-bit mask in both lanes. (Wrapped: a vector type as a template argument loses its
// attributes, which GCC warns about.)
struct Mask {
  __m256i both_lanes;
};

inline Mask ToMask(RibbonU128 mask) {
  return {_mm256_set_epi64x(static_cast<long long>(mask >> 64), static_cast<long long>(mask),
                            static_cast<long long>(mask >> 64), static_cast<long long>(mask))};
}

// Bit j (j < 8) is the parity of column j of this round: the columns at left/right + 32 * k hold
// columns 2k and 2k + 1.
inline uint32_t RoundParities(const uint8_t* left, const uint8_t* right, Mask mask_left,
                              Mask mask_right) {
  __m256i dot[4];
  for (int k = 0; k < 4; ++k) {
    const __m256i l = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(left + 32 * k));
    const __m256i r = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(right + 32 * k));
    dot[k] = _mm256_xor_si256(_mm256_and_si256(l, mask_left.both_lanes),
                              _mm256_and_si256(r, mask_right.both_lanes));
  }
  // 64-bit elements: [c0 c2 c1 c3] and [c4 c6 c5 c7], each the XOR of a column's two halves.
  __m256i x = _mm256_xor_si256(_mm256_unpacklo_epi64(dot[0], dot[1]),
                               _mm256_unpackhi_epi64(dot[0], dot[1]));
  __m256i y = _mm256_xor_si256(_mm256_unpacklo_epi64(dot[2], dot[3]),
                               _mm256_unpackhi_epi64(dot[2], dot[3]));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 32));
  y = _mm256_xor_si256(y, _mm256_srli_epi64(y, 32));
  // 32-bit lanes: [c0 c4 c2 c6 c1 c5 c3 c7] (x's low halves, y's in between).
  __m256i z = _mm256_blend_epi32(x, _mm256_slli_epi64(y, 32), 0xaa);
  z = _mm256_xor_si256(z, _mm256_srli_epi32(z, 16));
  z = _mm256_xor_si256(z, _mm256_srli_epi32(z, 8));
  z = _mm256_xor_si256(z, _mm256_srli_epi32(z, 4));
  z = _mm256_xor_si256(z, _mm256_srli_epi32(z, 2));
  z = _mm256_xor_si256(z, _mm256_srli_epi32(z, 1));
  // The lane order above is its own inverse permutation.
  z = _mm256_permutevar8x32_epi32(z, _mm256_setr_epi32(0, 4, 2, 6, 1, 5, 3, 7));
  return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(z, 31))));
}

bool Check(const RibbonProbe& probe) {
  return RibbonCheckInRoundsOfEight<Mask, ToMask, RoundParities>(probe);
}

}  // namespace

const RibbonKernel kRibbonAvx2 = {"avx2", Check, CheckedRibbonKernel<Check>::MayMatchBatch};

}  // namespace sstfilter::simd

#endif  // SSTFILTER_HAVE_AVX2
