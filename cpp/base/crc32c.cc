// CRC-32C (Castagnoli) as crc32c::Extend in LevelDB and RocksDB util/crc32c.cc computes it
// (docs/FORMATS.md 1.6): reflected polynomial 0x82F63B78, pre- and post-inverted. One portable
// slicing-by-8 implementation, with its tables built at compile time, run on three lanes at once.

#include <array>
#include <cstddef>
#include <cstdint>

#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

constexpr uint32_t kPolynomial = 0x82F63B78u;

using ByteTables = std::array<std::array<uint32_t, 256>, 8>;
using ShiftTables = std::array<std::array<uint32_t, 256>, 4>;

// tables[0] is the classic byte-at-a-time table. tables[k][b] is the CRC contribution of byte b
// followed by k zero bytes, which lets eight input bytes be folded in with eight lookups.
constexpr ByteTables MakeByteTables() {
  ByteTables tables{};
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

constexpr ByteTables kTables = MakeByteTables();

// Eight bytes folded into the state.
inline uint32_t Step8(uint32_t state, const uint8_t* p) {
  const uint32_t lo = DecodeFixed32(p) ^ state;
  const uint32_t hi = DecodeFixed32(p + 4);
  return kTables[7][lo & 0xffu] ^ kTables[6][(lo >> 8) & 0xffu] ^ kTables[5][(lo >> 16) & 0xffu] ^
         kTables[4][lo >> 24] ^ kTables[3][hi & 0xffu] ^ kTables[2][(hi >> 8) & 0xffu] ^
         kTables[1][(hi >> 16) & 0xffu] ^ kTables[0][hi >> 24];
}

// Each step's lookups wait for the previous step's state, so one lane leaves the CPU idle between
// loads. Three lanes of kLane bytes run as independent states and are joined after: the state is
// affine in the input, so the CRC state after A|B|C equals Z^2L(state after A) ^ Z^L(state of B
// from 0) ^ (state of C from 0), where Z^n feeds n zero bytes (a linear map, applied here with
// four byte tables). Blocks are a few KiB, so a lane is short and the rest runs on one lane.
constexpr size_t kLane = 128;

// The tables of Z^bytes: tables[k][b] = Z^bytes(b << 8k), from Z^bytes of each of the 32 bits.
constexpr ShiftTables MakeShiftTables(size_t bytes) {
  std::array<uint32_t, 32> of_bit{};
  for (int bit = 0; bit < 32; ++bit) {
    uint32_t x = 1u << bit;
    for (size_t i = 0; i < bytes; ++i) x = (x >> 8) ^ kTables[0][x & 0xffu];
    of_bit[bit] = x;
  }
  ShiftTables tables{};
  for (int k = 0; k < 4; ++k) {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t x = 0;
      for (int bit = 0; bit < 8; ++bit) {
        if ((b >> bit) & 1u) x ^= of_bit[8 * k + bit];
      }
      tables[k][b] = x;
    }
  }
  return tables;
}

constexpr ShiftTables kShiftOneLane = MakeShiftTables(kLane);
constexpr ShiftTables kShiftTwoLanes = MakeShiftTables(2 * kLane);

inline uint32_t Shift(const ShiftTables& tables, uint32_t state) {
  return tables[0][state & 0xffu] ^ tables[1][(state >> 8) & 0xffu] ^
         tables[2][(state >> 16) & 0xffu] ^ tables[3][state >> 24];
}

}  // namespace

uint32_t Crc32cExtend(uint32_t crc, ByteView data) {
  const uint8_t* p = data.data();
  const uint8_t* const end = p + data.size();
  uint32_t state = ~crc;
  for (; static_cast<size_t>(end - p) >= 3 * kLane; p += 3 * kLane) {
    uint32_t a = state;
    uint32_t b = 0;
    uint32_t c = 0;
    for (size_t i = 0; i < kLane; i += 8) {
      a = Step8(a, p + i);
      b = Step8(b, p + kLane + i);
      c = Step8(c, p + 2 * kLane + i);
    }
    state = Shift(kShiftTwoLanes, a) ^ Shift(kShiftOneLane, b) ^ c;
  }
  for (; end - p >= 8; p += 8) state = Step8(state, p);
  for (; p < end; ++p) state = (state >> 8) ^ kTables[0][(state ^ *p) & 0xffu];
  return ~state;
}

}  // namespace sstfilter
