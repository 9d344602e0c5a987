// Embind bindings for checking a database's whole files as db.verify does (ts/api/db-verify.ts):
// a MANIFEST record by record, every fragment's checksum through the core's LogReader
// (docs/FORMATS.md 6.1) without decoding what the records carry (WALs are decoded whole through
// wasm/db_bindings.cc); a blob file's header, records and footer (6.7).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "binding_support.h"
#include "marshal.h"
#include "sstfilter/db.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

// Reads the log at [data, data + size) written by `format` ("leveldb" | "rocksdb") whose file
// number is `log_number` (a BigInt; recyclable records carry it): { records, end: { kind, offset,
// what } }, or null at the first bad fragment (last error, with its file offset).
val CheckLogAt(uintptr_t data, size_t size, const std::string& format, uint64_t log_number) {
  const DbFormat f = format == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb;
  LogReader reader(View(data, size), f, log_number);
  LogRecord record;
  size_t records = 0;
  while (reader.Next(&record)) records++;
  if (!reader.status().ok()) {
    Fail(reader.status());
    return val::null();
  }
  val end = val::object();
  end.set("kind", std::string(LogEndKindName(reader.end().kind)));
  end.set("offset", NumberOf(reader.end().offset));
  end.set("what", reader.end().what);
  val out = val::object();
  out.set("records", records);
  out.set("end", end);
  return out;
}

// Checks the blob file at [data, data + size): { columnFamilyId, compression, hasTtl, blobCount,
// blobBytes } (the counts as BigInts), or null at the first bad part (last error).
val CheckBlobFileAt(uintptr_t data, size_t size) {
  BlobFileCheck check;
  if (Status s = CheckBlobFile(View(data, size), &check); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  val out = val::object();
  out.set("columnFamilyId", check.column_family_id);
  out.set("compression", check.compression);
  out.set("hasTtl", check.has_ttl);
  out.set("blobCount", BigIntOf(check.blob_count));
  out.set("blobBytes", BigIntOf(check.blob_bytes));
  return out;
}

// The value a blob index names (ReadBlobValue): [data, data + header_size) is the file's header,
// then the record's bytes, then the user key; the file's size and the index's offset and size are
// BigInts. A Uint8Array, or null (last error).
val ReadBlobValueAt(uintptr_t data, size_t header_size, size_t record_size, size_t key_size,
                    uint64_t file_size, uint64_t value_offset, uint64_t value_size, int compression,
                    uint32_t column_family) {
  const ByteView bytes = View(data, header_size + record_size + key_size);
  BlobPointer pointer;
  pointer.value_offset = value_offset;
  pointer.value_size = value_size;
  pointer.compression = static_cast<uint8_t>(compression);
  pointer.column_family = column_family;
  Bytes value;
  if (Status s = ReadBlobValue(bytes.first(header_size), file_size,
                               bytes.subspan(header_size, record_size),
                               bytes.subspan(header_size + record_size), pointer, &value);
      !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  return ToUint8Array(value);
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_db_check) {
  using namespace sstfilter::wasm;
  emscripten::function("checkLog", &CheckLogAt);
  emscripten::function("checkBlobFile", &CheckBlobFileAt);
  emscripten::function("readBlobValue", &ReadBlobValueAt);
}
