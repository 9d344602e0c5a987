#include "table/block_checksum.h"

#include <string>

#include "base/enum_names.h"
#include "sstfilter/hash.h"

namespace sstfilter {

const char* ChecksumTypeName(ChecksumType type) {
  // In ChecksumType's order.
  static constexpr const char* kNames[] = {"none", "crc32c", "xxhash", "xxhash64", "xxh3"};
  return EnumName<ChecksumType::kXxh3>(type, kNames, "unknown");
}

uint32_t ComputeBlockChecksum(ChecksumType type, ByteView data) {
  switch (type) {
    case ChecksumType::kNone:
      return 0;
    case ChecksumType::kCrc32c:
      return Crc32cMask(Crc32c(data));
    case ChecksumType::kXxHash:
      return Xxh32(data, 0);
    case ChecksumType::kXxHash64:
      return static_cast<uint32_t>(Xxh64(data, 0));
    case ChecksumType::kXxh3: {
      if (data.empty()) return 0;
      // ComputeBuiltinChecksumWithLastByte: the type byte is folded in by a multiply, so the hash
      // of the contents can be computed before the type is known.
      constexpr uint32_t kRandomPrime = 0x6b9083d9;
      const uint8_t last = data.back();
      return static_cast<uint32_t>(Xxh3Hash64(data.first(data.size() - 1), 0)) ^
             (last * kRandomPrime);
    }
  }
  return 0;
}

Status VerifyBlockChecksum(ChecksumType type, uint32_t base_context_checksum, uint64_t block_offset,
                           ByteView block) {
  if (type == ChecksumType::kNone || block.size() < 5) return Status::Ok();
  const ByteView covered = block.first(block.size() - 4);
  const uint32_t stored = DecodeFixed32(block.data() + block.size() - 4) -
                          ChecksumModifierForContext(base_context_checksum, block_offset);
  const uint32_t computed = ComputeBlockChecksum(type, covered);
  if (stored == computed) return Status::Ok();
  return Status::Error(ErrorCode::kChecksumMismatch,
                       std::string(ChecksumTypeName(type)) + " checksum mismatch in the block of " +
                           std::to_string(covered.size() - 1) + " bytes",
                       static_cast<int64_t>(block_offset));
}

}  // namespace sstfilter
