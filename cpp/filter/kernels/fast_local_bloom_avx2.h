// The AVX2 FastLocalBloom probe: what RocksDB computes when built with AVX2 (util/bloom_impl.h,
// FastLocalBloomImpl::HashMayMatchPrepared under __AVX2__; docs/FORMATS.md 2.7). Inline functions
// compiled for AVX2 (gnu::target), so that a caller built for AVX2 probes one hash at a time
// without a call, as RocksDB's HashMayMatch inlines into its loops: the kernel
// (fast_local_bloom_avx2.cc) and the single-hash benchmark. Call them only after
// AvailableFastLocalBloomKernels() listed "avx2", i.e. the CPU has AVX2.
#pragma once

#include "filter/kernels/bloom_kernels.h"

#if defined(SSTFILTER_HAVE_AVX2)
#include <immintrin.h>

namespace sstfilter::simd {

// Equals the scalar kernel's block probe (fast_local_bloom_scalar.cc), eight probes at a time. Lane
// j of a round holds x_j = h * phi^j, which is the scalar loop's x after j multiplications by phi
// (multiplication mod 2^32 is associative). The scalar probe tests bit x >> 23 of the block, i.e.
// byte x >> 26, bit (x >> 23) & 7; reading the block as sixteen little-endian 32-bit words instead,
// that is bit (x >> 23) & 31 of word x >> 28, the same bit (x86 is little-endian). A round checks
// the lanes j < rem (a zero mask bit in the others), so the answer is "every probe's bit is set",
// as in the scalar loop; stopping at a round with a clear bit only skips work. After a round the
// base hash is multiplied by phi^8, so the next round continues the sequence at probe 8.
[[gnu::target("avx2"), gnu::always_inline]] inline bool FastLocalBloomAvx2ProbeBlock(
    uint32_t h2, int num_probes, const uint8_t* block) {
  // phi^0 .. phi^7 mod 2^32.
  const __m256i powers = _mm256_setr_epi32(0x00000001, static_cast<int>(0x9e3779b9),
                                           static_cast<int>(0xe35e67b1), 0x734297e9, 0x35fbe861,
                                           static_cast<int>(0xdeb7c719), 0x0448b211, 0x3459b749);
  constexpr uint32_t kPhiPow8 = 0xab25f4c1;
  const __m256i lane_index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i low_words = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));
  const __m256i high_words = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32));

  uint32_t h = h2;
  int rem = num_probes;
  for (;;) {
    const __m256i x = _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(h)), powers);
    // Word x >> 28: permutevar8x32 uses its low three bits to pick within each 32-byte half, and
    // bit 31 of x (spread over the lane by the arithmetic shift) selects the half.
    const __m256i word = _mm256_srli_epi32(x, 28);
    const __m256i from_low = _mm256_permutevar8x32_epi32(low_words, word);
    const __m256i from_high = _mm256_permutevar8x32_epi32(high_words, word);
    const __m256i words = _mm256_blendv_epi8(from_low, from_high, _mm256_srai_epi32(x, 31));
    // 1 in the lanes j < rem: the sign bit of j - rem.
    const __m256i in_use =
        _mm256_srli_epi32(_mm256_sub_epi32(lane_index, _mm256_set1_epi32(rem)), 31);
    const __m256i bit = _mm256_srli_epi32(_mm256_slli_epi32(x, 4), 27);  // (x >> 23) & 31
    const __m256i mask = _mm256_sllv_epi32(in_use, bit);
    // testc: (~words & mask) == 0, i.e. every masked bit is set.
    const bool all_set = _mm256_testc_si256(words, mask) != 0;
    if (rem <= 8) return all_set;
    if (!all_set) return false;
    h *= kPhiPow8;
    rem -= 8;
  }
}

// FastLocalBloomImpl::HashMayMatch for one precomputed hash.
[[gnu::target("avx2"), gnu::always_inline]] inline bool FastLocalBloomAvx2MayMatch(
    uint64_t hash, int num_probes, const uint8_t* data, uint32_t len_bytes) {
  const uint32_t offset = FastLocalBloomBlockOffset(static_cast<uint32_t>(hash), len_bytes);
  return FastLocalBloomAvx2ProbeBlock(static_cast<uint32_t>(hash >> 32), num_probes, data + offset);
}

}  // namespace sstfilter::simd

#endif  // SSTFILTER_HAVE_AVX2
