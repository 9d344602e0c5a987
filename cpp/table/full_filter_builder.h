// The full filter of a RocksDB table as the table builder fills it (docs/FORMATS.md 3.11.4;
// rocksdb table/block_based/full_filter_block.cc FullFilterBlockBuilder, 7.8.3): each user key
// whole (whole_key_filtering) and/or its prefix (with a prefix extractor, keys in its domain),
// with the repeats it skips and the one it adds by accident.
#pragma once

#include <optional>

#include "filter/rocksdb_filter_bits_builder.h"
#include "sstfilter/bytes.h"
#include "table/prefix_extractor.h"

namespace sstfilter {

class FullFilterBuilder {
 public:
  // `newer_rules`: RocksDB 11.x's FullFilterBlockBuilder::Add (format_version >= 6 tables, which
  // only newer RocksDB writes): a key in the extractor's domain adds its prefix and itself through
  // AddKeyAndAlt, or only its prefix without whole-key filtering; no prefix bookkeeping, no quirk.
  FullFilterBuilder(const BuildOptions& filter, std::optional<PrefixExtractor> prefix_extractor,
                    bool whole_key_filtering, bool newer_rules = false)
      : bits_(filter),
        prefix_extractor_(prefix_extractor),
        whole_key_filtering_(whole_key_filtering),
        newer_rules_(newer_rules) {}

  // The user key of each point entry, in order.
  void Add(ByteView user_key);
  // No key went in (ever): RocksDB then writes no filter block at all.
  bool empty() const { return !any_added_; }
  // Hashes kept for the filter being built (EstimateEntriesAdded).
  size_t entries() const { return bits_.entries(); }
  // Keys handed to the bits builder since the last Finish, repeats included (a partitioned
  // filter's keys_added_to_partition_).
  uint32_t keys_added() const { return keys_added_; }
  // PartitionedFilterBlockBuilder::MaybeCutAFilterBlock, just before a partition is finished: the
  // prefix of the next key goes into it too unless it equals the last prefix recorded (which is
  // never set without whole-key filtering), so that a prefix seek from the previous partition
  // finds it.
  void AddNextPrefixBeforeCut(ByteView next_user_key);
  // RocksDB 11.x's PartitionedFilterBlockBuilder::CutAFilterBlock (newer rules): just before a
  // cut, the next key's prefix as a key-and-alt pair of itself (alone without whole-key
  // filtering); just after it, the previous key's prefix, each when that key is in the domain.
  void AddPrefixClosingPartition(ByteView next_user_key);
  void AddPrefixOpeningPartition(ByteView prev_user_key);
  // The filter of the keys since the last Finish; the next keys start a new one (a partition),
  // which first catches up on the last prefix (Reset in full_filter_block.cc).
  Status Finish(Bytes* out);

 private:
  void AddKey(ByteView key);

  RocksDbFilterBitsBuilder bits_;
  std::optional<PrefixExtractor> prefix_extractor_;
  bool whole_key_filtering_;
  bool newer_rules_;
  bool any_added_ = false;
  uint32_t keys_added_ = 0;
  bool last_key_in_domain_ = false;
  bool last_prefix_recorded_ = false;
  Bytes last_prefix_;
};

}  // namespace sstfilter
