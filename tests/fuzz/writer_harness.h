// The harness of writer_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "harness_support.h"
#include "sstfilter/filter.h"
#include "sstfilter/table.h"
#include "sstfilter/table_writer.h"

namespace sstfilter::fuzz {

// Reading a written table back: writer_fuzz and tests/cpp/table_writer_test.cc.

// One entry as a table holds it: the user key, the RocksDB value type (0 delete, 1 put, 2 merge,
// 0x0f range deletion, whose value is the end key) and the value.
struct TableEntry {
  Bytes key;
  uint8_t type = 1;
  Bytes value;
  bool operator==(const TableEntry&) const = default;
};

// Every entry of a table file held in memory, read back through the reader: the data blocks'
// entries in order, then the range deletions in stored order. Tables of user keys (LevelDB's bare
// TableBuilder) come back as puts.
inline Status ReadBackTable(ByteView file, bool internal_keys, std::vector<TableEntry>* out,
                            std::unique_ptr<TableReader>* opened = nullptr) {
  out->clear();
  TableOptions options;
  options.internal_keys = internal_keys;
  std::unique_ptr<TableReader> reader;
  if (Status s = OpenTableFromMemory(file, options, &reader); !s.ok()) return s;
  TableCursor cursor(*reader, TableCursor::Content::kEntries);
  for (;;) {
    if (Status s = DriveFromMemory(cursor, file); !s.ok()) return s;
    if (cursor.at_end()) break;
    const auto& keys = cursor.key_offsets();
    const auto& values = cursor.value_offsets();
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
      TableEntry e;
      e.key.assign(cursor.key_data().begin() + keys[i], cursor.key_data().begin() + keys[i + 1]);
      e.value.assign(cursor.value_data().begin() + values[i],
                     cursor.value_data().begin() + values[i + 1]);
      if (internal_keys) e.type = static_cast<uint8_t>(cursor.tags()[i] & 0xff);
      out->push_back(std::move(e));
    }
    cursor.ClearBatch();
  }
  for (const MetaindexEntry& meta : reader->metaindex()) {
    if (meta.name != "rocksdb.range_del") continue;
    TableBlockRead read(*reader, meta.handle);
    if (Status s = DriveFromMemory(read, file); !s.ok()) return s;
    std::vector<RangeDeletion> deletions;
    if (Status s = DecodeRangeDeletions(*read.contents(), &deletions); !s.ok()) return s;
    for (RangeDeletion& d : deletions) {
      out->push_back({std::move(d.start), 0x0f, std::move(d.end)});
    }
  }
  if (opened) *opened = std::move(reader);
  return Status::Ok();
}

// ---- writer_fuzz: [format u8][filter u8][block size u8][restart interval, codec u8][entries]
// ---- Entries: an op byte (low two bits: put, delete, merge, range deletion), a key and a value
// as SplitKeys reads them; keys are sorted and made unique (range deletions take two of them).
// The table is written with options the four bytes pick, read back, and must hold exactly the
// entries; the filter must answer "may match" for every key. Hostile sizes and orders come from
// the unit tests; here every call must succeed.
inline constexpr size_t kMaxWriterEntries = 2000;

inline void FuzzTableWriter(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t format = in.Byte();
  const uint8_t filter = in.Byte();
  const uint8_t block = in.Byte();
  const uint8_t restart = in.Byte();
  const bool leveldb = format & 0x80;
  std::vector<ByteView> parts = SplitKeys(in.Rest(), 3 * kMaxWriterEntries);
  parts.erase(parts.begin());
  // Triples of (op, key, value): the op is the first byte of its part.
  std::vector<std::pair<ByteView, ByteView>> points;
  std::vector<uint8_t> ops;
  for (size_t i = 0; i + 2 < parts.size(); i += 3) {
    ops.push_back(parts[i].empty() ? 0 : parts[i][0] & 3);
    points.emplace_back(parts[i + 1], parts[i + 2]);
  }
  std::vector<size_t> order(points.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto key_less = [&](size_t a, size_t b) {
    return std::lexicographical_compare(points[a].first.begin(), points[a].first.end(),
                                        points[b].first.begin(), points[b].first.end());
  };
  std::stable_sort(order.begin(), order.end(), key_less);

  TableWriteOptions options;
  options.format = leveldb ? TableFamily::kLevelDb : TableFamily::kRocksDb;
  options.format_version = 2 + format % 6;
  static const char* const kChecksums[] = {"none", "crc32c", "xxhash", "xxhash64", "xxh3"};
  if (!leveldb) options.checksum = kChecksums[(format >> 2) % 5];
  // RocksDB: every codec, by the restart byte's top three bits; LevelDB: Snappy or none.
  static const char* const kCodecs[] = {"none", "snappy", "zlib", "bzip2",
                                        "lz4",  "lz4hc",  "zstd", "snappy"};
  options.compression = leveldb ? (format & 0x40 ? "snappy" : "none") : kCodecs[restart >> 5];
  switch (filter % 4) {
    case 0:
      break;
    case 1:
      options.filter = leveldb ? FilterFormat::kLevelDbBloom : FilterFormat::kRocksDbLegacyBloom;
      break;
    case 2:
      options.filter = leveldb ? FilterFormat::kLevelDbBloom : FilterFormat::kRocksDbFastLocalBloom;
      break;
    case 3:
      options.filter = leveldb ? FilterFormat::kLevelDbBloom : FilterFormat::kRocksDbRibbon;
      break;
  }
  options.bits_per_key = 1 + (filter >> 2) % 20;
  if (!leveldb && (filter & 0x40))
    options.prefix_extractor = filter & 0x20 ? "capped:2" : "fixed:2";
  if (!leveldb && !options.prefix_extractor.empty()) options.whole_key_filtering = filter & 0x10;
  options.block_size = 1 + size_t{block} * 16;
  options.restart_interval = 1 + restart % 32;
  // RocksDB: the two-level index by the format byte's bit 6 (LevelDB's Snappy bit), a partitioned
  // filter with it by the filter byte's top bit, partitions of 1 to 2041 bytes.
  if (!leveldb && (format & 0x40)) {
    options.index_type = TableIndexType::kTwoLevel;
    options.partition_filters = filter & 0x80;
    options.metadata_block_size = 1 + size_t{static_cast<uint8_t>(block * 7 + restart)} * 8;
  }
  std::unique_ptr<TableWriter> writer;
  FUZZ_CHECK(TableWriter::Create(options, &writer).ok());

  std::vector<TableEntry> expected, ranges;
  Bytes file;
  const ByteView* last = nullptr;
  for (size_t i : order) {
    const auto& [key, value] = points[i];
    if (last && std::ranges::equal(*last, key)) continue;
    const uint8_t op = leveldb ? 0 : ops[i];  // LevelDB: puts only
    if (op == 3) {
      // A range from the key to the key followed by the value's bytes: never backwards.
      Bytes end(key.begin(), key.end());
      end.insert(end.end(), value.begin(), value.end());
      FUZZ_CHECK(writer->DeleteRange(key, end).ok());
      ranges.push_back({Bytes(key.begin(), key.end()), 0x0f, std::move(end)});
      continue;
    }
    const uint8_t type = op == 0 ? 1 : op == 1 ? 0 : 2;
    const Status s = type == 1   ? writer->Put(key, value)
                     : type == 0 ? writer->Delete(key)
                                 : writer->Merge(key, value);
    FUZZ_CHECK(s.ok());
    expected.push_back({Bytes(key.begin(), key.end()), type,
                        type == 0 ? Bytes() : Bytes(value.begin(), value.end())});
    last = &points[i].first;
    const Bytes chunk = writer->TakeOutput();
    file.insert(file.end(), chunk.begin(), chunk.end());
  }
  const Status finished = writer->Finish();
  if (!leveldb && expected.empty() && ranges.empty()) {
    FUZZ_CHECK(finished.code() == ErrorCode::kBadOptions);  // SstFileWriter wants an entry
    return;
  }
  FUZZ_CHECK(finished.ok());
  const Bytes chunk = writer->TakeOutput();
  file.insert(file.end(), chunk.begin(), chunk.end());
  FUZZ_CHECK(file.size() == writer->file_size());
  expected.insert(expected.end(), ranges.begin(), ranges.end());

  std::vector<TableEntry> read;
  std::unique_ptr<TableReader> reader;
  FUZZ_CHECK(ReadBackTable(file, !leveldb, &read, &reader).ok());
  FUZZ_CHECK(read == expected);
  if (reader->filter_info()) {
    FUZZ_CHECK(reader->filter_info()->partitioned == options.partition_filters);
  }
  for (const TableEntry& e : expected) {
    if (e.type == 0x0f) continue;
    bool may_match = false;
    FUZZ_CHECK(reader->MayContain(e.key, &may_match).ok());
    FUZZ_CHECK(may_match);
  }
}

}  // namespace sstfilter::fuzz
