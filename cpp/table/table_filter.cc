#include "table/table_filter.h"

#include <algorithm>
#include <set>

namespace sstfilter {

void TableFilter::SetLevelDbBlock(std::string policy, bool builtin, Bytes contents) {
  layout_ = TableFilterLayout::kLevelDbBlock;
  metaindex_policy_ = std::move(policy);
  builtin_ = builtin;
  leveldb_ = std::make_unique<LevelDbFilterBlockReader>(std::move(contents));
}

void TableFilter::SetFull(std::string policy, bool builtin, Bytes contents) {
  layout_ = TableFilterLayout::kFull;
  metaindex_policy_ = std::move(policy);
  builtin_ = builtin;
  full_ = OpenRocksDbFilter(std::move(contents));
}

void TableFilter::SetPartitioned(std::string policy, bool builtin, uint64_t index_size,
                                 const Comparator* comparator, bool separators_have_tag) {
  layout_ = TableFilterLayout::kPartitioned;
  metaindex_policy_ = std::move(policy);
  builtin_ = builtin;
  partition_index_size_ = index_size;
  comparator_ = comparator;
  separators_have_tag_ = separators_have_tag;
}

void TableFilter::AddPartition(Bytes separator, uint64_t separator_tag, BlockHandle handle) {
  partitions_.push_back(FilterPartition{std::move(separator), separator_tag, handle, nullptr});
}

void TableFilter::SetPartitionContents(size_t i, Bytes contents) {
  partitions_[i].reader = OpenRocksDbFilter(std::move(contents));
}

std::string TableFilter::KindName() const {
  if (!builtin_) return "custom";
  switch (layout_) {
    case TableFilterLayout::kNone:
      return "none";
    case TableFilterLayout::kLevelDbBlock:
      return FilterKindName(FilterKind::kLevelDbBloom);
    case TableFilterLayout::kFull:
      return FilterKindName(full_->kind());
    case TableFilterLayout::kPartitioned:
      break;
  }
  std::set<std::string> kinds;
  for (const FilterPartition& p : partitions_) {
    if (p.reader) kinds.insert(FilterKindName(p.reader->kind()));
  }
  // No partitions: RocksDB answers "may match" to everything.
  if (kinds.empty()) return FilterKindName(FilterKind::kAlwaysMatch);
  return kinds.size() == 1 ? *kinds.begin() : "mixed";
}

uint64_t TableFilter::size_bytes() const {
  uint64_t total = partition_index_size_;
  for (ByteView raw : RawFilters()) total += raw.size();
  return total;
}

std::vector<ByteView> TableFilter::RawFilters() const {
  std::vector<ByteView> out;
  if (leveldb_) out.push_back(leveldb_->contents());
  if (full_) out.push_back(full_->contents());
  for (const FilterPartition& p : partitions_) {
    out.push_back(p.reader ? p.reader->contents() : ByteView());
  }
  return out;
}

Status TableFilter::CheckBuiltin() const {
  if (builtin_) return Status::Ok();
  return Status::Error(
      ErrorCode::kUnsupported,
      "the table's filter was written by the custom policy \"" + metaindex_policy_ + "\"");
}

Status TableFilter::LevelDbMayMatch(uint64_t block_offset, ByteView key, bool* may_match) const {
  *may_match = true;
  if (Status s = CheckBuiltin(); !s.ok()) return s;
  *may_match = leveldb_->KeyMayMatch(block_offset, key);
  return Status::Ok();
}

Status TableFilter::CheckProbeable(const FilterReader& reader) const {
  if (Status s = CheckBuiltin(); !s.ok()) return s;
  return reader.ProbeSupport();
}

size_t TableFilter::PartitionFor(const LookupKey& lookup) const {
  // PartitionedFilterBlockReader::GetFilterPartitionHandle: Seek with the lookup's internal key,
  // else SeekToLast.
  auto it = std::lower_bound(partitions_.begin(), partitions_.end(), lookup,
                             [this](const FilterPartition& p, const LookupKey& key) {
                               return CompareIndexKeyWithLookup(*comparator_, p.separator,
                                                                separators_have_tag_,
                                                                p.separator_tag, key) < 0;
                             });
  if (it == partitions_.end()) --it;
  return static_cast<size_t>(it - partitions_.begin());
}

Status TableFilter::RocksDbMayMatch(const LookupKey& lookup, ByteView probe, bool* may_match,
                                    size_t* partition) const {
  *may_match = true;
  const FilterReader* reader = full_.get();
  if (layout_ == TableFilterLayout::kPartitioned) {
    if (partitions_.empty()) return Status::Ok();
    if (comparator_ == nullptr) return AnyPartitionMayMatch(probe, may_match);
    const size_t chosen = PartitionFor(lookup);
    if (partition != nullptr) *partition = chosen;
    reader = partitions_[chosen].reader.get();
  }
  if (reader == nullptr) return Status::Ok();
  if (Status s = CheckProbeable(*reader); !s.ok()) return s;
  *may_match = reader->MayMatch(probe);
  return Status::Ok();
}

Status TableFilter::AnyPartitionMayMatch(ByteView probe, bool* may_match) const {
  *may_match = false;
  for (const FilterPartition& p : partitions_) {
    if (p.reader == nullptr) {
      *may_match = true;
      return Status::Ok();
    }
    if (Status s = CheckProbeable(*p.reader); !s.ok()) {
      *may_match = true;  // a probe that fails answers "may match", as every other path does
      return s;
    }
    if (p.reader->MayMatch(probe)) {
      *may_match = true;
      return Status::Ok();
    }
  }
  return Status::Ok();
}

Status TableFilter::LevelDbAnyMayMatch(ByteView key, bool* may_match) const {
  *may_match = true;
  if (Status s = CheckBuiltin(); !s.ok()) return s;
  // Each filter covers the data blocks that start in its 2^base_lg range of offsets; a block too
  // malformed to parse has none, and then every key may match (FilterBlockReader).
  const size_t filters = leveldb_->num_filters();
  if (filters == 0 || leveldb_->base_lg() >= 64) return Status::Ok();
  for (size_t i = 0; i < filters; ++i) {
    if (leveldb_->KeyMayMatch(uint64_t{i} << leveldb_->base_lg(), key)) return Status::Ok();
  }
  *may_match = false;
  return Status::Ok();
}

Status TableFilter::RocksDbMayMatchBatch(const KeyBatchView& keys, uint8_t* results) const {
  // Keys [begin, end) through `reader`, with RocksDbMayMatch's checks.
  auto probe = [&](const FilterReader* reader, size_t begin, size_t end) -> Status {
    if (reader == nullptr) {
      std::fill(results + begin, results + end, uint8_t{1});
      return Status::Ok();
    }
    if (Status s = CheckProbeable(*reader); !s.ok()) return s;
    reader->MayMatchBatch(keys.Slice(begin, end), results + begin);
    return Status::Ok();
  };
  if (layout_ != TableFilterLayout::kPartitioned || partitions_.empty()) {
    return probe(layout_ == TableFilterLayout::kFull ? full_.get() : nullptr, 0, keys.size());
  }
  if (comparator_ == nullptr) {
    for (size_t i = 0; i < keys.size(); ++i) {
      bool may_match = true;
      if (Status s = AnyPartitionMayMatch(keys[i], &may_match); !s.ok()) return s;
      results[i] = may_match ? 1 : 0;
    }
    return Status::Ok();
  }
  // Keys in file order (a table's own keys, as verify probes them) come in long runs per partition.
  size_t begin = 0;
  size_t run_partition = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const size_t p = PartitionFor(LookupKey{keys[i]});
    if (i > begin && p != run_partition) {
      if (Status s = probe(partitions_[run_partition].reader.get(), begin, i); !s.ok()) return s;
      begin = i;
    }
    run_partition = p;
  }
  if (begin == keys.size()) return Status::Ok();
  return probe(partitions_[run_partition].reader.get(), begin, keys.size());
}

}  // namespace sstfilter
