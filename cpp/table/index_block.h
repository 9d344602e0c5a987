// Index blocks (docs/FORMATS.md 2.13, 3.6.6; rocksdb table/format.cc IndexValue::DecodeFrom,
// table/block_based/block.cc IndexBlockIter; leveldb table/two_level_iterator.cc): entries map a
// separator key to the handle of a data block, an index partition or a filter partition.
// RocksDB format_version >= 4 writes values without a length, and entries that are not restart
// points carry only the size difference to the previous handle.
#pragma once

#include <cstdint>
#include <optional>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "table/block.h"
#include "table/internal_key.h"

namespace sstfilter {

struct IndexFormat {
  BlockFlavor flavor = BlockFlavor::kRocksDb;
  bool keys_have_tag = true;           // separators are internal keys (else user keys)
  bool values_delta_encoded = false;   // rocksdb.index.value.is.delta.encoded
  bool values_have_first_key = false;  // index type 3, kBinarySearchWithFirstKey
  // The order separators are compared in when seeking (never null).
  const Comparator* comparator = &BytewiseComparator();
};

struct IndexEntry {
  Bytes user_key;    // the separator without its tag
  uint64_t tag = 0;  // the separator's tag, when the index holds internal keys
  BlockHandle handle;
};

// <0, 0 or >0 as separator `a` sorts before, with or after `b` as internal keys do (docs/FORMATS.md
// 3.4): user keys in `comparator`'s order, then timestamps and (`has_tag`) tags descending.
int CompareSeparators(const Comparator& comparator, const IndexEntry& a, const IndexEntry& b,
                      bool has_tag);

class IndexBlock {
 public:
  // Validates the restart array; entries are checked as they are decoded. `file_offset` is where
  // the block lies in the file, for error offsets (kNoOffset-like 0 for decompressed blocks is
  // fine: errors then name the block's start).
  static Status Open(Bytes contents, const IndexFormat& format, uint64_t file_offset,
                     bool compressed, IndexBlock* out);

  // Walks the entries in order.
  class Iterator {
   public:
    // Decodes the next entry into *entry; sets *end instead when there is none.
    Status Next(IndexEntry* entry, bool* end);

   private:
    friend class IndexBlock;
    explicit Iterator(const IndexBlock* block);
    Status DecodeCurrent(IndexEntry* entry);

    const IndexBlock* block_;
    BlockEntryDecoder decoder_;
    std::optional<BlockHandle> previous_;
  };
  Iterator Begin() const { return Iterator(this); }

  // An iterator from the last restart point whose entry sorts before `lookup` (the block's first
  // entry when none does): every entry it passes over sorts before `lookup`, and the first that
  // does not is at most a restart interval on. A walk that starts at a key enters the index here.
  Status IteratorNear(const LookupKey& lookup, std::optional<Iterator>* out) const;

  // The same by the blocks' offsets, for an index of data blocks (written in file order): an
  // iterator from the last restart point whose block starts before `block_offset`. A walk of the
  // blocks from an offset on (verify's ranges) enters the index here.
  Status IteratorNearOffset(uint64_t block_offset, std::optional<Iterator>* out) const;

  // The first entry that does not sort before `lookup` (binary search over the restart points,
  // then a scan, as IndexBlockIter::Seek), or nullopt after the last entry. Internal-key indexes
  // compare as the databases' lookup keys do (docs/FORMATS.md 3.8).
  Status Seek(const LookupKey& lookup, std::optional<IndexEntry>* entry) const;

  // Whether the index's keys carry tags (IndexEntry::tag is meaningful).
  bool keys_have_tag() const { return format_.keys_have_tag; }

  // The last entry (nullopt for an empty block).
  Status Last(std::optional<IndexEntry>* entry) const;

  bool empty() const { return layout_.entries_size == 0; }

  // Seeks compare in this order from now on (once the reader knows the table's order).
  void set_comparator(const Comparator* comparator) { format_.comparator = comparator; }

 private:
  Status Located(Status s) const;
  // IteratorNear's binary search, with `before(entry)` saying whether a restart point's entry lies
  // before the target.
  template <typename Before>
  Status IteratorAfterLastRestartBefore(Before before, std::optional<Iterator>* out) const;

  Bytes contents_;
  IndexFormat format_;
  BlockLayout layout_;
  uint64_t file_offset_ = 0;
  bool compressed_ = false;
};

}  // namespace sstfilter
