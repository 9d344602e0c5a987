// TableCursor's walk (internal to cpp/table/table_cursor*.cc): the fetchers of its data blocks,
// index partitions and embedded blob records, and where it stands in the index.
#pragma once

#include <memory>
#include <optional>

#include "sstfilter/table.h"
#include "table/block_fetcher.h"
#include "table/index_block.h"
#include "table/table_reader.h"

namespace sstfilter {

struct TableCursor::Walk {
  explicit Walk(const OpenedTable& table)
      : data_fetcher(&table.file),
        index_fetcher(&table.file),
        blob_fetcher(&table.file),
        two_level(table.index_type == kTwoLevelIndexSearch),
        bytewise_order(table.comparator_ref && table.comparator_ref->is_bytewise() &&
                       table.comparator_ref->timestamp_size() == 0) {
    // Data blocks, and the partitions of a partitioned index (written together after the data
    // blocks), each lie one after another: each read reads ahead in its own window.
    data_fetcher.EnableReadahead();
    index_fetcher.EnableReadahead();
    // Embedded blob records come in file order too (each written as its entry was added).
    blob_fetcher.EnableReadahead();
  }

  BlockFetcher data_fetcher;
  BlockFetcher index_fetcher;
  BlockFetcher blob_fetcher;  // embedded blob records, between and before the data blocks
  bool two_level;
  // SetOrderCheck compares inline under this, the common order: it runs for every entry.
  bool bytewise_order;
  bool entered = false;  // the table's index (the top level, when partitioned) was entered
  std::optional<IndexBlock::Iterator> top;  // over the partitions of a partitioned index
  std::unique_ptr<IndexBlock> partition;
  std::optional<IndexBlock::Iterator> blocks;  // over data-block handles
  std::optional<BlockHandle> pending_partition;
  std::optional<BlockHandle> pending_block;
  // The block cache was asked for the pending block and did not hold it (it is being read).
  bool pending_missed = false;
  // SetOrderCheck: the separators of the pending block and of the block read before it, and the
  // last entry read (stored user key and tag).
  std::optional<IndexEntry> block_separator;
  std::optional<IndexEntry> previous_separator;
  bool has_last_entry = false;
  Bytes last_key;
  uint64_t last_tag = 0;
};

}  // namespace sstfilter
