#include "table/block.h"

#include <cstring>
#include <string>

namespace sstfilter {
namespace {

// RocksDB table/block_based/data_block_footer.cc. Bit 29 (kUniformKeysBit) only steers the search
// of an index block (index_block_search_type = kAuto): it changes no byte a reader decodes, so it
// is masked off with the restart count like the others.
constexpr uint32_t kHashIndexFlag = 1u << 31;
constexpr uint32_t kReservedFlag = 1u << 30;
constexpr uint32_t kValuesApartFlag = 1u << 28;
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
  bool values_apart = false;
  size_t values_offset = 0;
  size_t values_offset_at = 0;
  if (flavor == BlockFlavor::kRocksDb) {
    if (packed & kReservedFlag) {
      return Status::Error(ErrorCode::kUnsupported,
                           "block uses a footer flag of a newer RocksDB (bit 30, reserved in 11.x)",
                           static_cast<int64_t>(end));
    }
    num_restarts = packed & kRocksDbRestartMask;
    // DataBlockFooter::EncodeTo writes the values section's offset just before the packed word,
    // so it comes off first and the hash index (written before it) ends where it starts.
    if (packed & kValuesApartFlag) {
      if (end < 4) return Corrupt("block too short for its values-section offset", 0);
      end -= 4;
      values_apart = true;
      values_offset_at = end;
      values_offset = DecodeFixed32(block.data() + end);
    }
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
  // Block::Block: a values section may be empty but may not reach into the restart array.
  if (values_apart && values_offset > layout->restarts_offset) {
    return Corrupt("values section starts past the restart array", values_offset_at);
  }
  // Both readers treat a block without restart points as empty (NewEmptyIterator).
  layout->values_apart = values_apart && num_restarts != 0;
  layout->entries_size =
      num_restarts == 0 ? 0 : (values_apart ? values_offset : layout->restarts_offset);
  return Status::Ok();
}

uint32_t RestartOffset(ByteView block, const BlockLayout& layout, uint32_t i) {
  return DecodeFixed32(block.data() + layout.restarts_offset + 4 * size_t{i});
}

BlockEntryDecoder::BlockEntryDecoder(ByteView block, const BlockLayout& layout,
                                     bool values_have_length)
    : block_(block),
      entries_(block.first(layout.entries_size)),
      layout_(layout),
      values_have_length_(values_have_length) {
  if (layout.values_apart) {
    values_ = block.subspan(layout.entries_size, layout.restarts_offset - layout.entries_size);
  }
}

void BlockEntryDecoder::SeekTo(size_t offset) {
  next_ = offset;
  key_size_ = 0;
  values_next_ = 0;
  next_restart_ = 0;
}

bool BlockEntryDecoder::AtRestart(size_t offset) {
  // Entries are visited in order, so the restart points passed stay passed (a restart array out
  // of order only makes entries miss their offsets, which their values then fail to fit).
  while (next_restart_ < layout_.num_restarts &&
         RestartOffset(block_, layout_, next_restart_) < offset) {
    ++next_restart_;
  }
  return next_restart_ < layout_.num_restarts &&
         RestartOffset(block_, layout_, next_restart_) == offset;
}

Status BlockEntryDecoder::Next() {
  size_t pos = next_;
  entry_offset_ = pos;
  auto shared = GetVarint32(entries_, &pos);
  auto non_shared = shared ? GetVarint32(entries_, &pos) : std::nullopt;
  std::optional<uint32_t> value_size = 0;
  if (non_shared && values_have_length_) value_size = GetVarint32(entries_, &pos);
  if (!non_shared || !value_size) return Corrupt("bad entry header", entry_offset_);
  // block.cc ParseNextKey: a restart entry's value starts where it says, any other one right after
  // the previous value.
  size_t value_start = values_next_;
  if (layout_.values_apart && AtRestart(entry_offset_)) {
    auto offset = GetVarint32(entries_, &pos);
    if (!offset) return Corrupt("bad entry header", entry_offset_);
    value_start = *offset;
  }
  const uint64_t inline_value = layout_.values_apart ? 0 : *value_size;
  if (*shared > key_size_ || entries_.size() - pos < uint64_t{*non_shared} + inline_value) {
    return Corrupt("entry runs past the block or its key prefix", entry_offset_);
  }
  shared_ = *shared;
  // The key's buffer only grows (to the longest key so far), so most entries cost one copy of
  // their unshared bytes: resizing it per entry cost a twentieth of a wasm key walk.
  key_size_ = size_t{*shared} + *non_shared;
  if (key_.size() < key_size_) key_.resize(key_size_);
  CopyShortBytes(key_.data() + *shared, entries_.data() + pos, *non_shared);
  value_offset_ = pos + *non_shared;
  if (layout_.values_apart) {
    if (value_start > values_.size() || values_.size() - value_start < *value_size) {
      return Corrupt("value runs past the values section", entry_offset_);
    }
    value_ = values_.subspan(value_start, *value_size);
    values_next_ = value_start + *value_size;
    next_ = value_offset_;
    return Status::Ok();
  }
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
  BlockEntryDecoder decoder(block, layout, /*values_have_length=*/true);
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
  BlockEntryDecoder decoder(block, layout, /*values_have_length=*/true);
  while (!decoder.AtEnd()) {
    if (Status s = decoder.Next(); !s.ok()) return s;
    if (!visit(decoder.key(), decoder.value())) break;
  }
  return Status::Ok();
}

}  // namespace sstfilter
