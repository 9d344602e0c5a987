// XXH3_accumulate_512 of the final release in wasm SIMD128, for the SIMD128 module only
// (-msimd128): the kXXH3 block checksum hashes every block a walk reads, and the scalar form's
// 64-bit multiplies of 32-bit halves are several instructions each in wasm. Two lanes per vector:
// i64x2 extmul multiplies each lane's low and high 32-bit halves (xxhash.h's XXH3_accumulate_512_
// sse2 does the same with _mm_mul_epu32), and the input words are added to the neighbouring lane.
// A header, so that HashLong inlines it into its loop as it does the scalar form.
#pragma once

#if defined(SSTFILTER_HAVE_SIMD128)
#include <wasm_simd128.h>

#include <cstdint>

#include "base/hash_internal.h"

namespace sstfilter::hash_internal {

inline void Xxh3Accumulate512Simd128(uint64_t* acc, const uint8_t* in, const uint8_t* secret) {
  for (size_t i = 0; i < kAccumulators; i += 2) {
    const v128_t data = wasm_v128_load(in + 8 * i);
    const v128_t key = wasm_v128_xor(data, wasm_v128_load(secret + 8 * i));
    // 32-bit lanes of key: lo0 hi0 lo1 hi1; the product of each 64-bit lane's halves.
    const v128_t low_halves = wasm_i32x4_shuffle(key, key, 0, 2, 0, 2);
    const v128_t high_halves = wasm_i32x4_shuffle(key, key, 1, 3, 1, 3);
    const v128_t product = wasm_u64x2_extmul_low_u32x4(low_halves, high_halves);
    const v128_t swapped = wasm_i64x2_shuffle(data, data, 1, 0);
    const v128_t sum = wasm_i64x2_add(wasm_v128_load(acc + i), wasm_i64x2_add(swapped, product));
    wasm_v128_store(acc + i, sum);
  }
}

}  // namespace sstfilter::hash_internal
#endif
