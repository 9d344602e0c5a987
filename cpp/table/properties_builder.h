// The RocksDB properties block a writer stores (docs/FORMATS.md 3.11.3; rocksdb
// table/meta_blocks.cc PropertyBlockBuilder, 7.8.3): name -> value sorted bytewise by name, the
// first value given for a name kept, numbers as varint64, in one block that restarts only at its
// first entry (the restart interval is INT32_MAX: the block is read sequentially).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "sstfilter/bytes.h"

namespace sstfilter {

class PropertiesBuilder {
 public:
  void AddNumber(const std::string& name, uint64_t value);
  void AddBytes(const std::string& name, ByteView value);
  void AddText(const std::string& name, std::string_view value);
  // The block contents.
  void Finish(Bytes* out) const;

 private:
  std::map<std::string, Bytes> properties_;
};

}  // namespace sstfilter
