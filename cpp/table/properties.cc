#include "table/properties.h"

#include <algorithm>
#include <array>

#include "table/block.h"

namespace sstfilter {
namespace {

// predefined_uint64_properties of rocksdb table/meta_blocks.cc (v7.8.3, 11.8.1 and HEAD), whose
// values are varint64; releases after 7.8.3 added the restart intervals, the uniform-block and
// compression rejected/bypassed counts, separate_key_value_in_data_block and
// udi.is.primary.index. "rocksdb.deleted.keys" and "rocksdb.merge.operands" are among them although
// RocksDB also reports them as user-collected properties.
constexpr std::array<std::string_view, 36> kNumericProperties = {
    "rocksdb.column.family.id",
    "rocksdb.creation.time",
    "rocksdb.data.block.restart.interval",
    "rocksdb.data.size",
    "rocksdb.deleted.keys",
    "rocksdb.fast.compression.estimated.data.size",
    "rocksdb.file.creation.time",
    "rocksdb.filter.size",
    "rocksdb.fixed.key.length",
    "rocksdb.format.version",
    "rocksdb.index.block.restart.interval",
    "rocksdb.index.key.is.user.key",
    "rocksdb.index.partitions",
    "rocksdb.index.size",
    "rocksdb.index.value.is.delta.encoded",
    "rocksdb.key.largest.seqno",
    "rocksdb.key.smallest.seqno",
    "rocksdb.merge.operands",
    "rocksdb.newest.key.time",
    "rocksdb.num.data.blocks",
    "rocksdb.num.data.blocks.compression.bypassed",
    "rocksdb.num.data.blocks.compression.rejected",
    "rocksdb.num.entries",
    "rocksdb.num.filter_entries",
    "rocksdb.num.range-deletions",
    "rocksdb.num.uniform.blocks",
    "rocksdb.oldest.key.time",
    "rocksdb.original.file.number",
    "rocksdb.raw.key.size",
    "rocksdb.raw.value.size",
    "rocksdb.separate.key.value.in.data.block",
    "rocksdb.slow.compression.estimated.data.size",
    "rocksdb.tail.start.offset",
    "rocksdb.top-level.index.size",
    "rocksdb.udi.is.primary.index",
    "rocksdb.user.defined.timestamps.persisted",
};

bool IsNumericProperty(std::string_view name) {
  return std::find(kNumericProperties.begin(), kNumericProperties.end(), name) !=
         kNumericProperties.end();
}

bool IsPrintable(ByteView bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t c) { return c >= 0x20 && c < 0x7f; });
}

}  // namespace

Status TableProperties::Decode(ByteView block, TableProperties* out) {
  out->properties_.clear();
  return ForEachKeptBlockEntry(
      block, BlockFlavor::kRocksDb, [&](ByteView key, ByteView value, size_t /*entry_offset*/) {
        TableProperty p;
        p.name.assign(key.begin(), key.end());
        p.bytes.assign(value.begin(), value.end());
        p.value_offset = static_cast<size_t>(value.data() - block.data());
        size_t pos = 0;
        std::optional<uint64_t> number;
        if (IsNumericProperty(p.name)) number = GetVarint64(value, &pos);
        if (number && pos == value.size()) {
          p.kind = TableProperty::Kind::kNumber;
          p.number = *number;
        } else {
          p.kind = IsPrintable(value) ? TableProperty::Kind::kText : TableProperty::Kind::kBinary;
        }
        out->properties_.push_back(std::move(p));
        return Status::Ok();
      });
}

const TableProperty* TableProperties::Find(std::string_view name) const {
  for (const TableProperty& p : properties_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::optional<uint64_t> TableProperties::Number(std::string_view name) const {
  const TableProperty* p = Find(name);
  if (p == nullptr || p->kind != TableProperty::Kind::kNumber) return std::nullopt;
  return p->number;
}

std::optional<std::string> TableProperties::Text(std::string_view name) const {
  const TableProperty* p = Find(name);
  if (p == nullptr) return std::nullopt;
  return std::string(p->bytes.begin(), p->bytes.end());
}

}  // namespace sstfilter
