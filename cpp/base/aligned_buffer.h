// A copy of a filter's bytes that starts on a 64-byte boundary. RocksDB's Bloom filters address
// their bits in 64-byte cache lines (FastLocalBloom's blocks, the legacy Bloom's lines on x86-64):
// in an aligned copy each such line is one cache line of memory, so a probe of a memory-resident
// filter misses once rather than twice (a Bytes buffer is only malloc-aligned, 8 or 16 bytes).
// Ribbon's SIMD kernels also want readable bytes past the end: the buffer can carry zero padding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "sstfilter/bytes.h"

namespace sstfilter {

class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 64;

  // A copy of `bytes`, followed by `padding` zero bytes that may be read but are not in view().
  explicit AlignedBuffer(ByteView bytes, size_t padding = 0);

  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }
  ByteView view() const { return ByteView(data_.get(), size_); }

 private:
  struct AlignedDelete {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t[], AlignedDelete> data_;
  size_t size_;
};

}  // namespace sstfilter
