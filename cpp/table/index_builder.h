// The binary-search index a table writer builds (docs/FORMATS.md 3.11.2): one entry per data
// block, keyed by a short key that separates the block's last key from the next block's first,
// valued by the block's handle. LevelDB's TableBuilder (leveldb table/table_builder.cc) and
// RocksDB's ShortenedIndexBuilder (rocksdb table/block_based/index_builder.h, 7.8.3, with the
// default index_shortening kShortenSeparators and index_block_restart_interval 1) differ in the
// keys and values they store.
#pragma once

#include <cstdint>

#include "sstfilter/bytes.h"
#include "sstfilter/table.h"
#include "table/block_builder.h"

namespace sstfilter {

class IndexBuilder {
 public:
  // LevelDB: user keys, as a bare TableBuilder gets them. RocksDB: internal keys; from
  // format_version 3 on the index stores user keys only (every user key appears once, so no
  // separator needs its sequence number), from 4 on handle values without a length.
  // `comparator` (outliving the builder): the keys' order, whose rules shorten separators.
  IndexBuilder(TableFamily family, uint32_t format_version,
               const Comparator* comparator = &BytewiseComparator());

  // The data block at `handle` ends with `last_key`; `next_key` is the first key of the next
  // block, or null after the last block (LevelDB then stores FindShortSuccessor of the last key,
  // RocksDB the key itself). Returns the separator as a whole key (RocksDB: the internal key,
  // before the index drops its tag).
  Bytes AddEntry(ByteView last_key, const ByteView* next_key, BlockHandle handle);
  // An entry keyed by `separator` itself (as AddEntry returns it), as the levels above the
  // partitions of a partitioned index or filter store them (rocksdb table/block_based/
  // index_builder.cc PartitionedIndexBuilder, partitioned_filter_block.cc): the same key and value
  // encodings as this index's entries.
  void AddSeparator(ByteView separator, BlockHandle handle);
  // The block as built so far (partitions are cut by its size), and the finished block.
  const BlockBuilder& block() const { return block_; }
  void Finish(Bytes* out) { block_.Finish(out); }

  bool keys_are_user_keys() const { return !internal_keys_ || strip_tag_; }
  bool values_delta_encoded() const { return !values_have_length_; }

 private:
  TableFamily family_;
  const Comparator* comparator_;
  bool internal_keys_;
  bool strip_tag_;
  bool values_have_length_;
  BlockBuilder block_;
};

}  // namespace sstfilter
