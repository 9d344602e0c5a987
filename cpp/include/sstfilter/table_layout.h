// A table file's layout (docs/FORMATS.md 3.5, 3.6.1): every byte range of the file and what it
// holds, blocks and trailers, as a tool that draws the file needs it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "sstfilter/table_io.h"
#include "sstfilter/table_reader.h"

namespace sstfilter {

// What a region of a table file holds, as Pebble's `sstable layout` names its blocks where it has
// a name for them.
enum class TableRegionKind : uint8_t {
  kData,
  kIndex,            // the index block, or one partition of a partitioned index
  kTopIndex,         // the top-level index of a partitioned index (kTwoLevelIndexSearch)
  kFilter,           // a full filter, or LevelDB's filter block
  kFilterPartition,  // one partition of a partitioned filter
  kFilterTopIndex,   // the index over a partitioned filter's partitions
  kProperties,
  kMetaindex,
  kRangeDeletions,         // rocksdb.range_del
  kCompressionDictionary,  // rocksdb.compression_dict
  kMeta,                   // any other meta block the metaindex names
  kFooter,
  // Embedded blob tables (docs/FORMATS.md 3.10.3): the bytes before a data block that no handle
  // names, the blob records of entries (the layout reads no entries: one region covers a run).
  kEmbeddedBlobs,
  kGap,  // bytes no handle names (block_align padding, or blocks only a newer writer knows)
};
// "data", "index", "top-index", "filter", "filter-partition", "filter-top-index", "properties",
// "metaindex", "range-del", "compression-dict", "meta", "footer", "embedded-blobs", "gap".
const char* TableRegionKindName(TableRegionKind kind);

struct TableRegion {
  TableRegionKind kind = TableRegionKind::kGap;
  // Blocks: the handle (size without the 5-byte trailer that follows). The footer and gaps: their
  // bytes, without a trailer.
  BlockHandle handle;
  std::string name;  // the metaindex entry that names the block, if one does
  // Data blocks, index and filter partitions: the user key of the index entry that points here
  // (a separator: at or after every key of the block, before every key of the next).
  std::optional<Bytes> separator;

  bool has_trailer() const {
    return kind != TableRegionKind::kFooter && kind != TableRegionKind::kGap &&
           kind != TableRegionKind::kEmbeddedBlobs;
  }
  // The file bytes the region covers.
  uint64_t span() const { return handle.size + (has_trailer() ? kBlockTrailerSize : 0); }
};

// Lists where every block of an open table lies, in file order, from offset 0 to the end of the
// footer: the blocks the reader knows (metaindex, index, filter, properties, meta blocks), the data
// blocks from the index (without reading them: only the partitions of a partitioned index are
// read), and gaps where no handle names the bytes. Handles outside the file are kCorrupt.
class TableLayoutRead final : public ResumableRead {
 public:
  // `table` must be open; the read keeps what it needs of it.
  explicit TableLayoutRead(const TableReader& table);
  ~TableLayoutRead() override;
  TableLayoutRead(const TableLayoutRead&) = delete;
  TableLayoutRead& operator=(const TableLayoutRead&) = delete;

  // Reads the index partitions, if any, then sorts the regions.
  Status Advance() override;
  BlockFetcher& fetcher() const override;
  // Whether Advance() got through; regions() is complete from then on.
  bool done() const { return done_; }
  // In file order (by offset; overlapping handles of a damaged file are listed as found).
  const std::vector<TableRegion>& regions() const { return regions_; }

 private:
  Status AddBlock(TableRegion region, uint64_t named_at);
  Status ListIndexEntries(const IndexBlock& index, TableRegionKind kind, uint64_t index_offset);
  void Finish();

  std::shared_ptr<const OpenedTable> table_;
  std::unique_ptr<BlockFetcher> fetcher_;
  std::unique_ptr<EntryBudget> budget_;        // what the listing keeps
  std::vector<BlockHandle> index_partitions_;  // of a partitioned index, in order
  size_t next_partition_ = 0;
  Status listed_;  // how listing the blocks known without I/O went
  bool done_ = false;
  std::vector<TableRegion> regions_;
};

}  // namespace sstfilter
