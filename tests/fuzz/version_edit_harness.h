// The harness of version_edit_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <cstdint>
#include <string_view>

#include "harness_support.h"
#include "log_builder.h"
#include "sstfilter/bytes.h"
#include "sstfilter/manifest.h"

namespace sstfilter::fuzz {

// VersionEdit records. Byte 0: bit 0 decodes as RocksDB (else LevelDB); the rest is one record,
// decoded alone and then read as the second edit of a MANIFEST whose first names the comparator
// and the next file number. Errors name a byte inside the record (alone) or the file (MANIFEST);
// decoded files have internal keys; applied state keeps its levels bounded.
inline void FuzzVersionEdit(const uint8_t* data, size_t size) {
  Input in(data, size);
  const DbFormat format = (in.Byte() & 1) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  const ByteView record = in.Rest();
  VersionEdit edit;
  const Status s = DecodeVersionEdit(record, format, &edit);
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kUnsupported);
    FUZZ_CHECK(s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= record.size());
  } else {
    for (const VersionEdit::NewFile& f : edit.new_files) {
      FUZZ_CHECK(f.meta.smallest.size() >= 8 && f.meta.largest.size() >= 8);
      FUZZ_CHECK(f.level >= 0 && f.level <= kMaxDbLevel);
    }
    // What the encoder writes of it decodes back to what encodes the same again.
    Bytes encoded;
    const Status e = EncodeVersionEdit(edit, format, &encoded);
    if (e.ok()) {
      VersionEdit back;
      FUZZ_CHECK(DecodeVersionEdit(encoded, format, &back).ok());
      Bytes again;
      FUZZ_CHECK(EncodeVersionEdit(back, format, &again).ok() && again == encoded);
    } else {
      FUZZ_CHECK(e.code() == ErrorCode::kUnsupported || e.code() == ErrorCode::kBadOptions);
    }
  }
  // tag 1 (comparator), tag 3 (next file number) 2
  constexpr std::string_view kFirstEdit = "\x01\x1aleveldb.BytewiseComparator\x03\x02";
  LogBuilder log;
  log.Add(BytesOf(kFirstEdit));
  log.Add(record);
  ManifestState state;
  const Status m = ReadManifest(log.bytes(), format, &state);
  if (!m.ok()) {
    FUZZ_CHECK(m.offset() >= 0 && static_cast<uint64_t>(m.offset()) <= log.bytes().size());
    FUZZ_CHECK(!s.ok() || m.code() == ErrorCode::kCorrupt);
  } else {
    FUZZ_CHECK(s.ok() && state.edit_count == 2);
    for (const ColumnFamilyState& cf : state.column_families) {
      FUZZ_CHECK(cf.files.size() <= static_cast<size_t>(kMaxDbLevel) + 1);
    }
  }
}

}  // namespace sstfilter::fuzz
