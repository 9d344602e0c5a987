// The scalar Standard128Ribbon kernel: the reference every other kernel must equal. It follows
// RocksDB util/ribbon_alg.h, InterleavedFilterQuery: column by column, the parity of the masked
// segments against the expected result bit, stopping at the first column that disagrees.
#include <cstring>

#include "filter/kernels/ribbon_kernels.h"

namespace sstfilter::simd {
namespace {

// Segments are little-endian u128 (docs/FORMATS.md 2.8.6); both targets are little-endian hosts.
inline RibbonU128 LoadSegment(const uint8_t* p) {
  RibbonU128 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

inline uint32_t Parity(RibbonU128 v) {
  return static_cast<uint32_t>(
      __builtin_parityll(static_cast<uint64_t>(v) ^ static_cast<uint64_t>(v >> 64)));
}

bool Check(const RibbonProbe& probe) {
  for (uint32_t j = 0; j < probe.num_columns; ++j) {
    const RibbonU128 dot = (LoadSegment(probe.left + j * kRibbonSegmentBytes) & probe.mask_left) ^
                           (LoadSegment(probe.right + j * kRibbonSegmentBytes) & probe.mask_right);
    if (Parity(dot) != ((probe.expected >> j) & 1)) return false;
  }
  return true;
}

}  // namespace

const RibbonKernel kRibbonScalar = {"scalar", Check, CheckedRibbonKernel<Check>::MayMatchBatch};

}  // namespace sstfilter::simd
