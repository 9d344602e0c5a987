// Comparators as the table reader and writer use them (sstfilter/comparator.h, docs/FORMATS.md
// 3.4.2): the built-in registry; a LevelDB table written under an order that is not bytewise,
// read back by LevelDB 1.23 itself under the same order; and what our reader answers for it when
// the order is supplied (exact), named by a MANIFEST but not built in, or unknown (conservative:
// never "definitely not" for a key in the file).
#include "sstfilter/comparator.h"

#include <gtest/gtest.h>
#include <leveldb/comparator.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "leveldb_memory_file.h"
#include "sstfilter/table.h"
#include "sstfilter/table_writer.h"

namespace sstfilter {
namespace {

TEST(Comparators, BuiltinRegistryKnowsEachByName) {
  for (std::string_view name : BuiltinComparatorNames()) {
    const Comparator* c = FindBuiltinComparator(name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_EQ(c->Name(), name);
    EXPECT_EQ(BuiltinComparator(name).get(), c) << name;
  }
  EXPECT_EQ(FindBuiltinComparator("my.Comparator"), nullptr);
  EXPECT_EQ(BuiltinComparator("my.Comparator"), nullptr);
  const Comparator& bytewise = BytewiseComparator();
  EXPECT_LT(bytewise.Compare(BytesOf("a"), BytesOf("ab")), 0);
  EXPECT_GT(bytewise.Compare(BytesOf("b"), BytesOf("ab")), 0);
  EXPECT_GT(ReverseBytewiseComparator().Compare(BytesOf("a"), BytesOf("ab")), 0);
  EXPECT_EQ(BytewiseU64TsComparator().timestamp_size(), 8u);
}

// LevelDB's view of ReverseBytewiseComparator: the same order under the same name.
class LevelDbReverse final : public leveldb::Comparator {
 public:
  int Compare(const leveldb::Slice& a, const leveldb::Slice& b) const override {
    return b.compare(a);
  }
  const char* Name() const override { return "rocksdb.ReverseBytewiseComparator"; }
  void FindShortestSeparator(std::string*, const leveldb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

// `prefix` and four digits of `i`.
std::string Numbered(const char* prefix, int i) {
  char key[32];
  std::snprintf(key, sizeof key, "%s%04d", prefix, i);
  return key;
}

// "k0000" ... in descending byte order, as a reverse-ordered database stores them.
std::vector<std::string> DescendingKeys(int n) {
  std::vector<std::string> keys;
  for (int i = n - 1; i >= 0; --i) keys.push_back(Numbered("k", i));
  return keys;
}

// A LevelDB table of `keys` in reverse bytewise order, many small blocks, a Bloom filter.
Bytes WriteReverseTable(const std::vector<std::string>& keys) {
  TableWriteOptions options;
  options.format = TableFamily::kLevelDb;
  options.filter = FilterFormat::kLevelDbBloom;
  options.block_size = 256;
  options.comparator = BuiltinComparator(kReverseBytewiseComparatorName);
  std::unique_ptr<TableWriter> writer;
  EXPECT_TRUE(TableWriter::Create(options, &writer).ok());
  for (const std::string& key : keys) {
    const Status s = writer->Put(BytesOf(key), BytesOf(key));
    EXPECT_TRUE(s.ok()) << key << ": " << s.message();
  }
  EXPECT_TRUE(writer->Finish().ok());
  return writer->TakeOutput();
}

Status OpenWith(const Bytes& file, ComparatorRef comparator,
                std::optional<std::string> manifest_comparator, std::unique_ptr<TableReader>* out) {
  TableOptions options;
  options.internal_keys = false;  // a bare TableBuilder's user keys
  options.comparator = std::move(comparator);
  options.manifest_comparator = std::move(manifest_comparator);
  return OpenTableFromMemory(file, options, out);
}

TEST(Comparators, WriterOrdersByItsComparatorAndLevelDbReadsItBack) {
  const std::vector<std::string> keys = DescendingKeys(600);
  const Bytes file = WriteReverseTable(keys);
  LevelDbReverse reverse;
  leveldb::Options options;
  options.comparator = &reverse;
  LevelDbMemoryFile source(file);
  leveldb::Table* opened = nullptr;
  ASSERT_TRUE(leveldb::Table::Open(options, &source, file.size(), &opened).ok());
  std::unique_ptr<leveldb::Table> table(opened);
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(leveldb::ReadOptions()));
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, keys.size());
    EXPECT_EQ(it->key().ToString(), keys[i]);
  }
  EXPECT_EQ(i, keys.size());
  // Every key found by LevelDB's own seek through our index.
  for (const std::string& key : keys) {
    it->Seek(key);
    ASSERT_TRUE(it->Valid()) << key;
    EXPECT_EQ(it->key().ToString(), key);
  }
  // Keys out of its order are refused, naming the entry.
  TableWriteOptions write;
  write.format = TableFamily::kLevelDb;
  write.comparator = BuiltinComparator(kReverseBytewiseComparatorName);
  std::unique_ptr<TableWriter> writer;
  ASSERT_TRUE(TableWriter::Create(write, &writer).ok());
  ASSERT_TRUE(writer->Put(BytesOf("b"), BytesOf("")).ok());
  const Status s = writer->Put(BytesOf("c"), BytesOf(""));
  EXPECT_EQ(s.code(), ErrorCode::kBadKey);
  EXPECT_NE(s.message().find("entry 1"), std::string::npos) << s.message();
}

TEST(Comparators, UnknownOrderNeverRulesOutAKeyInTheFile) {
  const std::vector<std::string> keys = DescendingKeys(600);
  const Bytes file = WriteReverseTable(keys);
  std::unique_ptr<TableReader> reader;
  ASSERT_TRUE(OpenWith(file, nullptr, std::nullopt, &reader).ok());
  const TableKeyOrder order = reader->key_order();
  EXPECT_EQ(order.source, KeyOrderSource::kUnknown);
  EXPECT_EQ(order.comparator, "");
  ASSERT_TRUE(order.first_unordered_separator.has_value());
  EXPECT_EQ(*order.first_unordered_separator, 1u);
  for (const std::string& key : keys) {
    bool may_match = false;
    LookupTrace trace;
    ASSERT_TRUE(reader->MayContain(BytesOf(key), &may_match, &trace).ok());
    EXPECT_TRUE(may_match) << key;
    EXPECT_EQ(trace.route, LookupRoute::kAnyFilter) << key;
  }
  // Absent keys are still ruled out where every block's filter says so.
  int ruled_out = 0;
  for (int i = 0; i < 600; ++i) {
    bool may_match = true;
    ASSERT_TRUE(reader->MayContain(BytesOf(Numbered("absent", i)), &may_match).ok());
    ruled_out += may_match ? 0 : 1;
  }
  EXPECT_GT(ruled_out, 300);
  // get(): an exact walk still finds the key, whatever block holds it.
  TableCursor cursor(*reader, TableCursor::Content::kEntries);
  EntryRange range;
  range.from = Bytes(keys[417].begin(), keys[417].end());
  range.exact = true;
  ASSERT_TRUE(cursor.SetEntryRange(range).ok());
  ASSERT_TRUE(DriveFromMemory(cursor, file).ok());
  ASSERT_EQ(cursor.key_offsets().size(), 2u);
  EXPECT_EQ(std::string(cursor.key_data().begin(), cursor.key_data().end()), keys[417]);
  // A range needs the order.
  TableCursor ranged(*reader, TableCursor::Content::kKeys);
  EntryRange from;
  from.from = Bytes{'k'};
  const Status s = ranged.SetEntryRange(from);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_NE(s.message().find("comparator option"), std::string::npos) << s.message();
}

TEST(Comparators, ManifestNamingACustomComparatorKeepsTheOrderUnknown) {
  // A bytewise-ordered LevelDB table whose database names a comparator this library lacks: the
  // separators ascend bytewise, but the MANIFEST's word wins over the guess.
  std::vector<std::string> keys = DescendingKeys(300);
  std::reverse(keys.begin(), keys.end());
  TableWriteOptions options;
  options.format = TableFamily::kLevelDb;
  options.filter = FilterFormat::kLevelDbBloom;
  options.block_size = 256;
  std::unique_ptr<TableWriter> writer;
  ASSERT_TRUE(TableWriter::Create(options, &writer).ok());
  for (const std::string& key : keys) ASSERT_TRUE(writer->Put(BytesOf(key), BytesOf("v")).ok());
  ASSERT_TRUE(writer->Finish().ok());
  const Bytes file = writer->TakeOutput();

  std::unique_ptr<TableReader> reader;
  ASSERT_TRUE(OpenWith(file, nullptr, std::nullopt, &reader).ok());
  EXPECT_EQ(reader->key_order().source, KeyOrderSource::kSeparators);
  bool may_match = true;
  LookupTrace trace;
  ASSERT_TRUE(reader->MayContain(BytesOf("zzz"), &may_match, &trace).ok());
  EXPECT_FALSE(may_match);
  EXPECT_EQ(trace.route, LookupRoute::kAfterLastKey);

  ASSERT_TRUE(OpenWith(file, nullptr, "my.Custom", &reader).ok());
  EXPECT_EQ(reader->key_order().source, KeyOrderSource::kUnknown);
  EXPECT_EQ(reader->key_order().comparator, "my.Custom");
  ASSERT_TRUE(reader->MayContain(BytesOf("zzz"), &may_match, &trace).ok());
  EXPECT_EQ(trace.route, LookupRoute::kAnyFilter);

  ASSERT_TRUE(OpenWith(file, nullptr, std::string(kBytewiseComparatorName), &reader).ok());
  EXPECT_EQ(reader->key_order().source, KeyOrderSource::kRecorded);
}

TEST(Comparators, SuppliedOrderIsExactAndAWrongOneIsRefused) {
  const std::vector<std::string> keys = DescendingKeys(600);
  const Bytes file = WriteReverseTable(keys);
  std::unique_ptr<TableReader> reader;
  ASSERT_TRUE(
      OpenWith(file, BuiltinComparator(kReverseBytewiseComparatorName), std::nullopt, &reader)
          .ok());
  EXPECT_EQ(reader->key_order().source, KeyOrderSource::kSupplied);
  for (const std::string& key : keys) {
    bool may_match = false;
    LookupTrace trace;
    ASSERT_TRUE(reader->MayContain(BytesOf(key), &may_match, &trace).ok());
    EXPECT_TRUE(may_match) << key;
    EXPECT_EQ(trace.route, LookupRoute::kBlockFilter) << key;
  }
  // "a" sorts after every key in the reverse order: past the last key, as LevelDB answers.
  bool may_match = true;
  LookupTrace trace;
  ASSERT_TRUE(reader->MayContain(BytesOf("a"), &may_match, &trace).ok());
  EXPECT_EQ(trace.route, LookupRoute::kAfterLastKey);
  EXPECT_FALSE(may_match);

  const Status s =
      OpenWith(file, BuiltinComparator(kBytewiseComparatorName), std::nullopt, &reader);
  EXPECT_EQ(s.code(), ErrorCode::kBadOptions);
  EXPECT_NE(s.message().find("leveldb.BytewiseComparator"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace sstfilter
