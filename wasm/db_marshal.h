// The public shapes of ts/api's database types that more than one binding builds (wasm/marshal.h
// conventions): defined in wasm/db_bindings.cc.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "sstfilter/db.h"

namespace sstfilter::wasm {

// "leveldb" is kLevelDb; anything else kRocksDb (ts/api validates the format).
DbFormat FormatNamed(const std::string& format);

// A table file's name as the folder `present` (a JavaScript Set of its names) holds it: "000012"
// and LevelDB's .ldb (the older .sst where only that one is present) or RocksDB's .sst.
std::string TableName(uint64_t number, DbFormat format, const emscripten::val& present);

// A WalRecord (ts/api/wal.ts).
emscripten::val WalRecordOf(const WalRecord& r);

}  // namespace sstfilter::wasm
