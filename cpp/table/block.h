// Block contents shared by LevelDB and RocksDB tables (docs/FORMATS.md 3.1, 3.3): block handles and
// the prefix-compressed key/value entries followed by a restart array.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "sstfilter/table.h"
#include "table/compression.h"

namespace sstfilter {

// varint64 offset, varint64 size.
std::optional<BlockHandle> DecodeBlockHandle(ByteView in, size_t* pos);

// How the last word of a block is read. LevelDB (table/block.cc) uses all 32 bits as the restart
// count. RocksDB (table/block_based/data_block_footer.cc) packs flags into the top bits: bit 31 =
// a data-block hash index sits between the restarts and the footer (v7.8.3 on); from 11.0 bit 30
// is reserved, bit 29 marks an index block whose keys look uniform (a search hint, read past) and
// bit 28 a data block whose values lie apart from its keys (docs/FORMATS.md 3.3.1).
enum class BlockFlavor : uint8_t { kLevelDb, kRocksDb };

// Where the entries of a block end and its restart array lies.
struct BlockLayout {
  size_t entries_size = 0;  // entries (or, with values apart, their keys) occupy [0, entries_size)
  size_t restarts_offset = 0;  // fixed32 restart offsets start here
  uint32_t num_restarts = 0;
  // RocksDB 11 separate_key_value_in_data_block: the values of the entries are the section
  // [entries_size, restarts_offset), and restart entries say where theirs starts in it.
  bool values_apart = false;
};

// Validates the restart array (and a RocksDB hash index' extent and values section) before
// anything is read from it: a restart count or values section the block cannot hold is kCorrupt,
// flags this reader does not know are kUnsupported. Offsets in errors are within the block.
Status ParseBlockLayout(ByteView block, BlockFlavor flavor, BlockLayout* layout);

// Offset of restart point `i` (< num_restarts) within the block; not validated against the
// entries (the decoder checks every offset it is given).
uint32_t RestartOffset(ByteView block, const BlockLayout& layout, uint32_t i);

// Decodes entries one after another: varint32 shared, varint32 non_shared, [varint32
// value_length], key delta, value. RocksDB index blocks with delta-encoded values have no value
// length (docs/FORMATS.md 2.13); their values delimit themselves, so the caller says how many value
// bytes it consumed. With values apart (BlockLayout::values_apart) an entry is its header and key
// only: a restart entry adds varint32 value_offset into the values section, and every other value
// follows the previous one there (docs/FORMATS.md 3.3.1).
class BlockEntryDecoder {
 public:
  // `block` whole, as `layout` describes it. Values apart need value lengths: RocksDB only lays
  // out data blocks that way (block_based_table_builder.cc), so index blocks never are.
  BlockEntryDecoder(ByteView block, const BlockLayout& layout, bool values_have_length);

  // Continues at `offset`, which must be a restart point (an entry with shared == 0).
  void SeekTo(size_t offset);
  bool AtEnd() const { return next_ >= entries_.size(); }

  // Decodes the entry at the current position. Errors carry the entry's offset in the block.
  Status Next();

  ByteView key() const { return ByteView(key_).first(key_size_); }
  // The value; without value lengths, every byte from the value's start to the end of the entries.
  ByteView value() const { return value_; }
  uint32_t shared() const { return shared_; }
  // The key's bytes past shared(), where the block holds them: a reader that needs only those
  // reads them there, not back from the key just rebuilt (table_cursor.cc CheckEntryOrder).
  ByteView unshared() const {
    return entries_.subspan(value_offset_ - (key_size_ - shared_), key_size_ - shared_);
  }
  size_t entry_offset() const { return entry_offset_; }
  // Where the next entry starts (past the current one).
  size_t next_offset() const { return next_; }
  // Blocks without value lengths: the value of the current entry was `n` bytes long.
  void ConsumeValue(size_t n) { next_ = value_offset_ + n; }

 private:
  // Values apart: whether the entry at `offset` is a restart point, whose header names where its
  // value starts. BlockBuilder starts a restart interval exactly where it writes that offset.
  bool AtRestart(size_t offset);
  Status NextApart(size_t pos, uint32_t shared, uint32_t non_shared, uint32_t value_size);

  ByteView block_;
  ByteView entries_;
  BlockLayout layout_;
  bool values_have_length_;
  ByteView values_;            // the values section, when values are apart
  size_t values_next_ = 0;     // where in it the next value without an offset starts
  uint32_t next_restart_ = 0;  // the first restart point not before the current entry
  size_t next_ = 0;
  size_t entry_offset_ = 0;
  size_t value_offset_ = 0;
  uint32_t shared_ = 0;
  Bytes key_;  // the current key in its first key_size_ bytes
  size_t key_size_ = 0;
  ByteView value_;
};

// Keeping every entry of a block can cost far more memory than the block: each key is rebuilt from
// its predecessor's prefix, so n bytes of entries sharing a long prefix rebuild O(n^2) bytes of
// keys, and each entry kept costs bookkeeping of its own. Whoever keeps all entries of a block (a
// key cursor, the metaindex, the properties, the filter partitions) charges each one here; past
// kMaxBlockBytes, the most a decompressed block may hold, that is kResourceLimit.
class EntryBudget {
 public:
  // Charged per entry on top of its bytes, so that blocks of many tiny entries are bounded too
  // (the core keeps an offset or an object per entry, JavaScript an object per key).
  static constexpr uint64_t kEntryOverhead = 64;

  // Charges an entry of `bytes` bytes at `offset` within its block (the error's offset). Inline:
  // a walk charges every entry of the table. `bytes` is 64-bit as an embedded blob record's size
  // comes from a file offset (a blob index's varint64), which a 32-bit size_t could truncate.
  Status Charge(uint64_t bytes, size_t offset) {
    used_ += bytes + kEntryOverhead;
    return used_ <= kMaxBlockBytes ? Status::Ok() : OverBudget(offset);
  }

 private:
  static Status OverBudget(size_t offset);

  uint64_t used_ = 0;
};

// Visits the entries of a block whose every entry the caller keeps (the properties, the range
// deletions): each is charged to an EntryBudget (key and value bytes) before `visit(key, value,
// entry_offset)` sees it; an error from `visit` stops the walk and is returned. Errors carry the
// offset within the block.
using KeptEntryVisitor = std::function<Status(ByteView key, ByteView value, size_t entry_offset)>;
Status ForEachKeptBlockEntry(ByteView block, BlockFlavor flavor, const KeptEntryVisitor& visit);

// Visits the entries of an uncompressed block in order, rebuilding each full key from its shared
// prefix. `visit` returns false to stop early. Errors carry the offset within the block.
using BlockEntryVisitor = std::function<bool(ByteView key, ByteView value)>;
Status ForEachBlockEntry(ByteView block, const BlockEntryVisitor& visit,
                         BlockFlavor flavor = BlockFlavor::kLevelDb);

}  // namespace sstfilter
