// Building the key/value blocks both databases write (docs/FORMATS.md 3.3; leveldb
// table/block_builder.cc, rocksdb table/block_based/block_builder.cc): entries prefix-compressed
// against the previous key, a full key every `restart_interval` entries (a restart point), then
// the restart offsets as fixed32 and their count. Both libraries write the same bytes for the same
// entries; RocksDB's blocks of the binary-search data-block index carry no flags in the count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sstfilter/bytes.h"

namespace sstfilter {

class BlockBuilder {
 public:
  // `restart_interval` >= 1. `delta_keys` false writes every key whole (use_delta_encoding).
  // `values_have_length` false is RocksDB's index format from format_version 4 on
  // (docs/FORMATS.md 2.13): no value-length field; the writer only ever stores whole handles
  // there because its index restarts at every entry.
  // `values_apart` lays the block out as RocksDB 11's separate_key_value_in_data_block does
  // (docs/FORMATS.md 3.3.1): values after all keys, each restart entry naming where its value
  // starts, the values' offset before the footer word, bit 28 set in it.
  explicit BlockBuilder(uint32_t restart_interval, bool delta_keys = true,
                        bool values_have_length = true, bool values_apart = false)
      : restart_interval_(restart_interval),
        delta_keys_(delta_keys),
        values_have_length_(values_have_length),
        values_apart_(values_apart) {}

  void Add(ByteView key, ByteView value);

  bool empty() const { return buffer_.empty(); }
  // Entries plus the restart array and count as they would be written now (both libraries'
  // CurrentSizeEstimate).
  // With values apart, also the values and their offset word (BlockBuilder::Reset's estimate_).
  size_t CurrentSizeEstimate() const {
    return buffer_.size() + values_.size() + 4 * restarts_.size() + (values_apart_ ? 8 : 4);
  }
  // RocksDB's EstimateSizeAfterKV: a deliberately rough size after adding this entry, which
  // FlushBlockBySizePolicy bases its decisions on (the whole key, a 4-byte shared-length field).
  // RocksDB counts half the value for a delta-encoded handle between restart points; the index
  // blocks written here restart at every entry, so the whole value and its length always count.
  size_t EstimateSizeAfterKV(ByteView key, ByteView value) const;
  // The key added last (the whole key), empty before the first.
  const Bytes& last_key() const { return last_key_; }

  // Appends the finished block (entries, restarts, count) to `out` and starts a new block.
  void Finish(Bytes* out);

 private:
  uint32_t restart_interval_;
  bool delta_keys_;
  bool values_have_length_;
  bool values_apart_;
  Bytes buffer_;  // the entries, or with values apart their headers and keys
  Bytes values_;  // with values apart: the values so far
  std::vector<uint32_t> restarts_{0};
  uint32_t counter_ = 0;  // entries since the last restart point
  Bytes last_key_;
};

// FlushBlockBySizePolicy (rocksdb table/block_based/flush_block_policy.cc, 7.8.3) with the default
// block_size_deviation of 10 percent: when to cut a block before adding an entry. RocksDB cuts
// data blocks by block_size and index partitions by metadata_block_size this way.
inline constexpr uint64_t kBlockSizeDeviationPercent = 10;

class FlushBySizePolicy {
 public:
  explicit FlushBySizePolicy(uint64_t block_size)
      : block_size_(block_size),
        deviation_limit_((block_size * (100 - kBlockSizeDeviationPercent) + 99) / 100) {}

  // A non-empty block is cut when it reached block_size, or when this entry would take it past
  // block_size and it is already above the deviation limit.
  bool ShouldFlush(const BlockBuilder& block, ByteView key, ByteView value) const;

 private:
  uint64_t block_size_;
  uint64_t deviation_limit_;
};

// Little-endian varint32 / block handle encodings as blocks store them.
void PutVarint32(Bytes* out, uint32_t v);
void PutBlockHandle(Bytes* out, uint64_t offset, uint64_t size);
// Bytes a varint of `v` takes.
size_t VarintLength(uint64_t v);

}  // namespace sstfilter
