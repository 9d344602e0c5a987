// A whole file in memory as LevelDB 1.23 reads files (leveldb::RandomAccessFile), for the tests
// that hand our writer's tables to LevelDB itself.
#pragma once

#include <leveldb/env.h>

#include <algorithm>
#include <cstdint>

#include "sstfilter/bytes.h"

namespace sstfilter {

class LevelDbMemoryFile final : public leveldb::RandomAccessFile {
 public:
  explicit LevelDbMemoryFile(const Bytes& bytes) : bytes_(bytes) {}
  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* /*scratch*/) const override {
    if (offset > bytes_.size()) return leveldb::Status::IOError("read past the end");
    const size_t available = std::min<size_t>(n, bytes_.size() - offset);
    *result = leveldb::Slice(reinterpret_cast<const char*>(bytes_.data()) + offset, available);
    return leveldb::Status::OK();
  }

 private:
  const Bytes& bytes_;
};

}  // namespace sstfilter
