// AppendScanLine (sstfilter/table_cursor.h): sst_dump's text for an entry, byte for byte, or with
// its bytes escaped.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <string_view>

#include "sstfilter/table.h"
#include "sstfilter/values.h"

namespace sstfilter {
namespace {

// Appends `bytes` as Slice::ToString(hex) shows them: as they are, or two upper-case hex digits per
// byte. Scan lines are printed with printf's %s, which stops at the first NUL: `raw_up_to_nul`
// appends raw bytes only up to it and says whether one was met (the rest of the %s is not printed).
void AppendHex(ByteView bytes, Bytes* out) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  const size_t at = out->size();
  out->resize(at + 2 * bytes.size());
  uint8_t* p = out->data() + at;
  for (const uint8_t b : bytes) {
    *p++ = static_cast<uint8_t>(kDigits[b >> 4]);
    *p++ = static_cast<uint8_t>(kDigits[b & 15]);
  }
}

bool AppendRawUpToNul(ByteView bytes, Bytes* out) {
  if (bytes.empty()) return false;  // an empty span's data() may be null, which memchr must not get
  const auto* nul = static_cast<const uint8_t*>(std::memchr(bytes.data(), 0, bytes.size()));
  out->insert(out->end(), bytes.data(), nul == nullptr ? bytes.data() + bytes.size() : nul);
  return nul != nullptr;
}

// The length of the well-formed UTF-8 sequence `bytes` starts with (the Unicode Standard, table
// 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), 0 if it starts with none; its
// code point in `code_point`.
size_t Utf8SequenceLength(ByteView bytes, uint32_t* code_point) {
  const uint8_t lead = bytes[0];
  size_t length = 0;
  uint8_t low = 0x80;  // the second byte's range, narrower after some leads
  uint8_t high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    *code_point = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    *code_point = lead & 0x0Fu;
    if (lead == 0xE0) low = 0xA0;   // below: overlong
    if (lead == 0xED) high = 0x9F;  // above: a surrogate
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    *code_point = lead & 0x07u;
    if (lead == 0xF0) low = 0x90;   // below: overlong
    if (lead == 0xF4) high = 0x8F;  // above: beyond U+10FFFF
  } else {
    return 0;
  }
  if (bytes.size() < length || bytes[1] < low || bytes[1] > high) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((bytes[i] & 0xC0) != 0x80) return 0;
    *code_point = (*code_point << 6) | (bytes[i] & 0x3Fu);
  }
  return length;
}

// Whether a terminal shows a code point above U+007F as itself, on the line where it stands: not a
// C1 control (U+0080 to U+009F, some of which terminals act on, as on ESC) and not a bidirectional
// embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069), which can reorder how the
// rest of the line is shown, so that what one sees is not what the bytes say.
bool ShowsAsItself(uint32_t code_point) {
  return code_point > 0x9F && !(code_point >= 0x202A && code_point <= 0x202E) &&
         !(code_point >= 0x2066 && code_point <= 0x2069);
}

// Appends `bytes` escaped: what a terminal shows as it is stays as it is (printable ASCII, and
// well-formed UTF-8 of a character ShowsAsItself), a backslash is doubled, any other byte becomes
// \xNN (two lower-case hex digits). A line of escaped fields is thus always one line that shows
// every byte, NULs included, and reads back unambiguously. This is sstfilter's own way, after the
// precedent of Pebble's `quoted` key and value formatter (cockroachdb/pebble tool/util.go,
// formatQuoted: Go's strconv quoting without the quotes), with one escape form for every byte.
void AppendEscaped(ByteView bytes, Bytes* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  size_t i = 0;
  while (i < bytes.size()) {
    const uint8_t b = bytes[i];
    if (b >= 0x20 && b < 0x7F) {
      if (b == '\\') out->push_back('\\');
      out->push_back(b);
      ++i;
      continue;
    }
    uint32_t code_point = 0;
    // A well-formed sequence is escaped whole or not at all; a byte that starts none, alone.
    const size_t length = b < 0x80 ? 0 : Utf8SequenceLength(bytes.subspan(i), &code_point);
    if (length > 0 && ShowsAsItself(code_point)) {
      out->insert(out->end(), bytes.begin() + static_cast<std::ptrdiff_t>(i),
                  bytes.begin() + static_cast<std::ptrdiff_t>(i + length));
      i += length;
      continue;
    }
    for (const size_t end = i + std::max<size_t>(length, 1); i < end; ++i) {
      const uint8_t escaped[] = {'\\', 'x', static_cast<uint8_t>(kDigits[bytes[i] >> 4]),
                                 static_cast<uint8_t>(kDigits[bytes[i] & 15])};
      out->insert(out->end(), std::begin(escaped), std::end(escaped));
    }
  }
}

// Appends bytes shown as `shown` says; false once a NUL ended a raw field (sst_dump's %s).
bool AppendShown(ByteView bytes, ShownBytes shown, Bytes* out) {
  switch (shown) {
    case ShownBytes::kHex:
      AppendHex(bytes, out);
      return true;
    case ShownBytes::kEscaped:
      AppendEscaped(bytes, out);
      return true;
    case ShownBytes::kRaw:
      break;
  }
  return !AppendRawUpToNul(bytes, out);
}

void AppendText(std::string_view text, Bytes* out) {
  out->insert(out->end(), text.begin(), text.end());
}

void AppendNumber(uint64_t n, Bytes* out) {
  char digits[20];
  const auto end = std::to_chars(digits, digits + sizeof(digits), n).ptr;
  out->insert(out->end(), digits, end);
}

// ParsedInternalKey::DebugString's half of the line, as %s prints it: 'KEY' seq:N, type:T.
void AppendKeyHalf(ByteView user_key, ByteView timestamp, uint64_t tag, ShownBytes shown,
                   Bytes* out) {
  out->push_back('\'');
  if (!AppendShown(user_key, shown, out) || !AppendShown(timestamp, shown, out)) return;
  AppendText("' seq:", out);
  AppendNumber(tag >> 8, out);
  AppendText(", type:", out);
  AppendNumber(tag & 0xff, out);
}

// rocksdb db/blob/blob_index.h BlobIndex::DebugString (7.8.3; main shows file number 0 as "same"),
// as %s prints it.
void AppendBlobIndexText(const BlobIndex& index, ShownBytes shown, Bytes* out) {
  if (index.type == BlobIndex::Type::kInlinedTtl) {
    AppendText("[inlined blob] value:", out);
    if (!AppendShown(index.value, shown, out)) return;
  } else {
    AppendText("[blob ref] file:", out);
    AppendNumber(index.file_number, out);
    AppendText(" offset:", out);
    AppendNumber(index.offset, out);
    AppendText(" size:", out);
    AppendNumber(index.size, out);
    AppendText(" compression: ", out);
    AppendText(CompressionTypeName(index.compression), out);
  }
  if (index.type != BlobIndex::Type::kBlob) {
    AppendText(" exp:", out);
    AppendNumber(index.expiration, out);
  }
}

}  // namespace

void AppendScanLine(ByteView user_key, ByteView timestamp, uint64_t tag, ByteView value,
                    ScanTextOptions options, Bytes* out, Bytes* errors) {
  if (options.hex) options.bytes = ShownBytes::kHex;
  const uint8_t type = tag & 0xff;
  const bool decode =
      options.decode_blob_index && type == static_cast<uint8_t>(EntryType::kBlobIndex);
  BlobIndex blob_index;
  if (decode && !DecodeBlobIndex(value, &blob_index).ok()) {
    // sst_dump prints this on standard error and goes on with the next entry.
    AppendKeyHalf(user_key, timestamp, tag, options.bytes, errors);
    AppendText(" => error decoding blob index\n", errors);
    return;
  }
  AppendKeyHalf(user_key, timestamp, tag, options.bytes, out);
  AppendText(" => ", out);
  // A value with its preferred sequence number packed after it (fixed64): RocksDB 7.8.3 writes no
  // such entries; newer sst_dumps print the value, then ", " and the number (table/
  // sst_file_dumper.cc, ParsePackedValueWithSeqno in db/seqno_to_time_mapping.cc).
  const bool packed_seqno = type == static_cast<uint8_t>(EntryType::kValuePreferredSeqno) &&
                            value.size() >= sizeof(uint64_t);
  if (decode) {
    AppendBlobIndexText(blob_index, options.bytes, out);
  } else if (packed_seqno) {
    AppendShown(value.first(value.size() - sizeof(uint64_t)), options.bytes, out);
    AppendText(", ", out);
    AppendNumber(DecodeFixed64(value.data() + value.size() - sizeof(uint64_t)), out);
  } else {
    AppendShown(value, options.bytes, out);
  }
  out->push_back('\n');
}

}  // namespace sstfilter
