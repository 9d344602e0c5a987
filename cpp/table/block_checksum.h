// Block trailer checksums (docs/FORMATS.md 3.1; rocksdb table/format.cc ComputeBuiltinChecksum,
// ComputeBuiltinChecksumWithLastByte, ChecksumModifierForContext; leveldb table/format.cc). The
// checksum covers the block contents followed by the compression-type byte.
#pragma once

#include <cstdint>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

// RocksDB's ChecksumType byte in the footer; LevelDB tables always use kCrc32c.
enum class ChecksumType : uint8_t { kNone = 0, kCrc32c = 1, kXxHash = 2, kXxHash64 = 3, kXxh3 = 4 };
inline constexpr uint8_t kMaxChecksumType = 4;

// "none", "crc32c", "xxhash", "xxhash64", "xxh3".
const char* ChecksumTypeName(ChecksumType type);

// The checksum of `data` (contents followed by the type byte) as RocksDB stores it: masked
// CRC32C, XXH32, the low half of XXH64, or the low half of final XXH3 over all but the last byte
// xor'ed with that byte times 0x6b9083d9. 0 for kNone.
uint32_t ComputeBlockChecksum(ChecksumType type, ByteView data);

// format_version >= 6 adds this to every stored checksum so that a block copied to another offset
// or file no longer verifies; 0 when the footer's base is 0 (every older format).
inline uint32_t ChecksumModifierForContext(uint32_t base, uint64_t offset) {
  if (base == 0) return 0;
  return base ^ (static_cast<uint32_t>(offset) + static_cast<uint32_t>(offset >> 32));
}

// Checks the trailer of the block at `block_offset`: `block` holds its contents, type byte and
// stored checksum. kChecksumMismatch names the block's offset.
Status VerifyBlockChecksum(ChecksumType type, uint32_t base_context_checksum, uint64_t block_offset,
                           ByteView block);

}  // namespace sstfilter
