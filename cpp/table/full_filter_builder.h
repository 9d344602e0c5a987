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
  FullFilterBuilder(const BuildOptions& filter, std::optional<PrefixExtractor> prefix_extractor,
                    bool whole_key_filtering)
      : bits_(filter),
        prefix_extractor_(prefix_extractor),
        whole_key_filtering_(whole_key_filtering) {}

  // The user key of each point entry, in order.
  void Add(ByteView user_key);
  // No key went in: RocksDB then writes no filter block at all.
  bool empty() const { return !any_added_; }
  size_t entries() const { return bits_.entries(); }
  Status Finish(Bytes* out) { return bits_.Finish(out); }

 private:
  void AddKey(ByteView key);

  RocksDbFilterBitsBuilder bits_;
  std::optional<PrefixExtractor> prefix_extractor_;
  bool whole_key_filtering_;
  bool any_added_ = false;
  bool last_key_in_domain_ = false;
  bool last_prefix_recorded_ = false;
  Bytes last_prefix_;
};

}  // namespace sstfilter
