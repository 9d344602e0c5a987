// The database cases of section "custom_comparator" (see custom_comparator_section.cc for the
// two orders), moved out of custom_comparator_section.cc:
// - db_<order>: a RocksDB database with tables on levels 0, 1 and 2 (CompactFiles), overwrites and
//   deletions across them, and writes left in the WAL; per probe DB::Get from a read-only open.
// - leveldb_u64_suffix: a LevelDB database under U64SuffixComparator with tables on levels 0, 1
//   and 2 (4 KiB blocks; the level-2 table written by a compaction), a WAL; per probe DB::Get on a
//   copy, and per table the entries LevelDB's own iterator over it yields.
#include <leveldb/comparator.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>
#include <leveldb/table.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>

#include <memory>
#include <set>
#include <string_view>

#include "custom_comparator.h"
#include "library_status.h"
#include "sections.h"
#include "table_layout.h"

namespace corpus {
namespace custom_comparator {

namespace fs = std::filesystem;

// ---- RocksDB database ---------------------------------------------------------------------------

std::vector<rocksdb::LiveFileMetaData> LiveFiles(rocksdb::DB& db) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db.GetLiveFilesMetaData(&files);
  return files;
}

// Compacts the level-0 files into one file on `level`.
void CompactLevel0To(rocksdb::DB& db, int level) {
  std::vector<std::string> names;
  for (const auto& f : LiveFiles(db))
    if (f.level == 0) names.push_back(f.name);
  if (names.empty()) Fail("no level-0 file to compact");
  Check(db.CompactFiles(rocksdb::CompactionOptions(), names, level), "CompactFiles");
}

// What happened to key i in the database's history (the probe's "kind").
// What a database was given, key by key, through Put and Delete (rocksdb::DB or leveldb::DB).
template <typename Db>
struct History {
  History(Db& db_in, const KeyList& keys_in)
      : db(db_in), keys(keys_in), value(keys_in.size()), kind(keys_in.size(), "never-written") {}
  void Put(size_t i, const std::string& round) {
    const std::string v = round + "-" + std::to_string(i);
    Check(db.Put({}, keys[i], v), "Put");
    kind[i] = kind[i] == "never-written" ? "written" : "overwritten";
    value[i] = v;
  }
  void Delete(size_t i) {
    Check(db.Delete({}, keys[i]), "Delete");
    if (kind[i] != "never-written") kind[i] = "deleted";
    value[i].clear();
  }

  Db& db;
  const KeyList& keys;
  std::vector<std::string> value;  // the newest value, "" when deleted or never written
  std::vector<std::string> kind;   // "written", "overwritten", "deleted", "never-written"
};

nlohmann::json RocksDbCase(const CorpusRoot& root, const Order& order) {
  const std::string id = std::string("db_") + order.id;
  const std::string dir = "custom-comparator/" + id;
  const fs::path path = root.Scratch(id);
  const KeyList keys = MakeOrderedKeys(order, 1200, SeedFor(id));
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table.block_size = 1024;
  table.format_version = 5;
  rocksdb::Options options;
  options.comparator = RocksComparator(order);
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.compression = rocksdb::kNoCompression;
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  options.avoid_flush_during_shutdown = true;
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::Open(options, path.string(), &raw), "open " + path.string());
  std::unique_ptr<rocksdb::DB> db(raw);

  History h(*db, keys);
  const auto put = [&h](size_t i, const std::string& round) { h.Put(i, round); };
  const auto del = [&h](size_t i) { h.Delete(i); };
  // Round 1 (level 2): every key but every 6th. Round 2 (level 1): overwrites and deletions.
  // Round 3 (level 0): more of both, some deleted keys written again, the keys round 1 left out
  // (every other one). Round 4 (the WAL): more of both, the rest of the keys left out.
  for (size_t i = 0; i < keys.size(); ++i)
    if (i % 6 != 5) put(i, "r1");
  Check(db->Flush({}), "Flush");
  CompactLevel0To(*db, 2);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % 6 == 5) continue;
    if (i % 3 == 0) put(i, "r2");
    if (i % 7 == 1) del(i);
  }
  Check(db->Flush({}), "Flush");
  CompactLevel0To(*db, 1);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % 6 == 5) {
      if (i % 12 == 5) put(i, "r3");
      continue;
    }
    if (i % 5 == 0) put(i, "r3");
    if (i % 11 == 2) del(i);
    if (i % 7 == 1 && i % 2 == 0) put(i, "r3");
  }
  Check(db->Flush({}), "Flush");
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % 12 == 11) put(i, "r4");
    if (i % 13 == 0) put(i, "r4");
    if (i % 17 == 3) del(i);
  }
  nlohmann::json levels = nlohmann::json::array();
  std::set<int> used;
  for (const auto& f : LiveFiles(*db)) {
    levels.push_back({{"name", f.name.substr(f.name.find_first_not_of('/'))}, {"level", f.level}});
    used.insert(f.level);
  }
  if (used != std::set<int>{0, 1, 2}) Fail(id + ": expected tables on levels 0, 1 and 2");
  Check(db->Close(), "close");
  db.reset();

  std::vector<uint8_t> is_key;
  std::vector<long> key_index;
  const KeyList probes = MakeOrderedProbes(order, keys, 1, 600, SeedFor(id), &is_key, &key_index);
  Check(rocksdb::DB::OpenForReadOnly(options, path.string(), &raw), "read-only open");
  db.reset(raw);
  nlohmann::json answers = nlohmann::json::array(), kinds = nlohmann::json::array();
  for (size_t i = 0; i < probes.size(); ++i) {
    std::string value;
    const rocksdb::Status s = db->Get({}, probes[i], &value);
    answers.push_back(GetJson(s, value, id + ": Get"));
    const long k = key_index[i];
    kinds.push_back(k >= 0 ? h.kind[k] : "absent");
    const std::string expected = k >= 0 ? h.value[k] : "";
    if ((s.ok() ? value : "") != expected || s.ok() != !expected.empty())
      Fail(id + ": Get of probe " + std::to_string(i) + " is not what was written");
  }
  Check(db->Close(), "close");
  db.reset();
  const std::vector<std::string> files = root.CopyDatabase(dir + "/db", path);
  std::vector<std::string> wals;
  for (const std::string& f : files)
    if (f.size() > 4 && f.substr(f.size() - 4) == ".log") wals.push_back(f);
  return {
      {"id", id},
      {"kind", "rocksdb-db"},
      {"comparator", order.name},
      {"dir", dir + "/db"},
      {"files", files},
      {"wal", wals},
      {"levels", levels},
      {"history",
       "round 1 (level 2): every key but every 6th; round 2 (level 1): overwrites, deletions; "
       "round 3 (level 0): overwrites, deletions, rewrites; round 4: left in the WAL"},
      {"probes",
       {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
      {"probe_is_key", root.WriteU8(dir + "/probe_is_key.u8", is_key)},
      {"kinds", kinds},
      {"answers", answers},
  };
}

// ---- LevelDB database ---------------------------------------------------------------------------

// LevelDB's order of a table's internal keys (user key by `order`, then the 8-byte tag, larger
// first), for Table::Open on a database's table; its name is the one LevelDB's own carries.
class LevelInternalOrder : public leveldb::Comparator {
 public:
  explicit LevelInternalOrder(const Order& order) : order_(order) {}
  const char* Name() const override { return "leveldb.InternalKeyComparator"; }
  int Compare(const leveldb::Slice& a, const leveldb::Slice& b) const override {
    const std::string_view x(a.data(), a.size()), y(b.data(), b.size());
    const int c = order_.compare(x.substr(0, x.size() - 8), y.substr(0, y.size() - 8));
    if (c != 0) return c;
    const uint64_t tx = LastU64(x), ty = LastU64(y);
    return tx > ty ? -1 : tx < ty ? 1 : 0;
  }
  void FindShortestSeparator(std::string*, const leveldb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  Order order_;
};

// The entries LevelDB's iterator over a table of the database yields (Table::Open,
// Table::NewIterator): user keys, tags, values.
nlohmann::json LevelDbTableEntries(const CorpusRoot& root, const std::string& dir,
                                   const fs::path& path) {
  static const LevelInternalOrder internal(kU64Suffix);
  leveldb::Options options;
  options.comparator = &internal;
  std::unique_ptr<const leveldb::FilterPolicy> policy(leveldb::NewBloomFilterPolicy(10));
  options.filter_policy = policy.get();
  leveldb::RandomAccessFile* raw = nullptr;
  Check(leveldb::Env::Default()->NewRandomAccessFile(path.string(), &raw), "open table");
  std::unique_ptr<leveldb::RandomAccessFile> source(raw);
  leveldb::Table* opened = nullptr;
  Check(leveldb::Table::Open(options, source.get(), fs::file_size(path), &opened), "Table::Open");
  std::unique_ptr<leveldb::Table> table(opened);
  leveldb::ReadOptions read;
  read.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(read));
  KeyList keys, values;
  std::string tags;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string key = it->key().ToString();
    if (key.size() < 8) Fail(path.string() + ": an internal key shorter than its tag");
    tags += key.substr(key.size() - 8);
    keys.push_back(key.substr(0, key.size() - 8));
    values.push_back(it->value().ToString());
  }
  Check(it->status(), "iterating " + path.string());
  const std::string name = path.filename().string();
  const std::string stem = dir + "/tables/" + path.stem().string();
  const std::string file = ReadFile(path);
  const Footer footer = ParseFooter(file);
  const auto index = ReadBlock(file, footer.index);
  if (!index) Fail(path.string() + ": cannot read the index block");
  // Whether the index's keys (whole last keys of the blocks) happen to be in LevelDB's bytewise
  // internal-key order too: a table does not name its comparator, so that is all a reader without
  // it could check.
  const auto entries = BlockEntries(*index);
  bool bytewise_index = true;
  for (size_t i = 1; i < entries.size(); ++i) {
    const std::string_view a = entries[i - 1].first, b = entries[i].first;
    const int c = Bytewise(a.substr(0, a.size() - 8), b.substr(0, b.size() - 8));
    if (c > 0 || (c == 0 && LastU64(a) <= LastU64(b))) bytewise_index = false;
  }
  return {{"name", name},
          {"bytes", file.size()},
          {"data_blocks", entries.size()},
          {"index_in_bytewise_order", bytewise_index},
          {"entries",
           {{"count", keys.size()},
            {"keys", root.WriteKeys(stem + ".keys", keys)},
            {"tags", root.WriteBytes(stem + ".tags.bin", tags)},
            {"values", root.WriteKeys(stem + ".values.keys", values)}}}};
}

nlohmann::json LevelDbCase(const CorpusRoot& root) {
  const Order& order = kU64Suffix;
  const std::string id = std::string("leveldb_") + order.id;
  const std::string dir = "custom-comparator/" + id;
  const fs::path path = root.Scratch(id);
  const KeyList keys = MakeOrderedKeys(order, 6000, SeedFor(id));
  std::unique_ptr<const leveldb::FilterPolicy> policy(leveldb::NewBloomFilterPolicy(10));
  leveldb::Options options;
  options.comparator = LevelComparator();
  options.filter_policy = policy.get();
  options.create_if_missing = true;
  options.compression = leveldb::kNoCompression;
  leveldb::DB* raw = nullptr;
  Check(leveldb::DB::Open(options, path.string(), &raw), "open " + path.string());
  std::unique_ptr<leveldb::DB> db(raw);

  History h(*db, keys);
  const auto put = [&h](size_t i, const std::string& round) { h.Put(i, round); };
  const auto del = [&h](size_t i) { h.Delete(i); };
  // Round 1: every key but every 6th; CompactRange flushes it to level 2 (it overlaps nothing) as
  // one file; the first and last of them written again and flushed by a second CompactRange to
  // level 1, which it then compacts with level 2: one table of about 35 data blocks on level 2
  // (LevelDB raises max_file_size to at least 1 MiB). Round 2: overwrites and deletions of keys
  // 2000..3499 (in the order), flushed to level 1 by a CompactRange of a range outside them (which
  // compacts nothing). Round 3: keys 3000..3999, overlapping that level-1 file: flushed to level 0.
  // Round 4: left in the WAL. No level reaches its compaction trigger.
  for (size_t i = 0; i < keys.size(); ++i)
    if (i % 6 != 5) put(i, "r1");
  db->CompactRange(nullptr, nullptr);
  put(0, "r1");
  put(keys.size() - 2, "r1");
  db->CompactRange(nullptr, nullptr);
  const auto flush_outside = [&] {
    const leveldb::Slice a(keys[keys.size() - 2]), b(keys.back());
    db->CompactRange(&a, &b);
  };
  for (size_t i = 2000; i < 3500; ++i) {
    if (i % 6 == 5) continue;
    if (i % 3 == 0) put(i, "r2");
    if (i % 7 == 1) del(i);
  }
  flush_outside();
  for (size_t i = 3000; i < 4000; ++i) {
    if (i % 5 == 0 || i % 6 == 5) put(i, "r3");
    if (i % 11 == 2) del(i);
  }
  flush_outside();
  for (size_t i = 0; i < keys.size(); i += 13) put(i, "r4");
  for (size_t i = 3; i < keys.size(); i += 17) del(i);
  std::string sstables;
  if (!db->GetProperty("leveldb.sstables", &sstables)) Fail("leveldb.sstables");
  for (const char* level : {"--- level 0 ---\n ", "--- level 1 ---\n ", "--- level 2 ---\n "}) {
    if (sstables.find(level) == std::string::npos)
      Fail(id + ": expected tables on levels 0, 1 and 2:\n" + sstables);
  }
  db.reset();

  const std::vector<std::string> files = root.CopyDatabase(dir + "/db", path);
  nlohmann::json tables = nlohmann::json::array();
  std::vector<std::string> wals;
  for (const std::string& f : files) {
    if (f.size() > 4 && f.substr(f.size() - 4) == ".ldb")
      tables.push_back(LevelDbTableEntries(root, dir, path / f));
    if (f.size() > 4 && f.substr(f.size() - 4) == ".log") wals.push_back(f);
  }
  if (wals.size() != 1) Fail(id + ": expected one WAL");

  // Gets on a copy: opening recovers the WAL into a new table.
  const fs::path copy = root.Scratch(id + "-read");
  CopyDatabaseFiles(path, copy);
  Check(leveldb::DB::Open(options, copy.string(), &raw), "open " + copy.string());
  db.reset(raw);
  std::vector<uint8_t> is_key;
  std::vector<long> key_index;
  const KeyList probes = MakeOrderedProbes(order, keys, 5, 800, SeedFor(id), &is_key, &key_index);
  nlohmann::json answers = nlohmann::json::array(), kinds = nlohmann::json::array();
  for (size_t i = 0; i < probes.size(); ++i) {
    std::string value;
    const leveldb::Status s = db->Get({}, probes[i], &value);
    answers.push_back(GetJson(s, value, id + ": Get"));
    const long k = key_index[i];
    kinds.push_back(k >= 0 ? h.kind[k] : "absent");
    const std::string expected = k >= 0 ? h.value[k] : "";
    if ((s.ok() ? value : "") != expected || s.ok() != !expected.empty())
      Fail(id + ": Get of probe " + std::to_string(i) + " is not what was written");
  }
  db.reset();
  return {
      {"id", id},
      {"kind", "leveldb-db"},
      {"comparator", order.name},
      {"dir", dir + "/db"},
      {"files", files},
      {"wal", wals},
      {"sstables", sstables},
      {"tables", tables},
      {"history",
       "round 1 (level 2, compacted): every key but every 6th; round 2 (level 1): overwrites, "
       "deletions; round 3 (level 0): overwrites, deletions, new keys; round 4: left in the WAL"},
      {"probes",
       {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
      {"probe_is_key", root.WriteU8(dir + "/probe_is_key.u8", is_key)},
      {"kinds", kinds},
      {"answers", answers},
  };
}

}  // namespace custom_comparator
}  // namespace corpus
