#include "sstfilter/bytes.h"

namespace sstfilter {

std::optional<uint64_t> GetVarint(ByteView in, size_t* pos, int max_bytes) {
  uint64_t result = 0;
  size_t p = *pos;
  for (int i = 0; i < max_bytes; ++i, ++p) {
    if (p >= in.size()) return std::nullopt;
    const uint64_t byte = in[p];
    const int shift = 7 * i;
    // The last byte may only carry the bits that still fit: 4 for a 5-byte varint32 (32 = 4*7+4),
    // 1 for a 10-byte varint64 (64 = 9*7+1).
    if (i == max_bytes - 1) {
      const int bits_left = (max_bytes == 5 ? 32 : 64) - shift;
      if ((byte & 0x7f) >> bits_left) return std::nullopt;
    }
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *pos = p + 1;
      return result;
    }
  }
  return std::nullopt;  // continuation bit on the last allowed byte
}

}  // namespace sstfilter
