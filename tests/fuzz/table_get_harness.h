// The harness of table_get_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "harness_support.h"
#include "sstfilter/block_cache.h"
#include "sstfilter/comparator.h"
#include "sstfilter/table_get.h"
#include "sstfilter/table_reader.h"
#include "table/table_reader.h"

namespace sstfilter::fuzz {

// Whether two lookups of one key answered alike: the same error (code and offset), or the same
// entries, range deletions and blocks (where each block came from aside). Messages are not
// compared: zlib words a broken stream differently depending on the output buffer it is handed,
// and a fetcher reuses the last block's buffer unless the block went into a cache.
inline bool SameTableGetAnswer(const TableGet& a, const Status& a_status, const TableGet& b,
                               const Status& b_status) {
  if (a_status.ok() != b_status.ok()) return false;
  if (!a_status.ok()) {
    return a_status.code() == b_status.code() && a_status.offset() == b_status.offset();
  }
  auto same_deletions = [](const RangeDeletion& x, const RangeDeletion& y) {
    return x.start == y.start && x.end == y.end && x.sequence == y.sequence;
  };
  auto same_blocks = [](const TableGet::BlockRead& x, const TableGet::BlockRead& y) {
    return x.handle.offset == y.handle.offset && x.handle.size == y.handle.size &&
           x.entries_end == y.entries_end;
  };
  return a.filtered_out() == b.filtered_out() && a.key_data() == b.key_data() &&
         a.key_offsets() == b.key_offsets() && a.tags() == b.tags() &&
         a.timestamps() == b.timestamps() && a.value_data() == b.value_data() &&
         a.value_offsets() == b.value_offsets() &&
         std::equal(a.covering().begin(), a.covering().end(), b.covering().begin(),
                    b.covering().end(), same_deletions) &&
         std::equal(a.blocks_read().begin(), a.blocks_read().end(), b.blocks_read().begin(),
                    b.blocks_read().end(), same_blocks);
}

// A block cache budget that holds a few of the fuzzed tables' blocks, so that lookups evict.
inline constexpr uint64_t kFuzzBlockCacheBytes = 4 * (1024 + BlockCache::kEntryOverhead);

// ---- table_get_fuzz: the input as OpenFuzzedTable reads it (harness_support.h).
// Each probe key looked up in the table (TableGet): the filter's "no" is MayContain's and reads
// no block; the blocks read follow one another and hold every entry found, each of the key (under
// the table's order, or in bytes where it is unknown); the covering range deletions hold the key.
// A failure is a typed error inside the file, or kUnsupported (range deletions, order unknown).
inline void FuzzTableGet(const uint8_t* data, size_t size) {
  const std::optional<FuzzedTable> opened = OpenFuzzedTable(data, size);
  if (!opened) return;
  const TableReader& reader = *opened->reader;
  const Comparator* order = reader.table().comparator_ref.get();
  // Every lookup again through a block cache shared by all of them, twice: each answer, error
  // included, is the one read without it, and the cache stays within its budget.
  BlockCache cache(kFuzzBlockCacheBytes);
  TableReadOptions cached_read;
  cached_read.block_cache = &cache;
  for (ByteView k : opened->keys) {
    TableGet get(reader, k);
    const Status s = DriveForFuzzing(get, opened->file);
    for (int pass = 0; pass < 2; ++pass) {
      TableGet cached(reader, k, cached_read);
      const Status cached_status = DriveForFuzzing(cached, opened->file);
      FUZZ_CHECK(SameTableGetAnswer(get, s, cached, cached_status));
      const BlockCacheStats stats = cache.stats();
      FUZZ_CHECK(stats.bytes_held <= stats.capacity);
    }
    if (!s.ok()) {
      FUZZ_CHECK(InFile(s, opened->file) || s.code() == ErrorCode::kUnsupported ||
                 s.code() == ErrorCode::kResourceLimit);
      continue;
    }
    FUZZ_CHECK(get.done());
    bool may_match = true;
    if (reader.MayContain(k, &may_match).ok()) FUZZ_CHECK(may_match == !get.filtered_out());
    const std::vector<TableGet::BlockRead>& blocks = get.blocks_read();
    FUZZ_CHECK(!get.filtered_out() || (blocks.empty() && get.entry_count() == 0));
    FUZZ_CHECK(blocks.empty() ? get.entry_count() == 0
                              : blocks.back().entries_end == get.entry_count());
    for (size_t b = 0; b < blocks.size(); ++b) {
      FUZZ_CHECK(blocks[b].handle.offset + blocks[b].handle.size <= opened->file.size());
      if (b > 0) FUZZ_CHECK(blocks[b - 1].entries_end <= blocks[b].entries_end);
    }
    const std::vector<uint32_t>& offsets = get.key_offsets();
    FUZZ_CHECK(offsets.back() == get.key_data().size());
    FUZZ_CHECK(get.value_offsets().size() == offsets.size());
    FUZZ_CHECK(get.tags().size() ==
               (reader.table().options.internal_keys ? offsets.size() - 1 : 0));
    for (size_t i = 0; i + 1 < offsets.size(); ++i) {
      const ByteView found =
          ByteView(get.key_data()).subspan(offsets[i], offsets[i + 1] - offsets[i]);
      FUZZ_CHECK(order != nullptr ? order->Compare(found, k) == 0
                                  : std::equal(found.begin(), found.end(), k.begin(), k.end()));
    }
    FUZZ_CHECK(get.covering().empty() || order != nullptr);
  }
}

}  // namespace sstfilter::fuzz
