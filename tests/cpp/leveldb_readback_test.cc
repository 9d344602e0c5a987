// The .ldb tables our writer writes, read by LevelDB 1.23 itself (Debian's libleveldb, issue 16's
// "Read back by the databases"): on a grid of compressions, filters, block sizes, restart
// intervals and bits per key, with binary keys and empty or large values, leveldb::Table::Open
// opens each file, its iterator returns every entry as we wrote it, and LevelDB's Bloom filter
// policy answers for present and absent keys what our reader's MayContain answers.
//
// LevelDB's point lookup (Table::InternalGet) is private, so its filter step is replayed from
// public pieces: Table::ApproximateOffsetOf(key) is the offset of the data block the index seek
// finds (the metaindex's offset when the key is past the last block: InternalGet then answers
// "not found" without a filter), and that block's filter out of the filter block is handed to
// LevelDB's own FilterPolicy::KeyMayMatch, as FilterBlockReader::KeyMayMatch does
// (leveldb table/filter_block.cc; docs/FORMATS.md 2.5 for the layout).
#include <gtest/gtest.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "leveldb_memory_file.h"
#include "sstfilter/table.h"
#include "sstfilter/table_writer.h"

namespace sstfilter {
namespace {

// What LevelDB's FilterBlockReader::KeyMayMatch answers for the data block at `block_offset`:
// the filter of window block_offset >> base_lg; an empty filter says no, a malformed one yes.
bool FilterBlockMayMatch(const leveldb::FilterPolicy& policy, ByteView block, uint64_t block_offset,
                         const leveldb::Slice& key) {
  if (block.size() < 5) return true;
  const size_t n = block.size();
  const uint8_t base_lg = block[n - 1];
  uint32_t array_start;
  std::memcpy(&array_start, block.data() + n - 5, 4);  // little-endian machine
  if (array_start > n - 5) return true;
  const size_t filters = (n - 5 - array_start) / 4;
  const uint64_t index = block_offset >> base_lg;
  if (index >= filters) return true;
  uint32_t start, limit;
  std::memcpy(&start, block.data() + array_start + index * 4, 4);
  std::memcpy(&limit, block.data() + array_start + index * 4 + 4, 4);
  if (start <= limit && limit <= array_start) {
    return policy.KeyMayMatch(
        key, leveldb::Slice(reinterpret_cast<const char*>(block.data()) + start, limit - start));
  }
  return start != limit;
}

struct Case {
  std::string name;
  TableWriteOptions options;
  int bits_per_key;                            // LevelDB's NewBloomFilterPolicy takes whole bits
  std::map<std::string, std::string> entries;  // key -> value, binary
};

// Distinct binary keys (0x00 and 0xff common, lengths 0 to 40) with values empty, short or
// larger than a filter window (2 KiB), so that blocks span windows and some windows are empty.
std::map<std::string, std::string> Entries(uint32_t seed, size_t count) {
  std::mt19937 rng(seed);
  std::map<std::string, std::string> out;
  while (out.size() < count) {
    std::string key(rng() % 41, '\0');
    for (char& b : key) b = static_cast<char>(rng() % 4 == 0 ? (rng() % 2 ? 0xff : 0x00) : rng());
    const uint32_t shape = static_cast<uint32_t>(rng() % 10);
    std::string value(shape < 2 ? 0 : shape < 9 ? rng() % 64 : 2048 + rng() % 4096, '\0');
    for (size_t i = 0; i < value.size(); i++) value[i] = "leveldb"[i % 7];
    out.emplace(std::move(key), std::move(value));
  }
  return out;
}

std::vector<Case> Grid() {
  std::vector<Case> cases;
  uint32_t seed = 1;
  for (const char* compression : {"none", "snappy"}) {
    for (bool filter : {false, true}) {
      for (uint64_t block_size : {uint64_t{256}, uint64_t{4096}}) {
        for (uint32_t restart_interval : {1u, 16u}) {
          Case c;
          c.bits_per_key = seed % 2 ? 10 : 4;
          c.name = std::string(compression) + (filter ? " leveldb-filter " : " no-filter ") +
                   std::to_string(c.bits_per_key) + "-bits block " + std::to_string(block_size) +
                   " restart " + std::to_string(restart_interval);
          c.options.format = TableFamily::kLevelDb;
          c.options.compression = compression;
          if (filter) c.options.filter = FilterFormat::kLevelDbBloom;
          c.options.bits_per_key = c.bits_per_key;
          c.options.block_size = block_size;
          c.options.restart_interval = restart_interval;
          // One table in three holds a single entry.
          const size_t count = seed % 3 == 0 ? 1 : 1500;
          c.entries = Entries(seed++, count);
          cases.push_back(std::move(c));
        }
      }
    }
  }
  return cases;
}

TEST(LevelDbReadBack, TableOpenIteratesOurEntriesAndItsFilterAnswersAsOurs) {
  const std::vector<Case> cases = Grid();
  ASSERT_EQ(cases.size(), 16u);
  size_t filter_probes = 0;
  size_t absent_rejected = 0;  // so that the filters are seen to say "no" too
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<TableWriter> writer;
    ASSERT_TRUE(TableWriter::Create(c.options, &writer).ok());
    for (const auto& [key, value] : c.entries) {
      ASSERT_TRUE(writer->Put(BytesOf(key), BytesOf(value)).ok());
    }
    ASSERT_TRUE(writer->Finish().ok());
    const Bytes file = writer->TakeOutput();

    std::unique_ptr<const leveldb::FilterPolicy> policy(
        leveldb::NewBloomFilterPolicy(c.bits_per_key));
    leveldb::Options options;
    options.filter_policy = policy.get();
    options.paranoid_checks = true;
    LevelDbMemoryFile source(file);
    leveldb::Table* opened = nullptr;
    const leveldb::Status open = leveldb::Table::Open(options, &source, file.size(), &opened);
    ASSERT_TRUE(open.ok()) << open.ToString();
    std::unique_ptr<leveldb::Table> table(opened);

    leveldb::ReadOptions read;
    read.verify_checksums = true;
    std::unique_ptr<leveldb::Iterator> it(table->NewIterator(read));
    auto want = c.entries.begin();
    size_t position = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++want, ++position) {
      ASSERT_NE(want, c.entries.end())
          << "LevelDB reads more entries than the " << position << " we wrote";
      ASSERT_EQ(it->key().ToString(), want->first) << "key of entry " << position;
      ASSERT_EQ(it->value().ToString(), want->second) << "value of entry " << position;
    }
    ASSERT_TRUE(it->status().ok()) << it->status().ToString();
    ASSERT_EQ(want, c.entries.end())
        << "LevelDB reads " << position << " entries of " << c.entries.size();

    std::unique_ptr<TableReader> ours;
    TableOptions table_options;
    table_options.internal_keys = false;
    ASSERT_TRUE(OpenTableFromMemory(file, table_options, &ours).ok());
    const std::vector<ByteView> filter = ours->filter_bytes();
    ASSERT_EQ(filter.size(), c.options.filter ? 1u : 0u);
    if (filter.empty()) continue;
    const uint64_t metaindex_offset = ours->footer().metaindex.offset;
    std::vector<std::string> probes;
    for (const auto& [key, value] : c.entries) probes.push_back(key);
    const std::map<std::string, std::string> absent =
        Entries(1000 + static_cast<uint32_t>(filter_probes), 1500);
    for (const auto& [key, value] : absent) {
      if (!c.entries.contains(key)) probes.push_back(key);
    }
    for (const std::string& key : probes) {
      const uint64_t block_offset = table->ApproximateOffsetOf(key);
      const bool leveldb_says = block_offset != metaindex_offset &&
                                FilterBlockMayMatch(*policy, filter[0], block_offset, key);
      bool ours_says = false;
      ASSERT_TRUE(ours->MayContain(BytesOf(key), &ours_says).ok());
      ASSERT_EQ(leveldb_says, ours_says) << "filter answer for a key of " << key.size()
                                         << " bytes, present: " << c.entries.contains(key);
      if (c.entries.contains(key)) {
        ASSERT_TRUE(leveldb_says);
      } else if (!leveldb_says) {
        ++absent_rejected;
      }
      ++filter_probes;
    }
  }
  EXPECT_GT(filter_probes, 6u * 2000);
  EXPECT_GT(absent_rejected, filter_probes / 4);
}

}  // namespace
}  // namespace sstfilter
