// LevelDB's filter block (docs/FORMATS.md 2.3; LevelDB table/filter_block.cc): one Bloom filter per
// 2 KiB range of data-block start offsets, then the filters' offsets, the offset array's
// position and log2 of the range size.
#pragma once

#include <cstdint>
#include <optional>

#include "sstfilter/bytes.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/status.h"

namespace sstfilter {

// log2 of the data range one filter covers (kFilterBaseLg in table/filter_block.cc).
inline constexpr int kLevelDbFilterBaseLg = 11;

// Mirrors FilterBlockBuilder as LevelDB's TableBuilder drives it (docs/FORMATS.md 3.9): for each
// data block StartBlock(its offset), its keys (user keys: LevelDB's InternalFilterPolicy strips the
// 8-byte tag before hashing), EndBlock(its offset, its size); then Finish.
class LevelDbFilterBlockBuilder {
 public:
  explicit LevelDbFilterBlockBuilder(int bits_per_key) : bits_per_key_(bits_per_key) {}

  // Block offsets must not decrease. Offsets beyond what a LevelDB file can address are rejected
  // (kResourceLimit) rather than materialising millions of empty filters.
  Status StartBlock(uint64_t block_offset);
  void AddKey(ByteView key);
  // The data block at `block_offset`, `block_size` bytes without its trailer, was written.
  // TableBuilder::Flush (leveldb table/table_builder.cc) then calls StartBlock with the offset
  // after the block and its 5-byte trailer, so after the last block the filter block holds empty
  // filters up to that end's 2 KiB range (table/filter_block.cc). Sizes are checked as offsets.
  Status EndBlock(uint64_t block_offset, uint64_t block_size);
  Status Finish(Bytes* out);

 private:
  Status GenerateFilter();

  int bits_per_key_;
  Bytes result_;        // filters so far
  Bytes pending_keys_;  // keys of the filter being gathered, concatenated
  std::vector<uint32_t> pending_offsets_{0};
  std::vector<uint32_t> filter_offsets_;
};

// Mirrors FilterBlockReader, including its answers for malformed contents: a block too short to
// parse or with an offset array out of range matches every key; an empty filter matches none.
class LevelDbFilterBlockReader {
 public:
  explicit LevelDbFilterBlockReader(Bytes contents);

  bool KeyMayMatch(uint64_t block_offset, ByteView key) const;

  // The bytes of filter `index` (empty for an empty filter, which matches nothing), or nullopt
  // when the index is out of range or its offsets are malformed (then every key may match).
  std::optional<ByteView> FilterAt(uint64_t index) const;

  // Number of filters the offset array announces (0 when the block is malformed).
  size_t num_filters() const { return num_filters_; }
  int base_lg() const { return base_lg_; }
  // The whole block as stored.
  ByteView contents() const { return contents_; }

 private:
  Bytes contents_;
  size_t array_offset_ = 0;
  size_t num_filters_ = 0;
  int base_lg_ = 0;
};

}  // namespace sstfilter
