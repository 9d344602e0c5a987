// AppendScanLine (sstfilter/table.h): sst_dump's text for an entry, byte for byte.
#include <cstring>
#include <string>

#include "sstfilter/table.h"

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

// What printf's %s prints of `text`: up to its first NUL.
void AppendAsCString(const Bytes& text, Bytes* out) {
  const auto* nul = static_cast<const uint8_t*>(std::memchr(text.data(), 0, text.size()));
  out->insert(out->end(), text.data(), nul == nullptr ? text.data() + text.size() : nul);
}

}  // namespace

void AppendScanLine(ByteView user_key, ByteView timestamp, uint64_t tag, ByteView value, bool hex,
                    Bytes* out) {
  thread_local Bytes half;
  half.assign(1, '\'');
  AppendShown(user_key, hex, &half);
  AppendShown(timestamp, hex, &half);
  const std::string rest =
      "' seq:" + std::to_string(tag >> 8) + ", type:" + std::to_string(tag & 0xff);
  half.insert(half.end(), rest.begin(), rest.end());
  AppendAsCString(half, out);
  static constexpr char kArrow[] = " => ";
  out->insert(out->end(), kArrow, kArrow + 4);
  half.clear();
  AppendShown(value, hex, &half);
  AppendAsCString(half, out);
  out->push_back('\n');
}

}  // namespace sstfilter
