// OpenRocksDbFilter: which reader a RocksDB full filter (or filter partition) gets, decided by its
// 5-byte metadata trailer as BuiltinFilterPolicy::GetBuiltinFilterBitsReader does (FORMATS.md
// 2.9, 2.10; RocksDB table/block_based/filter_policy.cc).
#include <cstdint>
#include <limits>

#include "rocksdb_bloom_internal.h"
#include "sstfilter/filter.h"

namespace sstfilter {
namespace {

using rocksdb_bloom::kMetadataLen;

// Standard128Ribbon (marker -2) is recognised but not probed yet: the reader reports what the
// metadata says, ProbeSupport says kUnsupported, and every key "may match", which is never wrong.
class RibbonPlaceholderReader final : public FilterReader {
 public:
  RibbonPlaceholderReader(uint32_t data_bytes, uint32_t seed, uint32_t num_blocks)
      : data_bytes_(data_bytes), seed_(seed), num_blocks_(num_blocks) {}

  FilterInfo info() const override {
    FilterInfo info;
    info.kind = FilterKind::kRocksDbRibbon;
    info.data_bytes = data_bytes_;
    info.ribbon_seed = seed_;
    info.ribbon_blocks = num_blocks_;
    return info;
  }
  Status ProbeSupport() const override {
    return Status::Error(ErrorCode::kUnsupported,
                         "probing Standard128Ribbon filters is not implemented yet");
  }
  bool MayMatch(ByteView) const override { return true; }

 private:
  uint32_t data_bytes_;
  uint32_t seed_;
  uint32_t num_blocks_;
};

// GetRibbonBitsReader: metadata FE, seed ordinal, 24-bit little-endian num_blocks.
std::unique_ptr<FilterReader> OpenRibbonReader(const Bytes& filter) {
  const size_t meta = filter.size() - kMetadataLen;
  const uint32_t seed = filter[meta + 1];
  const uint32_t num_blocks = static_cast<uint32_t>(filter[meta + 2]) |
                              (static_cast<uint32_t>(filter[meta + 3]) << 8) |
                              (static_cast<uint32_t>(filter[meta + 4]) << 16);
  // One block would be problematic for Ribbon's hashing and zero has a shorter "never" encoding,
  // so RocksDB never writes either; it reads them as "may match".
  if (num_blocks < 2) return MakeConstantFilterReader(true);
  return std::make_unique<RibbonPlaceholderReader>(static_cast<uint32_t>(meta), seed, num_blocks);
}

}  // namespace

std::unique_ptr<FilterReader> OpenRocksDbFilter(Bytes filter) {
  // Empty or too short for metadata: treated as a filter of zero keys.
  if (filter.size() <= kMetadataLen) return MakeConstantFilterReader(false);
  // RocksDB takes the length as 32 bits; no block can be this large, so stay conservative.
  if (filter.size() > std::numeric_limits<uint32_t>::max()) return MakeConstantFilterReader(true);
  const int8_t marker = static_cast<int8_t>(filter[filter.size() - kMetadataLen]);
  if (marker >= 1) return rocksdb_bloom::OpenLegacyBloomReader(std::move(filter));
  switch (marker) {
    case -1:
      return rocksdb_bloom::OpenNewBloomReader(std::move(filter));
    case -2:
      return OpenRibbonReader(filter);
    default:
      // 0 = zero probes; -3 .. -128 are reserved for future formats.
      return MakeConstantFilterReader(true);
  }
}

}  // namespace sstfilter
