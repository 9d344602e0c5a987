// Opens a LevelDB (.ldb) or RocksDB block-based (.sst) table file lazily (docs/FORMATS.md 3.5-3.7):
// footer, metaindex, properties, index and filter (every partition), and nothing else. The reader
// does no I/O itself (block_fetcher.h): Advance() until is_open(), supplying what fetcher() needs.
// Once open it answers what the database's point lookup and prefix seek get from the filter.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "table/block_fetcher.h"
#include "table/footer.h"
#include "table/index_block.h"
#include "table/prefix_extractor.h"
#include "table/properties.h"
#include "table/table_filter.h"

namespace sstfilter {

// rocksdb.block.based.table.index.type values (include/rocksdb/table.h IndexType) that change
// how index blocks are read.
inline constexpr uint32_t kTwoLevelIndexSearch = 2;
inline constexpr uint32_t kBinarySearchWithFirstKey = 3;

struct TableOptions {
  // Keys carry the 8-byte internal-key tag, as in every file a database or SstFileWriter writes;
  // false for tables written with a bare TableBuilder.
  bool internal_keys = true;
};

struct MetaindexEntry {
  std::string name;
  BlockHandle handle;
};

// What an open table knows. Immutable once open; key cursors share it.
struct OpenedTable {
  TableOptions options;
  TableFileFormat file;
  Footer footer;
  TableFamily family = TableFamily::kRocksDb;
  std::vector<MetaindexEntry> metaindex;
  TableProperties properties;
  BlockHandle index_handle;
  uint32_t index_type = 0;  // rocksdb.block.based.table.index.type
  IndexFormat index_format;
  IndexBlock index;               // the top-level index when partitioned
  std::optional<KeyOrder> order;  // nullopt: a comparator this reader cannot reproduce
  std::string comparator = "leveldb.BytewiseComparator";
  bool whole_key_filtering = true;  // rocksdb.block.based.table.whole.key.filtering
  std::optional<std::string> prefix_extractor_name;  // nullopt when the table has none
  std::optional<PrefixExtractor> prefix_extractor;   // nullopt also for custom extractors
  TableFilter filter;

  const MetaindexEntry* FindMeta(std::string_view name) const;
  // The properties block ("rocksdb.properties", or "rocksdb.stats" in old files), if any.
  const MetaindexEntry* PropertiesEntry() const;
  // Where the value of property `name` lies in the file, for errors about it; kNoOffset without
  // it.
  int64_t PropertyOffset(std::string_view name) const;
};

// How a point lookup's filter answer came about (TableReader::MayContain), for tools that show it.
enum class LookupRoute : uint8_t {
  kNoFilter,             // the table has no filter, or holds nothing this key can be checked by
  kOutsidePrefixDomain,  // whole-key filtering is off and the key has no prefix: not filtered
  kAfterLastKey,         // LevelDB: the key sorts after the last index entry, not in the file
  kFullFilter,           // RocksDB: the full filter answered
  kPartition,            // RocksDB: the filter partition `partition` answered
  kBlockFilter,          // LevelDB: the filter of the data block `data_block` answered
};

struct LookupTrace {
  LookupRoute route = LookupRoute::kNoFilter;
  size_t partition = 0;
  // LevelDB: the data block whose filter answered. RocksDB with a single-level index: the data
  // block the lookup reads when the filter says "may match". Unset otherwise.
  std::optional<BlockHandle> data_block;
  // Bytes of the key the filter was probed with: the whole key, or its prefix.
  size_t probed_size = 0;
};

class TableReader final : public ResumableRead {
 public:
  TableReader(uint64_t file_size, TableOptions options);

  Status Advance() override;
  BlockFetcher& fetcher() override { return fetcher_; }
  bool is_open() const { return stage_ == Stage::kOpen; }

  const OpenedTable& table() const { return *table_; }
  std::shared_ptr<const OpenedTable> shared_table() const { return table_; }

  // What the database's point lookup of `user_key` gets from this file before reading a data
  // block. RocksDB (BlockBasedTable::Get) consults the filter first: the whole key, or with
  // whole-key filtering off the prefix when the key is in the extractor's domain, else no
  // filtering. LevelDB (Table::InternalGet) seeks the index first: a key after the last index
  // entry is not in the file (false), otherwise the filter of the data block found answers.
  // Without a filter, true. kUnsupported when the filter or the key order cannot be reproduced.
  // `trace`, when given, records how the answer came about.
  Status MayContain(ByteView user_key, bool* may_match, LookupTrace* trace = nullptr) const;
  // What a RocksDB prefix Seek(seek_key) (total_order_seek = false) gets from the prefix filter,
  // using the table's own extractor: true without a filter or extractor, or for keys outside its
  // domain. LevelDB has no prefix seek: true.
  Status PrefixMayMatch(ByteView seek_key, bool* may_match) const;

 private:
  enum class Stage : uint8_t {
    kFooter,
    kMetaindex,
    kProperties,
    kIndex,
    kFilter,
    kPartitions,
    kOpen
  };

  Status OnFooter(const Bytes& tail);
  Status OnMetaindex(const Bytes& contents);
  Status OnProperties(const Bytes& contents);
  Status Configure();
  Status OnIndex(Bytes contents);
  Status SelectFilter();
  Status OnFilter(Bytes contents);
  Status CheckProbeable() const;

  std::shared_ptr<OpenedTable> table_;
  BlockFetcher fetcher_;
  Stage stage_ = Stage::kFooter;
  const MetaindexEntry* filter_entry_ = nullptr;
  TableFilterLayout filter_layout_ = TableFilterLayout::kNone;
  bool filter_builtin_ = false;
  std::string filter_policy_;
  size_t next_partition_ = 0;
};

// Reads one block of an open table by its handle: checksum verified, contents decompressed (for
// tools that verify or show blocks the reader itself never reads, e.g. range deletions).
class TableBlockRead final : public ResumableRead {
 public:
  TableBlockRead(std::shared_ptr<const OpenedTable> table, BlockHandle handle)
      : table_(std::move(table)), fetcher_(&table_->file), handle_(handle) {}

  Status Advance() override;
  BlockFetcher& fetcher() override { return fetcher_; }
  // Set once Advance() finished without a pending need.
  const std::optional<Bytes>& contents() const { return contents_; }

 private:
  std::shared_ptr<const OpenedTable> table_;
  BlockFetcher fetcher_;
  BlockHandle handle_;
  std::optional<Bytes> contents_;
};

}  // namespace sstfilter
