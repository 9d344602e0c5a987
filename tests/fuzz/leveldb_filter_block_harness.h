// The harness of leveldb_filter_block_fuzz (harness_support.h says how harnesses are built and
// replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "harness_support.h"
#include "sstfilter/leveldb_filter_block.h"

namespace sstfilter::fuzz {

// ---- leveldb_filter_block_fuzz: [probe-key bytes u16][filter block][probe keys] ----
// Each key is probed at the start of every filter's range, just past the last one, and at offsets
// spelled by the key's own bytes.
inline void FuzzLevelDbFilterBlock(const uint8_t* data, size_t size) {
  Input in(data, size);
  const size_t key_bytes = in.U16();
  const size_t block_size = in.remaining() > key_bytes ? in.remaining() - key_bytes : 0;
  const ByteView block = in.Take(block_size);
  const std::vector<ByteView> keys = SplitKeys(in.Rest());

  const LevelDbFilterBlockReader reader(Bytes(block.begin(), block.end()));
  const int base_lg = reader.base_lg();
  FUZZ_CHECK(reader.num_filters() <= block.size() / 4);
  for (uint64_t i = 0; i <= reader.num_filters() + 1; ++i) {
    const std::optional<ByteView> filter = reader.FilterAt(i);
    FUZZ_CHECK(i < reader.num_filters() || !filter);
    if (filter) FUZZ_CHECK(filter->size() <= block.size());
  }
  std::vector<uint64_t> offsets = {0, 1, UINT64_MAX};
  const size_t filters = std::min<size_t>(reader.num_filters(), 64);
  for (size_t i = 0; i <= filters; ++i) {
    if (base_lg < 64) offsets.push_back(uint64_t{i} << base_lg);
  }
  for (ByteView k : keys) {
    uint64_t spelled = 0;
    for (size_t i = 0; i < k.size() && i < 8; ++i) spelled |= uint64_t{k[i]} << (8 * i);
    offsets.push_back(spelled);
    for (uint64_t offset : offsets) {
      const bool a = reader.KeyMayMatch(offset, k);
      // Offsets past the last filter, and blocks too malformed to index, match everything.
      if (base_lg >= 64 || (offset >> base_lg) >= reader.num_filters()) FUZZ_CHECK(a);
    }
    offsets.pop_back();
  }
}

}  // namespace sstfilter::fuzz
