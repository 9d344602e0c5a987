// The harness of roundtrip_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness_support.h"
#include "sstfilter/filter.h"
#include "sstfilter/leveldb_filter_block.h"

namespace sstfilter::fuzz {

// ---- roundtrip_fuzz: [format u8][bits u8][keys] ----
// Builds a filter of every format from arbitrary keys (length-prefixed as SplitKeys reads them)
// and checks that it matches each of them (the first kMaxRoundTripProbeKeys through every probe
// path and kernel, all of them through the batch path); LevelDB keys also go through a filter
// block, spread over data blocks at offsets the key lengths spell.
inline constexpr size_t kMaxRoundTripProbeKeys = 100;

inline void FuzzRoundTrip(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t format_byte = in.Byte();
  const uint8_t bits = in.Byte();
  std::vector<ByteView> keys = SplitKeys(in.Rest());
  if ((format_byte & 0x80) == 0) keys.erase(keys.begin());  // with or without the empty key
  const PackedKeys packed(keys);
  // Every kernel and path for the first kMaxRoundTripProbeKeys keys (more than the batch paths'
  // prefetch distance and group size); every key through the batch path of the default kernels
  // below (crossing its 256-key hash chunks), so that no key may be a false negative.
  const std::vector<ByteView> probed(keys.begin(),
                                     keys.begin() + std::min(keys.size(), kMaxRoundTripProbeKeys));

  BuildOptions options;
  options.format = static_cast<FilterFormat>(format_byte % 4);
  // LevelDB takes whole bits per key; RocksDB 0.5 and up in eighths (below 0.5 it writes none).
  options.bits_per_key =
      options.format == FilterFormat::kLevelDbBloom ? 1 + bits % 64 : 0.5 + bits / 8.0;
  Bytes built;
  FUZZ_CHECK(BuildFilter(packed.view(), options, &built).ok());
  const std::unique_ptr<FilterReader> reader = options.format == FilterFormat::kLevelDbBloom
                                                   ? OpenLevelDbFilter(std::move(built))
                                                   : OpenRocksDbFilter(std::move(built));
  FUZZ_CHECK(reader->ProbeSupport().ok());
  const FilterKind kind = reader->kind();
  switch (options.format) {
    case FilterFormat::kLevelDbBloom:
      FUZZ_CHECK(kind == FilterKind::kLevelDbBloom);
      break;
    case FilterFormat::kRocksDbLegacyBloom:
      FUZZ_CHECK(kind ==
                 (keys.empty() ? FilterKind::kNeverMatch : FilterKind::kRocksDbLegacyBloom));
      break;
    case FilterFormat::kRocksDbFastLocalBloom:
      FUZZ_CHECK(kind ==
                 (keys.empty() ? FilterKind::kNeverMatch : FilterKind::kRocksDbFastLocalBloom));
      break;
    case FilterFormat::kRocksDbRibbon:
      // Small key sets fall back to FastLocalBloom where it is smaller.
      FUZZ_CHECK(keys.empty() ? kind == FilterKind::kNeverMatch
                              : kind == FilterKind::kRocksDbRibbon ||
                                    kind == FilterKind::kRocksDbFastLocalBloom);
      break;
  }
  for (uint8_t a : ProbeEveryWay(*reader, probed)) FUZZ_CHECK(a == 1);
  std::vector<uint8_t> all(keys.size(), 2);
  reader->MayMatchBatch(packed.view(), all.data());
  for (uint8_t a : all) FUZZ_CHECK(a == 1);

  if (options.format != FilterFormat::kLevelDbBloom) return;
  LevelDbFilterBlockBuilder builder(static_cast<int>(options.bits_per_key));
  std::vector<uint64_t> block_of_key;
  uint64_t offset = 0;
  for (ByteView k : keys) {
    // A new data block every few keys, at an offset that grows by the key's length times 97
    // (crossing 2 KiB filter ranges now and then, skipping some entirely).
    if (block_of_key.empty() || k.size() % 3 == 0) {
      offset += k.size() * 97;
      FUZZ_CHECK(builder.StartBlock(offset).ok());
    }
    builder.AddKey(k);
    block_of_key.push_back(offset);
  }
  Bytes block;
  FUZZ_CHECK(builder.Finish(&block).ok());
  const LevelDbFilterBlockReader block_reader(std::move(block));
  for (size_t i = 0; i < keys.size(); ++i) {
    FUZZ_CHECK(block_reader.KeyMayMatch(block_of_key[i], keys[i]));
  }
}

}  // namespace sstfilter::fuzz
