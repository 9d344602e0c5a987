#include "base/aligned_buffer.h"

#include <cstring>
#include <new>

namespace sstfilter {
namespace {

constexpr std::align_val_t kAlignmentTag{AlignedBuffer::kAlignment};

}  // namespace

AlignedBuffer::AlignedBuffer(ByteView bytes, size_t padding)
    : data_(static_cast<uint8_t*>(::operator new[](bytes.size() + padding, kAlignmentTag))),
      size_(bytes.size()) {
  if (!bytes.empty()) std::memcpy(data_.get(), bytes.data(), bytes.size());
  if (padding != 0) std::memset(data_.get() + bytes.size(), 0, padding);
}

void AlignedBuffer::AlignedDelete::operator()(uint8_t* p) const {
  ::operator delete[](p, kAlignmentTag);
}

}  // namespace sstfilter
