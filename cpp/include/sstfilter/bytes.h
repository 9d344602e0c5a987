// Byte buffers and little-endian fixed-width / varint coding shared by every format.
// Every integer stored by LevelDB and RocksDB is little-endian (leveldb util/coding.h,
// rocksdb util/coding_lean.h); these helpers compose bytes explicitly, so they are correct on
// any host.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace sstfilter {

using Bytes = std::vector<uint8_t>;
using ByteView = std::span<const uint8_t>;

// The bytes of a text (block names, property names, test literals), viewed in place.
inline ByteView BytesOf(std::string_view text) {
  return ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

// The bytewise order (leveldb Slice::compare, rocksdb BytewiseComparator): the bytes as unsigned
// over the shorter length, then the shorter first. -1, 0 or 1. Eight bytes at a time: WebAssembly's
// memcmp (musl's, in Emscripten) compares one byte at a time, several times slower on keys of tens
// of bytes (verify's order check went from 50 to under 20 ns per entry in wasm).
inline int CompareBytes(ByteView a, ByteView b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x;
    uint64_t y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x == y) continue;
    if constexpr (std::endian::native == std::endian::big) return x < y ? -1 : 1;
    // Loaded little-endian, the lowest differing bit lies in the first differing byte.
    const size_t at = i + static_cast<size_t>(std::countr_zero(x ^ y)) / 8;
    return a[at] < b[at] ? -1 : 1;
  }
  for (; i < n; ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

// memcpy for the short runs keys are made of, inline: WebAssembly's memcpy (Emscripten's) is a
// call that copies a byte at a time where the two addresses are not equally aligned, as a key's
// bytes within a block seldom are. Up to 32 bytes go as words, the last overlapping the one before.
inline void CopyShortBytes(uint8_t* dst, const uint8_t* src, size_t n) {
  auto copy8 = [&](size_t at) {
    uint64_t word;
    std::memcpy(&word, src + at, 8);
    std::memcpy(dst + at, &word, 8);
  };
  if (n > 32) {
    std::memcpy(dst, src, n);
  } else if (n >= 8) {
    copy8(0);
    if (n > 16) copy8(8);
    if (n > 24) copy8(16);
    copy8(n - 8);
  } else if (n >= 4) {
    uint32_t head;
    uint32_t tail;
    std::memcpy(&head, src, 4);
    std::memcpy(&tail, src + n - 4, 4);
    std::memcpy(dst, &head, 4);
    std::memcpy(dst + n - 4, &tail, 4);
  } else if (n > 0) {
    dst[0] = src[0];
    dst[n / 2] = src[n / 2];
    dst[n - 1] = src[n - 1];
  }
}

inline uint16_t DecodeFixed16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

inline uint32_t DecodeFixed32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

inline uint64_t DecodeFixed64(const uint8_t* p) {
  return static_cast<uint64_t>(DecodeFixed32(p)) |
         (static_cast<uint64_t>(DecodeFixed32(p + 4)) << 32);
}

inline void PutFixed32(Bytes* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

inline void PutFixed64(Bytes* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

inline void PutVarint64(Bytes* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<uint8_t>(v));
}

// Reads a varint of at most `max_bytes` bytes (5 for varint32, 10 for varint64) starting at
// in[*pos]; advances *pos on success. Returns nullopt on truncation, on a value wider than 64 bits,
// and, when max_bytes is 5, on a value wider than 32 bits.
std::optional<uint64_t> GetVarint(ByteView in, size_t* pos, int max_bytes);

inline std::optional<uint32_t> GetVarint32(ByteView in, size_t* pos) {
  // Most varints in blocks are one byte: those skip the general loop.
  if (*pos < in.size() && in[*pos] < 0x80) return in[(*pos)++];
  auto v = GetVarint(in, pos, 5);
  if (!v) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

inline std::optional<uint64_t> GetVarint64(ByteView in, size_t* pos) {
  return GetVarint(in, pos, 10);
}

}  // namespace sstfilter
