// CRC-32C (Castagnoli) as crc32c::Extend in LevelDB and RocksDB util/crc32c.cc computes it
// (docs/FORMATS.md 1.6): reflected polynomial 0x82F63B78, pre- and post-inverted. One portable
// slicing-by-8 implementation, with its tables built at compile time.

#include <array>
#include <cstddef>
#include <cstdint>

#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

using Crc32cTables = std::array<std::array<uint32_t, 256>, 8>;

// tables[0] is the classic byte-at-a-time table. tables[k][b] is the CRC contribution of byte b
// followed by k zero bytes, which lets eight input bytes be folded in with eight lookups.
constexpr Crc32cTables MakeTables() {
  constexpr uint32_t kPolynomial = 0x82F63B78u;
  Crc32cTables tables{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) != 0 ? kPolynomial : 0u);
    tables[0][b] = crc;
  }
  for (size_t k = 1; k < tables.size(); ++k) {
    for (size_t b = 0; b < 256; ++b) {
      const uint32_t prev = tables[k - 1][b];
      tables[k][b] = (prev >> 8) ^ tables[0][prev & 0xffu];
    }
  }
  return tables;
}

constexpr Crc32cTables kTables = MakeTables();

}  // namespace

uint32_t Crc32cExtend(uint32_t crc, ByteView data) {
  const uint8_t* p = data.data();
  const uint8_t* const end = p + data.size();
  uint32_t state = ~crc;
  for (; end - p >= 8; p += 8) {
    const uint32_t lo = DecodeFixed32(p) ^ state;
    const uint32_t hi = DecodeFixed32(p + 4);
    state = kTables[7][lo & 0xffu] ^ kTables[6][(lo >> 8) & 0xffu] ^
            kTables[5][(lo >> 16) & 0xffu] ^ kTables[4][lo >> 24] ^ kTables[3][hi & 0xffu] ^
            kTables[2][(hi >> 8) & 0xffu] ^ kTables[1][(hi >> 16) & 0xffu] ^ kTables[0][hi >> 24];
  }
  for (; p < end; ++p) state = (state >> 8) ^ kTables[0][(state ^ *p) & 0xffu];
  return ~state;
}

}  // namespace sstfilter
