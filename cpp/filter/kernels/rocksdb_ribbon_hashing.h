// How Standard128Ribbon turns a key's 64-bit hash into an equation (docs/FORMATS.md 1.7; RocksDB
// util/ribbon_impl.h, StandardHasher with StandardRehasherAdapter): a start slot, a 128-bit
// coefficient row and 32 result bits. The builder (filter/rocksdb_ribbon_builder.cc) adds these
// equations; the query kernels (ribbon_kernels.h) check them, which is why it sits in this lower
// layer. Inline, because both sit in per-key loops and the -mavx2 kernel must not share an
// out-of-line copy (see bloom_kernels.h, FastLocalBloomBlockOffset).
#pragma once

#include <cstdint>

namespace sstfilter::rocksdb_ribbon {

// 64x64 -> 128-bit products; __int128 exists on every target (x86-64 and wasm32 clang and GCC).
// __extension__ keeps -Wpedantic quiet about the non-ISO type.
__extension__ typedef unsigned __int128 RibbonU128;

// Standard128RibbonRehasherTypesAndSettings with StandardRehasherAdapter and StandardHasher: the
// hash of a key is re-mixed with the filter's raw seed, then expanded.
inline constexpr uint64_t kRibbonRehashFactor = 0x6193d459236a3a0d;
inline constexpr uint64_t kRibbonCoeffAndResultFactor = 0xc28f82822b650bed;
inline constexpr uint64_t kRibbonCoeffXor64 = 0xc367844a6e52731d;

// StandardRehasherAdapter::HashFn: the seeded hash everything else derives from.
[[gnu::always_inline]] inline uint64_t RibbonSeededHash(uint64_t key_hash, uint32_t raw_seed) {
  return (key_hash ^ raw_seed) * kRibbonRehashFactor;
}

// StandardHasher::GetStart without smash: FastRange64 into [0, num_starts), the upper 64 bits of
// seeded_hash * num_starts. Computed from two 64-bit products (num_starts has 32 bits): wasm has
// no 128-bit multiply and would call compiler-rt's __multi3 for every query.
[[gnu::always_inline]] inline uint32_t RibbonStart(uint64_t seeded_hash, uint32_t num_starts) {
  const uint64_t high = (seeded_hash >> 32) * num_starts;
  const uint64_t low = (seeded_hash & 0xffffffff) * num_starts;
  return static_cast<uint32_t>((high + (low >> 32)) >> 32);
}

// StandardHasher::GetCoeffRow: the product a in the upper half, a XOR a constant in the lower,
// and bit 0 forced on (kFirstCoeffAlwaysOne), so that the row's first slot is its start.
[[gnu::always_inline]] inline RibbonU128 RibbonCoeffRow(uint64_t seeded_hash) {
  const uint64_t a = seeded_hash * kRibbonCoeffAndResultFactor;
  return (static_cast<RibbonU128>(a) << 64) | (a ^ kRibbonCoeffXor64) | 1;
}

// StandardHasher::GetResultRowFromHash: the low 32 bits of the byte-swapped product, i.e. its most
// mixed high bytes (bit 0 of the result is bit 56 of a).
[[gnu::always_inline]] inline uint32_t RibbonResultRow(uint64_t seeded_hash) {
  return static_cast<uint32_t>(__builtin_bswap64(seeded_hash * kRibbonCoeffAndResultFactor));
}

}  // namespace sstfilter::rocksdb_ribbon
