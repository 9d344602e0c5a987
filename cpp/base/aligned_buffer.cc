#include "base/aligned_buffer.h"

#include <cstring>

namespace sstfilter {

AlignedBuffer::AlignedBuffer(Bytes bytes, size_t padding) : size_(bytes.size()) {
  const size_t needed = size_ + SpareFor(padding);
  if (bytes.capacity() >= needed) {
    storage_ = std::move(bytes);
    storage_.resize(needed);  // within the capacity: the buffer stays where it is
  } else {
    storage_.resize(needed);
    if (size_ != 0) std::memcpy(storage_.data(), bytes.data(), size_);
  }
  const auto address = reinterpret_cast<uintptr_t>(storage_.data());
  offset_ = static_cast<size_t>((kAlignment - address % kAlignment) % kAlignment);
  if (offset_ != 0 && size_ != 0) std::memmove(storage_.data() + offset_, storage_.data(), size_);
  std::memset(storage_.data() + offset_ + size_, 0, padding);
}

}  // namespace sstfilter
