#include "table/footer.h"

#include <algorithm>
#include <array>
#include <string>

namespace sstfilter {
namespace {

constexpr uint64_t kPlainTableMagic = 0x8242229663bf9564;
constexpr uint64_t kLegacyPlainTableMagic = 0x4f3418eb7a8f13b8;
constexpr uint64_t kCuckooTableMagic = 0x926789d0c5f17873;
constexpr std::array<uint8_t, 4> kExtendedMagic = {0x3e, 0x00, 0x7a, 0x00};

Status At(ErrorCode code, std::string message, uint64_t offset) {
  return Status::Error(code, std::move(message), static_cast<int64_t>(offset));
}

// Both handles from the start of `in` (padding after them is ignored, as upstream does).
Status DecodeHandles(ByteView in, uint64_t offset, Footer* footer) {
  size_t pos = 0;
  auto metaindex = DecodeBlockHandle(in, &pos);
  auto index = metaindex ? DecodeBlockHandle(in, &pos) : std::nullopt;
  if (!index) return At(ErrorCode::kCorrupt, "bad block handle in the footer", offset);
  footer->metaindex = *metaindex;
  footer->index = *index;
  return Status::Ok();
}

// Both handles as varints, zero-padded to the 40 bytes two maximal handles take.
void AppendHandles(BlockHandle metaindex, BlockHandle index, Bytes* out) {
  constexpr size_t kHandlesSize = 40;
  const size_t start = out->size();
  for (const BlockHandle& h : {metaindex, index}) {
    PutVarint64(out, h.offset);
    PutVarint64(out, h.size);
  }
  out->resize(start + kHandlesSize, 0);
}

}  // namespace

void AppendRocksDbFooter(uint32_t format_version, ChecksumType checksum,
                         uint32_t base_context_checksum, uint64_t footer_offset,
                         BlockHandle metaindex, BlockHandle index, Bytes* out) {
  const size_t start = out->size();
  out->push_back(static_cast<uint8_t>(checksum));
  if (format_version < 6) {
    AppendHandles(metaindex, index, out);
  } else {
    out->insert(out->end(), kExtendedMagic.begin(), kExtendedMagic.end());
    PutFixed32(out, 0);  // the footer checksum, computed over the footer with these bytes zero
    PutFixed32(out, base_context_checksum);
    PutFixed32(out, static_cast<uint32_t>(metaindex.size));
    out->resize(out->size() + 24, 0);
  }
  PutFixed32(out, format_version);
  PutFixed64(out, kBlockBasedTableMagic);
  if (format_version >= 6) {
    uint8_t* const footer = out->data() + start;
    const uint32_t sum = ComputeBlockChecksum(checksum, ByteView(footer, kFooterSize)) +
                         ChecksumModifierForContext(base_context_checksum, footer_offset);
    for (int i = 0; i < 4; ++i) footer[5 + i] = static_cast<uint8_t>(sum >> (8 * i));
  }
}

void AppendLevelDbFooter(BlockHandle metaindex, BlockHandle index, Bytes* out) {
  AppendHandles(metaindex, index, out);
  PutFixed64(out, kLegacyTableMagic);
}

Status DecodeFooter(ByteView tail, uint64_t file_size, Footer* footer) {
  *footer = Footer();
  if (file_size < kLegacyFooterSize || tail.size() < kLegacyFooterSize) {
    return At(ErrorCode::kTruncated,
              "file of " + std::to_string(file_size) + " bytes is too short to be a table", 0);
  }
  const uint64_t magic_offset = file_size - 8;
  const uint64_t magic = DecodeFixed64(tail.data() + tail.size() - 8);
  if (magic == kLegacyTableMagic) {
    footer->legacy_magic = true;
    footer->offset = file_size - kLegacyFooterSize;
    return DecodeHandles(tail.last(kLegacyFooterSize), footer->offset, footer);
  }
  if (magic == kPlainTableMagic || magic == kLegacyPlainTableMagic) {
    return At(ErrorCode::kUnsupported, "RocksDB plain tables are not supported", magic_offset);
  }
  if (magic == kCuckooTableMagic) {
    return At(ErrorCode::kUnsupported, "RocksDB cuckoo tables are not supported", magic_offset);
  }
  if (magic != kBlockBasedTableMagic) {
    return At(ErrorCode::kCorrupt, "no LevelDB or RocksDB table magic number", magic_offset);
  }
  if (tail.size() < kFooterSize) {
    return At(ErrorCode::kTruncated, "file too short for a RocksDB footer", 0);
  }
  const ByteView f = tail.last(kFooterSize);
  footer->offset = file_size - kFooterSize;
  footer->format_version = DecodeFixed32(f.data() + 41);
  if (footer->format_version == 0 || footer->format_version > kMaxFormatVersion) {
    return At(ErrorCode::kUnsupported,
              "format_version " + std::to_string(footer->format_version) + " is not supported",
              footer->offset + 41);
  }
  if (f[0] > kMaxChecksumType) {
    return At(ErrorCode::kUnsupported, "unknown checksum type " + std::to_string(f[0]),
              footer->offset);
  }
  footer->checksum = static_cast<ChecksumType>(f[0]);
  if (footer->format_version < 6) return DecodeHandles(f.subspan(1), footer->offset, footer);

  if (!std::equal(kExtendedMagic.begin(), kExtendedMagic.end(), f.begin() + 1)) {
    return At(ErrorCode::kCorrupt, "bad extended magic in a format_version >= 6 footer",
              footer->offset + 1);
  }
  footer->base_context_checksum = DecodeFixed32(f.data() + 9);
  if (ChecksumModifierForContext(footer->base_context_checksum, 0) == 0) {
    return At(ErrorCode::kCorrupt, "invalid base context checksum", footer->offset + 9);
  }
  // The footer checksums itself with its checksum field zeroed, plus the context modifier.
  std::array<uint8_t, kFooterSize> copy;
  std::copy(f.begin(), f.end(), copy.begin());
  std::fill(copy.begin() + 5, copy.begin() + 9, uint8_t{0});
  const uint32_t computed =
      ComputeBlockChecksum(footer->checksum, copy) +
      ChecksumModifierForContext(footer->base_context_checksum, footer->offset);
  if (computed != DecodeFixed32(f.data() + 5)) {
    return At(ErrorCode::kChecksumMismatch, "footer checksum mismatch", footer->offset);
  }
  if (DecodeFixed64(f.data() + 33) != 0) {
    return At(ErrorCode::kUnsupported, "footer announces a future RocksDB feature",
              footer->offset + 33);
  }
  const uint64_t metaindex_size = DecodeFixed32(f.data() + 13);
  if (metaindex_size + kBlockTrailerSize > footer->offset) {
    return At(ErrorCode::kCorrupt, "metaindex size larger than the file", footer->offset + 13);
  }
  footer->metaindex = {footer->offset - kBlockTrailerSize - metaindex_size, metaindex_size};
  footer->index.reset();
  return Status::Ok();
}

}  // namespace sstfilter
