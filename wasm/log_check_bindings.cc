// Embind binding for checking a whole log file (a WAL or a MANIFEST) record by record, as
// db.verify does (ts/api/db-verify.ts): every fragment's checksum through the core's LogReader
// (docs/FORMATS.md 6.1), without decoding what the records carry.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "binding_support.h"
#include "sstfilter/db.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

const char* LogEndKindName(LogEnd::Kind kind) {
  switch (kind) {
    case LogEnd::Kind::kClean:
      return "clean";
    case LogEnd::Kind::kTorn:
      return "torn";
    case LogEnd::Kind::kOldRecord:
      return "old-record";
  }
  return "clean";
}

// Reads the log at [data, data + size) written by `format` ("leveldb" | "rocksdb") whose file
// number is `log_number` (recyclable records carry it): { records, end: { kind, offset, what } },
// or null at the first bad fragment (last error, with its file offset).
val CheckLogAt(uintptr_t data, size_t size, const std::string& format, double log_number) {
  const DbFormat f = format == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb;
  LogReader reader(View(data, size), f, static_cast<uint64_t>(log_number));
  LogRecord record;
  size_t records = 0;
  while (reader.Next(&record)) records++;
  if (!reader.status().ok()) {
    Fail(reader.status());
    return val::null();
  }
  val end = val::object();
  end.set("kind", std::string(LogEndKindName(reader.end().kind)));
  end.set("offset", static_cast<double>(reader.end().offset));
  end.set("what", reader.end().what);
  val out = val::object();
  out.set("records", records);
  out.set("end", end);
  return out;
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_log_check) {
  using namespace sstfilter::wasm;
  emscripten::function("checkLog", &CheckLogAt);
}
