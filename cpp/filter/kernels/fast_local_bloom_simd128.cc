// The wasm SIMD128 FastLocalBloom kernel, compiled only into the SIMD128 module (-msimd128).
//
// Designed for wasm rather than ported from AVX2: SIMD128 has no per-lane variable shift and no
// 32-bit permute, so the AVX2 shape (permute words, sllv a mask) would need lane extraction. Here a
// round of eight probes works on bytes instead:
//   * positions: x_j = h * phi^j for j = 0..7 by two i32x4 multiplies; x_j >> 23 is the probed bit
//     of the 512-bit block, narrowed to 16-bit lanes and split into byte (>> 3) and bit (& 7);
//   * gather: i8x16.swizzle picks bytes of one 16-byte quarter of the block and gives 0 for
//     indices >= 16, so OR-ing the swizzles of the four quarters, each by (byte XOR 16q), gathers
//     every probed byte (XOR maps the indices of quarter q to 0..15 and all others to >= 16);
//   * masks: 1 << bit by a swizzle of the table {1, 2, 4, ..., 128}; a probe lane not in use gets
//     index 0x80, whose mask is 0;
//   * test: any bit of mask & ~gathered is a missing probe.
// Nothing branches on the data, so the loads of consecutive keys overlap their cache misses (wasm
// has no prefetch), and rounds beyond the first (num_probes > 8) run unconditionally.
#include "filter/kernels/bloom_kernels.h"

#if defined(SSTFILTER_HAVE_SIMD128)
#include <wasm_simd128.h>

namespace sstfilter::simd {
namespace {

// phi^8 mod 2^32: moves a round's base hash on by eight probes.
constexpr uint32_t kPhiPow8 = 0xab25f4c1;

// The probes of one key, split into rounds of eight: `full_rounds` rounds that use every lane, then
// one that uses the first `num_probes - 8 * full_rounds` (1..8) lanes.
struct RoundPlan {
  int full_rounds;
  v128_t last_round_unused;  // i16x8: 0x80 in the lanes the last round does not use, else 0
};

RoundPlan PlanRounds(int num_probes) {
  const int full_rounds = (num_probes - 1) / 8;
  const int16_t last_round_probes = static_cast<int16_t>(num_probes - 8 * full_rounds);
  const v128_t lane = wasm_i16x8_const(0, 1, 2, 3, 4, 5, 6, 7);
  const v128_t unused = wasm_i16x8_ge(lane, wasm_i16x8_splat(last_round_probes));
  return {full_rounds, wasm_v128_and(unused, wasm_i16x8_const_splat(0x80))};
}

// Probes x_j = h * phi^j, j = 0..7, against the block held in `quarters`; lanes whose i16 in
// `unused` is 0x80 are skipped. Returns a vector that is non-zero iff some probe's bit is clear.
inline v128_t RoundMisses(uint32_t h, v128_t unused, const v128_t quarters[4]) {
  // phi^0 .. phi^7 mod 2^32.
  const v128_t phi_powers_low = wasm_u32x4_const(0x00000001, 0x9e3779b9, 0xe35e67b1, 0x734297e9);
  const v128_t phi_powers_high = wasm_u32x4_const(0x35fbe861, 0xdeb7c719, 0x0448b211, 0x3459b749);
  const v128_t h_splat = wasm_i32x4_splat(static_cast<int32_t>(h));
  const v128_t pos_low = wasm_u32x4_shr(wasm_i32x4_mul(h_splat, phi_powers_low), 23);
  const v128_t pos_high = wasm_u32x4_shr(wasm_i32x4_mul(h_splat, phi_powers_high), 23);
  const v128_t pos = wasm_u16x8_narrow_i32x4(pos_low, pos_high);  // 0..511, no saturation
  const v128_t byte16 = wasm_u16x8_shr(pos, 3);
  const v128_t bit16 = wasm_v128_or(wasm_v128_and(pos, wasm_i16x8_const_splat(7)), unused);
  // Byte lanes 0..7 are the probes; lanes 8..15 repeat them (byte) or are unused (bit: 0x80).
  const v128_t byte = wasm_u8x16_narrow_i16x8(byte16, byte16);
  const v128_t bit = wasm_u8x16_narrow_i16x8(bit16, wasm_i16x8_const_splat(0x80));

  v128_t gathered = wasm_i8x16_swizzle(quarters[0], byte);
  gathered = wasm_v128_or(
      gathered, wasm_i8x16_swizzle(quarters[1], wasm_v128_xor(byte, wasm_i8x16_const_splat(16))));
  gathered = wasm_v128_or(
      gathered, wasm_i8x16_swizzle(quarters[2], wasm_v128_xor(byte, wasm_i8x16_const_splat(32))));
  gathered = wasm_v128_or(
      gathered, wasm_i8x16_swizzle(quarters[3], wasm_v128_xor(byte, wasm_i8x16_const_splat(48))));

  const v128_t bit_table = wasm_u8x16_const(1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0);
  const v128_t mask = wasm_i8x16_swizzle(bit_table, bit);
  return wasm_v128_andnot(mask, gathered);  // mask & ~gathered
}

// Equals the scalar ProbeBlock: round r tests probes 8r .. 8r+7 with base hash h2 * phi^(8r), so
// lane j of round r has x = h2 * phi^(8r + j), the scalar loop's x at probe 8r + j; the key
// matches iff no probe of any round misses, which is the scalar "every bit set". With kOneRound
// the caller guarantees full_rounds == 0 (num_probes <= 8: RocksDB up to 14 bits/key), and the
// round loop disappears from the batch loop.
template <bool kOneRound>
[[gnu::always_inline]] inline bool ProbeBlock(uint32_t h2, int full_rounds,
                                              v128_t last_round_unused, const uint8_t* block) {
  const v128_t quarters[4] = {wasm_v128_load(block), wasm_v128_load(block + 16),
                              wasm_v128_load(block + 32), wasm_v128_load(block + 48)};
  v128_t misses = wasm_i32x4_const_splat(0);
  uint32_t h = h2;
  if constexpr (!kOneRound) {
    for (int r = 0; r < full_rounds; ++r, h *= kPhiPow8) {
      misses = wasm_v128_or(misses, RoundMisses(h, wasm_i16x8_const_splat(0), quarters));
    }
  }
  misses = wasm_v128_or(misses, RoundMisses(h, last_round_unused, quarters));
  return !wasm_v128_any_true(misses);
}

bool MayMatch(uint64_t hash, int num_probes, const uint8_t* data, uint32_t len_bytes) {
  const uint32_t offset = FastLocalBloomBlockOffset(static_cast<uint32_t>(hash), len_bytes);
  const RoundPlan plan = PlanRounds(num_probes);
  return ProbeBlock<false>(static_cast<uint32_t>(hash >> 32), plan.full_rounds,
                           plan.last_round_unused, data + offset);
}

// Nothing in the loop branches on the data, so the engine overlaps consecutive keys by itself
// (unrolling measured no faster).
template <bool kOneRound>
void ProbeKeys(const uint64_t* hashes, size_t n, int full_rounds, v128_t last_round_unused,
               const uint8_t* data, uint32_t len_bytes, uint8_t* out) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t offset = FastLocalBloomBlockOffset(static_cast<uint32_t>(hashes[i]), len_bytes);
    const uint32_t h2 = static_cast<uint32_t>(hashes[i] >> 32);
    out[i] = ProbeBlock<kOneRound>(h2, full_rounds, last_round_unused, data + offset) ? 1 : 0;
  }
}

// Below this size touching ahead (below) measured no faster: such filters mostly stay in L2/L3
// between probes, and the extra loop costs about what the overlap saves.
constexpr uint32_t kTouchAheadMinBytes = 2 * 1024 * 1024;

// Equals the scalar batch key by key (ProbeBlock above). Wasm has no prefetch instruction, so for a
// large filter a group of keys first touches each block with plain byte loads: those misses
// overlap one another, and the probes then hit the cache (measured about 2x faster for a 12 MB
// filter). A load cannot retire before its data arrives, so the misses in flight are those whose
// loads fit in the reorder buffer: the group's block offsets are computed first and the touching
// loop is a load and an add per key, which lets 64 keys touch at once (the filter checks of
// `verify` on a 4 MB filter: 14% less time than 32 keys computing their offsets as they touched).
// A block is one cache line when the filter is 64-byte aligned, as readers keep it; otherwise it
// straddles two, and both ends are touched.
template <bool kOneRound>
void ProbeKeysTouchingAhead(const uint64_t* hashes, size_t n, const RoundPlan& plan,
                            const uint8_t* data, uint32_t len_bytes, uint8_t* out) {
  if (len_bytes < kTouchAheadMinBytes) {
    ProbeKeys<kOneRound>(hashes, n, plan.full_rounds, plan.last_round_unused, data, len_bytes, out);
    return;
  }
  constexpr size_t kGroup = 64;
  const uint32_t last = reinterpret_cast<uintptr_t>(data) % 64 == 0 ? 0 : 63;
  uint32_t offsets[kGroup];
  for (size_t start = 0; start < n; start += kGroup) {
    const size_t count = n - start < kGroup ? n - start : kGroup;
    // Left scalar: vectorized, the loop takes 64-bit lane multiplies, which x86 lacks and the
    // engine emulates (measured 2x slower).
#pragma clang loop vectorize(disable)
    for (size_t i = 0; i < count; ++i) {
      offsets[i] = FastLocalBloomBlockOffset(static_cast<uint32_t>(hashes[start + i]), len_bytes);
    }
    uint32_t touched = 0;
#pragma clang loop vectorize(disable)
    for (size_t i = 0; i < count; ++i) {
      touched += data[offsets[i]];
      if (last != 0) touched += data[offsets[i] + last];
    }
    // Keeps the compiler from dropping the touching loads, whose values are not needed.
    __asm__ volatile("" : : "r"(touched));
    for (size_t i = 0; i < count; ++i) {
      const uint32_t h2 = static_cast<uint32_t>(hashes[start + i] >> 32);
      out[start + i] =
          ProbeBlock<kOneRound>(h2, plan.full_rounds, plan.last_round_unused, data + offsets[i])
              ? 1
              : 0;
    }
  }
}

void MayMatchBatch(const uint64_t* hashes, size_t n, int num_probes, const uint8_t* data,
                   uint32_t len_bytes, uint8_t* out) {
  const RoundPlan plan = PlanRounds(num_probes);
  if (plan.full_rounds == 0) {
    ProbeKeysTouchingAhead<true>(hashes, n, plan, data, len_bytes, out);
  } else {
    ProbeKeysTouchingAhead<false>(hashes, n, plan, data, len_bytes, out);
  }
}

}  // namespace

const FastLocalBloomKernel kFastLocalBloomSimd128 = {"simd128", MayMatch, MayMatchBatch};

}  // namespace sstfilter::simd

#endif  // SSTFILTER_HAVE_SIMD128
