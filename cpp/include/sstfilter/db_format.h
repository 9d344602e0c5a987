// Which library wrote a database's files: LevelDB and RocksDB share the log, MANIFEST and write
// batch formats (docs/FORMATS.md 6) but accept different record types and tags.
#pragma once

#include <cstdint>

namespace sstfilter {

// Which library wrote a database: it decides the log record types and VersionEdit tags accepted.
enum class DbFormat : uint8_t { kLevelDb, kRocksDb };

// "leveldb" | "rocksdb".
const char* DbFormatName(DbFormat format);

}  // namespace sstfilter
