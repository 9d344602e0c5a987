// TableCursor's embedded blob reads (sstfilter/table_cursor.h SetEmbeddedBlobReads,
// docs/FORMATS.md 3.10.3): the same-file blob records a batch's entries and entity columns name,
// noted as the entries are taken, read after the batch's data blocks, and put in place of the
// blob indexes (rocksdb table/block_based/block_based_table_reader.cc MaybeResolveEmbeddedValue).
#include <optional>
#include <utility>
#include <vector>

#include "sstfilter/embedded_blobs.h"
#include "sstfilter/table.h"
#include "sstfilter/values.h"
#include "table/table_cursor_walk.h"

namespace sstfilter {

Status TableCursor::NoteBlobRecord(ByteView value, size_t entry, EntryBudget* budget,
                                   size_t entry_offset) {
  BlobIndex index;
  if (Status s = DecodeBlobIndex(value, &index); !s.ok()) {
    return Status::Error(s.code(), s.message(), static_cast<int64_t>(entry_offset));
  }
  return NoteSameFileRecord(index, entry, std::nullopt, budget, entry_offset);
}

Status TableCursor::NoteEntityBlobRecords(ByteView value, size_t entry, EntryBudget* budget,
                                          size_t entry_offset) {
  // As WideColumnSerialization::HasBlobColumns: a version below 2 has no blob columns and is not
  // decoded here (RocksDB passes it on as stored); a version 2 entity must decode.
  size_t pos = 0;
  const auto version = GetVarint32(value, &pos);
  if (version && *version < 2) return Status::Ok();
  std::vector<WideColumn> columns;
  if (Status s = DecodeWideColumns(value, &columns); !s.ok()) {
    return Status::Error(s.code(), s.message(), static_cast<int64_t>(entry_offset));
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!columns[i].blob_index) continue;
    if (Status s = NoteSameFileRecord(*columns[i].blob_index, entry, i, budget, entry_offset);
        !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

Status TableCursor::NoteSameFileRecord(BlobIndex index, size_t entry, std::optional<size_t> column,
                                       EntryBudget* budget, size_t entry_offset) {
  if (!IsSameFileBlobIndex(index)) return Status::Ok();  // names a blob file: left as it is
  BlockHandle handle;
  if (Status s = EmbeddedBlobRecordHandle(index, table_->file.blocks_end, &handle); !s.ok()) {
    return Status::Error(s.code(), s.message(), static_cast<int64_t>(entry_offset));
  }
  // The payload joins the block's entries in what the batch holds: a hostile size fails here,
  // before anything is read.
  if (Status s = budget->Charge(index.size, entry_offset); !s.ok()) return s;
  index.value = ByteView();  // points into the block, which does not stay
  blob_reads_.push_back(BlobRead{entry, column, index, {}});
  // Within the budget just charged (kMaxBlockBytes), so it fits a size_t.
  if (content_ == Content::kEntries) blob_bytes_ += static_cast<size_t>(index.size);
  return Status::Ok();
}

Status TableCursor::ReadBlobRecords() {
  BlockFetcher& fetcher = walk_->blob_fetcher;
  while (next_blob_read_ < blob_reads_.size()) {
    BlobRead& read = blob_reads_[next_blob_read_];
    const BlockHandle handle{read.index.offset, read.index.size};
    std::optional<Bytes> payload;
    Status s = fetcher.Fetch(handle, BlockKind::kMeta, &payload);
    if (s.ok() && !payload) return s;  // the driver's turn
    if (s.ok()) s = CheckEmbeddedBlobCompression(read.index, fetcher.trailer()[0]);
    if (!s.ok()) {
      const int64_t at = s.offset() < 0 ? static_cast<int64_t>(handle.offset) : s.offset();
      return Status::Error(s.code(), s.message() + " (embedded blob record)", at);
    }
    if (content_ == Content::kEntries) {
      read.payload = std::move(*payload);
    } else {
      fetcher.Recycle(std::move(*payload));
    }
    ++next_blob_read_;
  }
  if (content_ == Content::kEntries && !blob_reads_.empty()) SpliceBlobValues();
  blob_reads_.clear();
  next_blob_read_ = 0;
  blob_bytes_ = 0;
  return Status::Ok();
}

void TableCursor::SpliceBlobValues() {
  Bytes values;
  values.reserve(value_data_.size() + blob_bytes_);
  std::vector<uint32_t> offsets;
  offsets.reserve(value_offsets_.size());
  offsets.push_back(0);
  auto read = blob_reads_.begin();
  for (size_t i = 0; i + 1 < value_offsets_.size(); ++i) {
    const ByteView stored(value_data_.data() + value_offsets_[i],
                          value_offsets_[i + 1] - value_offsets_[i]);
    if (read != blob_reads_.end() && read->entry == i && !read->column) {
      values.insert(values.end(), read->payload.begin(), read->payload.end());
      // The entry reads as the Put it was written as (the resolving iterator's kTypeValue).
      tags_[i] = (tags_[i] & ~uint64_t{0xff}) | static_cast<uint64_t>(EntryType::kPut);
      ++read;
    } else if (read != blob_reads_.end() && read->entry == i) {
      // An entity: its same-file columns take their payloads, and it is encoded again, in
      // version 1 when no column is left in a blob file (rocksdb block_based_table_reader.cc
      // MaybeResolveEmbeddedValue). It decoded when its records were noted.
      std::vector<WideColumn> columns;
      DecodeWideColumns(stored, &columns);
      for (; read != blob_reads_.end() && read->entry == i; ++read) {
        WideColumn& column = columns[*read->column];
        column.value = ByteView(read->payload);
        column.blob_index.reset();
      }
      EncodeWideColumns(columns, &values);
    } else {
      values.insert(values.end(), stored.begin(), stored.end());
    }
    offsets.push_back(static_cast<uint32_t>(values.size()));
  }
  value_data_ = std::move(values);
  value_offsets_ = std::move(offsets);
}

}  // namespace sstfilter
