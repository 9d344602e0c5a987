// Probing an open table (TableReader::MayContain and its batch and prefix forms): the filter, and
// for a single key the index first, as RocksDB's and LevelDB's Gets consult them. Opening the
// table is table_reader.cc's.
#include <optional>

#include "table/internal_key.h"
#include "table/table_reader.h"

namespace sstfilter {

Status TableReader::CheckProbeable() const {
  if (!is_open()) return Status::Error(ErrorCode::kBadOptions, "the table is not open");
  return Status::Ok();
}

Status TableReader::MayContain(ByteView user_key, bool* may_match, LookupTrace* trace,
                               const TableReadOptions& read) const {
  *may_match = true;
  LookupTrace local;
  LookupTrace& route = trace != nullptr ? *trace : local;
  route = LookupTrace{};
  if (Status s = CheckProbeable(); !s.ok()) return s;
  const OpenedTable& t = *table_;
  const TableFilterLayout layout = t.filter.layout();
  const LookupKey lookup{user_key};
  const bool ordered = t.comparator_ref != nullptr;
  if (t.family == TableFamily::kLevelDb && !ordered) {
    // Without the order, neither the index seek nor "after the last key" can be trusted.
    if (layout == TableFilterLayout::kNone) return Status::Ok();
    route.route = LookupRoute::kAnyFilter;
    route.filter_in_use = true;
    route.probed_size = user_key.size();
    return AtChosenFilter(t.filter.LevelDbAnyMayMatch(user_key, may_match));
  }
  if (t.family == TableFamily::kLevelDb) {
    std::optional<IndexEntry> block;
    if (Status s = t.index.Seek(lookup, &block); !s.ok()) return s;
    if (!block) {
      route.route = LookupRoute::kAfterLastKey;
      *may_match = false;
      return Status::Ok();
    }
    route.data_block = block->handle;
    if (layout == TableFilterLayout::kNone) return Status::Ok();
    route.route = LookupRoute::kBlockFilter;
    route.filter_in_use = true;
    route.probed_size = user_key.size();
    return AtChosenFilter(t.filter.LevelDbMayMatch(block->handle.offset, user_key, may_match));
  }
  // The data block a read would go to is known without I/O only from a single-level index.
  // Only traced lookups look: RocksDB's own lookup consults the filter first.
  if (trace != nullptr && ordered && t.index_type != kTwoLevelIndexSearch) {
    std::optional<IndexEntry> block;
    if (Status s = t.index.Seek(lookup, &block); !s.ok()) return s;
    if (block) route.data_block = block->handle;
  }
  // A database without a filter policy reads no filter block (PrefetchIndexAndFilterBlocks).
  if (layout == TableFilterLayout::kNone || !read.use_filter) return Status::Ok();
  route.filter_in_use = true;
  if (layout == TableFilterLayout::kPartitioned && t.filter.partitions_count() == 0) {
    return Status::Ok();
  }
  ByteView probe = user_key;
  if (!t.whole_key_filtering || !read.whole_key_filtering) {
    // FullFilterKeyMayMatch probes the prefix only under the table's own extractor, by name.
    if (read.prefix_extractor && *read.prefix_extractor != t.prefix_extractor_name.value_or("")) {
      route.route = LookupRoute::kPrefixExtractorChanged;
      return Status::Ok();
    }
    if (!t.prefix_extractor_name) return Status::Ok();
    if (!t.prefix_extractor) {
      return Status::Error(ErrorCode::kUnsupported,
                           "the table's filter holds prefixes of the custom extractor \"" +
                               *t.prefix_extractor_name + "\"",
                           t.PropertyOffset("rocksdb.prefix.extractor.name"));
    }
    if (!t.prefix_extractor->InDomain(user_key)) {
      route.route = LookupRoute::kOutsidePrefixDomain;
      return Status::Ok();
    }
    probe = t.prefix_extractor->Transform(user_key);
  }
  route.route = layout != TableFilterLayout::kPartitioned ? LookupRoute::kFullFilter
                : ordered                                 ? LookupRoute::kPartition
                                                          : LookupRoute::kAnyFilter;
  route.probed_size = probe.size();
  return AtChosenFilter(t.filter.RocksDbMayMatch(lookup, probe, may_match, &route.partition));
}

Status TableReader::MayContainMany(const KeyBatchView& keys, uint8_t* results) const {
  if (Status s = CheckProbeable(); !s.ok()) return s;
  const OpenedTable& t = *table_;
  // Whole keys are probed as they are, each against the filter its lookup key chooses: exactly
  // what the batch kernels compute.
  if (t.family == TableFamily::kRocksDb && t.whole_key_filtering) {
    return AtChosenFilter(t.filter.RocksDbMayMatchBatch(keys, results));
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    bool may_match = true;
    if (Status s = MayContain(keys[i], &may_match); !s.ok()) return s;
    results[i] = may_match ? 1 : 0;
  }
  return Status::Ok();
}

Status TableReader::PrefixMayMatch(ByteView seek_key, bool* may_match) const {
  *may_match = true;
  if (Status s = CheckProbeable(); !s.ok()) return s;
  const OpenedTable& t = *table_;
  if (t.family == TableFamily::kLevelDb || t.filter.layout() == TableFilterLayout::kNone ||
      !t.prefix_extractor_name) {
    return Status::Ok();
  }
  if (!t.prefix_extractor) {
    return Status::Error(
        ErrorCode::kUnsupported,
        "the table's prefix extractor \"" + *t.prefix_extractor_name + "\" is not a built-in one",
        t.PropertyOffset("rocksdb.prefix.extractor.name"));
  }
  if (!t.prefix_extractor->InDomain(seek_key)) return Status::Ok();
  return AtChosenFilter(t.filter.RocksDbMayMatch(
      LookupKey{seek_key}, t.prefix_extractor->Transform(seek_key), may_match));
}

}  // namespace sstfilter
