// A batch of keys packed the way the TypeScript API packs them (KeyBatch): all key bytes in one
// buffer, and n+1 offsets so that key i is data[offsets[i], offsets[i+1]). One batch crosses from
// JavaScript into wasm in one call, whatever its size.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

class KeyBatchView {
 public:
  KeyBatchView() = default;
  // `offsets` has count+1 entries. Use Validate before trusting offsets from outside.
  KeyBatchView(const uint8_t* data, size_t data_size, const uint32_t* offsets, size_t count)
      : data_(data), data_size_(data_size), offsets_(offsets), count_(count) {}

  size_t size() const { return count_; }
  ByteView operator[](size_t i) const {
    return ByteView(data_ + offsets_[i], offsets_[i + 1] - offsets_[i]);
  }

  // Keys [begin, end) of this batch (begin <= end <= size()), without copying.
  KeyBatchView Slice(size_t begin, size_t end) const {
    return KeyBatchView(data_, data_size_, offsets_ + begin, end - begin);
  }

  // Offsets must start at 0 or above, never decrease, and end within the data.
  Status Validate() const;

 private:
  const uint8_t* data_ = nullptr;
  size_t data_size_ = 0;
  const uint32_t* offsets_ = nullptr;
  size_t count_ = 0;
};

}  // namespace sstfilter
