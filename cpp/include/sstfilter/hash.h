// Every hash and checksum LevelDB and RocksDB store or key filters with (docs/FORMATS.md section
// 1). Filters: LevelDbHash32 (LevelDB Bloom), RocksDbLegacyHash32 (RocksDB legacy Bloom),
// Xxph3Hash64 (FastLocalBloom and Ribbon). Block checksums: Crc32c (masked), Xxh32, Xxh64,
// Xxh3Hash64.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sstfilter/bytes.h"

namespace sstfilter {

// Seed of BloomHash in LevelDB util/bloom.cc and RocksDB util/hash.h.
inline constexpr uint32_t kBloomHashSeed = 0xbc9f1d34;

// The filter hashes are compiled as *Bytes functions of a pointer and a length, which their
// ByteView forms call inline: wasm passes a span argument through linear memory (its C ABI passes
// structs indirectly), which measured ~10 ns per call there, more than hashing a 16-byte key takes.

// LevelDB's Hash (util/hash.cc, 1.23): MurmurHash1-like; the trailing 1-3 bytes are zero-extended.
uint32_t LevelDbHash32Bytes(const uint8_t* data, size_t size, uint32_t seed);
inline uint32_t LevelDbHash32(ByteView data, uint32_t seed) {
  return LevelDbHash32Bytes(data.data(), data.size(), seed);
}

// RocksDB's Hash (util/hash.cc): the same function, except that the trailing 1-3 bytes are
// sign-extended, so it differs from LevelDbHash32 when one of them is >= 0x80.
uint32_t RocksDbLegacyHash32Bytes(const uint8_t* data, size_t size, uint32_t seed);
inline uint32_t RocksDbLegacyHash32(ByteView data, uint32_t seed) {
  return RocksDbLegacyHash32Bytes(data.data(), data.size(), seed);
}

// RocksDB's Hash64 / GetSliceHash64 (util/xxph3.h): the XXH3 *preview* from xxHash 0.7.2 with
// RocksDB's own empty-input rule. Not equal to final XXH3 on any input.
uint64_t Xxph3Hash64Bytes(const uint8_t* data, size_t size, uint64_t seed);
inline uint64_t Xxph3Hash64(ByteView data, uint64_t seed) {
  return Xxph3Hash64Bytes(data.data(), data.size(), seed);
}

// Final XXH3 64-bit (xxHash 0.8.x), used only for kXXH3 block checksums.
uint64_t Xxh3Hash64(ByteView data, uint64_t seed);

uint64_t Xxh64(ByteView data, uint64_t seed);
uint32_t Xxh32(ByteView data, uint32_t seed);

// CRC-32C (Castagnoli). Crc32cExtend continues a finished CRC (Crc32c(ab) ==
// Crc32cExtend(Crc32c(a), b)), as crc32c::Extend does in both projects.
uint32_t Crc32cExtend(uint32_t crc, ByteView data);
inline uint32_t Crc32c(ByteView data) { return Crc32cExtend(0, data); }

// The rotation + constant that LevelDB and RocksDB apply before storing a CRC, so that a CRC
// over bytes that themselves contain CRCs stays well distributed (util/crc32c.h).
inline constexpr uint32_t kCrc32cMaskDelta = 0xa282ead8u;
inline uint32_t Crc32cMask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kCrc32cMaskDelta; }
inline uint32_t Crc32cUnmask(uint32_t masked) {
  uint32_t rot = masked - kCrc32cMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace sstfilter
