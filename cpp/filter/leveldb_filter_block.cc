#include "sstfilter/leveldb_filter_block.h"

#include <limits>
#include <string>

#include "sstfilter/leveldb_bloom.h"
#include "sstfilter/table.h"

namespace sstfilter {
namespace {

// At most 2^24 filters (a 32 GiB table): LevelDB's 32-bit filter offsets cannot address more data,
// and a hostile block offset must not make us write gigabytes of empty-filter offsets.
constexpr uint64_t kMaxFilters = uint64_t{1} << 24;

}  // namespace

Status LevelDbFilterBlockBuilder::StartBlock(uint64_t block_offset) {
  const uint64_t filter_index = block_offset >> kLevelDbFilterBaseLg;
  if (filter_index < filter_offsets_.size()) {
    return Status::Error(ErrorCode::kBadOptions, "data block offsets must not decrease (offset " +
                                                     std::to_string(block_offset) +
                                                     " comes after a later block)");
  }
  if (filter_index >= kMaxFilters) {
    return Status::Error(ErrorCode::kResourceLimit, "data block offset " +
                                                        std::to_string(block_offset) +
                                                        " is beyond what a LevelDB table can hold");
  }
  while (filter_index > filter_offsets_.size()) {
    if (Status s = GenerateFilter(); !s.ok()) return s;
  }
  return Status::Ok();
}

Status LevelDbFilterBlockBuilder::EndBlock(uint64_t block_offset, uint64_t block_size) {
  // An end past 2^64 - 1 is as far beyond a LevelDB file as the largest offset: StartBlock says so.
  constexpr uint64_t kLast = std::numeric_limits<uint64_t>::max();
  const bool fits = block_size <= kLast - kBlockTrailerSize &&
                    block_offset <= kLast - kBlockTrailerSize - block_size;
  return StartBlock(fits ? block_offset + block_size + kBlockTrailerSize : kLast);
}

void LevelDbFilterBlockBuilder::AddKey(ByteView key) {
  pending_keys_.insert(pending_keys_.end(), key.begin(), key.end());
  pending_offsets_.push_back(static_cast<uint32_t>(pending_keys_.size()));
}

Status LevelDbFilterBlockBuilder::GenerateFilter() {
  if (result_.size() > UINT32_MAX) {
    return Status::Error(ErrorCode::kResourceLimit, "filter block exceeds 4 GiB");
  }
  filter_offsets_.push_back(static_cast<uint32_t>(result_.size()));
  const size_t num_keys = pending_offsets_.size() - 1;
  if (num_keys == 0) return Status::Ok();  // an empty filter: its range holds no keys
  const KeyBatchView keys(pending_keys_.data(), pending_keys_.size(), pending_offsets_.data(),
                          num_keys);
  Status s = AppendLevelDbBloomFilter(keys, bits_per_key_, &result_);
  pending_keys_.clear();
  pending_offsets_.assign(1, 0);
  return s;
}

Status LevelDbFilterBlockBuilder::Finish(Bytes* out) {
  if (pending_offsets_.size() > 1) {
    if (Status s = GenerateFilter(); !s.ok()) return s;
  }
  if (result_.size() > UINT32_MAX) {
    return Status::Error(ErrorCode::kResourceLimit, "filter block exceeds 4 GiB");
  }
  const uint32_t array_offset = static_cast<uint32_t>(result_.size());
  for (uint32_t offset : filter_offsets_) PutFixed32(&result_, offset);
  PutFixed32(&result_, array_offset);
  result_.push_back(static_cast<uint8_t>(kLevelDbFilterBaseLg));
  *out = std::move(result_);
  result_.clear();
  filter_offsets_.clear();
  return Status::Ok();
}

LevelDbFilterBlockReader::LevelDbFilterBlockReader(Bytes contents)
    : contents_(std::move(contents)) {
  const size_t n = contents_.size();
  if (n < 5) return;  // 1 byte base_lg + 4 bytes array offset at least
  base_lg_ = contents_[n - 1];
  const uint32_t array_offset = DecodeFixed32(contents_.data() + n - 5);
  if (array_offset > n - 5) return;
  array_offset_ = array_offset;
  num_filters_ = (n - 5 - array_offset_) / 4;
}

bool LevelDbFilterBlockReader::KeyMayMatch(uint64_t block_offset, ByteView key) const {
  // A base_lg of 64 or more cannot come from LevelDB (it always writes 11); shifting by it is
  // undefined in C++, so such a block is treated as the corrupt block it is: may match.
  if (base_lg_ >= 64) return true;
  // Out of range or malformed: errors are treated as potential matches.
  const std::optional<ByteView> filter = FilterAt(block_offset >> base_lg_);
  return !filter || LevelDbBloomMayMatch(*filter, key);
}

std::optional<ByteView> LevelDbFilterBlockReader::FilterAt(uint64_t index) const {
  if (index >= num_filters_) return std::nullopt;
  const uint8_t* entry = contents_.data() + array_offset_ + index * 4;
  // For the last filter, `limit` is the array offset itself (the 4 bytes after the array).
  const uint32_t start = DecodeFixed32(entry);
  const uint32_t limit = DecodeFixed32(entry + 4);
  if (start <= limit && limit <= array_offset_) {
    return ByteView(contents_.data() + start, limit - start);
  }
  if (start == limit) return ByteView();  // an empty filter matches nothing
  return std::nullopt;
}

}  // namespace sstfilter
