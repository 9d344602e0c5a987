// A RocksDB full filter built key by key, as a table writer feeds it (RocksDB
// table/block_based/filter_policy.cc, the FilterBitsBuilder of each policy): keys are hashed when
// added and only the hashes kept (8 bytes per key, 4 for the legacy Bloom), a hash equal to the
// previous one skipped, and the filter is built from them at the end. Gives the bytes BuildFilter
// gives for the same keys in the same order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/filter.h"
#include "sstfilter/status.h"

namespace sstfilter {

class RocksDbFilterBitsBuilder {
 public:
  // `options` must have passed ValidateBuildOptions and name a RocksDB format.
  explicit RocksDbFilterBitsBuilder(const BuildOptions& options) : options_(options) {}

  void AddKey(ByteView key);
  // RocksDB 11.x (FilterBitsBuilder::AddKeyAndAlt at main): a key and its prefix, the prefix first,
  // each skipped when its hash repeats the previous key's or prefix's (or, for the prefix, the
  // key's own).
  void AddKeyAndAlt(ByteView key, ByteView alt);
  // The hashes kept so far (EstimateEntriesAdded): rocksdb.num.filter_entries.
  size_t entries() const;
  // Builds the filter and forgets the hashes: the builder then starts a new filter.
  Status Finish(Bytes* out);
  // FilterBitsBuilder::ApproximateNumEntries: how many keys a filter of `bytes` bytes (metadata
  // included) holds, as partitioned filters size their partitions. 0 when too small for one.
  uint64_t ApproximateNumEntries(uint64_t bytes) const;

 private:
  BuildOptions options_;
  std::vector<uint64_t> hashes64_;         // FastLocalBloom and Ribbon
  std::vector<uint32_t> hashes32_;         // legacy Bloom
  std::optional<uint64_t> prev_alt_hash_;  // AddKeyAndAlt's last alt (legacy: 32 bits)
};

}  // namespace sstfilter
