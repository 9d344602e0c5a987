// The harness of table_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "harness_support.h"
#include "sstfilter/table.h"
#include "table/table_reader.h"

namespace sstfilter::fuzz {

// Data blocks whose keys the cursor walks per input. Each block is parsed whole; more blocks
// repeat the same parsing, so this bounds the work per execution.
inline constexpr int kMaxWalkedBlocks = 16;
inline constexpr size_t kFuzzKeyBatchBytes = 1;  // a batch per data block

// ---- table_fuzz: the input as OpenFuzzedTable reads it (harness_support.h); flags bit 4: the
// walk checks the key order. The table opened, each key probed (MayContain, PrefixMayMatch), data
// blocks walked, the layout listed and metaindex blocks read by handle; errors name where in the
// file.
inline void FuzzTable(const uint8_t* data, size_t size) {
  const std::optional<FuzzedTable> opened = OpenFuzzedTable(data, size);
  if (!opened) return;
  const uint8_t flag_bits = opened->flag_bits;
  const std::vector<ByteView>& keys = opened->keys;
  const ByteView file = opened->file;
  const TableReader& reader = *opened->reader;
  const OpenedTable& t = reader.table();
  const TableFilter& filter = t.filter;
  // What t.filter reports, computed for whatever was opened.
  (void)filter.KindName();
  (void)filter.size_bytes();
  for (ByteView raw : filter.RawFilters()) FUZZ_CHECK(raw.size() <= kMaxBlockBytes);

  for (ByteView k : keys) {
    bool may_match = false;
    LookupTrace trace;
    const Status s = reader.MayContain(k, &may_match, &trace);
    if (!s.ok()) FUZZ_CHECK(may_match && InFile(s, file));
    bool traced_answer = false;
    if (reader.MayContain(k, &traced_answer).ok())
      FUZZ_CHECK(traced_answer == may_match || !s.ok());
    bool prefix_match = false;
    if (const Status p = reader.PrefixMayMatch(k, &prefix_match); !p.ok()) {
      FUZZ_CHECK(prefix_match && InFile(p, file));
    }
  }

  // Walk the entries of at most kMaxWalkedBlocks data blocks (a batch at a time: a batch is at
  // least one block), from the first probe key on when the table's order allows a range.
  TableCursor cursor(reader, TableCursor::Content::kEntries, kFuzzKeyBatchBytes);
  cursor.SetOrderCheck((flag_bits & 16) != 0);
  if (keys.size() > 1) {
    EntryRange range;
    range.from = Bytes(keys[1].begin(), keys[1].end());
    range.limit = 1000;
    if (!cursor.SetEntryRange(std::move(range)).ok()) FUZZ_CHECK(t.comparator_ref == nullptr);
  }
  for (int batches = 0; batches < kMaxWalkedBlocks; ++batches) {
    const Status s = DriveForFuzzing(cursor, file);
    if (!s.ok()) FUZZ_CHECK(InFile(s, file));
    if (!s.ok() || cursor.at_end()) break;
    const std::vector<uint32_t>& offsets = cursor.key_offsets();
    FUZZ_CHECK(!cursor.key_blocks().empty());
    FUZZ_CHECK(cursor.key_blocks().back().keys_end == offsets.size() - 1);
    FUZZ_CHECK(offsets.back() == cursor.key_data().size());
    FUZZ_CHECK(cursor.value_offsets().size() == offsets.size());
    FUZZ_CHECK(cursor.value_offsets().back() == cursor.value_data().size());
    FUZZ_CHECK(cursor.tags().size() == (t.options.internal_keys ? offsets.size() - 1 : 0));
    cursor.ClearBatch();
  }

  // The layout: every handle inside the file or a located error; listed in offset order, ending
  // with the footer at the file's end.
  TableLayoutRead layout(reader);
  if (const Status s = DriveForFuzzing(layout, file); !s.ok()) {
    FUZZ_CHECK(InFile(s, file));
  } else {
    FUZZ_CHECK(layout.done());
    const std::vector<TableRegion>& regions = layout.regions();
    FUZZ_CHECK(!regions.empty() && regions.back().kind == TableRegionKind::kFooter);
    FUZZ_CHECK(regions.back().handle.offset + regions.back().span() == file.size());
    for (size_t i = 1; i < regions.size(); ++i) {
      FUZZ_CHECK(regions[i - 1].handle.offset <= regions[i].handle.offset);
      FUZZ_CHECK(regions[i].handle.offset + regions[i].span() <= file.size());
    }
  }

  // Blocks by handle, as tools read the ones the reader skips.
  size_t reads = 0;
  for (const MetaindexEntry& e : t.metaindex) {
    if (++reads > 8) break;
    TableBlockRead read(reader, e.handle);
    const Status s = DriveForFuzzing(read, file);
    FUZZ_CHECK(s.ok() ? read.contents().has_value() : InFile(s, file));
    // Any block's contents as range deletions: decoded or refused, within the block.
    std::vector<RangeDeletion> deletions;
    if (s.ok()) {
      const Status d = DecodeRangeDeletions(*read.contents(), &deletions);
      FUZZ_CHECK(d.ok() ||
                 (d.offset() >= 0 && static_cast<size_t>(d.offset()) <= read.contents()->size()));
    }
  }
}

}  // namespace sstfilter::fuzz
