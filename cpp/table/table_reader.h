// What an open table knows (sstfilter/table.h TableReader opens it): immutable once open, shared
// by the reader with the key cursors and block reads made from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sstfilter/table.h"
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

// The meta block holding the dictionary data blocks are compressed with.
inline constexpr std::string_view kCompressionDictionaryBlock = "rocksdb.compression_dict";
// The meta block holding the table's range deletions (rocksdb table/block_based/
// block_based_table_builder.cc WriteRangeDelBlock).
inline constexpr std::string_view kRangeDeletionsBlock = "rocksdb.range_del";

struct OpenedTable {
  // The table's owner id in a block cache when the lookup names none (TableReadOptions::
  // cache_table): BlockCache::NewId() of this open.
  uint64_t cache_id = 0;
  TableOptions options;
  TableFileFormat file;
  Footer footer;
  TableFamily family = TableFamily::kRocksDb;
  std::vector<MetaindexEntry> metaindex;
  TableProperties properties;
  BlockHandle index_handle;
  uint32_t index_type = 0;  // rocksdb.block.based.table.index.type
  IndexFormat index_format;
  IndexBlock index;  // the top-level index when partitioned
  // The order of the keys; nullptr when unknown (key_order.source kUnknown). For a table whose
  // writer stripped the keys' timestamps, the comparator's order of keys stored without them.
  ComparatorRef comparator_ref;
  // The bytes of timestamp the table's comparator gives keys and its writer stripped (property
  // rocksdb.user.defined.timestamps.persisted 0): entries read as if each stored key ended in that
  // many zero bytes, the minimum timestamp. 0 when keys are stored whole.
  size_t stripped_timestamp_size = 0;
  TableKeyOrder key_order;
  bool whole_key_filtering = true;  // rocksdb.block.based.table.whole.key.filtering
  std::optional<std::string> prefix_extractor_name;  // nullopt when the table has none
  std::optional<PrefixExtractor> prefix_extractor;   // nullopt also for custom extractors
  // The table records rocksdb.embedded.blob.stats: its same-file blob indexes are resolved.
  bool embedded_blobs = false;
  TableFilter filter;

  const MetaindexEntry* FindMeta(std::string_view name) const;
  // The properties block ("rocksdb.properties", or "rocksdb.stats" in old files), if any.
  const MetaindexEntry* PropertiesEntry() const;
  // Whether the block at `offset` is a data block, as far as the properties tell (only data blocks
  // use the compression dictionary).
  BlockKind KindOfBlockAt(uint64_t offset) const;
  // Where the value of property `name` lies in the file, for errors about it; kNoOffset without
  // it.
  int64_t PropertyOffset(std::string_view name) const;
};

// Why an operation that needs the key order cannot have it, for error messages: names the
// comparator (or says LevelDB records none) and TableOptions::comparator.
std::string UnknownOrderText(const OpenedTable& table);

}  // namespace sstfilter
