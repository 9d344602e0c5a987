// TableLayoutRead (sstfilter/table.h): where each block of a table lies, as Pebble's `sstable
// layout` lists them (pebble sstable/layout.go), from the handles the footer, the metaindex and the
// index hold (docs/FORMATS.md 3.5, 3.6.1). Data blocks are never read: the index names them; a
// partitioned index's partitions are, since only they hold the data blocks' handles.
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "base/enum_names.h"
#include "sstfilter/table.h"
#include "table/block_fetcher.h"
#include "table/index_block.h"
#include "table/table_reader.h"

namespace sstfilter {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

const char* TableRegionKindName(TableRegionKind kind) {
  // In TableRegionKind's order.
  static constexpr const char* kNames[] = {"data",
                                           "index",
                                           "top-index",
                                           "filter",
                                           "filter-partition",
                                           "filter-top-index",
                                           "properties",
                                           "metaindex",
                                           "range-del",
                                           "compression-dict",
                                           "meta",
                                           "footer",
                                           "embedded-blobs",
                                           "gap"};
  return EnumName<TableRegionKind::kGap>(kind, kNames, "gap");
}

TableLayoutRead::TableLayoutRead(const TableReader& table)
    : table_(table.table_),
      fetcher_(std::make_unique<BlockFetcher>(&table_->file)),
      budget_(std::make_unique<EntryBudget>()) {
  // Index partitions lie one after another: read them in large pieces.
  fetcher_->EnableReadahead();
  const OpenedTable& t = *table_;
  const std::optional<TableFilterInfo> filter = table.filter_info();
  const uint64_t metaindex_at = t.footer.metaindex.offset;
  auto list = [&]() -> Status {
    if (Status s = AddBlock({TableRegionKind::kMetaindex, t.footer.metaindex, "", std::nullopt},
                            t.footer.offset);
        !s.ok()) {
      return s;
    }
    const bool two_level = t.index_type == kTwoLevelIndexSearch;
    for (const MetaindexEntry& e : t.metaindex) {
      TableRegion region{TableRegionKind::kMeta, e.handle, e.name, std::nullopt};
      if (e.handle.offset == t.index_handle.offset && e.handle.size == t.index_handle.size) {
        continue;  // format_version >= 6 names the index here ("rocksdb.index"): listed below
      }
      if (filter && e.name == filter->meta_block) {
        region.kind =
            filter->partitioned ? TableRegionKind::kFilterTopIndex : TableRegionKind::kFilter;
      } else if (&e == t.PropertiesEntry()) {
        region.kind = TableRegionKind::kProperties;
      } else if (e.name == kRangeDeletionsBlock) {
        region.kind = TableRegionKind::kRangeDeletions;
      } else if (e.name == kCompressionDictionaryBlock) {
        region.kind = TableRegionKind::kCompressionDictionary;
      } else if (StartsWith(e.name, "filter.") || StartsWith(e.name, "fullfilter.")) {
        region.kind = TableRegionKind::kFilter;  // a filter the reader did not choose
      }
      if (Status s = AddBlock(std::move(region), metaindex_at); !s.ok()) return s;
    }
    if (filter && filter->partitioned) {
      const uint64_t filter_index_at = t.FindMeta(filter->meta_block)->handle.offset;
      for (const FilterPartition& p : t.filter.partitions()) {
        if (Status s = AddBlock({TableRegionKind::kFilterPartition, p.handle, "", p.separator},
                                filter_index_at);
            !s.ok()) {
          return s;
        }
      }
    }
    const MetaindexEntry* index_entry = t.FindMeta("rocksdb.index");
    TableRegion index{two_level ? TableRegionKind::kTopIndex : TableRegionKind::kIndex,
                      t.index_handle, index_entry != nullptr ? index_entry->name : "",
                      std::nullopt};
    if (Status s = AddBlock(std::move(index), t.footer.offset); !s.ok()) return s;
    if (two_level) {
      // The top level's entries are the partitions; their entries, read in Advance, the data.
      return ListIndexEntries(t.index, TableRegionKind::kIndex, t.index_handle.offset);
    }
    return ListIndexEntries(t.index, TableRegionKind::kData, t.index_handle.offset);
  };
  listed_ = list();
  regions_.push_back({TableRegionKind::kFooter,
                      BlockHandle{t.footer.offset, t.file.file_size - t.footer.offset}, "",
                      std::nullopt});
}

TableLayoutRead::~TableLayoutRead() = default;

BlockFetcher& TableLayoutRead::fetcher() const { return *fetcher_; }

Status TableLayoutRead::AddBlock(TableRegion region, uint64_t named_at) {
  // Blocks and their trailers lie before the footer (checked without overflow).
  const uint64_t end = table_->file.blocks_end;
  const BlockHandle h = region.handle;
  if (h.offset > end || end - h.offset < kBlockTrailerSize ||
      h.size > end - h.offset - kBlockTrailerSize) {
    return Status::Error(ErrorCode::kCorrupt,
                         std::string("the handle of a ") + TableRegionKindName(region.kind) +
                             " block lies outside the file's blocks",
                         static_cast<int64_t>(named_at));
  }
  // A damaged index may repeat handles without end: what the listing keeps is bounded.
  const size_t kept = region.name.size() + (region.separator ? region.separator->size() : 0);
  if (Status s = budget_->Charge(kept, 0); !s.ok()) {
    return Status::Error(s.code(), "the index names more blocks than a layout can keep",
                         static_cast<int64_t>(named_at));
  }
  regions_.push_back(std::move(region));
  return Status::Ok();
}

Status TableLayoutRead::ListIndexEntries(const IndexBlock& index, TableRegionKind kind,
                                         uint64_t index_offset) {
  IndexBlock::Iterator it = index.Begin();
  for (;;) {
    IndexEntry entry;
    bool end = false;
    if (Status s = it.Next(&entry, &end); !s.ok()) return s;
    if (end) return Status::Ok();
    if (kind == TableRegionKind::kIndex) index_partitions_.push_back(entry.handle);
    if (Status s = AddBlock({kind, entry.handle, "", std::move(entry.user_key)}, index_offset);
        !s.ok()) {
      return s;
    }
  }
}

Status TableLayoutRead::Advance() {
  if (!listed_.ok()) return listed_;
  const OpenedTable& t = *table_;
  const bool two_level = t.index_type == kTwoLevelIndexSearch;
  // A partitioned index's partitions, then the data blocks each lists.
  while (!done_ && two_level && next_partition_ < index_partitions_.size()) {
    const BlockHandle handle = index_partitions_[next_partition_];
    std::optional<Bytes> contents;
    if (Status s = fetcher_->Fetch(handle, BlockKind::kIndex, &contents); !s.ok()) return s;
    if (!contents) return Status::Ok();  // the driver supplies the bytes first
    const bool compressed = fetcher_->trailer()[0] != 0;
    IndexBlock partition;
    if (Status s = IndexBlock::Open(std::move(*contents), t.index_format, handle.offset, compressed,
                                    &partition);
        !s.ok()) {
      return s;
    }
    ++next_partition_;
    if (Status s = ListIndexEntries(partition, TableRegionKind::kData, handle.offset); !s.ok()) {
      return s;
    }
  }
  if (!done_) Finish();
  return Status::Ok();
}

void TableLayoutRead::Finish() {
  // Data blocks come in index order, which is file order; sorting places the other blocks among
  // them. Stable: equal offsets (a damaged file) keep the order found.
  std::stable_sort(
      regions_.begin(), regions_.end(),
      [](const TableRegion& a, const TableRegion& b) { return a.handle.offset < b.handle.offset; });
  std::vector<TableRegion> tiled;
  tiled.reserve(regions_.size() + 1);
  uint64_t covered = 0;  // regions so far cover [0, covered)
  for (TableRegion& r : regions_) {
    if (r.handle.offset > covered) {
      // Blob records are written as their entries are added, so they always precede a data block.
      const bool blob_records = table_->embedded_blobs && r.kind == TableRegionKind::kData;
      tiled.push_back({blob_records ? TableRegionKind::kEmbeddedBlobs : TableRegionKind::kGap,
                       BlockHandle{covered, r.handle.offset - covered}, "", std::nullopt});
    }
    covered = std::max(covered, r.handle.offset + r.span());
    tiled.push_back(std::move(r));
  }
  regions_ = std::move(tiled);
  fetcher_->ReleaseWindow();
  done_ = true;
}

}  // namespace sstfilter
