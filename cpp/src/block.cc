#include "sstfilter/block.h"

#include <string>

namespace sstfilter {

std::optional<BlockHandle> DecodeBlockHandle(ByteView in, size_t* pos) {
  size_t p = *pos;
  auto offset = GetVarint64(in, &p);
  if (!offset) return std::nullopt;
  auto size = GetVarint64(in, &p);
  if (!size) return std::nullopt;
  *pos = p;
  return BlockHandle{*offset, *size};
}

Status ForEachBlockEntry(ByteView block, const BlockEntryVisitor& visit) {
  if (block.size() < 4) {
    return Status::Error(ErrorCode::kCorrupt, "block shorter than its restart count", 0);
  }
  const uint64_t num_restarts = DecodeFixed32(block.data() + block.size() - 4);
  const uint64_t trailer_bytes = 4 * (num_restarts + 1);
  if (trailer_bytes > block.size()) {
    return Status::Error(
        ErrorCode::kCorrupt,
        "block announces " + std::to_string(num_restarts) + " restarts, more than its size allows",
        static_cast<int64_t>(block.size() - 4));
  }
  const ByteView entries = block.first(block.size() - static_cast<size_t>(trailer_bytes));
  Bytes key;
  size_t pos = 0;
  while (pos < entries.size()) {
    const size_t entry_start = pos;
    auto shared = GetVarint32(entries, &pos);
    auto non_shared = shared ? GetVarint32(entries, &pos) : std::nullopt;
    auto value_size = non_shared ? GetVarint32(entries, &pos) : std::nullopt;
    if (!value_size) {
      return Status::Error(ErrorCode::kCorrupt, "bad entry header",
                           static_cast<int64_t>(entry_start));
    }
    if (*shared > key.size() || entries.size() - pos < uint64_t{*non_shared} + *value_size) {
      return Status::Error(ErrorCode::kCorrupt, "entry runs past the block or its key prefix",
                           static_cast<int64_t>(entry_start));
    }
    key.resize(*shared);
    key.insert(key.end(), entries.begin() + static_cast<std::ptrdiff_t>(pos),
               entries.begin() + static_cast<std::ptrdiff_t>(pos + *non_shared));
    pos += *non_shared;
    const ByteView value = entries.subspan(pos, *value_size);
    pos += *value_size;
    if (!visit(key, value)) break;
  }
  return Status::Ok();
}

}  // namespace sstfilter
