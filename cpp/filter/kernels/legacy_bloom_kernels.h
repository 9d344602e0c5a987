// The probe and add loops of RocksDB's legacy full-filter Bloom (docs/FORMATS.md 2.6; RocksDB
// util/bloom_impl.h, LegacyLocalityBloomImpl<false>), on 32-bit key hashes (RocksDbLegacyHash32
// with the Bloom seed). One portable kernel, legacy_bloom_scalar.cc: the modulo that picks a line
// and the serial h += delta chain leave nothing for SIMD lanes to share, so batches only prefetch
// lines ahead, as RocksDB's own batch does.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace sstfilter::simd {

// Where a hash's bits live: the line (h mod num_lines, no extra rotation: ExtraRotates = false is
// the only variant ever written) and the mask of a bit position within it.
struct LegacyBloomGeometry {
  uint32_t num_lines;  // >= 1
  int log2_line_bytes;

  size_t LineBytes() const { return size_t{1} << log2_line_bytes; }
  size_t LineOffset(uint32_t h) const { return size_t{h % num_lines} << log2_line_bytes; }
  // 8 * line bytes - 1; a line of 2^29 bytes or more has more bits than a 32-bit hash addresses,
  // and then every hash bit is used.
  uint32_t BitMask() const {
    return static_cast<uint32_t>(std::min(uint64_t{8} << log2_line_bytes, uint64_t{1} << 32) - 1);
  }
};

// Preconditions: `data` holds num_lines whole lines; 1 <= num_probes.
bool LegacyBloomMayMatch(uint32_t hash, int num_probes, const LegacyBloomGeometry& geometry,
                         const uint8_t* data);

// out[i] = 1 when hashes[i] may be in the filter, else 0.
void LegacyBloomMayMatchBatch(const uint32_t* hashes, size_t n, int num_probes,
                              const LegacyBloomGeometry& geometry, const uint8_t* data,
                              uint8_t* out);

// Sets the bits of every hash (LegacyLocalityBloomImpl::AddHash).
void LegacyBloomAdd(const uint32_t* hashes, size_t n, int num_probes,
                    const LegacyBloomGeometry& geometry, uint8_t* data);

}  // namespace sstfilter::simd
