// The MurmurHash1-like 32-bit hash of LevelDB util/hash.cc (1.23) and RocksDB util/hash.cc
// (docs/FORMATS.md 1.2). The two differ only in how the 1-3 trailing bytes are widened.

#include <cstddef>
#include <cstdint>

#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

enum class Tail { kZeroExtend, kSignExtend };

// Upstream reads the tail through `char` (RocksDB) or `uint8_t` (LevelDB >= 1.18); the cast is
// spelled out here so the result does not depend on the host's `char` signedness.
template <Tail kTail>
constexpr uint32_t WidenTailByte(uint8_t b) {
  if constexpr (kTail == Tail::kSignExtend) {
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b)));
  } else {
    return b;
  }
}

template <Tail kTail>
uint32_t Hash32(ByteView data, uint32_t seed) {
  constexpr uint32_t kM = 0xc6a4a793u;
  constexpr int kR = 24;
  const uint8_t* p = data.data();
  const size_t n = data.size();
  // n * kM is taken modulo 2^32 upstream too (size_t product stored in a uint32_t).
  uint32_t h = seed ^ (static_cast<uint32_t>(n) * kM);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    h += DecodeFixed32(p + i);
    h *= kM;
    h ^= h >> 16;
  }
  switch (n - i) {
    case 3:
      h += WidenTailByte<kTail>(p[i + 2]) << 16;
      [[fallthrough]];
    case 2:
      h += WidenTailByte<kTail>(p[i + 1]) << 8;
      [[fallthrough]];
    case 1:
      h += WidenTailByte<kTail>(p[i]);
      h *= kM;
      h ^= h >> kR;
      break;
    default:
      break;
  }
  return h;
}

}  // namespace

uint32_t LevelDbHash32Bytes(const uint8_t* data, size_t size, uint32_t seed) {
  return Hash32<Tail::kZeroExtend>(ByteView(data, size), seed);
}

uint32_t RocksDbLegacyHash32Bytes(const uint8_t* data, size_t size, uint32_t seed) {
  return Hash32<Tail::kSignExtend>(ByteView(data, size), seed);
}

}  // namespace sstfilter
