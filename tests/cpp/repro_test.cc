// Cases where sstfilter once answered differently from the database that wrote the file
// (tests/corpus/fixtures/repro, described in its README.md). Each probe's expected answer is the
// database's own: 1 = its filter said "may match", 0 = it ruled the file out, 2 = not consulted.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "golden.h"
#include "sstfilter/leveldb_filter_block.h"
#include "sstfilter/table.h"
#include "table/table_reader.h"

namespace sstfilter {
namespace {

using golden::HexEncode;
using golden::ReadFileBytes;
using golden::ReadKeysFile;

std::filesystem::path Repro(const std::string& relative) {
  return std::filesystem::path(SSTFILTER_FIXTURES_DIR) / "repro" / relative;
}

std::unique_ptr<TableReader> OpenTable(const Bytes& file) {
  std::unique_ptr<TableReader> reader;
  const Status s = OpenTableFromMemory(file, TableOptions(), &reader);
  EXPECT_TRUE(s.ok()) << s.message();
  return reader;
}

// Every probe the database consulted its filter for gets the database's answer.
void ExpectDatabaseAnswers(const std::string& name) {
  const Bytes file =
      ReadFileBytes(Repro(name + "/" + (name.starts_with("leveldb") ? "table.ldb" : "table.sst")));
  const auto probes = ReadKeysFile(Repro(name + "/probes.keys"));
  const Bytes answers = ReadFileBytes(Repro(name + "/get.u8"));
  ASSERT_EQ(probes.size(), answers.size()) << name;
  const auto reader = OpenTable(file);
  int consulted = 0, separators = 0;
  for (size_t i = 0; i < probes.size(); ++i) {
    if (answers[i] == 2) continue;
    bool may_match = true;
    LookupTrace trace;
    const Status s = reader->MayContain(probes[i], &may_match, &trace);
    ASSERT_TRUE(s.ok()) << name << " probe #" << i << ": " << s.message();
    EXPECT_EQ(may_match ? 1 : 0, answers[i])
        << name << " probe #" << i << " (" << HexEncode(probes[i]) << ", partition "
        << trace.partition << ")";
    ++consulted;
  }
  // The cases exist for probes equal to separators that carry the maximum sequence number.
  const IndexBlock& index = reader->table().index;
  IndexBlock::Iterator it = index.Begin();
  for (;;) {
    IndexEntry entry;
    bool end = false;
    ASSERT_TRUE(it.Next(&entry, &end).ok());
    if (end) break;
    separators += TagSequence(entry.tag) == kMaxSequenceNumber;
  }
  EXPECT_GT(consulted, 1000) << name;
  EXPECT_GT(separators, 0) << name;
}

TEST(Repro, RocksDbPartitionChosenWithTheLookupsInternalKey) {
  ExpectDatabaseAnswers("rocksdb-fv2-partitioned-separator");
}

TEST(Repro, LevelDbDataBlockChosenWithTheLookupsInternalKey) {
  ExpectDatabaseAnswers("leveldb-db-separator");
}

TEST(Repro, LookupEqualToAShortenedSeparatorMovesOnToTheNextPartition) {
  // Probe #479 of the RocksDB case equals the separator of partition 8, which carries the maximum
  // sequence number: RocksDB consulted partition 9.
  const Bytes file = ReadFileBytes(Repro("rocksdb-fv2-partitioned-separator/table.sst"));
  const auto probes = ReadKeysFile(Repro("rocksdb-fv2-partitioned-separator/probes.keys"));
  ASSERT_EQ(HexEncode(probes.at(479)), "76632d4262544c4c08");
  const auto reader = OpenTable(file);
  bool may_match = true;
  LookupTrace trace;
  ASSERT_TRUE(reader->MayContain(probes[479], &may_match, &trace).ok());
  EXPECT_EQ(trace.route, LookupRoute::kPartition);
  EXPECT_EQ(trace.partition, 9u);
  EXPECT_FALSE(may_match);
}

TEST(Repro, LevelDbFilterBlockEndsWithTheLastBlocksRange) {
  const Bytes file = ReadFileBytes(Repro("leveldb-filter-block-tail/table.ldb"));
  const Bytes expected = ReadFileBytes(Repro("leveldb-filter-block-tail/filter_block.bin"));
  const auto reader = OpenTable(file);
  TableCursor cursor(*reader);
  LevelDbFilterBlockBuilder builder(10);
  size_t blocks = 0;
  for (;;) {
    ASSERT_TRUE(DriveFromMemory(cursor, file).ok());
    if (cursor.at_end()) break;
    const auto& offsets = cursor.key_offsets();
    size_t key = 0;
    for (const TableCursor::BatchBlock& block : cursor.key_blocks()) {
      ASSERT_TRUE(builder.StartBlock(block.handle.offset).ok());
      for (; key < block.keys_end; ++key) {
        builder.AddKey(
            ByteView(cursor.key_data()).subspan(offsets[key], offsets[key + 1] - offsets[key]));
      }
      ASSERT_TRUE(builder.EndBlock(block.handle.offset, block.handle.size).ok());
      ++blocks;
    }
    cursor.ClearBatch();
  }
  Bytes built;
  ASSERT_TRUE(builder.Finish(&built).ok());
  EXPECT_GT(blocks, 1u);
  EXPECT_EQ(built.size(), 4997u);
  EXPECT_EQ(built, expected);
}

}  // namespace
}  // namespace sstfilter
