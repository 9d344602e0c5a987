#include "table/block.h"

#include <cstring>
#include <string>

namespace sstfilter {
namespace {

constexpr uint32_t kHashIndexFlag = 1u << 31;
constexpr uint32_t kReservedFlag = 1u << 30;
constexpr uint32_t kSeparatedKeyValueFlag = 1u << 28;
constexpr uint32_t kRocksDbRestartMask = (1u << 28) - 1;

Status Corrupt(std::string message, size_t offset) {
  return Status::Error(ErrorCode::kCorrupt, std::move(message), static_cast<int64_t>(offset));
}

}  // namespace

std::optional<BlockHandle> DecodeBlockHandle(ByteView in, size_t* pos) {
  size_t p = *pos;
  auto offset = GetVarint64(in, &p);
  if (!offset) return std::nullopt;
  auto size = GetVarint64(in, &p);
  if (!size) return std::nullopt;
  *pos = p;
  return BlockHandle{*offset, *size};
}

Status ParseBlockLayout(ByteView block, BlockFlavor flavor, BlockLayout* layout) {
  if (block.size() < 4) return Corrupt("block shorter than its restart count", 0);
  size_t end = block.size() - 4;
  const uint32_t packed = DecodeFixed32(block.data() + end);
  uint64_t num_restarts = packed;
  if (flavor == BlockFlavor::kRocksDb) {
    if (packed & (kReservedFlag | kSeparatedKeyValueFlag)) {
      return Status::Error(ErrorCode::kUnsupported,
                           "block uses a footer flag of a newer RocksDB (reserved or separated "
                           "key/value layout)",
                           static_cast<int64_t>(end));
    }
    num_restarts = packed & kRocksDbRestartMask;
    if (packed & kHashIndexFlag) {
      // DataBlockHashIndex: u8 buckets[num_buckets], fixed16 num_buckets, then the packed word.
      if (end < 2) return Corrupt("block too short for its hash index", end);
      const size_t num_buckets = DecodeFixed16(block.data() + end - 2);
      if (end - 2 < num_buckets) return Corrupt("hash index larger than its block", end - 2);
      end -= 2 + num_buckets;
    }
  }
  if (4 * num_restarts > end) {
    return Corrupt(
        "block announces " + std::to_string(num_restarts) + " restarts, more than its size allows",
        block.size() - 4);
  }
  layout->num_restarts = static_cast<uint32_t>(num_restarts);
  layout->restarts_offset = end - static_cast<size_t>(4 * num_restarts);
  // Both readers treat a block without restart points as empty (NewEmptyIterator).
  layout->entries_size = num_restarts == 0 ? 0 : layout->restarts_offset;
  return Status::Ok();
}

uint32_t RestartOffset(ByteView block, const BlockLayout& layout, uint32_t i) {
  return DecodeFixed32(block.data() + layout.restarts_offset + 4 * size_t{i});
}

void BlockEntryDecoder::SeekTo(size_t offset) {
  next_ = offset;
  key_size_ = 0;
}

Status BlockEntryDecoder::Next() {
  size_t pos = next_;
  entry_offset_ = pos;
  auto shared = GetVarint32(entries_, &pos);
  auto non_shared = shared ? GetVarint32(entries_, &pos) : std::nullopt;
  std::optional<uint32_t> value_size = 0;
  if (non_shared && values_have_length_) value_size = GetVarint32(entries_, &pos);
  if (!non_shared || !value_size) return Corrupt("bad entry header", entry_offset_);
  if (*shared > key_size_ || entries_.size() - pos < uint64_t{*non_shared} + *value_size) {
    return Corrupt("entry runs past the block or its key prefix", entry_offset_);
  }
  shared_ = *shared;
  // The key's buffer only grows (to the longest key so far), so most entries cost one copy of
  // their unshared bytes: resizing it per entry cost a twentieth of a wasm key walk.
  key_size_ = size_t{*shared} + *non_shared;
  if (key_.size() < key_size_) key_.resize(key_size_);
  CopyShortBytes(key_.data() + *shared, entries_.data() + pos, *non_shared);
  value_offset_ = pos + *non_shared;
  value_ = values_have_length_ ? entries_.subspan(value_offset_, *value_size)
                               : entries_.subspan(value_offset_);
  next_ = value_offset_ + value_.size();
  return Status::Ok();
}

Status EntryBudget::OverBudget(size_t offset) {
  return Status::Error(ErrorCode::kResourceLimit,
                       "the entries of this block take more than " +
                           std::to_string(kMaxBlockBytes) + " bytes to keep",
                       static_cast<int64_t>(offset));
}

Status ForEachKeptBlockEntry(ByteView block, BlockFlavor flavor, const KeptEntryVisitor& visit) {
  BlockLayout layout;
  if (Status s = ParseBlockLayout(block, flavor, &layout); !s.ok()) return s;
  BlockEntryDecoder decoder(block.first(layout.entries_size), /*values_have_length=*/true);
  EntryBudget budget;
  while (!decoder.AtEnd()) {
    if (Status s = decoder.Next(); !s.ok()) return s;
    const size_t bytes = decoder.key().size() + decoder.value().size();
    if (Status s = budget.Charge(bytes, decoder.entry_offset()); !s.ok()) return s;
    if (Status s = visit(decoder.key(), decoder.value(), decoder.entry_offset()); !s.ok()) return s;
  }
  return Status::Ok();
}

Status ForEachBlockEntry(ByteView block, const BlockEntryVisitor& visit, BlockFlavor flavor) {
  BlockLayout layout;
  if (Status s = ParseBlockLayout(block, flavor, &layout); !s.ok()) return s;
  BlockEntryDecoder decoder(block.first(layout.entries_size), /*values_have_length=*/true);
  while (!decoder.AtEnd()) {
    if (Status s = decoder.Next(); !s.ok()) return s;
    if (!visit(decoder.key(), decoder.value())) break;
  }
  return Status::Ok();
}

}  // namespace sstfilter
