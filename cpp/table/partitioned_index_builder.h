// The two-level index of a RocksDB table (docs/FORMATS.md 3.11.6; rocksdb
// table/block_based/index_builder.cc PartitionedIndexBuilder, 7.8.3, index_type
// kTwoLevelIndexSearch): binary-search index partitions, each cut by FlushBlockBySizePolicy on
// metadata_block_size or when a partitioned filter asks for a cut, and a top-level index with one
// entry per partition, keyed by the partition's last separator. Partitions and the top level are
// written at Finish, after the filter.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "sstfilter/bytes.h"
#include "table/block_builder.h"
#include "table/index_builder.h"

namespace sstfilter {

class PartitionedIndexBuilder {
 public:
  // `comparator` (outliving the builder): the keys' order (IndexBuilder).
  PartitionedIndexBuilder(uint32_t format_version, uint64_t metadata_block_size,
                          const Comparator* comparator = &BytewiseComparator());

  // As IndexBuilder::AddEntry for the data block at `handle`: first cuts the current partition
  // when it is full or a cut was requested (never before the last block's entry).
  void AddEntry(ByteView last_key, const ByteView* next_key, BlockHandle handle);

  // The filter partition that just filled up asks for a cut at the next data block.
  void RequestPartitionCut() { cut_requested_ = true; }
  // ShouldCutFilterBlock: true once after each partition cut (and after the last block's entry),
  // when the filter cuts its partition too.
  bool TakeFilterCut() { return std::exchange(filter_cut_, false); }
  // GetPartitionKey: the separator of the data block indexed last, which keys the filter
  // partition cut with it.
  const Bytes& partition_key() const { return last_separator_; }

  struct Written {
    BlockHandle top_level;        // the footer's index handle
    uint64_t contents_bytes = 0;  // partitions and top level before compression and trailers
    uint64_t top_level_bytes = 0;
    uint64_t partitions = 0;
  };
  // Writes each partition, then the top level, through write_block (which returns the handle).
  Written Finish(const std::function<BlockHandle(ByteView)>& write_block);

  bool keys_are_user_keys() const { return top_level_.keys_are_user_keys(); }
  bool values_delta_encoded() const { return top_level_.values_delta_encoded(); }

 private:
  void CutPartition();

  uint32_t format_version_;
  const Comparator* comparator_;
  FlushBySizePolicy policy_;
  std::optional<IndexBuilder> partition_;  // the partition being filled, if any
  // Finished partitions: the separator that keys each in the top level, its contents.
  std::vector<std::pair<Bytes, Bytes>> finished_;
  IndexBuilder top_level_;
  Bytes last_separator_;
  bool cut_requested_ = false;
  bool filter_cut_ = false;
};

}  // namespace sstfilter
