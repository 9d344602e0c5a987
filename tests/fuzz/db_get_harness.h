// The harness of db_get_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness_support.h"
#include "log_builder.h"
#include "sstfilter/comparator.h"
#include "sstfilter/db_get.h"
#include "sstfilter/manifest.h"
#include "sstfilter/wal_recovery.h"
#include "table/table_reader.h"

namespace sstfilter::fuzz {

// ---- db_get_fuzz: [mode u8][WAL length u16][WAL][table input as table_get_fuzz's] ----
// A one-family database held in memory: a WAL built from the write batches of the WAL region
// ([u16 size][batch]..., valid checksums) replayed into the memtable, and the table opened from
// the rest (when it opens), listed on level 0 or 1 (mode bit 0) with the smallest and largest of
// the probe keys as its range (mode bit 1: RocksDB, else LevelDB). A table whose keys carry u64
// timestamps makes a family with them, read at a timestamp the mode's upper bits pick (0: the
// newest). Each probe key goes through DbGet with the memtable: errors are typed, and an answer is
// consistent with its route.
inline void FuzzDbGet(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  const ByteView wal_region = in.Take(in.U16());
  const ByteView table_input = in.Rest();
  const DbFormat format = (mode & 2) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  LogBuilder log;
  Input batches(wal_region.data(), wal_region.size());
  while (batches.remaining() > 0) log.Add(batches.Take(batches.U16()));
  const std::optional<FuzzedTable> table = OpenFuzzedTable(table_input.data(), table_input.size());

  ColumnFamilyState family;
  ComparatorRef order = BuiltinComparator(kBytewiseComparatorName);
  if (table && (table->flag_bits & 8) != 0) {
    order = BuiltinComparator(kReverseBytewiseComparatorName);
  } else if (table && table->reader->key_order().comparator == kBytewiseU64TsComparatorName) {
    order = BuiltinComparator(kBytewiseU64TsComparatorName);
  }
  family.comparator = std::string(order->Name());
  const size_t ts = order->timestamp_size();
  std::optional<uint64_t> read_timestamp;
  if (ts != 0 && (mode >> 2) != 0) read_timestamp = static_cast<uint64_t>(mode >> 2) * 20;
  WalReplayOptions replay_options;
  replay_options.format = format;
  replay_options.column_families = {{0, 0, order}};
  WalReplay replay(replay_options);
  if (const Status s = replay.ReplayLog("000005.log", 5, log.bytes()); !s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kUnsupported);
    return;
  }
  FUZZ_CHECK(replay.Finish().ok());
  std::vector<ByteView> keys = table ? table->keys : SplitKeys(ByteView(), 1);
  if (table && table->reader->table().options.internal_keys) {
    std::vector<ByteView> sorted = keys;
    std::sort(sorted.begin(), sorted.end(),
              [&](ByteView a, ByteView b) { return order->Compare(a, b) < 0; });
    TableFileMeta meta;
    meta.number = 7;
    meta.size = table->file.size();
    // The boundaries as a MANIFEST records them: the user key, its timestamp (a family with
    // them), the 8-byte trailer.
    const Bytes trailer(ts + 8, 0);
    meta.smallest.assign(sorted.front().begin(), sorted.front().end());
    meta.smallest.insert(meta.smallest.end(), trailer.begin(), trailer.end());
    meta.largest.assign(sorted.back().begin(), sorted.back().end());
    meta.largest.insert(meta.largest.end(), trailer.begin(), trailer.end());
    family.files.resize(2);
    family.files[mode & 1].push_back(std::move(meta));
  }
  for (ByteView k : keys) {
    DbGetOptions options;
    options.format = format;
    options.family = &family;
    options.memtable = &replay.memtable();
    options.log_numbers = {5};
    options.read_timestamp = read_timestamp;
    DbGet get(std::move(options), k);
    Status s;
    while ((s = get.Advance()).ok() && !get.done()) {
      if (get.need() == IoNeed::kBytes) {
        s = DriveForFuzzing(get, table->file);
      } else {
        FUZZ_CHECK(get.table_needed() != nullptr && get.table_needed()->number == 7);
        s = get.SetTable(*table->reader);
      }
      if (!s.ok()) break;
    }
    if (!s.ok()) {
      FUZZ_CHECK(s.code() != ErrorCode::kOk && s.code() != ErrorCode::kBadOptions);
      continue;
    }
    const DbGetResult& r = get.result();
    FUZZ_CHECK(get.steps().size() <= 2);
    FUZZ_CHECK(r.sequence.has_value() == (r.outcome != DbGetResult::Outcome::kNotFound));
    FUZZ_CHECK(r.operands.empty() == (r.outcome != DbGetResult::Outcome::kMergeOperands));
    FUZZ_CHECK(!r.has_value || r.outcome == DbGetResult::Outcome::kFound ||
               r.outcome == DbGetResult::Outcome::kMergeOperands);
    for (const DbGetStep& step : get.steps()) {
      if (step.where == DbGetStep::Where::kTable) {
        FUZZ_CHECK(step.in_range || (step.filter == DbGetStep::Filter::kNotConsulted &&
                                     step.entry == DbGetStep::Entry::kNotRead));
      }
    }
  }
}

}  // namespace sstfilter::fuzz
