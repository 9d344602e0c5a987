#include "table/partitioned_filter_builder.h"

#include <algorithm>

#include "filter/rocksdb_filter_bits_builder.h"

namespace sstfilter {
namespace {

// The PartitionedFilterBlockBuilder constructor: the keys a filter of partition_size bytes holds,
// or for a partition too small for one key, what the smallest filter that holds one does.
uint32_t KeysPerPartition(const BuildOptions& filter, uint32_t partition_size) {
  const RocksDbFilterBitsBuilder bits(filter);
  auto keys = static_cast<uint32_t>(bits.ApproximateNumEntries(partition_size));
  if (keys >= 1) return keys;
  uint32_t larger = std::max(partition_size + 4, uint32_t{16});
  for (;;) {
    keys = static_cast<uint32_t>(bits.ApproximateNumEntries(larger));
    if (keys >= 1) return keys;
    larger += larger / 4;
    if (larger > 100000) return partition_size;  // "1 key / byte"
  }
}

// CreateFilterBlockBuilder (block_based_table_builder.cc): a cut is requested at the lower bound
// of the index partitions' size, since the index cuts only at the next data block.
uint32_t PartitionSize(uint64_t metadata_block_size) {
  const auto size =
      static_cast<uint32_t>((metadata_block_size * (100 - kBlockSizeDeviationPercent) + 99) / 100);
  return std::max(size, uint32_t{1});
}

}  // namespace

PartitionedFilterBuilder::PartitionedFilterBuilder(const BuildOptions& filter,
                                                   std::optional<PrefixExtractor> prefix_extractor,
                                                   bool whole_key_filtering,
                                                   uint32_t format_version,
                                                   uint64_t metadata_block_size, bool decoupled,
                                                   PartitionedIndexBuilder* index)
    : filter_(filter, prefix_extractor, whole_key_filtering, format_version >= 6),
      newer_rules_(format_version >= 6),
      decoupled_(format_version >= 6 && decoupled),
      index_(index),
      format_version_(format_version),
      keys_per_partition_(KeysPerPartition(filter, PartitionSize(metadata_block_size))) {
  // 11.x: the next key's prefix goes in after the check against this count.
  if (newer_rules_ && keys_per_partition_ > 1 && prefix_extractor) --keys_per_partition_;
}

Status PartitionedFilterBuilder::CutPartition(Bytes key) {
  entries_in_finished_ += filter_.entries();
  Bytes bits;
  if (Status s = filter_.Finish(&bits); !s.ok()) return s;
  finished_.emplace_back(std::move(key), std::move(bits));
  return Status::Ok();
}

Status PartitionedFilterBuilder::MaybeCutPartition(const ByteView* next_user_key) {
  if (!newer_rules_) {
    // 7.8.3: requested when the count is reached exactly (a step past it by a key and a prefix
    // at once never asks), and again with every key that adds nothing.
    if (filter_.keys_added() == keys_per_partition_) index_->RequestPartitionCut();
    if (!index_->TakeFilterCut()) return Status::Ok();
    if (next_user_key) filter_.AddNextPrefixBeforeCut(*next_user_key);
    return CutPartition(index_->partition_key());
  }
  // 11.x (DecideCutAFilterBlock): the hashes held, at least the count; coupled, the index cuts.
  const bool full = filter_.entries() >= keys_per_partition_;
  bool cut = full;
  if (!decoupled_) {
    if (full) index_->RequestPartitionCut();
    cut = index_->TakeFilterCut();
  }
  // At the end (no next key) every partition with something in it is cut.
  if (!next_user_key) cut = filter_.entries() > 0;
  if (!cut) return Status::Ok();
  if (next_user_key) filter_.AddPrefixClosingPartition(*next_user_key);
  Bytes key = index_->partition_key();
  if (decoupled_) {
    // The last user key with a trailer of sequence number 0, kTypeDeletion (0): an internal key
    // that the partition index strips again where its keys are user keys.
    key = prev_user_key_;
    PutFixed64(&key, 0);
  }
  if (Status s = CutPartition(std::move(key)); !s.ok()) return s;
  if (next_user_key && has_prev_key_) filter_.AddPrefixOpeningPartition(prev_user_key_);
  return Status::Ok();
}

Status PartitionedFilterBuilder::Add(ByteView user_key) {
  if (Status s = MaybeCutPartition(&user_key); !s.ok()) return s;
  filter_.Add(user_key);
  if (newer_rules_) {
    prev_user_key_.assign(user_key.begin(), user_key.end());
    has_prev_key_ = true;
  }
  return Status::Ok();
}

Status PartitionedFilterBuilder::Finish(const std::function<BlockHandle(ByteView)>& write_block,
                                        Written* out) {
  if (Status s = MaybeCutPartition(nullptr); !s.ok()) return s;
  // The index over the partitions: keys and handles encoded as the top-level index's.
  IndexBuilder partition_index(TableFamily::kRocksDb, format_version_);
  *out = Written{};
  out->partitions = finished_.size();
  for (auto& [key, bits] : finished_) {
    out->bytes += bits.size();
    partition_index.AddSeparator(key, write_block(bits));
    Bytes().swap(bits);
  }
  Bytes contents;
  partition_index.Finish(&contents);
  out->bytes += contents.size();
  out->partition_index = write_block(contents);
  return Status::Ok();
}

}  // namespace sstfilter
