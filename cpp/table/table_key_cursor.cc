#include "table/table_key_cursor.h"

#include "table/internal_key.h"

namespace sstfilter {

TableKeyCursor::TableKeyCursor(std::shared_ptr<const OpenedTable> table)
    : table_(std::move(table)),
      fetcher_(&table_->file),
      two_level_(table_->index_type == kTwoLevelIndexSearch) {
  if (two_level_) {
    top_.emplace(table_->index.Begin());
  } else {
    blocks_.emplace(table_->index.Begin());
  }
}

void TableKeyCursor::ClearKeys() {
  key_data_.clear();
  key_offsets_.assign(1, 0);
}

Status TableKeyCursor::OnDataBlock(const Bytes& contents) {
  const BlockHandle handle = *pending_block_;
  // Offsets inside a decompressed block mean nothing in the file: name the block instead. A block
  // that fails to decode yields none of its keys.
  const bool compressed = fetcher_.trailer()[0] != 0;
  auto located = [&](Status s) {
    ClearKeys();
    const uint64_t inner = s.offset() < 0 || compressed ? 0 : static_cast<uint64_t>(s.offset());
    return Status::Error(s.code(), s.message() + " (data block)",
                         static_cast<int64_t>(handle.offset + inner));
  };
  BlockLayout layout;
  const BlockFlavor flavor =
      table_->family == TableFamily::kLevelDb ? BlockFlavor::kLevelDb : BlockFlavor::kRocksDb;
  if (Status s = ParseBlockLayout(contents, flavor, &layout); !s.ok()) return located(s);
  BlockEntryDecoder decoder(ByteView(contents).first(layout.entries_size), true);
  EntryBudget budget;
  while (!decoder.AtEnd()) {
    if (Status s = decoder.Next(); !s.ok()) return located(s);
    if (Status s = budget.Charge(decoder.key().size(), decoder.entry_offset()); !s.ok()) {
      return located(s);
    }
    ByteView key = decoder.key();
    if (table_->options.internal_keys) {
      auto user_key = StripInternalKeyTag(key);
      if (!user_key) {
        return located(Status::Error(ErrorCode::kCorrupt, "key shorter than an internal-key tag",
                                     static_cast<int64_t>(decoder.entry_offset())));
      }
      key = *user_key;
    }
    key_data_.insert(key_data_.end(), key.begin(), key.end());
    key_offsets_.push_back(static_cast<uint32_t>(key_data_.size()));
  }
  keys_block_ = handle;
  pending_block_.reset();
  return Status::Ok();
}

// Sets pending_block_ (or pending_partition_) to the next handle to read, or at_end_.
Status TableKeyCursor::NextHandle() {
  IndexEntry entry;
  bool end = false;
  if (blocks_) {
    if (Status s = blocks_->Next(&entry, &end); !s.ok()) return s;
    if (!end) {
      pending_block_ = entry.handle;
      return Status::Ok();
    }
    blocks_.reset();
  }
  if (!two_level_) {
    at_end_ = true;
    return Status::Ok();
  }
  if (Status s = top_->Next(&entry, &end); !s.ok()) return s;
  if (end) {
    at_end_ = true;
  } else {
    pending_partition_ = entry.handle;
  }
  return Status::Ok();
}

Status TableKeyCursor::Advance() {
  while (!at_end_ && key_offsets_.size() == 1) {
    std::optional<Bytes> contents;
    Status s;
    if (pending_block_) {
      s = fetcher_.Fetch(*pending_block_, BlockKind::kData, &contents);
      if (s.ok() && contents) s = OnDataBlock(*contents);
    } else if (pending_partition_) {
      s = fetcher_.Fetch(*pending_partition_, BlockKind::kIndex, &contents);
      if (s.ok() && contents) {
        blocks_.reset();
        partition_ = std::make_unique<IndexBlock>();
        const bool compressed = fetcher_.trailer()[0] != 0;
        s = IndexBlock::Open(std::move(*contents), table_->index_format, pending_partition_->offset,
                             compressed, partition_.get());
        if (s.ok()) blocks_.emplace(partition_->Begin());
        pending_partition_.reset();
      }
    } else {
      s = NextHandle();
    }
    if (!s.ok() || fetcher_.need() != IoNeed::kNothing) return s;
  }
  return Status::Ok();
}

}  // namespace sstfilter
