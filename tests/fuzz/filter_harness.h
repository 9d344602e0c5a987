// The harness of filter_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "harness_support.h"
#include "sstfilter/filter.h"

namespace sstfilter::fuzz {

// Keys probed through every path and kernel per input. Probing costs keys x kernels x paths, so
// this bounds the work per execution; it is still more than the batch paths' internal strides
// (FastLocalBloom prefetches 64 keys ahead, Ribbon checks groups of 32, and both hash batches in
// chunks of 256 keys), so every stride boundary and tail is crossed.
inline constexpr size_t kMaxProbeKeys = 300;

// ---- filter_fuzz: [family u8][probe-key bytes u16][filter bytes][probe keys] ----
// family bit 0: RocksDB (OpenRocksDbFilter, dispatch on the metadata trailer), else LevelDB.
inline void FuzzFilter(const uint8_t* data, size_t size) {
  Input in(data, size);
  const bool rocksdb = (in.Byte() & 1) != 0;
  const size_t key_bytes = in.U16();
  const size_t filter_size = in.remaining() > key_bytes ? in.remaining() - key_bytes : 0;
  const ByteView filter = in.Take(filter_size);
  const std::vector<ByteView> keys = SplitKeys(in.Rest(), kMaxProbeKeys);

  Bytes copy(filter.begin(), filter.end());
  const std::unique_ptr<FilterReader> reader =
      rocksdb ? OpenRocksDbFilter(std::move(copy)) : OpenLevelDbFilter(std::move(copy));
  const FilterInfo info = reader->info();
  FUZZ_CHECK(info.data_bytes <= filter.size());
  const bool probeable = reader->ProbeSupport().ok();
  const std::vector<uint8_t> answers = ProbeEveryWay(*reader, keys);
  for (uint8_t a : answers) {
    if (info.kind == FilterKind::kAlwaysMatch || !probeable) FUZZ_CHECK(a);
    if (info.kind == FilterKind::kNeverMatch) FUZZ_CHECK(!a);
  }
}

}  // namespace sstfilter::fuzz
