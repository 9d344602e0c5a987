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

// The batch shape of the native kernels: while probing key i, prefetch the block of key
// i + kPrefetchDistance, so that that many cache misses are in flight all the time. (RocksDB's
// MultiGet path, FastLocalBloomBitsReader::MayMatch(num_keys, ...), prefetches a group of 32 keys
// and then probes them, which leaves the memory idle while each group's probes wait; a rolling
// window measured 2x faster on a memory-resident filter, bench/results.json.) kProbeBlock answers
// one key from the upper half of its hash and its block.
template <bool (*kProbeBlock)(uint32_t h2, int num_probes, const uint8_t* block)>
[[gnu::always_inline]] inline void FastLocalBloomPrefetchedBatch(const uint64_t* hashes, size_t n,
                                                                 int num_probes,
                                                                 const uint8_t* data,
                                                                 uint32_t len_bytes, uint8_t* out) {
  // Measured fastest at 10^7 and 10^8 keys: 32 keeps too few misses in flight (1.2x slower), 128
  // was 1.4x slower.
  constexpr size_t kPrefetchDistance = 64;
  const auto block = [&](size_t i) {
    return data + FastLocalBloomBlockOffset(static_cast<uint32_t>(hashes[i]), len_bytes);
  };
  const auto prefetch = [&](size_t i) {
    // Both ends: the block need not be 64-byte aligned in memory.
    __builtin_prefetch(block(i), 0, 1);
    __builtin_prefetch(block(i) + 63, 0, 1);
  };
  for (size_t i = 0; i < n && i < kPrefetchDistance; ++i) prefetch(i);
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchDistance < n) prefetch(i + kPrefetchDistance);
    out[i] = kProbeBlock(static_cast<uint32_t>(hashes[i] >> 32), num_probes, block(i)) ? 1 : 0;
  }
}

// A kernel built from a per-key block probe: one key hashes to its block and is probed there; a
// batch goes through FastLocalBloomPrefetchedBatch. Instantiated in each kernel's translation unit
// with that unit's ProbeBlock (an internal-linkage function, so instantiations never collide).
template <bool (*kProbeBlock)(uint32_t h2, int num_probes, const uint8_t* block)>
struct BlockProbeKernel {
  static bool MayMatch(uint64_t hash, int num_probes, const uint8_t* data, uint32_t len_bytes) {
    const uint32_t offset = FastLocalBloomBlockOffset(static_cast<uint32_t>(hash), len_bytes);
    return kProbeBlock(static_cast<uint32_t>(hash >> 32), num_probes, data + offset);
  }
  static void MayMatchBatch(const uint64_t* hashes, size_t n, int num_probes, const uint8_t* data,
                            uint32_t len_bytes, uint8_t* out) {
    FastLocalBloomPrefetchedBatch<kProbeBlock>(hashes, n, num_probes, data, len_bytes, out);
  }
};

// Sets the bits of every hash (FastLocalBloomImpl::AddHash), prefetching entries ahead as
// RocksDB's FastLocalBloomBitsBuilder::AddAllEntries does. Same preconditions as the kernels.
void FastLocalBloomAdd(const uint64_t* hashes, size_t n, int num_probes, uint8_t* data,
                       uint32_t len_bytes);

// The kernels linked into this build. Each exists only where its translation unit is compiled.
extern const FastLocalBloomKernel kFastLocalBloomScalar;
#if defined(SSTFILTER_HAVE_AVX2)
extern const FastLocalBloomKernel kFastLocalBloomAvx2;
#endif
#if defined(SSTFILTER_HAVE_SIMD128)
extern const FastLocalBloomKernel kFastLocalBloomSimd128;
#endif

// The kernels this build has and the running CPU can execute, scalar first, fastest last.
std::span<const FastLocalBloomKernel* const> AvailableFastLocalBloomKernels();

// The kernel readers use: the fastest available unless SelectFastLocalBloomKernel chose another.
const FastLocalBloomKernel& ActiveFastLocalBloomKernel();

// Makes the available kernel called `name` the active one (tests and benchmarks run each).
// Returns false, changing nothing, when no available kernel has that name.
bool SelectFastLocalBloomKernel(std::string_view name);

}  // namespace sstfilter::simd
