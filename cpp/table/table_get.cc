// TableGet (sstfilter/table_get.h): a table's point lookup over the reader's filter, the
// range-deletion block and a TableCursor limited to the key (whose index walk skips to the key's
// block, as the index seek of Table::InternalGet does).
#include "sstfilter/table_get.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "table/block_fetcher.h"
#include "table/table_reader.h"

namespace sstfilter {

struct TableGet::Steps {
  explicit Steps(const OpenedTable& table) : range_fetcher(&table.file) {}

  BlockFetcher range_fetcher;
  // The range-deletion block while it is still to be read.
  std::optional<BlockHandle> range_block;
  // Where blocks are looked up first, the table's name there, and whether the cache was asked
  // for the range-deletion block and did not hold it.
  BlockCache* cache = nullptr;
  BlockCacheTable cache_table;
  bool range_missed = false;
  // The walk over the key's data blocks while it runs; null once done or when the filter said no.
  std::unique_ptr<TableCursor> cursor;
  bool done = false;
};

TableGet::TableGet(const TableReader& table, ByteView user_key, const TableReadOptions& read)
    : table_(table.table_),
      user_key_(user_key.begin(), user_key.end()),
      steps_(std::make_unique<Steps>(*table_)) {
  if (const Comparator* order = table_->comparator_ref.get()) {
    timestamp_size_ = order->timestamp_size() + table_->stripped_timestamp_size;
  }
  if (const MetaindexEntry* block = table_->FindMeta(kRangeDeletionsBlock)) {
    steps_->range_block = block->handle;
  }
  steps_->cache = read.block_cache;
  steps_->cache_table =
      read.cache_table.owner != 0 ? read.cache_table : BlockCacheTable{table_->cache_id, 0};
  // The filter is in memory once the table is open: it answers before any read.
  bool may_match = true;
  filter_status_ = table.MayContain(user_key, &may_match, &trace_, read);
  filtered_out_ = !may_match;
  if (!filter_status_.ok() || filtered_out_) return;
  steps_->cursor = std::make_unique<TableCursor>(table, TableCursor::Content::kEntries);
  EntryRange range;
  range.from = user_key_;
  range.exact = true;
  filter_status_ = steps_->cursor->SetEntryRange(std::move(range));
  steps_->cursor->SetBlockCache(steps_->cache, steps_->cache_table);
}

TableGet::~TableGet() = default;

bool TableGet::done() const { return steps_->done; }

BlockFetcher& TableGet::fetcher() const {
  return steps_->cursor && !steps_->range_block ? steps_->cursor->fetcher() : steps_->range_fetcher;
}

Status TableGet::Advance() {
  if (!filter_status_.ok()) return filter_status_;
  Steps& steps = *steps_;
  if (steps.range_block) {
    if (Status s = ReadRangeDeletions(); !s.ok() || steps.range_block) return s;
  }
  while (steps.cursor) {
    if (Status s = steps.cursor->Advance(); !s.ok()) return s;
    if (steps.cursor->need() != IoNeed::kNothing) return Status::Ok();
    TakeBatch();
    if (steps.cursor->at_end()) steps.cursor.reset();
  }
  steps.done = true;
  return Status::Ok();
}

// Leaves range_block set while the driver is needed.
Status TableGet::ReadRangeDeletions() {
  Steps& steps = *steps_;
  const BlockHandle handle = *steps.range_block;
  if (steps.cache != nullptr && !steps.range_missed) {
    if (const std::shared_ptr<const CachedBlock> cached =
            steps.cache->Lookup(steps.cache_table, handle.offset, handle.size)) {
      if (Status s = OnRangeDeletions(cached->contents, cached->compressed); !s.ok()) return s;
      steps.range_block.reset();
      return Status::Ok();
    }
    steps.range_missed = true;
  }
  std::optional<Bytes> contents;
  Status s = steps.range_fetcher.Fetch(handle, BlockKind::kMeta, &contents);
  if (!s.ok() || !contents) return s;
  const bool compressed = steps.range_fetcher.trailer()[0] != 0;
  if (s = OnRangeDeletions(*contents, compressed); !s.ok()) return s;
  if (steps.cache != nullptr) {
    contents->shrink_to_fit();  // the cache charges what the contents hold
    steps.cache->Insert(
        steps.cache_table, handle.offset, handle.size,
        std::make_shared<const CachedBlock>(CachedBlock{std::move(*contents), compressed}));
  }
  steps.range_block.reset();
  return Status::Ok();
}

Status TableGet::OnRangeDeletions(const Bytes& contents, bool compressed) {
  std::vector<RangeDeletion> all;
  if (Status s = DecodeRangeDeletions(contents, &all); !s.ok()) {
    // Offsets inside a decompressed block mean nothing in the file: name the block instead.
    const uint64_t inner = s.offset() < 0 || compressed ? 0 : static_cast<uint64_t>(s.offset());
    return Status::Error(s.code(), s.message() + " (range_del block)",
                         static_cast<int64_t>(steps_->range_block->offset + inner));
  }
  covering_.clear();
  if (all.empty()) return Status::Ok();
  const Comparator* order = table_->comparator_ref.get();
  if (order == nullptr) {
    return Status::Error(ErrorCode::kUnsupported,
                         "get: which range deletions cover a key needs the order of the table's "
                         "keys (" +
                             UnknownOrderText(*table_) + ")");
  }
  // A tombstone's keys carry the timestamp its user keys do (rocksdb db/dbformat.h), unless the
  // writer stripped them; which keys it covers is a matter of the user keys alone, a read at the
  // largest timestamp seeing every one.
  const size_t stored_timestamp_size = order->timestamp_size();
  auto without_timestamp = [&](const Bytes& key) {
    const ByteView view(key);
    return view.size() >= stored_timestamp_size ? view.first(view.size() - stored_timestamp_size)
                                                : view;
  };
  const ByteView key(user_key_);
  for (RangeDeletion& d : all) {
    if (order->Compare(without_timestamp(d.start), key) <= 0 &&
        order->Compare(key, without_timestamp(d.end)) < 0) {
      covering_.push_back(std::move(d));
    }
  }
  std::stable_sort(
      covering_.begin(), covering_.end(),
      [](const RangeDeletion& a, const RangeDeletion& b) { return a.sequence > b.sequence; });
  return Status::Ok();
}

void TableGet::TakeBatch() {
  TableCursor& cursor = *steps_->cursor;
  const size_t entries_before = entry_count();
  const auto key_base = static_cast<uint32_t>(key_data_.size());
  const auto value_base = static_cast<uint32_t>(value_data_.size());
  key_data_.insert(key_data_.end(), cursor.key_data().begin(), cursor.key_data().end());
  value_data_.insert(value_data_.end(), cursor.value_data().begin(), cursor.value_data().end());
  for (size_t i = 1; i < cursor.key_offsets().size(); ++i) {
    key_offsets_.push_back(key_base + cursor.key_offsets()[i]);
    value_offsets_.push_back(value_base + cursor.value_offsets()[i]);
  }
  tags_.insert(tags_.end(), cursor.tags().begin(), cursor.tags().end());
  timestamps_.insert(timestamps_.end(), cursor.timestamps().begin(), cursor.timestamps().end());
  for (const TableCursor::BatchBlock& block : cursor.key_blocks()) {
    blocks_read_.push_back(
        BlockRead{block.handle, entries_before + block.keys_end, block.from_cache});
  }
  cursor.ClearBatch();
}

Status GetFromMemory(const TableReader& table, ByteView file, ByteView user_key,
                     std::unique_ptr<TableGet>* out, const TableReadOptions& read) {
  auto get = std::make_unique<TableGet>(table, user_key, read);
  if (Status s = DriveFromMemory(*get, file); !s.ok()) return s;
  *out = std::move(get);
  return Status::Ok();
}

}  // namespace sstfilter
