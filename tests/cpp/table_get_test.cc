// TableGet (sstfilter/table_get.h), a table's point lookup, against the generated corpus: the
// entries LevelDB's and RocksDB's own iterators recorded (every version of a key, newest first,
// timestamps included), the filter answers their Get consulted (get_results), and the keys each
// table holds; the blocks read follow one another from the block the index names. Range deletions
// come from tables our writer writes. The table_get fuzz target's invariants are checked on the
// corpus's tables too, and a table whose writer stripped the keys' timestamps reads them as the
// minimum.
#include "sstfilter/table_get.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../fuzz/table_get_harness.h"
#include "golden.h"
#include "sstfilter/block_cache.h"
#include "sstfilter/table.h"
#include "sstfilter/table_writer.h"

namespace sstfilter {
namespace {

// One version of a key, as recorded or as TableGet found it.
struct Version {
  Bytes key;
  Bytes timestamp;
  uint64_t tag = 0;
  Bytes value;
  bool operator==(const Version&) const = default;
};

std::string Describe(const Version& v) {
  return golden::HexEncode(v.key) + " ts " + golden::HexEncode(v.timestamp) + " tag " +
         std::to_string(v.tag) + " value " + golden::HexEncode(v.value);
}

std::string Describe(const Status& s) {
  return std::string(ErrorCodeName(s.code())) + " " + s.message() + " at " +
         std::to_string(s.offset());
}

std::vector<Version> VersionsOf(const TableGet& get) {
  std::vector<Version> out;
  const size_t ts = get.timestamp_size();
  for (size_t i = 0; i < get.entry_count(); ++i) {
    Version v;
    const auto& k = get.key_offsets();
    const auto& val = get.value_offsets();
    v.key.assign(get.key_data().begin() + k[i], get.key_data().begin() + k[i + 1]);
    v.value.assign(get.value_data().begin() + val[i], get.value_data().begin() + val[i + 1]);
    if (ts != 0) {
      v.timestamp.assign(get.timestamps().begin() + i * ts,
                         get.timestamps().begin() + (i + 1) * ts);
    }
    if (!get.tags().empty()) v.tag = get.tags()[i];
    out.push_back(std::move(v));
  }
  return out;
}

// The recorded entries of a case ("entries": keys, values, tags, timestamps), in file order.
std::vector<Version> Recorded(const golden::Corpus& corpus, const nlohmann::json& record) {
  const auto keys = corpus.ReadKeys(record.at("keys"));
  const auto values = corpus.ReadKeys(record.at("values"));
  std::vector<uint8_t> tags;
  if (record.contains("tags") && !record.at("tags").is_null())
    tags = corpus.ReadBytes(record["tags"]);
  std::vector<uint8_t> timestamps;
  if (record.contains("timestamps")) timestamps = corpus.ReadBytes(record["timestamps"]);
  const size_t count = record.at("count").get<size_t>();
  if (keys.size() != count || values.size() != count) {
    throw std::runtime_error(record.at("keys").get<std::string>() + ": count mismatch");
  }
  std::vector<Version> out(count);
  for (size_t i = 0; i < count; ++i) {
    out[i].key = keys[i];
    out[i].value = values[i];
    if (!tags.empty()) std::memcpy(&out[i].tag, tags.data() + 8 * i, 8);  // little-endian host
    if (!timestamps.empty()) {
      out[i].timestamp.assign(timestamps.begin() + 8 * i, timestamps.begin() + 8 * i + 8);
    }
  }
  return out;
}

std::unique_ptr<TableReader> Open(const std::string& id, const Bytes& file, TableOptions options) {
  std::unique_ptr<TableReader> reader;
  const Status s = OpenTableFromMemory(file, std::move(options), &reader);
  EXPECT_TRUE(s.ok()) << id << ": " << Describe(s);
  return reader;
}

// Calls visit(corpus, c, id, file, reader) for each table of the rocksdb_sst sections that opens
// (`c`: its case in the section's manifest).
template <typename Visit>
void ForEachRocksDbSstTable(Visit&& visit) {
  for (const auto& [corpus, manifest] : golden::Sections("rocksdb_sst")) {
    for (const auto& c : manifest.at("cases")) {
      const std::string id =
          corpus->name + ":rocksdb-sst/" + c.at("id").template get<std::string>();
      const Bytes file = corpus->ReadBytes(c.at("file"));
      auto reader = Open(id, file, TableOptions{});
      if (reader) visit(*corpus, c, id, file, *reader);
    }
  }
}

std::unique_ptr<TableGet> Get(const std::string& id, const TableReader& reader, const Bytes& file,
                              ByteView key) {
  std::unique_ptr<TableGet> get;
  const Status s = GetFromMemory(reader, file, key, &get);
  EXPECT_TRUE(s.ok()) << id << " get " << golden::HexEncode(key) << ": " << Describe(s);
  if (get) {
    EXPECT_TRUE(get->done()) << id;
  }
  return get;
}

// The blocks read lie one after another from the block the index names (when the trace names
// one), account for every entry, and none was read when the filter ruled the key out.
void CheckBlocksRead(const std::string& id, const TableGet& get) {
  const auto& blocks = get.blocks_read();
  if (get.filtered_out()) {
    EXPECT_TRUE(blocks.empty()) << id << ": blocks read after the filter said no";
    EXPECT_EQ(get.entry_count(), 0u) << id;
    return;
  }
  if (blocks.empty()) {
    // The key sorts after the index's last entry: no block can hold it.
    EXPECT_EQ(get.entry_count(), 0u) << id;
    return;
  }
  if (get.trace().data_block) {
    EXPECT_EQ(blocks[0].handle.offset, get.trace().data_block->offset) << id;
  }
  for (size_t b = 1; b < blocks.size(); ++b) {
    EXPECT_EQ(blocks[b].handle.offset,
              blocks[b - 1].handle.offset + blocks[b - 1].handle.size + kBlockTrailerSize)
        << id << ": block " << b << " does not follow the one before";
    EXPECT_LE(blocks[b - 1].entries_end, blocks[b].entries_end) << id;
  }
  EXPECT_EQ(blocks.back().entries_end, get.entry_count()) << id;
}

// Keys with one version, and probes that are neither keys nor ruled out by the database, are
// checked one in this many (the corpus holds thousands per table).
constexpr size_t kSampleStride = 7;

// Every key of the recorded entries (a sample of those with one version): TableGet finds its
// versions exactly, newest first. Returns how many keys' versions spanned more than one data block.
size_t CheckRecordedKeys(const std::string& id, const TableReader& reader, const Bytes& file,
                         const std::vector<Version>& recorded) {
  size_t spanning = 0;
  size_t keys = 0;
  for (size_t begin = 0; begin < recorded.size();) {
    size_t end = begin + 1;
    while (end < recorded.size() && recorded[end].key == recorded[begin].key) ++end;
    // Every key with more than one version, and a sample of the others.
    if (end - begin == 1 && keys++ % kSampleStride != 0) {
      begin = end;
      continue;
    }
    const std::vector<Version> expected(recorded.begin() + begin, recorded.begin() + end);
    const std::string key_id = id + " key " + golden::HexEncode(recorded[begin].key);
    auto get = Get(key_id, reader, file, recorded[begin].key);
    if (!get) return spanning;
    EXPECT_FALSE(get->filtered_out()) << key_id << ": a key of the table ruled out";
    const std::vector<Version> found = VersionsOf(*get);
    EXPECT_EQ(found.size(), expected.size()) << key_id;
    for (size_t i = 0; i < std::min(found.size(), expected.size()); ++i) {
      EXPECT_EQ(found[i], expected[i]) << key_id << " version " << i << ": " << Describe(found[i])
                                       << ", recorded " << Describe(expected[i]);
    }
    EXPECT_TRUE(get->covering().empty()) << key_id;
    CheckBlocksRead(key_id, *get);
    if (get->blocks_read().size() > 1 && get->blocks_read()[0].entries_end != 0 &&
        get->blocks_read()[0].entries_end < get->entry_count()) {
      ++spanning;
    }
    begin = end;
  }
  return spanning;
}

// Probes: the filter rules a key out where the database's Get was told no (get_results 0), never
// where it was told "may match" (1); 2: the database did not consult the filter. Keys among the
// probes are found.
void CheckProbes(const std::string& id, const TableReader& reader, const Bytes& file,
                 const std::vector<Bytes>& probes, const Bytes& answers, const Bytes& is_key) {
  ASSERT_EQ(probes.size(), answers.size()) << id;
  for (size_t i = 0; i < probes.size(); ++i) {
    if (i % kSampleStride != 0 && is_key[i] != 1 && answers[i] != 0) continue;
    const std::string probe_id = id + " probe " + std::to_string(i);
    auto get = Get(probe_id, reader, file, probes[i]);
    if (!get) return;
    if (answers[i] != 2) {
      EXPECT_EQ(get->filtered_out(), answers[i] == 0) << probe_id;
    }
    if (is_key[i] == 1) {
      EXPECT_GT(get->entry_count(), 0u) << probe_id << ": a key not found";
    } else {
      EXPECT_EQ(get->entry_count(), 0u) << probe_id << ": entries for a key not in the table";
    }
    CheckBlocksRead(probe_id, *get);
  }
}

TEST(TableGet, LevelDbTablesFindEveryRecordedVersion) {
  size_t cases = 0;
  size_t with_entries = 0;
  size_t spanning = 0;
  for (const auto& [corpus, manifest] : golden::Sections("leveldb_table")) {
    for (const auto& c : manifest.at("cases")) {
      const std::string id = corpus->name + ":leveldb-table/" + c.at("id").get<std::string>();
      const Bytes file = corpus->ReadBytes(c.at("file"));
      TableOptions options;
      options.internal_keys = c.at("internal_keys").get<bool>();
      auto reader = Open(id, file, options);
      if (!reader) continue;
      if (c.contains("entries")) {
        spanning += CheckRecordedKeys(id, *reader, file, Recorded(*corpus, c.at("entries")));
        ++with_entries;
      }
      CheckProbes(id, *reader, file, corpus->ReadKeys(c.at("probes")),
                  corpus->ReadBytes(c.at("get_results")), corpus->ReadBytes(c.at("probe_is_key")));
      ++cases;
    }
  }
  EXPECT_GT(with_entries, 0u) << "no leveldb_table cases with entries in "
                              << golden::CorporaSummary();
  // The history tables hold keys whose versions run across a block boundary.
  EXPECT_GT(spanning, 0u) << "no key's versions spanned two data blocks";
  std::printf(
      "[ table get  ] %zu LevelDB tables (%zu with recorded entries); %zu keys spanning "
      "data blocks\n",
      cases, with_entries, spanning);
}

TEST(TableGet, TimestampTablesFindEveryVersionNewestTimestampFirst) {
  size_t cases = 0;
  for (const auto& [corpus, manifest] : golden::Sections("rocksdb_timestamp")) {
    for (const auto& c : manifest.at("cases")) {
      const std::string id = corpus->name + ":rocksdb-timestamp/" + c.at("id").get<std::string>();
      const Bytes file = corpus->ReadBytes(c.at("file"));
      auto reader = Open(id, file, TableOptions{});
      if (!reader) continue;
      EXPECT_EQ(reader->key_order().comparator, kBytewiseU64TsComparatorName) << id;
      CheckRecordedKeys(id, *reader, file, Recorded(*corpus, c.at("entries")));
      ++cases;
    }
  }
  EXPECT_GT(cases, 0u) << "no rocksdb_timestamp cases in " << golden::CorporaSummary();
}

// A table written with persist_user_defined_timestamps = false (fixtures v11_db): its keys end
// without the timestamp its comparator names, and RocksDB reads each as if the minimum timestamp
// (8 zero bytes) followed it (table/block_based/block.h pad_min_timestamp_).
TEST(TableGet, KeysStoredWithoutTimestampsReadWithTheMinimum) {
  size_t tables = 0;
  for (const auto& [corpus, manifest] : golden::Sections("v11_db")) {
    for (const auto& c : manifest.at("cases")) {
      if (c.at("options").value("persist_user_defined_timestamps", true)) continue;
      for (const std::string name : c.at("files")) {
        if (!name.ends_with(".sst")) continue;
        const std::string id = corpus->name + ":" + c.at("id").get<std::string>() + "/" + name;
        const Bytes file =
            golden::ReadFileBytes(corpus->Path(c.at("dir").get<std::string>()) / name);
        auto reader = Open(id, file, TableOptions{});
        if (!reader) continue;
        ++tables;
        EXPECT_EQ(reader->key_order().comparator, kBytewiseU64TsComparatorName) << id;
        // The generator flushed key000 to key019, each once, its value ending in its number.
        for (int i = 0; i < 20; ++i) {
          const std::string key = "key" + std::string(i < 10 ? "00" : "0") + std::to_string(i);
          const auto get = Get(id, *reader, file, BytesOf(key));
          if (!get) continue;
          ASSERT_EQ(get->entry_count(), 1u) << id << " " << key;
          EXPECT_EQ(get->timestamp_size(), 8u) << id;
          EXPECT_EQ(golden::HexEncode(get->timestamps()), "0000000000000000") << id << " " << key;
          const std::string value(get->value_data().begin(), get->value_data().end());
          EXPECT_TRUE(value.ends_with("value" + std::to_string(i))) << id << " " << key << value;
        }
        const auto absent = Get(id, *reader, file, BytesOf("key020"));
        if (absent) {
          EXPECT_EQ(absent->entry_count(), 0u) << id;
        }
      }
    }
  }
  EXPECT_GT(tables, 0u) << "no table without timestamps in " << golden::CorporaSummary();
}

TEST(TableGet, RocksDbTablesAnswerAsTheFilterAndFindEveryKey) {
  size_t cases = 0;
  ForEachRocksDbSstTable([&](const golden::Corpus& corpus, const auto& c, const std::string& id,
                             const Bytes& file, const TableReader& reader) {
    // One put per key (SstFileWriter's, or a database's flush), found alone.
    const std::vector<Bytes> keys = corpus.ReadKeys(c.at("keys"));
    for (size_t k = 0; k < keys.size(); k += kSampleStride) {
      const Bytes& key = keys[k];
      const std::string key_id = id + " key " + golden::HexEncode(key);
      auto get = Get(key_id, reader, file, key);
      if (!get) break;
      ASSERT_EQ(get->entry_count(), 1u) << key_id;
      EXPECT_EQ(get->tags()[0] & 0xff, static_cast<uint64_t>(EntryType::kPut)) << key_id;
      CheckBlocksRead(key_id, *get);
    }
    CheckProbes(id, reader, file, corpus.ReadKeys(c.at("probes")),
                corpus.ReadBytes(c.at("get_results")), corpus.ReadBytes(c.at("probe_is_key")));
    ++cases;
  });
  EXPECT_GT(cases, 0u) << "no rocksdb_sst cases in " << golden::CorporaSummary();
}

Bytes Key(const std::string& s) { return Bytes(s.begin(), s.end()); }

TEST(TableGet, RangeDeletionsCoveringTheKeyComeWithTheAnswer) {
  for (const TableIndexType index : {TableIndexType::kBinarySearch, TableIndexType::kTwoLevel}) {
    TableWriteOptions options;
    options.filter = FilterFormat::kRocksDbFastLocalBloom;
    options.block_size = 64;
    options.metadata_block_size = 64;
    options.index_type = index;
    std::unique_ptr<TableWriter> writer;
    ASSERT_TRUE(TableWriter::Create(options, &writer).ok());
    for (int i = 0; i < 200; ++i) {
      char key[16];
      std::snprintf(key, sizeof key, "key%05d", i * 2);
      ASSERT_TRUE(writer->Put(Key(key), Key("value")).ok());
    }
    ASSERT_TRUE(writer->DeleteRange(Key("key00100"), Key("key00200")).ok());
    ASSERT_TRUE(writer->DeleteRange(Key("key00150"), Key("key00151")).ok());
    ASSERT_TRUE(writer->Finish().ok());
    const Bytes file = writer->TakeOutput();
    const std::string id = index == TableIndexType::kTwoLevel ? "two-level" : "binary-search";
    auto reader = Open(id, file, TableOptions{});
    ASSERT_NE(reader, nullptr);

    auto inside_both = Get(id, *reader, file, Key("key00150"));
    ASSERT_NE(inside_both, nullptr);
    EXPECT_EQ(inside_both->entry_count(), 1u) << id;
    ASSERT_EQ(inside_both->covering().size(), 2u) << id;
    EXPECT_EQ(inside_both->covering()[0].start, Key("key00100")) << id;
    EXPECT_EQ(inside_both->covering()[1].end, Key("key00151")) << id;
    CheckBlocksRead(id, *inside_both);

    // An absent key inside a range: the deletion comes whatever the filter says.
    auto absent = Get(id, *reader, file, Key("key00101"));
    ASSERT_NE(absent, nullptr);
    EXPECT_EQ(absent->entry_count(), 0u) << id;
    EXPECT_EQ(absent->covering().size(), 1u) << id;
    // A range's end is excluded.
    auto at_end = Get(id, *reader, file, Key("key00200"));
    ASSERT_NE(at_end, nullptr);
    EXPECT_EQ(at_end->entry_count(), 1u) << id;
    EXPECT_TRUE(at_end->covering().empty()) << id;
  }
}

// Bytewise order read backwards, under a name no reader knows.
class BackwardsOrder final : public Comparator {
 public:
  std::string_view Name() const override { return "sstfilter.test.Backwards"; }
  int Compare(ByteView a, ByteView b) const override { return BytewiseComparator().Compare(b, a); }
};

Bytes BackwardsTable(bool with_range_deletion) {
  TableWriteOptions options;
  options.comparator = std::make_shared<BackwardsOrder>();
  options.filter = FilterFormat::kRocksDbFastLocalBloom;
  options.block_size = 64;
  std::unique_ptr<TableWriter> writer;
  EXPECT_TRUE(TableWriter::Create(options, &writer).ok());
  for (int i = 99; i >= 0; --i) {
    char key[16];
    std::snprintf(key, sizeof key, "key%03d", i);
    EXPECT_TRUE(writer->Put(Key(key), Key("v")).ok());
  }
  if (with_range_deletion) {
    EXPECT_TRUE(writer->DeleteRange(Key("key050"), Key("key040")).ok());
  }
  EXPECT_TRUE(writer->Finish().ok());
  return writer->TakeOutput();
}

TEST(TableGet, UnknownOrderReadsEveryBlockAndRefusesRangeDeletions) {
  const Bytes file = BackwardsTable(false);
  auto unknown = Open("unknown", file, TableOptions{});
  ASSERT_NE(unknown, nullptr);
  ASSERT_FALSE(unknown->key_order().known());
  TableOptions supplied;
  supplied.comparator = std::make_shared<BackwardsOrder>();
  auto known = Open("supplied", file, supplied);
  ASSERT_NE(known, nullptr);
  for (const char* key : {"key000", "key042", "key099"}) {
    auto blind = Get(std::string("unknown ") + key, *unknown, file, Key(key));
    auto seen = Get(std::string("supplied ") + key, *known, file, Key(key));
    ASSERT_TRUE(blind && seen);
    EXPECT_EQ(VersionsOf(*blind), VersionsOf(*seen)) << key;
    EXPECT_EQ(blind->entry_count(), 1u) << key;
    // Without the order the key's versions may lie anywhere: every block is read; with it, the
    // block the index names.
    EXPECT_GT(blind->blocks_read().size(), 10u) << key;
    EXPECT_EQ(seen->blocks_read().size(), 1u) << key;
  }
  const Bytes ranged = BackwardsTable(true);
  auto ranged_unknown = Open("ranged unknown", ranged, TableOptions{});
  ASSERT_NE(ranged_unknown, nullptr);
  std::unique_ptr<TableGet> get;
  const Status s = GetFromMemory(*ranged_unknown, ranged, Key("key045"), &get);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << Describe(s);
  auto ranged_known = Open("ranged supplied", ranged, supplied);
  ASSERT_NE(ranged_known, nullptr);
  auto covered = Get("ranged supplied", *ranged_known, ranged, Key("key045"));
  ASSERT_NE(covered, nullptr);
  EXPECT_EQ(covered->covering().size(), 1u);
  auto outside = Get("ranged supplied", *ranged_known, ranged, Key("key040"));
  ASSERT_NE(outside, nullptr);
  EXPECT_TRUE(outside->covering().empty());
}

// A lookup through a block cache, or the error it ends with.
struct CachedGet {
  std::unique_ptr<TableGet> get;
  Status status;
};
CachedGet GetThrough(BlockCache* cache, const TableReader& reader, const Bytes& file,
                     ByteView key) {
  TableReadOptions read;
  read.block_cache = cache;
  CachedGet out;
  out.get = std::make_unique<TableGet>(reader, key, read);
  out.status = DriveFromMemory(*out.get, file);
  return out;
}

size_t CacheServed(const TableGet& get) {
  size_t n = 0;
  for (const TableGet::BlockRead& b : get.blocks_read()) n += b.from_cache;
  return n;
}

// Every table of the corpus, every key sampled and every probe: the lookup through a block cache
// answers as the one without, the first time (reading) and the second (served by the cache, the
// cache counting a hit per block); a second open of the same file shares none of the first
// reader's blocks.
TEST(TableGet, ABlockCacheServesRepeatedLookupsWithTheSameAnswers) {
  size_t tables = 0;
  uint64_t served = 0;
  for (const char* section : {"leveldb_table", "rocksdb_sst", "rocksdb_timestamp"}) {
    for (const auto& [corpus, manifest] : golden::Sections(section)) {
      for (const auto& c : manifest.at("cases")) {
        const std::string id = corpus->name + ":" + section + "/" + c.at("id").get<std::string>();
        const Bytes file = corpus->ReadBytes(c.at("file"));
        TableOptions options;
        if (c.contains("internal_keys")) options.internal_keys = c.at("internal_keys").get<bool>();
        auto reader = Open(id, file, options);
        if (!reader) continue;
        std::vector<Bytes> keys;
        if (c.contains("probes")) keys = corpus->ReadKeys(c.at("probes"));
        if (c.contains("keys")) {
          const std::vector<Bytes> more = corpus->ReadKeys(c.at("keys"));
          keys.insert(keys.end(), more.begin(), more.end());
        }
        ASSERT_FALSE(keys.empty()) << id << ": no keys to look up";
        BlockCache cache(uint64_t{64} << 20);
        std::optional<Bytes> read_key;  // a key whose lookup read a data block
        for (size_t k = 0; k < keys.size(); k += kSampleStride) {
          const std::string key_id = id + " key " + golden::HexEncode(keys[k]);
          TableGet plain(*reader, keys[k]);
          const Status plain_status = DriveFromMemory(plain, file);
          for (int pass = 0; pass < 2; ++pass) {
            const BlockCacheStats before = cache.stats();
            const CachedGet cached = GetThrough(&cache, *reader, file, keys[k]);
            ASSERT_TRUE(fuzz::SameTableGetAnswer(plain, plain_status, *cached.get, cached.status))
                << key_id << " pass " << pass << ": " << Describe(cached.status) << " against "
                << Describe(plain_status);
            const size_t from_cache = CacheServed(*cached.get);
            const uint64_t hits = cache.stats().hits - before.hits;
            if (pass == 1) {
              EXPECT_EQ(from_cache, cached.get->blocks_read().size())
                  << key_id << ": a block read again";
              EXPECT_EQ(cache.stats().misses, before.misses) << key_id;
            }
            // The range-deletion block, read before the filter, counts among the hits, not
            // among the data blocks.
            const uint64_t range_hits =
                reader->table().FindMeta("rocksdb.range_del") != nullptr ? 1 : 0;
            EXPECT_GE(hits, from_cache) << key_id;
            EXPECT_LE(hits, from_cache + range_hits) << key_id;
            if (pass == 1) {
              EXPECT_EQ(hits, from_cache + range_hits) << key_id;
            }
            served += from_cache;
          }
          if (!read_key && plain_status.ok() && !plain.blocks_read().empty()) read_key = keys[k];
        }
        // The same file opened again is another table to the cache.
        ASSERT_TRUE(read_key.has_value()) << id << ": no lookup read a block";
        auto again = Open(id, file, options);
        ASSERT_NE(again, nullptr);
        const CachedGet other = GetThrough(&cache, *again, file, *read_key);
        ASSERT_TRUE(other.status.ok()) << id << ": " << Describe(other.status);
        EXPECT_FALSE(other.get->blocks_read().empty()) << id;
        EXPECT_EQ(CacheServed(*other.get), 0u) << id << ": a second open shared the first's blocks";
        EXPECT_LE(cache.stats().bytes_held, cache.stats().capacity) << id;
        ++tables;
      }
    }
  }
  EXPECT_GT(tables, 0u) << "no tables in " << golden::CorporaSummary();
  EXPECT_GT(served, 0u) << "no block was served by the cache";
  std::printf("[ table get  ] %zu tables through a block cache, %llu blocks served by it\n", tables,
              static_cast<unsigned long long>(served));
}

// A block that fails its checksum is not cached: every lookup reads it again and fails alike.
TEST(TableGet, ABlockCacheKeepsNoCorruptBlock) {
  TableWriteOptions options;
  options.block_size = 64;
  std::unique_ptr<TableWriter> writer;
  ASSERT_TRUE(TableWriter::Create(options, &writer).ok());
  for (int i = 0; i < 100; ++i) {
    char key[16];
    std::snprintf(key, sizeof key, "key%05d", i);
    ASSERT_TRUE(writer->Put(Key(key), Key("value")).ok());
  }
  ASSERT_TRUE(writer->Finish().ok());
  Bytes file = writer->TakeOutput();
  auto reader = Open("corrupt", file, TableOptions{});
  ASSERT_NE(reader, nullptr);
  const Bytes key = Key("key00050");
  auto intact = Get("corrupt", *reader, file, key);
  ASSERT_NE(intact, nullptr);
  ASSERT_FALSE(intact->blocks_read().empty());
  const BlockHandle block = intact->blocks_read()[0].handle;
  file[block.offset + block.size / 2] ^= 0x40;  // the block, not its trailer: the checksum fails

  BlockCache cache(uint64_t{1} << 20);
  TableGet plain(*reader, key);
  const Status plain_status = DriveFromMemory(plain, file);
  ASSERT_EQ(plain_status.code(), ErrorCode::kChecksumMismatch) << Describe(plain_status);
  for (int pass = 0; pass < 3; ++pass) {
    const CachedGet cached = GetThrough(&cache, *reader, file, key);
    EXPECT_TRUE(fuzz::SameTableGetAnswer(plain, plain_status, *cached.get, cached.status))
        << "pass " << pass << ": " << Describe(cached.status);
    const BlockCacheStats stats = cache.stats();
    EXPECT_EQ(stats.inserts, 0u) << "pass " << pass;
    EXPECT_EQ(stats.hits, 0u) << "pass " << pass;
    EXPECT_EQ(stats.misses, static_cast<uint64_t>(pass + 1)) << "pass " << pass;
  }
}

// Capacity 0: nothing is kept, every block is read, the answers stay.
TEST(TableGet, ABlockCacheOfCapacityZeroCachesNothing) {
  size_t lookups = 0;
  ForEachRocksDbSstTable([&](const golden::Corpus& corpus, const auto& c, const std::string& id,
                             const Bytes& file, const TableReader& reader) {
    const std::vector<Bytes> keys = corpus.ReadKeys(c.at("keys"));
    BlockCache cache(0);
    for (size_t k = 0; k < keys.size(); k += kSampleStride * 4) {
      TableGet plain(reader, keys[k]);
      const Status plain_status = DriveFromMemory(plain, file);
      for (int pass = 0; pass < 2; ++pass) {
        const CachedGet cached = GetThrough(&cache, reader, file, keys[k]);
        ASSERT_TRUE(fuzz::SameTableGetAnswer(plain, plain_status, *cached.get, cached.status))
            << id;
        EXPECT_EQ(CacheServed(*cached.get), 0u) << id;
        ++lookups;
      }
    }
    EXPECT_EQ(cache.stats().inserts, 0u) << id;
    EXPECT_EQ(cache.stats().bytes_held, 0u) << id;
  });
  EXPECT_GT(lookups, 0u) << "no rocksdb_sst keys in " << golden::CorporaSummary();
}

// The table_get fuzz target's invariants hold on the corpus's tables, in the seeds' layout
// (scripts/fuzz-seeds.mjs): flags (user keys where the table has them; checksums verified, then
// not), 16 keys of the table as probes, the file.
TEST(TableGet, FuzzHarnessHoldsOnCorpusTables) {
  size_t inputs = 0;
  for (const char* section : {"leveldb_table", "rocksdb_sst"}) {
    for (const auto& [corpus, manifest] : golden::Sections(section)) {
      for (const auto& c : manifest.at("cases")) {
        const Bytes file = corpus->ReadBytes(c.at("file"));
        const auto keys = corpus->ReadKeys(c.at("keys"));
        Bytes probes;
        for (size_t k = 0; k < keys.size() && k < 16 * kSampleStride; k += kSampleStride) {
          const size_t n = std::min<size_t>(keys[k].size(), 255);
          probes.push_back(static_cast<uint8_t>(n));
          probes.insert(probes.end(), keys[k].begin(), keys[k].begin() + n);
        }
        const bool user_keys = c.contains("internal_keys") && !c.at("internal_keys").get<bool>();
        for (const int checksums : {0, 2}) {
          Bytes input{static_cast<uint8_t>((user_keys ? 1 : 0) | checksums),
                      static_cast<uint8_t>(probes.size() & 0xff),
                      static_cast<uint8_t>(probes.size() >> 8)};
          input.insert(input.end(), probes.begin(), probes.end());
          input.insert(input.end(), file.begin(), file.end());
          fuzz::FuzzTableGet(input.data(), input.size());  // aborts on a broken invariant
          ++inputs;
        }
      }
    }
  }
  EXPECT_GT(inputs, 0u) << "no tables in " << golden::CorporaSummary();
}

}  // namespace
}  // namespace sstfilter
