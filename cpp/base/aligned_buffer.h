// A filter's bytes starting on a 64-byte boundary. RocksDB's Bloom filters address their bits in
// 64-byte cache lines (FastLocalBloom's blocks, the legacy Bloom's lines on x86-64): aligned, each
// such line is one cache line of memory, so a probe of a memory-resident filter misses once rather
// than twice (a Bytes buffer is only malloc-aligned, 8 or 16 bytes). Ribbon's SIMD kernels also
// want readable bytes past the end: the buffer can carry zero padding. The bytes are moved within
// the buffer they came in when it has room (a block read reserves it: table/block_fetcher.cc), so a
// large filter is not held twice while it is opened; otherwise they are copied.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sstfilter/bytes.h"

namespace sstfilter {

class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 64;
  // Spare capacity a Bytes needs beyond its size to be aligned in place, with `padding` bytes.
  static constexpr size_t SpareFor(size_t padding) { return kAlignment - 1 + padding; }

  // `bytes`, followed by `padding` zero bytes that may be read but are not in view().
  explicit AlignedBuffer(Bytes bytes, size_t padding = 0);

  const uint8_t* data() const { return storage_.data() + offset_; }
  size_t size() const { return size_; }
  ByteView view() const { return ByteView(data(), size_); }

 private:
  Bytes storage_;
  size_t offset_ = 0;  // where the aligned bytes start in storage_
  size_t size_;
};

}  // namespace sstfilter
