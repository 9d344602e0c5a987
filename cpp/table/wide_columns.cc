// Wide-column entities (docs/FORMATS.md 3.10.2): the value of a kTypeWideColumnEntity entry
// (rocksdb db/wide/wide_column_serialization.{h,cc}). Version 1 (0 reads the same): a column
// count, each column's length-prefixed name and value size, then the values. Version 2 (RocksDB
// 10.x and later): the count, three section sizes, a type byte per column, then the name sizes,
// the value sizes, the names and the values, each section whole.
#include <algorithm>
#include <string>

#include "sstfilter/values.h"

namespace sstfilter {
namespace {

constexpr uint8_t kTypeValue = 0x01;      // rocksdb db/dbformat.h ValueType
constexpr uint8_t kTypeBlobIndex = 0x11;  // the only other type a column may have (main)

Status Corrupt(std::string message, size_t at) {
  return Status::Error(ErrorCode::kCorrupt, "wide-column entity: " + std::move(message),
                       static_cast<int64_t>(at));
}

// Names must ascend strictly (bytewise, shorter first on a common prefix).
Status CheckOrder(const std::vector<WideColumn>& columns, ByteView name, size_t at) {
  if (!columns.empty() &&
      !std::lexicographical_compare(columns.back().name.begin(), columns.back().name.end(),
                                    name.begin(), name.end())) {
    return Corrupt("column names out of order", at);
  }
  return Status::Ok();
}

Status DecodeVersion1(ByteView in, size_t pos, uint32_t count, std::vector<WideColumn>* out) {
  // Each column needs at least a name length and a value size: a larger count cannot be right,
  // and this bounds what is reserved.
  if (count > (in.size() - pos) / 2) return Corrupt("more columns than bytes", pos);
  out->reserve(count);
  std::vector<uint32_t> value_sizes;
  value_sizes.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = pos;
    const auto name_size = GetVarint32(in, &pos);
    if (!name_size || *name_size > in.size() - pos) return Corrupt("truncated column name", at);
    const ByteView name = in.subspan(pos, *name_size);
    if (Status s = CheckOrder(*out, name, at); !s.ok()) return s;
    pos += *name_size;
    const size_t size_at = pos;
    const auto value_size = GetVarint32(in, &pos);
    if (!value_size) return Corrupt("truncated column value size", size_at);
    out->push_back(WideColumn{name, {}, std::nullopt});
    value_sizes.push_back(*value_size);
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (value_sizes[i] > in.size() - pos) return Corrupt("truncated column value", pos);
    (*out)[i].value = in.subspan(pos, value_sizes[i]);
    pos += value_sizes[i];
  }
  if (pos != in.size()) return Corrupt("bytes after the last value", pos);
  return Status::Ok();
}

Status DecodeVersion2(ByteView in, size_t pos, uint32_t count, std::vector<WideColumn>* out) {
  uint32_t section_sizes[3];  // name sizes, value sizes, names
  for (uint32_t& size : section_sizes) {
    const size_t at = pos;
    const auto v = GetVarint32(in, &pos);
    if (!v) return Corrupt("truncated section sizes", at);
    size = *v;
  }
  if (count > in.size() - pos) return Corrupt("truncated column types", pos);
  const ByteView types = in.subspan(pos, count);
  for (uint32_t i = 0; i < count; ++i) {
    if (types[i] != kTypeValue && types[i] != kTypeBlobIndex) {
      return Corrupt("column type " + std::to_string(types[i]), pos + i);
    }
  }
  pos += count;
  if (uint64_t{section_sizes[0]} + section_sizes[1] + section_sizes[2] > in.size() - pos) {
    return Corrupt("sections longer than the value", pos);
  }
  const ByteView name_sizes = in.subspan(pos, section_sizes[0]);
  const ByteView value_sizes = in.subspan(pos + section_sizes[0], section_sizes[1]);
  const size_t names_at = pos + section_sizes[0] + section_sizes[1];
  const ByteView names = in.subspan(names_at, section_sizes[2]);
  const size_t values_at = names_at + section_sizes[2];
  const ByteView values = in.subspan(values_at);
  out->reserve(count);  // count <= the type bytes present
  size_t name_size_pos = 0, value_size_pos = 0, name_pos = 0, value_pos = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t name_size_at = name_size_pos;
    const auto name_size = GetVarint32(name_sizes, &name_size_pos);
    if (!name_size) return Corrupt("truncated column name size", pos + name_size_at);
    const size_t value_size_at = value_size_pos;
    const auto value_size = GetVarint32(value_sizes, &value_size_pos);
    if (!value_size) {
      return Corrupt("truncated column value size", pos + section_sizes[0] + value_size_at);
    }
    if (*name_size > names.size() - name_pos) {
      return Corrupt("truncated column name", names_at + name_pos);
    }
    const ByteView name = names.subspan(name_pos, *name_size);
    if (Status s = CheckOrder(*out, name, names_at + name_pos); !s.ok()) return s;
    if (*value_size > values.size() - value_pos) {
      return Corrupt("truncated column value", values_at + value_pos);
    }
    WideColumn column{name, values.subspan(value_pos, *value_size), std::nullopt};
    if (types[i] == kTypeBlobIndex) {
      BlobIndex blob_index;
      if (Status s = DecodeBlobIndex(column.value, &blob_index); !s.ok()) {
        return Corrupt("column blob index: " + s.message(),
                       values_at + value_pos + static_cast<size_t>(s.offset()));
      }
      column.blob_index = blob_index;
    }
    out->push_back(column);
    name_pos += *name_size;
    value_pos += *value_size;
  }
  if (name_size_pos != name_sizes.size() || value_size_pos != value_sizes.size() ||
      name_pos != names.size()) {
    return Corrupt("section sizes disagree with the columns", pos);
  }
  if (value_pos != values.size())
    return Corrupt("bytes after the last value", values_at + value_pos);
  return Status::Ok();
}

}  // namespace

Status DecodeWideColumns(ByteView value, std::vector<WideColumn>* out) {
  out->clear();
  size_t pos = 0;
  const auto version = GetVarint32(value, &pos);
  if (!version) return Corrupt("truncated version", 0);
  if (*version > 2) return Corrupt("unknown version " + std::to_string(*version), 0);
  const size_t count_at = pos;
  const auto count = GetVarint32(value, &pos);
  if (!count) return Corrupt("truncated column count", count_at);
  const Status s = *version < 2 ? DecodeVersion1(value, pos, *count, out)
                                : DecodeVersion2(value, pos, *count, out);
  if (!s.ok()) out->clear();
  return s;
}

void EncodeWideColumns(const std::vector<WideColumn>& columns, Bytes* out) {
  const auto u32 = [](size_t n) { return static_cast<uint32_t>(n); };
  const bool with_blobs = std::any_of(columns.begin(), columns.end(),
                                      [](const WideColumn& c) { return c.blob_index.has_value(); });
  PutVarint64(out, with_blobs ? 2 : 1);
  PutVarint64(out, u32(columns.size()));
  if (!with_blobs) {
    for (const WideColumn& c : columns) {
      PutVarint64(out, u32(c.name.size()));
      out->insert(out->end(), c.name.begin(), c.name.end());
      PutVarint64(out, u32(c.value.size()));
    }
  } else {
    // The three sections sized first: they precede the sections themselves.
    Bytes name_sizes, value_sizes;
    size_t names_bytes = 0;
    for (const WideColumn& c : columns) {
      PutVarint64(&name_sizes, u32(c.name.size()));
      PutVarint64(&value_sizes, u32(c.value.size()));
      names_bytes += c.name.size();
    }
    PutVarint64(out, u32(name_sizes.size()));
    PutVarint64(out, u32(value_sizes.size()));
    PutVarint64(out, u32(names_bytes));
    for (const WideColumn& c : columns) out->push_back(c.blob_index ? kTypeBlobIndex : kTypeValue);
    out->insert(out->end(), name_sizes.begin(), name_sizes.end());
    out->insert(out->end(), value_sizes.begin(), value_sizes.end());
    for (const WideColumn& c : columns) out->insert(out->end(), c.name.begin(), c.name.end());
  }
  for (const WideColumn& c : columns) out->insert(out->end(), c.value.begin(), c.value.end());
}

}  // namespace sstfilter
