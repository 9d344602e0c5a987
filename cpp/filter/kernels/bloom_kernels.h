// Probe kernels for RocksDB's FastLocalBloom (docs/FORMATS.md 2.7; RocksDB util/bloom_impl.h,
// FastLocalBloomImpl), one file per kernel, plus the registry that picks one at run time.
//
// A kernel works on the 64-bit key hashes (Xxph3Hash64(key, 0)) rather than on keys, so hashing
// stays in one place: the lower half of a hash picks a 64-byte block, the upper half generates the
// probes. Every kernel answers exactly as the scalar reference (fast_local_bloom_scalar.cc); they
// differ only in speed:
//   "scalar"  portable C++, early-exit probe loop, the reference
//   "avx2"    x86-64 with AVX2 (fast_local_bloom_avx2.cc): what RocksDB's own AVX2 build computes
//   "simd128" the SIMD128 wasm module (fast_local_bloom_simd128.cc)
//
// Adding bits stays scalar for every kernel (FastLocalBloomAdd): each probe is a read-modify-write
// of one byte at a data-dependent position, which SIMD cannot scatter; RocksDB's builder is scalar
// too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "filter/kernels/kernel_registry.h"
#include "filter/kernels/prefetched_batch.h"

namespace sstfilter::simd {

// Preconditions shared by every kernel function: `data` points at max(len_bytes, 64) readable
// bytes, of which the first len_bytes are the bit array (only its first len_bytes / 64 whole
// blocks are addressed; with len_bytes < 64 RocksDB addresses "block 0" = the first 64 bytes all
// the same), and 1 <= num_probes <= 30, the counts RocksDB's reader accepts.
struct FastLocalBloomKernel {
  const char* name;
  bool (*may_match)(uint64_t hash, int num_probes, const uint8_t* data, uint32_t len_bytes);
  // out[i] = 1 when hashes[i] may be in the filter, else 0.
  void (*may_match_batch)(const uint64_t* hashes, size_t n, int num_probes, const uint8_t* data,
                          uint32_t len_bytes, uint8_t* out);
};

// The i-th probe of a key uses x_i = h2 * kFastLocalBloomPhi^i (mod 2^32); its top 9 bits address
// a bit of the 512-bit block.
inline constexpr uint32_t kFastLocalBloomPhi = 0x9e3779b9;

// FastRange32(h1, len_bytes / 64) * 64: the byte offset of the block that a hash's lower half
// picks. Always inlined because the AVX2 translation unit uses it too: an out-of-line copy compiled
// with -mavx2 could otherwise be the one the linker keeps for every caller.
[[gnu::always_inline]] inline uint32_t FastLocalBloomBlockOffset(uint32_t h1, uint32_t len_bytes) {
  return static_cast<uint32_t>((uint64_t{h1} * (len_bytes >> 6)) >> 32) << 6;
}

// A kernel built from a per-key block probe: one key hashes to its block and is probed there; a
// batch is probed in groups of 32 keys, the next group's blocks prefetched meanwhile
// (prefetched_batch.h), which keeps 32 to 64 misses in flight. Instantiated in each kernel's
// translation unit with that unit's ProbeBlock (an internal-linkage function, so instantiations
// never collide).
template <bool (*kProbeBlock)(uint32_t h2, int num_probes, const uint8_t* block)>
struct BlockProbeKernel {
  static bool MayMatch(uint64_t hash, int num_probes, const uint8_t* data, uint32_t len_bytes) {
    const uint32_t offset = FastLocalBloomBlockOffset(static_cast<uint32_t>(hash), len_bytes);
    return kProbeBlock(static_cast<uint32_t>(hash >> 32), num_probes, data + offset);
  }
  static void MayMatchBatch(const uint64_t* hashes, size_t n, int num_probes, const uint8_t* data,
                            uint32_t len_bytes, uint8_t* out) {
    const auto prefetch_block = [&](size_t i, const uint8_t*& block) {
      block = data + FastLocalBloomBlockOffset(static_cast<uint32_t>(hashes[i]), len_bytes);
      PrefetchBytes<PrefetchFor::kRead>(block, 64);
    };
    const auto probe = [&](size_t i, const uint8_t* block) {
      out[i] = kProbeBlock(static_cast<uint32_t>(hashes[i] >> 32), num_probes, block) ? 1 : 0;
    };
    PrefetchedBatch<const uint8_t*, 32, Lookahead::kNextGroup>(n, prefetch_block, probe);
  }
};

// Sets the bits of every hash (FastLocalBloomImpl::AddHash), prefetching entries ahead as
// RocksDB's FastLocalBloomBitsBuilder::AddAllEntries does. Same preconditions as the kernels.
void FastLocalBloomAdd(const uint64_t* hashes, size_t n, int num_probes, uint8_t* data,
                       uint32_t len_bytes);

// The kernels of each instruction set; only those this build compiles are defined, and only the
// registry (kernel_selection.cc, through kernel_registry.h's
// AvailableKernels<FastLocalBloomKernel>) refers to them.
extern const FastLocalBloomKernel kFastLocalBloomScalar;
extern const FastLocalBloomKernel kFastLocalBloomAvx2;
extern const FastLocalBloomKernel kFastLocalBloomSimd128;

}  // namespace sstfilter::simd
