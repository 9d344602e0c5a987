// The RocksDB properties block (docs/FORMATS.md 3.6.5; rocksdb table/meta_blocks.cc
// ReadTablePropertiesHelper, table/table_properties.cc): a key/value block of name -> value,
// sorted bytewise. Values of the predefined numeric properties are varint64; everything else is
// bytes, most of them text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "sstfilter/table.h"

namespace sstfilter {

class TableProperties {
 public:
  // Decodes every entry: predefined numeric properties whose value is a whole varint64 become
  // numbers (a malformed one stays binary, as upstream skips it); printable ASCII becomes text;
  // anything else stays binary. Errors carry offsets within the block.
  static Status Decode(ByteView block, TableProperties* out);

  const std::vector<TableProperty>& all() const { return properties_; }
  const TableProperty* Find(std::string_view name) const;
  std::optional<uint64_t> Number(std::string_view name) const;
  std::optional<std::string> Text(std::string_view name) const;

 private:
  std::vector<TableProperty> properties_;
};

}  // namespace sstfilter
