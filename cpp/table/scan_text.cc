// AppendScanLine (sstfilter/table.h): sst_dump's text for an entry, byte for byte.
#include <charconv>
#include <cstring>
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

// Appends bytes shown as %s of Slice::ToString(hex) prints them; false once a NUL ended the %s.
bool AppendShown(ByteView bytes, bool hex, Bytes* out) {
  if (hex) {
    AppendHex(bytes, out);
    return true;
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
void AppendKeyHalf(ByteView user_key, ByteView timestamp, uint64_t tag, bool hex, Bytes* out) {
  out->push_back('\'');
  if (!AppendShown(user_key, hex, out) || !AppendShown(timestamp, hex, out)) return;
  AppendText("' seq:", out);
  AppendNumber(tag >> 8, out);
  AppendText(", type:", out);
  AppendNumber(tag & 0xff, out);
}

// rocksdb db/blob/blob_index.h BlobIndex::DebugString (7.8.3; main shows file number 0 as "same"),
// as %s prints it.
void AppendBlobIndexText(const BlobIndex& index, bool hex, Bytes* out) {
  if (index.type == BlobIndex::Type::kInlinedTtl) {
    AppendText("[inlined blob] value:", out);
    if (!AppendShown(index.value, hex, out)) return;
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
  const uint8_t type = tag & 0xff;
  const bool decode =
      options.decode_blob_index && type == static_cast<uint8_t>(EntryType::kBlobIndex);
  BlobIndex blob_index;
  if (decode && !DecodeBlobIndex(value, &blob_index).ok()) {
    // sst_dump prints this on standard error and goes on with the next entry.
    AppendKeyHalf(user_key, timestamp, tag, options.hex, errors);
    AppendText(" => error decoding blob index\n", errors);
    return;
  }
  AppendKeyHalf(user_key, timestamp, tag, options.hex, out);
  AppendText(" => ", out);
  // A value with its preferred sequence number packed after it (fixed64): RocksDB 7.8.3 writes no
  // such entries; newer sst_dumps print the value, then ", " and the number (table/
  // sst_file_dumper.cc, ParsePackedValueWithSeqno in db/seqno_to_time_mapping.cc).
  const bool packed_seqno = type == static_cast<uint8_t>(EntryType::kValuePreferredSeqno) &&
                            value.size() >= sizeof(uint64_t);
  if (decode) {
    AppendBlobIndexText(blob_index, options.hex, out);
  } else if (packed_seqno) {
    AppendShown(value.first(value.size() - sizeof(uint64_t)), options.hex, out);
    AppendText(", ", out);
    AppendNumber(DecodeFixed64(value.data() + value.size() - sizeof(uint64_t)), out);
  } else {
    AppendShown(value, options.hex, out);
  }
  out->push_back('\n');
}

}  // namespace sstfilter
