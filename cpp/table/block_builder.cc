#include "table/block_builder.h"

#include <algorithm>

namespace sstfilter {

void PutVarint32(Bytes* out, uint32_t v) { PutVarint64(out, v); }

void PutBlockHandle(Bytes* out, uint64_t offset, uint64_t size) {
  PutVarint64(out, offset);
  PutVarint64(out, size);
}

size_t VarintLength(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

void BlockBuilder::Add(ByteView key, ByteView value) {
  size_t shared = 0;
  if (counter_ >= restart_interval_) {
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    counter_ = 0;
  } else if (delta_keys_) {
    const size_t n = std::min(key.size(), last_key_.size());
    while (shared < n && key[shared] == last_key_[shared]) ++shared;
  }
  PutVarint32(&buffer_, static_cast<uint32_t>(shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(key.size() - shared));
  if (values_have_length_) PutVarint32(&buffer_, static_cast<uint32_t>(value.size()));
  // AddWithLastKeyImpl: the first entry of each restart interval says where its value starts.
  if (values_apart_ && counter_ == 0) PutVarint32(&buffer_, static_cast<uint32_t>(values_.size()));
  buffer_.insert(buffer_.end(), key.begin() + static_cast<std::ptrdiff_t>(shared), key.end());
  Bytes& values = values_apart_ ? values_ : buffer_;
  values.insert(values.end(), value.begin(), value.end());
  last_key_.assign(key.begin(), key.end());
  ++counter_;
}

size_t BlockBuilder::EstimateSizeAfterKV(ByteView key, ByteView value) const {
  // rocksdb table/block_based/block_builder.cc EstimateSizeAfterKV (values with lengths).
  size_t estimate = CurrentSizeEstimate() + key.size() + value.size();
  if (counter_ >= restart_interval_) estimate += 4;  // a new restart point
  estimate += 4;                                     // "varint for shared prefix length"
  estimate += VarintLength(key.size()) + VarintLength(value.size());
  // The value offset a restart entry carries.
  if (values_apart_ && (counter_ == 0 || counter_ >= restart_interval_)) {
    estimate += VarintLength(values_.size());
  }
  return estimate;
}

bool FlushBySizePolicy::ShouldFlush(const BlockBuilder& block, ByteView key, ByteView value) const {
  if (block.empty()) return false;
  const size_t size = block.CurrentSizeEstimate();
  if (size >= block_size_) return true;
  return deviation_limit_ != 0 && block.EstimateSizeAfterKV(key, value) > block_size_ &&
         size > deviation_limit_;
}

void BlockBuilder::Finish(Bytes* out) {
  out->insert(out->end(), buffer_.begin(), buffer_.end());
  out->insert(out->end(), values_.begin(), values_.end());
  for (uint32_t r : restarts_) PutFixed32(out, r);
  uint32_t footer = static_cast<uint32_t>(restarts_.size());
  if (values_apart_) {
    // DataBlockFooter::EncodeTo: the values' offset within the block, then the count with bit 28.
    PutFixed32(out, static_cast<uint32_t>(buffer_.size()));
    footer |= 1u << 28;
  }
  PutFixed32(out, footer);
  buffer_.clear();
  values_.clear();
  restarts_.assign(1, 0);
  counter_ = 0;
  last_key_.clear();
}

}  // namespace sstfilter
