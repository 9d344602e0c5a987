// RocksDB's Hash64 (util/xxph3.h, util/hash.cc): XXH3 as previewed in xxHash 0.7.2, with
// RocksDB's own rule for empty input. It is frozen into the FastLocalBloom and Ribbon filter
// formats, so it must not be replaced by final XXH3 (docs/FORMATS.md 1.3, differences in 1.3.7).
// Portable scalar code: the vector variants upstream compute the same values.

#include <cstddef>
#include <cstdint>

#include "base/hash_internal.h"
#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

using namespace hash_internal;

// The preview's avalanche: its multiplier is kPrime64_3, which final XXH3 later changed.
constexpr uint64_t AvalancheP(uint64_t h) {
  h = (h ^ (h >> 37)) * kPrime64_3;
  return h ^ (h >> 32);
}

// Every filter probe hashes a short key, so lengths 0..16 are kept branch-light and inline.
inline uint64_t Len0To16(const uint8_t* in, size_t n, uint64_t seed) {
  const uint8_t* s = kDefaultSecret;
  if (n > 8) {
    const uint64_t lo = DecodeFixed64(in) ^ (DecodeFixed64(s) + seed);
    const uint64_t hi = DecodeFixed64(in + n - 8) ^ (DecodeFixed64(s + 8) - seed);
    return AvalancheP(n + lo + hi + Mul128Fold64(lo, hi));
  }
  if (n >= 4) {
    const uint64_t in64 =
        DecodeFixed32(in) | (static_cast<uint64_t>(DecodeFixed32(in + n - 4)) << 32);
    const uint64_t keyed = in64 ^ (DecodeFixed64(s) + seed);
    const uint64_t mix = n + (keyed ^ (keyed >> 51)) * kPrime32_1;
    return AvalancheP((mix ^ (mix >> 47)) * kPrime64_2);
  }
  if (n > 0) {
    const uint32_t combined =
        static_cast<uint32_t>(in[0]) | (static_cast<uint32_t>(in[n >> 1]) << 8) |
        (static_cast<uint32_t>(in[n - 1]) << 16) | (static_cast<uint32_t>(n) << 24);
    const uint64_t keyed = combined ^ (DecodeFixed32(s) + seed);
    return AvalancheP(keyed * kPrime64_1);
  }
  // RocksDB's modification: the preview returned 0 for empty input whatever the seed.
  return Mul128Fold64(seed + DecodeFixed64(s), kPrime64_2);
}

// XXH3_accumulate_512 of the preview: the input word is added to its own lane (final XXH3 adds
// it to the neighbouring lane).
inline void Accumulate512(uint64_t* acc, const uint8_t* in, const uint8_t* secret) {
  for (size_t i = 0; i < kAccumulators; ++i) {
    const uint64_t v = DecodeFixed64(in + 8 * i);
    const uint64_t keyed = v ^ DecodeFixed64(secret + 8 * i);
    acc[i] += v;
    acc[i] += (keyed & 0xffffffffu) * (keyed >> 32);
  }
}

// Inputs over 16 bytes. Kept out of line (reached by a tail call) so that the register saves
// the longer paths need are not paid by the common 0..16-byte keys.
[[gnu::noinline]] uint64_t HashOver16(const uint8_t* in, size_t n, uint64_t seed) {
  if (n <= 128) return Len17To128<AvalancheP>(in, n, seed);
  if (n <= 240) return Len129To240<AvalancheP>(in, n, seed);
  return HashLongSeeded<LongInputTail::kPreview, Accumulate512, AvalancheP>(in, n, seed);
}

}  // namespace

uint64_t Xxph3Hash64Bytes(const uint8_t* data, size_t size, uint64_t seed) {
  if (size <= 16) return Len0To16(data, size, seed);
  return HashOver16(data, size, seed);
}

}  // namespace sstfilter
