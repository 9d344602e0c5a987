#include "sstfilter/key_batch.h"

#include <string>

namespace sstfilter {

Status KeyBatchView::Validate() const {
  if (count_ > 0 && (offsets_ == nullptr || (data_ == nullptr && data_size_ > 0))) {
    return Status::Error(ErrorCode::kBadKey, "key batch has keys but no offsets or data");
  }
  if (count_ == 0) return Status::Ok();
  uint32_t previous = offsets_[0];
  for (size_t i = 1; i <= count_; ++i) {
    const uint32_t next = offsets_[i];
    if (next < previous) {
      return Status::Error(ErrorCode::kBadKey,
                           "key batch offsets decrease at entry " + std::to_string(i));
    }
    previous = next;
  }
  if (previous > data_size_) {
    return Status::Error(ErrorCode::kBadKey, "key batch offsets end at " +
                                                 std::to_string(previous) + ", past the data's " +
                                                 std::to_string(data_size_) + " bytes");
  }
  return Status::Ok();
}

}  // namespace sstfilter
