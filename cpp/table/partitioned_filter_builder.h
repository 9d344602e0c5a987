// The partitioned filter of a RocksDB table (docs/FORMATS.md 3.11.6; rocksdb
// table/block_based/partitioned_filter_block.cc PartitionedFilterBlockBuilder, 7.8.3,
// partition_filters = true): the full filter's keys, cut into one filter per partition of the
// two-level index. A partition asks the index for a cut when it holds as many keys as a filter of
// about metadata_block_size bytes does, and is finished when the index cuts (at the next data
// block boundary at the earliest); an index over the partitions, keyed as the top-level index is,
// follows them. For format_version >= 6 tables, RocksDB 11.x's rules (partitioned_filter_block.cc
// at main): the full filter's newer rules, partitions judged by the hashes they hold, and either
// cut with the index partitions as above or, decoupled (decouple_partitioned_filters, 11.x's
// default), on their own, keyed by their last user key (and a zero trailer where the index keys
// carry one).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "table/full_filter_builder.h"
#include "table/partitioned_index_builder.h"

namespace sstfilter {

class PartitionedFilterBuilder {
 public:
  // `index` outlives the builder; its entries are added before the keys of the next block here.
  PartitionedFilterBuilder(const BuildOptions& filter,
                           std::optional<PrefixExtractor> prefix_extractor,
                           bool whole_key_filtering, uint32_t format_version,
                           uint64_t metadata_block_size, bool decoupled,
                           PartitionedIndexBuilder* index);

  // The user key of each point entry, in order, after the index entry of the block before it.
  Status Add(ByteView user_key);
  bool empty() const { return filter_.empty(); }
  // EstimateEntriesAdded over every partition: rocksdb.num.filter_entries.
  size_t entries() const { return entries_in_finished_ + filter_.entries(); }

  struct Written {
    BlockHandle partition_index;  // the metaindex's handle
    uint64_t bytes = 0;           // partitions and their index, without trailers
    size_t partitions = 0;
  };
  // Cuts the last partition, then writes each partition and the index over them through
  // write_block. Only after the index's last entry.
  Status Finish(const std::function<BlockHandle(ByteView)>& write_block, Written* out);

 private:
  Status MaybeCutPartition(const ByteView* next_user_key);
  Status CutPartition(Bytes key);

  FullFilterBuilder filter_;
  bool newer_rules_;
  bool decoupled_;
  bool has_prev_key_ = false;
  Bytes prev_user_key_;  // newer rules: the key added last
  PartitionedIndexBuilder* index_;
  uint32_t format_version_;
  uint32_t keys_per_partition_;
  size_t entries_in_finished_ = 0;
  // Finished partitions: the key of the index entry for each, its filter.
  std::vector<std::pair<Bytes, Bytes>> finished_;
};

}  // namespace sstfilter
