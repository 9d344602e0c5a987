// AppendScanLine (sstfilter/table.h): sst_dump's text for an entry, byte for byte.
#include <cstring>
#include <string>

#include "sstfilter/table.h"
#include "sstfilter/values.h"

namespace sstfilter {
namespace {

// Slice::ToString(hex): the bytes as they are, or two upper-case hex digits per byte.
void AppendShown(ByteView bytes, bool hex, Bytes* out) {
  if (!hex) {
    out->insert(out->end(), bytes.begin(), bytes.end());
    return;
  }
  static constexpr char kDigits[] = "0123456789ABCDEF";
  for (const uint8_t b : bytes) {
    out->push_back(static_cast<uint8_t>(kDigits[b >> 4]));
    out->push_back(static_cast<uint8_t>(kDigits[b & 15]));
  }
}

void AppendText(const std::string& text, Bytes* out) {
  out->insert(out->end(), text.begin(), text.end());
}

// What printf's %s prints of `text`: up to its first NUL.
void AppendAsCString(const Bytes& text, Bytes* out) {
  const auto* nul = static_cast<const uint8_t*>(std::memchr(text.data(), 0, text.size()));
  out->insert(out->end(), text.data(), nul == nullptr ? text.data() + text.size() : nul);
}

// rocksdb db/blob/blob_index.h BlobIndex::DebugString (7.8.3; main shows file number 0 as "same").
void AppendBlobIndexText(const BlobIndex& index, bool hex, Bytes* out) {
  if (index.type == BlobIndex::Type::kInlinedTtl) {
    AppendText("[inlined blob] value:", out);
    AppendShown(index.value, hex, out);
  } else {
    AppendText("[blob ref] file:" + std::to_string(index.file_number) + " offset:" +
                   std::to_string(index.offset) + " size:" + std::to_string(index.size) +
                   " compression: " + CompressionTypeName(index.compression),
               out);
  }
  if (index.type != BlobIndex::Type::kBlob)
    AppendText(" exp:" + std::to_string(index.expiration), out);
}

}  // namespace

void AppendScanLine(ByteView user_key, ByteView timestamp, uint64_t tag, ByteView value,
                    ScanTextOptions options, Bytes* out, Bytes* errors) {
  thread_local Bytes half;
  half.assign(1, '\'');
  AppendShown(user_key, options.hex, &half);
  AppendShown(timestamp, options.hex, &half);
  AppendText("' seq:" + std::to_string(tag >> 8) + ", type:" + std::to_string(tag & 0xff), &half);
  const bool decode =
      options.decode_blob_index && (tag & 0xff) == static_cast<uint8_t>(EntryType::kBlobIndex);
  BlobIndex blob_index;
  if (decode && !DecodeBlobIndex(value, &blob_index).ok()) {
    // sst_dump prints this on standard error and goes on with the next entry.
    AppendAsCString(half, errors);
    AppendText(" => error decoding blob index\n", errors);
    return;
  }
  AppendAsCString(half, out);
  AppendText(" => ", out);
  half.clear();
  if (decode) {
    AppendBlobIndexText(blob_index, options.hex, &half);
  } else {
    AppendShown(value, options.hex, &half);
  }
  AppendAsCString(half, out);
  out->push_back('\n');
}

}  // namespace sstfilter
