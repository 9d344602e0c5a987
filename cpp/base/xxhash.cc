// xxHash as bundled by RocksDB in util/xxhash.h (xxHash 0.8.1): XXH32, XXH64 and the final
// XXH3 64-bit hash, used for the kxxHash, kxxHash64 and kXXH3 block checksums (docs/FORMATS.md 1.4,
// 1.5). Final XXH3 differs from RocksDB's filter hash Xxph3Hash64 on every input (1.3.7).

#include <array>
#include <cstddef>
#include <cstdint>

#include "base/hash_internal.h"
#include "base/xxh3_accumulate_simd128.h"
#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

using namespace hash_internal;

constexpr uint32_t Xxh32Round(uint32_t acc, uint32_t lane) {
  return Rotl32(acc + lane * kPrime32_2, 13) * kPrime32_1;
}

constexpr uint64_t Xxh64Round(uint64_t acc, uint64_t lane) {
  return Rotl64(acc + lane * kPrime64_2, 31) * kPrime64_1;
}

constexpr uint64_t Xxh64MergeRound(uint64_t h, uint64_t v) {
  return (h ^ Xxh64Round(0, v)) * kPrime64_1 + kPrime64_4;
}

// The four-lane loop XXH32 and XXH64 share for inputs of at least one stripe (4 words): the lanes
// start from the seed, each whole stripe at p feeds one word to each lane, and p moves past the
// stripes. Returns the lanes.
template <typename Word, Word (*kRound)(Word, Word), Word (*kDecode)(const uint8_t*)>
std::array<Word, 4> ConsumeStripes(const uint8_t*& p, const uint8_t* end, Word seed, Word prime1,
                                   Word prime2) {
  std::array<Word, 4> lanes = {seed + prime1 + prime2, seed + prime2, seed, seed - prime1};
  for (; static_cast<size_t>(end - p) >= 4 * sizeof(Word); p += 4 * sizeof(Word)) {
    for (size_t i = 0; i < 4; ++i) lanes[i] = kRound(lanes[i], kDecode(p + i * sizeof(Word)));
  }
  return lanes;
}

// The lanes folded into one word, each rotated by its own amount.
template <typename Word, Word (*kRotl)(Word, int)>
Word FoldLanes(const std::array<Word, 4>& lanes) {
  return kRotl(lanes[0], 1) + kRotl(lanes[1], 7) + kRotl(lanes[2], 12) + kRotl(lanes[3], 18);
}

// XXH3_avalanche of the final release (multiplier 0x165667919E3779F9, not kPrime64_3).
constexpr uint64_t AvalancheF(uint64_t h) {
  h ^= h >> 37;
  h *= 0x165667919E3779F9ull;
  h ^= h >> 32;
  return h;
}

// XXH3_rrmxmx: the final XXH3's mixer for 4..8-byte inputs.
constexpr uint64_t Rrmxmx(uint64_t h, uint64_t n) {
  constexpr uint64_t kMul = 0x9FB21C651E98DF25ull;
  h ^= Rotl64(h, 49) ^ Rotl64(h, 24);
  h *= kMul;
  h ^= (h >> 35) + n;
  h *= kMul;
  h ^= h >> 28;
  return h;
}

inline uint64_t Xxh3Len0To16(const uint8_t* in, size_t n, uint64_t seed) {
  const uint8_t* s = kDefaultSecret;
  if (n > 8) {
    const uint64_t flip_lo = (DecodeFixed64(s + 24) ^ DecodeFixed64(s + 32)) + seed;
    const uint64_t flip_hi = (DecodeFixed64(s + 40) ^ DecodeFixed64(s + 48)) - seed;
    const uint64_t lo = DecodeFixed64(in) ^ flip_lo;
    const uint64_t hi = DecodeFixed64(in + n - 8) ^ flip_hi;
    return AvalancheF(n + ByteSwap64(lo) + hi + Mul128Fold64(lo, hi));
  }
  if (n >= 4) {
    seed ^= static_cast<uint64_t>(ByteSwap32(static_cast<uint32_t>(seed))) << 32;
    const uint64_t flip = (DecodeFixed64(s + 8) ^ DecodeFixed64(s + 16)) - seed;
    const uint64_t in64 =
        DecodeFixed32(in + n - 4) + (static_cast<uint64_t>(DecodeFixed32(in)) << 32);
    return Rrmxmx(in64 ^ flip, n);
  }
  if (n > 0) {
    const uint32_t combined = (static_cast<uint32_t>(in[0]) << 16) |
                              (static_cast<uint32_t>(in[n >> 1]) << 24) |
                              static_cast<uint32_t>(in[n - 1]) | (static_cast<uint32_t>(n) << 8);
    const uint64_t flip = (DecodeFixed32(s) ^ DecodeFixed32(s + 4)) + seed;
    return Xxh64Avalanche(combined ^ flip);
  }
  return Xxh64Avalanche(seed ^ DecodeFixed64(s + 56) ^ DecodeFixed64(s + 64));
}

#if defined(SSTFILTER_HAVE_SIMD128)
// The SIMD128 module's (xxh3_accumulate_simd128.h).
inline void Xxh3Accumulate512(uint64_t* acc, const uint8_t* in, const uint8_t* secret) {
  Xxh3Accumulate512Simd128(acc, in, secret);
}
#else
// XXH3_accumulate_512 of the final release: each input word is added to the neighbouring lane.
inline void Xxh3Accumulate512(uint64_t* acc, const uint8_t* in, const uint8_t* secret) {
  // Written per lane pair (i, i + 1), which compilers vectorise better than indexing by i ^ 1.
  for (size_t i = 0; i < kAccumulators; i += 2) {
    const uint64_t v0 = DecodeFixed64(in + 8 * i);
    const uint64_t v1 = DecodeFixed64(in + 8 * i + 8);
    const uint64_t k0 = v0 ^ DecodeFixed64(secret + 8 * i);
    const uint64_t k1 = v1 ^ DecodeFixed64(secret + 8 * i + 8);
    acc[i] += v1 + (k0 & 0xffffffffu) * (k0 >> 32);
    acc[i + 1] += v0 + (k1 & 0xffffffffu) * (k1 >> 32);
  }
}
#endif

// Inputs over 16 bytes, out of line for the same reason as in xxph3.cc: the short path then
// needs no register saves.
[[gnu::noinline]] uint64_t Xxh3HashOver16(const uint8_t* in, size_t n, uint64_t seed) {
  if (n <= 128) return Len17To128<AvalancheF>(in, n, seed);
  if (n <= 240) return Len129To240<AvalancheF>(in, n, seed);
  return HashLongSeeded<LongInputTail::kFinal, Xxh3Accumulate512, AvalancheF>(in, n, seed);
}

}  // namespace

uint32_t Xxh32(ByteView data, uint32_t seed) {
  const uint8_t* p = data.data();
  const uint8_t* const end = p + data.size();
  // XXH32 folds in the length modulo 2^32.
  uint32_t h = static_cast<uint32_t>(data.size());
  h += data.size() >= 16
           ? FoldLanes<uint32_t, Rotl32>(ConsumeStripes<uint32_t, Xxh32Round, DecodeFixed32>(
                 p, end, seed, kPrime32_1, kPrime32_2))
           : seed + kPrime32_5;
  for (; end - p >= 4; p += 4) {
    h += DecodeFixed32(p) * kPrime32_3;
    h = Rotl32(h, 17) * kPrime32_4;
  }
  for (; p < end; ++p) {
    h += *p * kPrime32_5;
    h = Rotl32(h, 11) * kPrime32_1;
  }
  return XxhAvalanche<uint32_t, 15, 13, 16>(h, kPrime32_2, kPrime32_3);
}

uint64_t Xxh64(ByteView data, uint64_t seed) {
  const uint8_t* p = data.data();
  const size_t n = data.size();
  const uint8_t* const end = p + n;
  uint64_t h;
  if (n >= 32) {
    const std::array<uint64_t, 4> lanes =
        ConsumeStripes<uint64_t, Xxh64Round, DecodeFixed64>(p, end, seed, kPrime64_1, kPrime64_2);
    h = FoldLanes<uint64_t, Rotl64>(lanes);
    for (uint64_t lane : lanes) h = Xxh64MergeRound(h, lane);
  } else {
    h = seed + kPrime64_5;
  }
  h += n;
  for (; end - p >= 8; p += 8) {
    h ^= Xxh64Round(0, DecodeFixed64(p));
    h = Rotl64(h, 27) * kPrime64_1 + kPrime64_4;
  }
  if (end - p >= 4) {
    h ^= DecodeFixed32(p) * kPrime64_1;
    h = Rotl64(h, 23) * kPrime64_2 + kPrime64_3;
    p += 4;
  }
  for (; p < end; ++p) {
    h ^= *p * kPrime64_5;
    h = Rotl64(h, 11) * kPrime64_1;
  }
  return Xxh64Avalanche(h);
}

uint64_t Xxh3Hash64(ByteView data, uint64_t seed) {
  if (data.size() <= 16) return Xxh3Len0To16(data.data(), data.size(), seed);
  return Xxh3HashOver16(data.data(), data.size(), seed);
}

}  // namespace sstfilter
