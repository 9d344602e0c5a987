// TableCursor (sstfilter/table.h): the keys of every data block in index order, a batch of
// blocks at a time.
#include <algorithm>
#include <memory>
#include <optional>

#include "sstfilter/table.h"
#include "table/block_fetcher.h"
#include "table/index_block.h"
#include "table/internal_key.h"
#include "table/table_cursor_walk.h"
#include "table/table_reader.h"

namespace sstfilter {
namespace {

// Where a walk enters an index block (the table's, or a partition): its first entry, or, for a
// walk that starts at `start` and has not reached it, the restart point just before it
// (IndexBlock::IteratorNear), as the index seek of a point lookup does (leveldb table/table.cc
// Table::InternalGet; rocksdb table/block_based/block_based_table_reader.cc
// BlockBasedTable::Get). TableCursor::BeforeFrom skips the few entries left before the start.
// A walk of the data blocks from `block_offset` on (an index of data blocks; 0 otherwise) enters
// at the restart point before that block, rather than passing over every entry before it (a
// tenth of a microsecond each: verify's later ranges started 5-10 ms late in a 95,777-block index).
Status EnterIndex(const IndexBlock& block, const Bytes* start, uint64_t block_offset,
                  std::optional<IndexBlock::Iterator>* it) {
  if (start != nullptr) return block.IteratorNear(LookupKey{*start}, it);
  if (block_offset != 0) return block.IteratorNearOffset(block_offset, it);
  *it = block.Begin();
  return Status::Ok();
}

}  // namespace

TableCursor::TableCursor(const TableReader& table, Content content, size_t batch_bytes)
    : table_(table.table_),
      walk_(std::make_unique<Walk>(*table_)),
      content_(content),
      batch_bytes_(batch_bytes),
      read_blobs_(content == Content::kEntries) {}

TableCursor::~TableCursor() = default;

size_t TableCursor::timestamp_size() const {
  const size_t stored = table_->comparator_ref ? table_->comparator_ref->timestamp_size() : 0;
  return stored + table_->stripped_timestamp_size;
}

BlockFetcher& TableCursor::fetcher() const {
  if (walk_->index_fetcher.need() != IoNeed::kNothing) return walk_->index_fetcher;
  if (walk_->blob_fetcher.need() != IoNeed::kNothing) return walk_->blob_fetcher;
  return walk_->data_fetcher;
}

void TableCursor::ClearBatch() {
  key_data_.clear();
  key_offsets_.assign(1, 0);
  tags_.clear();
  timestamps_.clear();
  value_data_.clear();
  value_offsets_.assign(1, 0);
  key_blocks_.clear();
  blob_reads_.clear();
  next_blob_read_ = 0;
  blob_bytes_ = 0;
}

bool TableCursor::BatchReady() const {
  return !key_blocks_.empty() &&
         (key_data_.size() + value_data_.size() + blob_bytes_ >= batch_bytes_ || at_end_);
}

Status TableCursor::SetEntryRange(EntryRange range) {
  if (range.exact && !range.from) {
    return Status::Error(ErrorCode::kBadOptions, "an exact range needs the key");
  }
  const Comparator* order = table_->comparator_ref.get();
  if (order == nullptr && range.exact) {
    // The order is unknown: the key's versions may lie in any block, so the walk reads them all.
    unordered_exact_ = true;
    entries_ = std::move(range);
    return Status::Ok();
  }
  const bool seeks = range.from.has_value() || range.prefix.has_value();
  if ((seeks || range.to.has_value()) && order == nullptr) {
    return Status::Error(ErrorCode::kUnsupported,
                         "entries by key range need the order of the table's keys (" +
                             UnknownOrderText(*table_) + ")");
  }
  // A prefix range starts at the prefix, or at `from` where that lies after it.
  if (range.prefix && (!range.from || order->Compare(*range.from, *range.prefix) < 0)) {
    range.from = range.prefix;
  }
  from_reached_ = !range.from.has_value();
  if (range.exact) {
    // A point lookup reads the block the index names and seldom the next: block by block, as
    // RocksDB's Get does without a prefetch buffer (BlockBasedTable::Get).
    walk_->data_fetcher.DisableReadahead();
    walk_->index_fetcher.DisableReadahead();
    walk_->blob_fetcher.DisableReadahead();
  }
  entries_ = std::move(range);
  return Status::Ok();
}

bool TableCursor::PastRange(ByteView user_key) const {
  const EntryRange& r = entries_;
  if (r.limit != 0 && entries_taken_ >= r.limit) return true;
  if (r.exact) return !unordered_exact_ && table_->comparator_ref->Compare(user_key, *r.from) != 0;
  if (r.prefix && (user_key.size() < r.prefix->size() ||
                   !std::equal(r.prefix->begin(), r.prefix->end(), user_key.begin()))) {
    return true;
  }
  return r.to && table_->comparator_ref->Compare(user_key, *r.to) >= 0;
}

Status TableCursor::OnDataBlock(const Bytes& contents, bool compressed, bool from_cache) {
  const BlockHandle handle = *walk_->pending_block;
  walk_->pending_block.reset();
  walk_->pending_missed = false;
  const size_t keys_before = key_offsets_.size();
  const size_t key_data_before = key_data_.size();
  const size_t value_data_before = value_data_.size();
  const size_t timestamps_before = timestamps_.size();
  const uint64_t taken_before = entries_taken_;
  const size_t blob_reads_before = blob_reads_.size();
  const size_t blob_bytes_before = blob_bytes_;
  // Offsets inside a decompressed block mean nothing in the file: name the block instead. A block
  // that fails to decode yields none of its entries.
  auto located = [&](Status s) {
    key_data_.resize(key_data_before);
    key_offsets_.resize(keys_before);
    value_data_.resize(value_data_before);
    value_offsets_.resize(std::min(value_offsets_.size(), keys_before));
    tags_.resize(std::min(tags_.size(), keys_before - 1));
    timestamps_.resize(timestamps_before);
    entries_taken_ = taken_before;
    blob_reads_.resize(blob_reads_before);
    blob_bytes_ = blob_bytes_before;
    const uint64_t inner = s.offset() < 0 || compressed ? 0 : static_cast<uint64_t>(s.offset());
    return Status::Error(s.code(), s.message() + " (data block)",
                         static_cast<int64_t>(handle.offset + inner));
  };
  BlockLayout layout;
  const BlockFlavor flavor =
      table_->family == TableFamily::kLevelDb ? BlockFlavor::kLevelDb : BlockFlavor::kRocksDb;
  if (Status s = ParseBlockLayout(contents, flavor, &layout); !s.ok()) return located(s);
  BlockEntryDecoder decoder(contents, layout, /*values_have_length=*/true);
  EntryBudget budget;
  const bool entries = content_ == Content::kEntries;
  const bool ranged = entries_.from || entries_.to || entries_.prefix || entries_.limit != 0;
  const size_t ts_size = timestamp_size() - table_->stripped_timestamp_size;
  // What a key without its stored timestamp reads with: the minimum timestamp (table_reader.h).
  const Bytes min_timestamp(table_->stripped_timestamp_size, 0);
  // Only a table with the stats property has its same-file indexes resolved (RocksDB's
  // has_embedded_blobs); elsewhere file 0 is an index like any other.
  const bool blob_records = read_blobs_ && table_->embedded_blobs && table_->options.internal_keys;
  bool first_in_block = true;
  size_t checked_end = 0;  // where the last entry CheckEntryOrder passed ends
  while (!decoder.AtEnd()) {
    if (Status s = decoder.Next(); !s.ok()) return located(s);
    const size_t kept = decoder.key().size() + (entries ? decoder.value().size() : 0);
    if (Status s = budget.Charge(kept, decoder.entry_offset()); !s.ok()) return located(s);
    ByteView key = decoder.key();
    uint64_t tag = 0;
    if (table_->options.internal_keys) {
      auto user_key = StripInternalKeyTag(key);
      if (!user_key) {
        return located(Status::Error(ErrorCode::kCorrupt, "key shorter than an internal-key tag",
                                     static_cast<int64_t>(decoder.entry_offset())));
      }
      tag = DecodeFixed64(key.data() + user_key->size());
      key = *user_key;
    }
    if (check_order_) {
      if (Status s = CheckEntryOrder(key, tag, decoder, first_in_block); !s.ok()) {
        return located(CheckBlockSeparator(contents, layout, decoder.entry_offset(), std::move(s)));
      }
      first_in_block = false;
      checked_end = decoder.next_offset();
    }
    // The user key is the stored one without its timestamp (ranges compare it alone).
    ByteView timestamp(min_timestamp);
    if (ts_size != 0) {
      if (key.size() < ts_size) {
        return located(Status::Error(ErrorCode::kCorrupt, "user key shorter than its timestamp",
                                     static_cast<int64_t>(decoder.entry_offset())));
      }
      timestamp = key.last(ts_size);
      key = key.first(key.size() - ts_size);
    }
    if (ranged) {
      if (unordered_exact_) {
        if (!std::equal(key.begin(), key.end(), entries_.from->begin(), entries_.from->end())) {
          continue;
        }
      } else if (!from_reached_) {
        if (table_->comparator_ref->Compare(key, *entries_.from) < 0) continue;
        from_reached_ = true;
      }
      if (PastRange(key)) {
        at_end_ = true;
        break;
      }
      ++entries_taken_;
    }
    key_data_.insert(key_data_.end(), key.begin(), key.end());
    key_offsets_.push_back(static_cast<uint32_t>(key_data_.size()));
    if (entries) {
      if (table_->options.internal_keys) tags_.push_back(tag);
      timestamps_.insert(timestamps_.end(), timestamp.begin(), timestamp.end());
      const ByteView value = decoder.value();
      value_data_.insert(value_data_.end(), value.begin(), value.end());
      value_offsets_.push_back(static_cast<uint32_t>(value_data_.size()));
    }
    const EntryType type = static_cast<EntryType>(tag & 0xff);
    if (blob_records && type == EntryType::kBlobIndex) {
      if (Status s = NoteBlobRecord(decoder.value(), key_offsets_.size() - 2, &budget,
                                    decoder.entry_offset());
          !s.ok()) {
        return located(s);
      }
    }
    if (blob_records && type == EntryType::kWideColumnEntity) {
      if (Status s = NoteEntityBlobRecords(decoder.value(), key_offsets_.size() - 2, &budget,
                                           decoder.entry_offset());
          !s.ok()) {
        return located(s);
      }
    }
  }
  if (check_order_) {
    if (Status s = CheckBlockSeparator(contents, layout, checked_end, Status::Ok()); !s.ok()) {
      return located(s);
    }
  }
  key_blocks_.push_back(
      BatchBlock{handle, static_cast<uint32_t>(key_offsets_.size() - 1), from_cache});
  return Status::Ok();
}

Status TableCursor::ReadDataBlock() {
  Walk& w = *walk_;
  const BlockHandle handle = *w.pending_block;
  // The cache is asked once per block: a miss is read through the fetcher, over as many Advance
  // calls as the driver needs (rocksdb BlockBasedTable::RetrieveBlock: the cache, then the file).
  if (cache_ != nullptr && !w.pending_missed) {
    if (const std::shared_ptr<const CachedBlock> cached =
            cache_->Lookup(cache_table_, handle.offset, handle.size)) {
      return OnDataBlock(cached->contents, cached->compressed, true);
    }
    w.pending_missed = true;
  }
  std::optional<Bytes> contents;
  Status s = w.data_fetcher.Fetch(handle, BlockKind::kData, &contents);
  if (!s.ok() || !contents) return s;
  const bool compressed = w.data_fetcher.trailer()[0] != 0;
  s = OnDataBlock(*contents, compressed, false);
  if (s.ok() && cache_ != nullptr) {
    contents->shrink_to_fit();  // the cache charges what the contents hold
    cache_->Insert(
        cache_table_, handle.offset, handle.size,
        std::make_shared<const CachedBlock>(CachedBlock{std::move(*contents), compressed}));
  } else {
    w.data_fetcher.Recycle(std::move(*contents));
  }
  return s;
}

// Whether every key the index entry separates lies before the range's start: its separator, which
// sorts at or after every key of its block (or partition), sorts before the start's first version.
bool TableCursor::BeforeFrom(const IndexEntry& entry) const {
  if (from_reached_) return false;
  // The databases' own seek key (a read at the latest sequence number) sorts after a separator
  // the writer shortened to the start's user key, whose block holds only keys before the start.
  const LookupKey start{*entries_.from};
  return CompareIndexKeyWithLookup(*table_->comparator_ref, entry.user_key,
                                   table_->index.keys_have_tag(), entry.tag, start) < 0;
}

// Sets the walk's pending_block (or pending_partition) to the next handle to read, or at_end_.
Status TableCursor::NextHandle() {
  Walk& w = *walk_;
  if (!w.entered) {
    w.entered = true;
    const Bytes* start = from_reached_ ? nullptr : &*entries_.from;
    // The top level of a partitioned index names partitions, not data blocks.
    const uint64_t block_offset = w.two_level ? 0 : range_begin_;
    if (Status s = EnterIndex(table_->index, start, block_offset, w.two_level ? &w.top : &w.blocks);
        !s.ok()) {
      return s;
    }
  }
  IndexEntry entry;
  bool end = false;
  if (w.blocks) {
    if (Status s = w.blocks->Next(&entry, &end); !s.ok()) return s;
    if (!end) {
      if (entry.handle.offset >= range_end_) {
        at_end_ = true;
      } else if (entry.handle.offset >= range_begin_ && !BeforeFrom(entry)) {
        w.pending_block = entry.handle;
        if (check_order_) {
          w.previous_separator = std::move(w.block_separator);
          w.block_separator = std::move(entry);
        }
      }
      return Status::Ok();  // a block before the range is skipped: Advance asks again
    }
    w.blocks.reset();
  }
  if (!w.two_level) {
    at_end_ = true;
    return Status::Ok();
  }
  if (Status s = w.top->Next(&entry, &end); !s.ok()) return s;
  if (end) {
    at_end_ = true;
  } else if (!BeforeFrom(entry)) {
    w.pending_partition = entry.handle;
  }
  return Status::Ok();
}

Status TableCursor::Advance() {
  Walk& w = *walk_;
  if (!deferred_error_.ok()) {
    if (!key_blocks_.empty()) return CompleteBatch();  // the batch before it is still to be taken
    return deferred_error_;
  }
  while (!at_end_ && !BatchReady()) {
    std::optional<Bytes> contents;
    Status s;
    BlockFetcher* fetcher = &w.data_fetcher;
    if (w.pending_block) {
      s = ReadDataBlock();
    } else if (w.pending_partition) {
      fetcher = &w.index_fetcher;
      s = w.index_fetcher.Fetch(*w.pending_partition, BlockKind::kIndex, &contents);
      if (s.ok() && contents) {
        w.blocks.reset();
        w.partition = std::make_unique<IndexBlock>();
        const bool compressed = w.index_fetcher.trailer()[0] != 0;
        s = IndexBlock::Open(std::move(*contents), table_->index_format,
                             w.pending_partition->offset, compressed, w.partition.get());
        if (s.ok()) {
          s = EnterIndex(*w.partition, from_reached_ ? nullptr : &*entries_.from, range_begin_,
                         &w.blocks);
        }
        w.pending_partition.reset();
      }
    } else {
      s = NextHandle();
    }
    if (!s.ok()) {
      if (key_blocks_.empty()) return s;
      deferred_error_ = std::move(s);
      return CompleteBatch();
    }
    if (fetcher->need() != IoNeed::kNothing) return Status::Ok();
  }
  return CompleteBatch();
}

Status TableCursor::CompleteBatch() {
  // One record that fails fails the batch: its entries would otherwise go out holding the index
  // instead of the value.
  if (Status s = ReadBlobRecords(); !s.ok()) {
    ClearBatch();
    deferred_error_ = s;
    return s;
  }
  return Status::Ok();
}

Status TableCursor::CheckEntryOrder(ByteView key, uint64_t tag, const BlockEntryDecoder& entry,
                                    bool first) {
  const Comparator* comparator = table_->comparator_ref.get();
  Walk& w = *walk_;
  if (comparator == nullptr) return Status::Ok();
  const bool has_tag = table_->options.internal_keys;
  const bool index_tags = table_->index.keys_have_tag();
  auto compare = [&](ByteView a, uint64_t a_tag, ByteView b, uint64_t b_tag, bool tags) {
    return w.bytewise_order ? CompareBytewiseInternalKeys(a, a_tag, b, b_tag, tags)
                            : CompareInternalKeys(*comparator, a, a_tag, b, b_tag, tags);
  };
  // Within a block, the key repeats the first shared() bytes of the entry before, whose user key
  // is last_key: bytewise, only the bytes past them decide, and the block holds those. Reading
  // them there, not back from the key the decoder has just rebuilt, spares a load that waits on
  // the rebuild's narrower stores (x86 store forwarding); measured on a native walk of a 222 MB
  // db_bench table, the check's cost fell from about 35 ms to about 27.
  const size_t shared = entry.shared();
  const bool from_block = w.bytewise_order && !first && shared <= key.size() &&
                          shared <= w.last_key.size() && w.has_last_entry;
  const ByteView tail = from_block ? entry.unshared().first(key.size() - shared) : key;
  const size_t tail_at = from_block ? shared : 0;
  // A block written by RocksDB shares the longest common prefix, so the first byte past it differs
  // and alone decides; a shorter shared count (legal, only not RocksDB's) falls back to comparing.
  auto follows_last = [&] {
    if (from_block && !tail.empty() && shared < w.last_key.size() &&
        tail[0] != w.last_key[shared]) {
      return tail[0] > w.last_key[shared];
    }
    return compare(ByteView(w.last_key).subspan(tail_at), w.last_tag, tail, tag, has_tag) < 0;
  };
  const char* problem = nullptr;
  if (w.has_last_entry && !follows_last()) {
    problem = "sorts before the entry before it";
  } else if (first && w.previous_separator &&
             compare(key, tag, w.previous_separator->user_key, w.previous_separator->tag,
                     has_tag && index_tags) < 0) {
    problem = "sorts before the index separator of the block before";
  }
  if (problem != nullptr) return OrderError(problem, entry.entry_offset());
  w.has_last_entry = true;
  // Keys of one table mostly have one size: the buffer is resized only when it changes.
  if (w.last_key.size() != key.size()) w.last_key.resize(key.size());
  CopyShortBytes(w.last_key.data() + tail_at, tail.data(), tail.size());
  w.last_tag = tag;
  return Status::Ok();
}

Status TableCursor::OrderError(const char* problem, uint64_t entry_offset) const {
  const TableKeyOrder& order = table_->key_order;
  if (order.source == KeyOrderSource::kSeparators) {
    return Status::Error(ErrorCode::kUnsupported,
                         std::string("the keys are not in bytewise order (an entry ") + problem +
                             "), and LevelDB tables do not record their comparator: supply it "
                             "as the comparator option",
                         static_cast<int64_t>(entry_offset));
  }
  return Status::Error(
      ErrorCode::kCorrupt,
      std::string("an entry ") + problem + " under the comparator \"" + order.comparator + "\"",
      static_cast<int64_t>(entry_offset));
}

Status TableCursor::CheckBlockSeparator(const Bytes& contents, const BlockLayout& layout,
                                        size_t checked_end, Status order_error) {
  const Walk& w = *walk_;
  const Comparator* comparator = table_->comparator_ref.get();
  if (comparator == nullptr || !w.block_separator) return order_error;
  const bool tags = table_->options.internal_keys && table_->index.keys_have_tag();
  const IndexEntry& separator = *w.block_separator;
  auto beyond = [&](ByteView key, uint64_t tag) {
    const int c =
        w.bytewise_order
            ? CompareBytewiseInternalKeys(key, tag, separator.user_key, separator.tag, tags)
            : CompareInternalKeys(*comparator, key, tag, separator.user_key, separator.tag, tags);
    return c > 0;
  };
  // The last entry passed is the largest so far: within the separator, so are those before it.
  if (order_error.ok() &&
      (!w.has_last_entry || checked_end == 0 || !beyond(w.last_key, w.last_tag))) {
    return order_error;
  }
  // Decoded again (a corrupt table's rare path): the first entry beyond the separator, before the
  // one the order check failed on, is the error a check of every entry meets first.
  BlockEntryDecoder decoder(contents, layout, /*values_have_length=*/true);
  while (!decoder.AtEnd()) {
    if (!decoder.Next().ok() || decoder.entry_offset() >= checked_end) break;
    ByteView key = decoder.key();
    uint64_t tag = 0;
    if (table_->options.internal_keys) {
      const std::optional<ByteView> user_key = StripInternalKeyTag(key);
      if (!user_key) break;
      tag = DecodeFixed64(key.data() + user_key->size());
      key = *user_key;
    }
    if (beyond(key, tag))
      return OrderError("sorts after its block's index separator", decoder.entry_offset());
  }
  return order_error;
}

}  // namespace sstfilter
