// Keys held as separate byte vectors, packed into the KeyBatch layout the core takes.
#pragma once

#include <cstdint>
#include <vector>

#include "sstfilter/key_batch.h"

namespace sstfilter::testing {

class PackedKeys {
 public:
  explicit PackedKeys(const std::vector<std::vector<uint8_t>>& keys) {
    offsets_.push_back(0);
    for (const auto& key : keys) {
      data_.insert(data_.end(), key.begin(), key.end());
      offsets_.push_back(static_cast<uint32_t>(data_.size()));
    }
  }

  KeyBatchView view() const {
    return KeyBatchView(data_.data(), data_.size(), offsets_.data(), offsets_.size() - 1);
  }

 private:
  std::vector<uint8_t> data_;
  std::vector<uint32_t> offsets_;
};

}  // namespace sstfilter::testing
