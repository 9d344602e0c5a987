// The harness of values_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "harness_support.h"
#include "sstfilter/bytes.h"
#include "sstfilter/table_cursor.h"
#include "sstfilter/values.h"

namespace sstfilter::fuzz {

// ---- values_fuzz: [flags u8][value] ----
// The value is decoded as a blob index and as a wide-column entity, and shown as sst_dump's
// --decode_blob_index scan line (flags bit 0: --output_hex, else bit 1: escaped, which must be
// one line without control bytes). Errors must point inside the value;
// what decodes must lie within it, re-encode to the same bytes (blob indexes; the layout has one
// encoding per index) and have strictly ascending column names.
inline bool Within(ByteView part, ByteView whole) {
  return part.empty() ||
         (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

inline Bytes EncodeBlobIndex(const BlobIndex& index) {
  Bytes out = {static_cast<uint8_t>(index.type)};
  if (index.type != BlobIndex::Type::kBlob) PutVarint64(&out, index.expiration);
  if (index.type == BlobIndex::Type::kInlinedTtl) {
    out.insert(out.end(), index.value.begin(), index.value.end());
    return out;
  }
  PutVarint64(&out, index.file_number);
  PutVarint64(&out, index.offset);
  PutVarint64(&out, index.size);
  out.push_back(index.compression);
  return out;
}

inline void FuzzValues(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t flags = in.Byte();
  const ShownBytes shown = (flags & 1) != 0   ? ShownBytes::kHex
                           : (flags & 2) != 0 ? ShownBytes::kEscaped
                                              : ShownBytes::kRaw;
  const ByteView value = in.Rest();
  auto error_inside = [&](const Status& s) {
    return s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= value.size();
  };
  BlobIndex index;
  const Status blob = DecodeBlobIndex(value, &index);
  if (blob.ok()) {
    FUZZ_CHECK(Within(index.value, value));
    const Bytes again = EncodeBlobIndex(index);
    // Varints may carry redundant continuation bytes (0x80 0x00), which decode the same: compare
    // the re-encoding's decoding instead of the bytes then.
    BlobIndex reread;
    FUZZ_CHECK(DecodeBlobIndex(again, &reread).ok());
    FUZZ_CHECK(EncodeBlobIndex(reread) == again);
    FUZZ_CHECK(again.size() <= value.size());
  } else {
    FUZZ_CHECK(blob.code() == ErrorCode::kCorrupt && error_inside(blob));
  }
  std::vector<WideColumn> columns;
  const Status entity = DecodeWideColumns(value, &columns);
  if (entity.ok()) {
    for (size_t i = 0; i < columns.size(); ++i) {
      FUZZ_CHECK(Within(columns[i].name, value) && Within(columns[i].value, value));
      if (i > 0) {
        FUZZ_CHECK(std::lexicographical_compare(columns[i - 1].name.begin(),
                                                columns[i - 1].name.end(), columns[i].name.begin(),
                                                columns[i].name.end()));
      }
    }
    // Encoded again (version 1, or 2 with blob columns), the entity decodes to the same columns.
    Bytes encoded;
    EncodeWideColumns(columns, &encoded);
    std::vector<WideColumn> again;
    FUZZ_CHECK(DecodeWideColumns(encoded, &again).ok() && again.size() == columns.size());
    for (size_t i = 0; i < columns.size(); ++i) {
      FUZZ_CHECK(std::ranges::equal(again[i].name, columns[i].name) &&
                 std::ranges::equal(again[i].value, columns[i].value) &&
                 again[i].blob_index.has_value() == columns[i].blob_index.has_value());
    }
  } else {
    FUZZ_CHECK(entity.code() == ErrorCode::kCorrupt && error_inside(entity) && columns.empty());
  }
  Bytes out, errors;
  const uint64_t blob_index_tag = static_cast<uint64_t>(EntryType::kBlobIndex);
  AppendScanLine(value, {}, blob_index_tag, value,
                 ScanTextOptions{.bytes = shown, .decode_blob_index = true}, &out, &errors);
  FUZZ_CHECK(out.empty() != blob.ok() && errors.empty() == blob.ok());
  if (shown == ShownBytes::kEscaped) {
    const Bytes& line = blob.ok() ? out : errors;
    FUZZ_CHECK(!line.empty() && line.back() == '\n');
    FUZZ_CHECK(std::none_of(line.begin(), line.end() - 1,
                            [](uint8_t b) { return b < 0x20 || b == 0x7F; }));
  }
}

}  // namespace sstfilter::fuzz
