// The filter a table file holds, as its reader consults it (docs/FORMATS.md 2.3, 2.12, 2.13, 3.7):
// a LevelDB filter block (one Bloom filter per 2 KiB of data-block offsets), a RocksDB full
// filter, or a RocksDB partitioned filter (partitions keyed by separators, the partition for a
// lookup chosen with the whole lookup key: the first separator that does not sort before it,
// else the last partition; docs/FORMATS.md 3.8).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/filter.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/leveldb_filter_block.h"
#include "sstfilter/status.h"
#include "table/block.h"
#include "table/internal_key.h"

namespace sstfilter {

enum class TableFilterLayout : uint8_t { kNone, kLevelDbBlock, kFull, kPartitioned };

struct FilterPartition {
  Bytes separator;         // user key part of the partition's index key
  uint64_t separator_tag;  // its tag, when the partition index holds internal keys
  BlockHandle handle;
  std::unique_ptr<FilterReader> reader;  // once read; it holds the partition's bytes
};

// Each filter's bytes are held once, by the reader that probes them (FilterReader::contents(),
// LevelDbFilterBlockReader::contents()): the Set* calls take the block read's buffer over.
class TableFilter {
 public:
  TableFilterLayout layout() const { return layout_; }
  // The metaindex name after "filter." / "fullfilter." / "partitionedfilter.".
  const std::string& metaindex_policy() const { return metaindex_policy_; }
  // A policy this library reproduces (LevelDB's BuiltinBloomFilter2, RocksDB's built-in family);
  // probing a custom policy's filter is kUnsupported.
  bool builtin() const { return builtin_; }

  void SetLevelDbBlock(std::string policy, bool builtin, Bytes contents);
  void SetFull(std::string policy, bool builtin, Bytes contents);
  // Partitions are added in index order, then their contents as they are read.
  // `comparator`: the order of the partition index; nullptr when unknown, then a lookup probes
  // every partition (RocksDbMayMatch answers "may match" when any does).
  void SetPartitioned(std::string policy, bool builtin, uint64_t index_size,
                      const Comparator* comparator, bool separators_have_tag);
  void AddPartition(Bytes separator, uint64_t separator_tag, BlockHandle handle);
  std::vector<FilterPartition>& partitions() { return partitions_; }
  const std::vector<FilterPartition>& partitions() const { return partitions_; }
  size_t partitions_count() const { return partitions_.size(); }
  void SetPartitionContents(size_t i, Bytes contents);

  // "leveldb-bloom", a FilterKindName, "mixed" for partitions of different kinds, "custom".
  std::string KindName() const;
  // Bytes of filter as stored, without trailers (the partitions plus their index).
  uint64_t size_bytes() const;
  // The raw filter contents: the LevelDB block, the full filter, or each partition.
  std::vector<ByteView> RawFilters() const;

  // LevelDB: the filter for the data block at `block_offset` (FilterBlockReader::KeyMayMatch).
  Status LevelDbMayMatch(uint64_t block_offset, ByteView key, bool* may_match) const;
  // LevelDB, key order unknown: whether any filter of the block may hold `key` (every data block's
  // filter is one of them), so that a key is ruled out only when no block's filter can hold it.
  Status LevelDbAnyMayMatch(ByteView key, bool* may_match) const;
  // RocksDB: `probe` (a whole user key or a prefix) in the full filter or in the partition chosen
  // with `lookup` (its index in `*partition` when given); with the partition index's order unknown,
  // whether any partition may hold it (`*partition` untouched). kUnsupported when the filter cannot
  // be probed by this build.
  Status RocksDbMayMatch(const LookupKey& lookup, ByteView probe, bool* may_match,
                         size_t* partition = nullptr) const;
  // RocksDB: results[i] as RocksDbMayMatch for whole user key keys[i], through the filters' batch
  // kernels (a partitioned filter's keys go in runs that share a partition).
  Status RocksDbMayMatchBatch(const KeyBatchView& keys, uint8_t* results) const;

 private:
  Status CheckBuiltin() const;
  // A built-in policy's filter this build can probe.
  Status CheckProbeable(const FilterReader& reader) const;
  Status AnyPartitionMayMatch(ByteView probe, bool* may_match) const;
  // The partition a lookup goes to (partitions_ must not be empty, comparator_ set).
  size_t PartitionFor(const LookupKey& lookup) const;

  TableFilterLayout layout_ = TableFilterLayout::kNone;
  std::string metaindex_policy_;
  bool builtin_ = false;
  std::unique_ptr<LevelDbFilterBlockReader> leveldb_;
  std::unique_ptr<FilterReader> full_;
  std::vector<FilterPartition> partitions_;
  uint64_t partition_index_size_ = 0;
  const Comparator* comparator_ = nullptr;
  bool separators_have_tag_ = false;
};

}  // namespace sstfilter
