// Private building blocks shared by the hash implementations (hash32.cc, xxph3.cc, xxhash.cc):
// xxHash primes, the XXH3 default secret, rotations, a 64x64->128 multiply and the parts of
// XXH3 that are identical in the preview (RocksDB util/xxph3.h) and the final version (RocksDB
// util/xxhash.h, xxHash 0.8.1). docs/FORMATS.md sections 1.3-1.5 describe every formula used here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "sstfilter/bytes.h"

namespace sstfilter::hash_internal {

inline constexpr uint32_t kPrime32_1 = 0x9E3779B1u;
inline constexpr uint32_t kPrime32_2 = 0x85EBCA77u;
inline constexpr uint32_t kPrime32_3 = 0xC2B2AE3Du;
inline constexpr uint32_t kPrime32_4 = 0x27D4EB2Fu;
inline constexpr uint32_t kPrime32_5 = 0x165667B1u;
inline constexpr uint64_t kPrime64_1 = 0x9E3779B185EBCA87ull;
inline constexpr uint64_t kPrime64_2 = 0xC2B2AE3D27D4EB4Full;
inline constexpr uint64_t kPrime64_3 = 0x165667B19E3779F9ull;
inline constexpr uint64_t kPrime64_4 = 0x85EBCA77C2B2AE63ull;
inline constexpr uint64_t kPrime64_5 = 0x27D4EB2F165667C5ull;

// XXH3's default secret (kSecret in util/xxph3.h, XXH3_kSecret in util/xxhash.h: same bytes).
inline constexpr size_t kSecretSize = 192;
// Written as hex, 40 bytes a line.
inline constexpr char kDefaultSecretHex[] =
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578"
    "825ad07dccff7221b8084674f743248ee03590e6813a264c3c2852bb91c300cb88d0658b1b532ea3"
    "71644897a20df94e3819ef46a9deacd8a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931"
    "c89f7ec9d9787364eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e";

constexpr uint8_t HexDigit(char c) {
  return static_cast<uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10);
}

inline constexpr std::array<uint8_t, kSecretSize> kDefaultSecretBytes = [] {
  static_assert(sizeof(kDefaultSecretHex) == 2 * kSecretSize + 1);
  std::array<uint8_t, kSecretSize> bytes{};
  for (size_t i = 0; i < kSecretSize; ++i) {
    bytes[i] = static_cast<uint8_t>(HexDigit(kDefaultSecretHex[2 * i]) << 4 |
                                    HexDigit(kDefaultSecretHex[2 * i + 1]));
  }
  return bytes;
}();
inline constexpr const uint8_t* kDefaultSecret = kDefaultSecretBytes.data();
// XXH3_SECRET_SIZE_MIN: the mid-size path reads its last 16 bytes of secret from here back.
inline constexpr size_t kSecretSizeMin = 136;
inline constexpr size_t kStripeLen = 64;
inline constexpr size_t kAccumulators = kStripeLen / 8;
// Stripes between two scrambles when the secret is the 192-byte default or a seed-derived one.
inline constexpr size_t kStripesPerBlock = (kSecretSize - kStripeLen) / 8;
inline constexpr size_t kBlockLen = kStripeLen * kStripesPerBlock;

// Rotations; r is a compile-time constant in 1..31 (1..63), so neither shift is by the full width.
constexpr uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
constexpr uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

constexpr uint32_t ByteSwap32(uint32_t x) {
  return (x >> 24) | ((x >> 8) & 0x0000ff00u) | ((x << 8) & 0x00ff0000u) | (x << 24);
}
constexpr uint64_t ByteSwap64(uint64_t x) {
  return (static_cast<uint64_t>(ByteSwap32(static_cast<uint32_t>(x))) << 32) |
         ByteSwap32(static_cast<uint32_t>(x >> 32));
}

inline void EncodeFixed64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

struct Product128 {
  uint64_t lo;
  uint64_t hi;
};

// Full 64x64->128 product from four 32x32->64 partial products, for compilers without a 128-bit
// integer type. Always compiled so that the tests can compare it with the native product.
constexpr Product128 Multiply64to128Portable(uint64_t a, uint64_t b) {
  const uint64_t a_lo = a & 0xffffffffu;
  const uint64_t a_hi = a >> 32;
  const uint64_t b_lo = b & 0xffffffffu;
  const uint64_t b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo;
  const uint64_t hi_lo = a_hi * b_lo;
  const uint64_t lo_hi = a_lo * b_hi;
  const uint64_t hi_hi = a_hi * b_hi;
  // Sum of the bits 32..63 contributions; at most 3 * (2^32 - 1), so it cannot overflow.
  const uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
  return {(middle << 32) | (lo_lo & 0xffffffffu), (hi_lo >> 32) + (middle >> 32) + hi_hi};
}

inline Product128 Multiply64to128(uint64_t a, uint64_t b) {
  // Wasm has no 64x64->128 multiply: clang lowers the __int128 product to a call of compiler-rt's
  // __multi3, which made hashing a 16-byte key cost ~20 ns there; the four partial products are
  // several times faster (xxhash.h excludes __wasm__ from its __int128 path for the same reason).
#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
  // __extension__ keeps -Wpedantic quiet about the non-ISO type.
  __extension__ typedef unsigned __int128 Uint128;
  const Uint128 product = static_cast<Uint128>(a) * b;
  return {static_cast<uint64_t>(product), static_cast<uint64_t>(product >> 64)};
#else
  return Multiply64to128Portable(a, b);
#endif
}

// mul128_fold64 / XXH3_mul128_fold64.
inline uint64_t Mul128Fold64(uint64_t a, uint64_t b) {
  const Product128 p = Multiply64to128(a, b);
  return p.lo ^ p.hi;
}

// The final mix of XXH32 and XXH64: xorshift, multiply, xorshift, multiply, xorshift.
template <typename Word, int kShift1, int kShift2, int kShift3>
constexpr Word XxhAvalanche(Word h, Word prime2, Word prime3) {
  h = static_cast<Word>((h ^ (h >> kShift1)) * prime2);
  h = static_cast<Word>((h ^ (h >> kShift2)) * prime3);
  return h ^ (h >> kShift3);
}

// XXH64_avalanche; also the final XXH3's avalanche for inputs of 0..3 bytes.
constexpr uint64_t Xxh64Avalanche(uint64_t h) {
  return XxhAvalanche<uint64_t, 33, 29, 32>(h, kPrime64_2, kPrime64_3);
}

// XXH3_mix16B: identical in the preview and the final XXH3.
inline uint64_t Mix16B(const uint8_t* in, const uint8_t* secret, uint64_t seed) {
  return Mul128Fold64(DecodeFixed64(in) ^ (DecodeFixed64(secret) + seed),
                      DecodeFixed64(in + 8) ^ (DecodeFixed64(secret + 8) - seed));
}

// XXH3_len_17to128_64b. Both versions share it except for the avalanche (Avalanche).
template <uint64_t (*Avalanche)(uint64_t)>
inline uint64_t Len17To128(const uint8_t* in, size_t n, uint64_t seed) {
  const uint8_t* s = kDefaultSecret;
  uint64_t acc = n * kPrime64_1;
  if (n > 32) {
    if (n > 64) {
      if (n > 96) {
        acc += Mix16B(in + 48, s + 96, seed);
        acc += Mix16B(in + n - 64, s + 112, seed);
      }
      acc += Mix16B(in + 32, s + 64, seed);
      acc += Mix16B(in + n - 48, s + 80, seed);
    }
    acc += Mix16B(in + 16, s + 32, seed);
    acc += Mix16B(in + n - 32, s + 48, seed);
  }
  acc += Mix16B(in, s, seed);
  acc += Mix16B(in + n - 16, s + 16, seed);
  return Avalanche(acc);
}

// XXH3_len_129to240_64b, shared like Len17To128.
template <uint64_t (*Avalanche)(uint64_t)>
inline uint64_t Len129To240(const uint8_t* in, size_t n, uint64_t seed) {
  // XXH3_MIDSIZE_STARTOFFSET and XXH3_MIDSIZE_LASTOFFSET: secret offsets chosen upstream so
  // that the later rounds do not reuse the first rounds' secret words.
  constexpr size_t kStartOffset = 3;
  constexpr size_t kLastOffset = 17;
  const uint8_t* s = kDefaultSecret;
  uint64_t acc = n * kPrime64_1;
  for (size_t i = 0; i < 8; ++i) acc += Mix16B(in + 16 * i, s + 16 * i, seed);
  acc = Avalanche(acc);
  const size_t rounds = n / 16;
  for (size_t i = 8; i < rounds; ++i) {
    acc += Mix16B(in + 16 * i, s + 16 * (i - 8) + kStartOffset, seed);
  }
  acc += Mix16B(in + n - 16, s + kSecretSizeMin - kLastOffset, seed);
  return Avalanche(acc);
}

// XXH3_initCustomSecret: long inputs with a non-zero seed use the default secret with the seed
// added to its even words and subtracted from its odd words (same rule in both versions).
inline void InitCustomSecret(uint8_t* secret, uint64_t seed) {
  for (size_t i = 0; i < kSecretSize; i += 16) {
    EncodeFixed64(secret + i, DecodeFixed64(kDefaultSecret + i) + seed);
    EncodeFixed64(secret + i + 8, DecodeFixed64(kDefaultSecret + i + 8) - seed);
  }
}

// Initial accumulators of the long-input loop (XXH3_INIT_ACC).
inline constexpr uint64_t kInitAcc[kAccumulators] = {
    kPrime32_3, kPrime64_1, kPrime64_2, kPrime64_3, kPrime64_4, kPrime32_2, kPrime64_5, kPrime32_1};

// XXH3_scrambleAcc: identical in both versions.
inline void ScrambleAcc(uint64_t* acc, const uint8_t* secret) {
  for (size_t i = 0; i < kAccumulators; ++i) {
    uint64_t a = acc[i];
    a ^= a >> 47;
    a ^= DecodeFixed64(secret + 8 * i);
    a *= kPrime32_1;
    acc[i] = a;
  }
}

// XXH3_mergeAccs as used by the 64-bit long hash (secret offset XXH_SECRET_MERGEACCS_START = 11).
template <uint64_t (*Avalanche)(uint64_t)>
inline uint64_t MergeAccs(const uint64_t* acc, const uint8_t* secret, uint64_t start) {
  constexpr size_t kMergeOffset = 11;
  uint64_t result = start;
  for (size_t i = 0; i < 4; ++i) {
    const uint8_t* k = secret + kMergeOffset + 16 * i;
    result += Mul128Fold64(acc[2 * i] ^ DecodeFixed64(k), acc[2 * i + 1] ^ DecodeFixed64(k + 8));
  }
  return Avalanche(result);
}

// How the two XXH3 versions treat the end of a long input (XXH3_hashLong_internal_loop).
enum class LongInputTail {
  // The preview: blocks and stripes are counted over all n bytes, and the overlapping last stripe
  // is mixed only when n is not a multiple of the stripe length.
  kPreview,
  // The final release: blocks and stripes are counted over n - 1 bytes, so the last stripe, which
  // always runs, never repeats a stripe already mixed in full.
  kFinal,
};

// The 64-bit hash of an input over 240 bytes: whole blocks of stripes, each followed by a scramble,
// then the rest's stripes and the last stripe, merged. kAccumulate is the version's
// XXH3_accumulate_512, kAvalanche its final avalanche.
template <LongInputTail kTail, void (*kAccumulate)(uint64_t*, const uint8_t*, const uint8_t*),
          uint64_t (*kAvalanche)(uint64_t)>
uint64_t HashLong(const uint8_t* in, size_t n, const uint8_t* secret) {
  // XXH_SECRET_LASTACC_START: the last stripe's secret is deliberately not 8-byte aligned so it
  // differs from the scrambler's (7 in both versions).
  constexpr size_t kLastStripeSecretOffset = kSecretSize - kStripeLen - 7;
  uint64_t acc[kAccumulators];
  for (size_t i = 0; i < kAccumulators; ++i) acc[i] = kInitAcc[i];
  const size_t counted = kTail == LongInputTail::kFinal ? n - 1 : n;
  const size_t blocks = counted / kBlockLen;
  for (size_t b = 0; b < blocks; ++b) {
    const uint8_t* block = in + b * kBlockLen;
    for (size_t st = 0; st < kStripesPerBlock; ++st) {
      kAccumulate(acc, block + st * kStripeLen, secret + 8 * st);
    }
    ScrambleAcc(acc, secret + kSecretSize - kStripeLen);
  }
  const uint8_t* rest = in + blocks * kBlockLen;
  const size_t stripes = (counted - blocks * kBlockLen) / kStripeLen;
  for (size_t st = 0; st < stripes; ++st) {
    kAccumulate(acc, rest + st * kStripeLen, secret + 8 * st);
  }
  if (kTail == LongInputTail::kFinal || n % kStripeLen != 0) {
    kAccumulate(acc, in + n - kStripeLen, secret + kLastStripeSecretOffset);
  }
  return MergeAccs<kAvalanche>(acc, secret, n * kPrime64_1);
}

// XXH3_hashLong_64b_withSeed: seed 0 keeps the default secret, any other seed derives one (same
// rule in both versions). Out of line so that the derived secret's buffer stays out of the
// mid-size paths' frame.
template <LongInputTail kTail, void (*kAccumulate)(uint64_t*, const uint8_t*, const uint8_t*),
          uint64_t (*kAvalanche)(uint64_t)>
[[gnu::noinline]] uint64_t HashLongSeeded(const uint8_t* in, size_t n, uint64_t seed) {
  if (seed == 0) return HashLong<kTail, kAccumulate, kAvalanche>(in, n, kDefaultSecret);
  uint8_t secret[kSecretSize];
  InitCustomSecret(secret, seed);
  return HashLong<kTail, kAccumulate, kAvalanche>(in, n, secret);
}

}  // namespace sstfilter::hash_internal
