#include "table/properties_builder.h"

#include <cstdint>

#include "table/block_builder.h"

namespace sstfilter {

void PropertiesBuilder::AddNumber(const std::string& name, uint64_t value) {
  Bytes encoded;
  PutVarint64(&encoded, value);
  properties_.emplace(name, std::move(encoded));
}

void PropertiesBuilder::AddBytes(const std::string& name, ByteView value) {
  properties_.emplace(name, Bytes(value.begin(), value.end()));
}

void PropertiesBuilder::AddText(const std::string& name, std::string_view value) {
  properties_.emplace(name, Bytes(value.begin(), value.end()));
}

void PropertiesBuilder::Finish(Bytes* out) const {
  BlockBuilder block(INT32_MAX);
  for (const auto& [name, value] : properties_) {
    block.Add(BytesOf(name), value);
  }
  block.Finish(out);
}

}  // namespace sstfilter
