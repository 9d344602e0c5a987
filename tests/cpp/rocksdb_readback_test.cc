// Tables our writer writes under a comparator of the caller's, ingested by RocksDB 7.8.3 itself
// (Debian's librocksdb) into a database opened with the same order under the same name: RocksDB
// accepts the file (IngestExternalFile checks the comparator's name), Get finds every key's value
// and nothing for absent keys, and its iterator returns the keys in the comparator's order. The
// order is one RocksDB does not have built in (descending by the last byte, then bytewise), so
// nothing but the comparator puts the keys where they are.
#include <gtest/gtest.h>
#include <rocksdb/comparator.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "sstfilter/comparator.h"
#include "sstfilter/table_writer.h"

namespace sstfilter {
namespace {

constexpr const char* kOrderName = "sstfilter.test.LastByteDescending";

// Keys by their last byte, the larger first; then bytewise. The empty key first.
int CompareLastByteDescending(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return static_cast<int>(!a.empty()) - static_cast<int>(!b.empty());
  const auto la = static_cast<unsigned char>(a.back());
  const auto lb = static_cast<unsigned char>(b.back());
  if (la != lb) return la > lb ? -1 : 1;
  return a.compare(b);
}

class OurOrder final : public Comparator {
 public:
  std::string_view Name() const override { return kOrderName; }
  int Compare(ByteView a, ByteView b) const override {
    return CompareLastByteDescending(
        std::string_view(reinterpret_cast<const char*>(a.data()), a.size()),
        std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
  }
};

class RocksDbOrder final : public rocksdb::Comparator {
 public:
  const char* Name() const override { return kOrderName; }
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    return CompareLastByteDescending(std::string_view(a.data(), a.size()),
                                     std::string_view(b.data(), b.size()));
  }
  void FindShortestSeparator(std::string*, const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

std::vector<std::string> KeysInOrder() {
  std::vector<std::string> keys;
  for (int last = 255; last >= 0; last -= 3) {
    for (int i = 0; i < 12; ++i) {
      char key[16];
      std::snprintf(key, sizeof key, "k%03d-", i);
      keys.push_back(std::string(key) + static_cast<char>(last));
    }
  }
  return keys;
}

class RocksDbReadback : public testing::TestWithParam<bool> {};

TEST_P(RocksDbReadback, IngestsWhatOurWriterWroteUnderACustomComparator) {
  const bool partitioned = GetParam();
  const std::vector<std::string> keys = KeysInOrder();
  TableWriteOptions options;
  options.format = TableFamily::kRocksDb;
  options.filter = FilterFormat::kRocksDbFastLocalBloom;
  options.block_size = 256;
  options.comparator = std::make_shared<OurOrder>();
  if (partitioned) {
    options.index_type = TableIndexType::kTwoLevel;
    options.partition_filters = true;
    options.metadata_block_size = 256;
  }
  std::unique_ptr<TableWriter> writer;
  ASSERT_TRUE(TableWriter::Create(options, &writer).ok());
  for (const std::string& key : keys) {
    const Status s = writer->Put(BytesOf(key), BytesOf("value of " + key));
    ASSERT_TRUE(s.ok()) << s.message();
  }
  ASSERT_TRUE(writer->Finish().ok());
  const Bytes file = writer->TakeOutput();

  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("sstfilter-rocksdb-readback-" + std::to_string(::getpid()) + (partitioned ? "-p" : "-f"));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string table_path = (dir / "ours.sst").string();
  std::ofstream(table_path, std::ios::binary)
      .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));

  RocksDbOrder order;
  rocksdb::Options db_options;
  db_options.create_if_missing = true;
  db_options.comparator = &order;
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  db_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options));
  rocksdb::DB* opened = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(db_options, (dir / "db").string(), &opened).ok());
  std::unique_ptr<rocksdb::DB> db(opened);
  const rocksdb::Status ingested =
      db->IngestExternalFile({table_path}, rocksdb::IngestExternalFileOptions());
  ASSERT_TRUE(ingested.ok()) << ingested.ToString();

  for (const std::string& key : keys) {
    std::string value;
    const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), key, &value);
    ASSERT_TRUE(s.ok()) << key << ": " << s.ToString();
    EXPECT_EQ(value, "value of " + key);
  }
  for (const char* absent : {"k000-", "zzz", "k005-\x01", ""}) {
    std::string value;
    EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), absent, &value).IsNotFound()) << absent;
  }
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, keys.size());
    EXPECT_EQ(it->key().ToString(), keys[i]);
  }
  EXPECT_EQ(i, keys.size());
  it.reset();  // before the database it reads
  db.reset();
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Filters, RocksDbReadback, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& param) {
                           return param.param ? "Partitioned" : "Full";
                         });

}  // namespace
}  // namespace sstfilter
