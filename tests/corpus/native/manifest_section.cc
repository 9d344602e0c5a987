// Section "db_manifest": whole databases as RocksDB 7.8.3 and LevelDB 1.23 leave them, with what
// each library says its live table files are (docs/FORMATS.md 6). Every case copies the database's
// CURRENT and MANIFEST and records:
// - RocksDB: DB::GetLiveFilesMetaData and, per column family, GetColumnFamilyMetaData's blob
//   files, read from a read-only open of the closed database (which changes nothing on disk), so
//   they describe exactly the copied MANIFEST. Databases use small write buffers, level 0
//   compaction at 2 files and small level sizes so that background compactions build several
//   levels; the generator waits until no flush or compaction is pending before closing.
// - LevelDB: the "leveldb.sstables" property. LevelDB cannot wait for compactions, so its cases
//   place files by flushes (CompactRange over a range holding no key flushes the memtable and
//   compacts nothing) and CompactRange, and stay below every automatic compaction trigger (fewer
//   than 4 level-0 files, levels far below 10 MB): no compaction can change the state after it is
//   recorded.
// Some cases also copy the WAL the database was writing when it closed ("wal": its number and the
// write batches left in it, as [first sequence number, count]; LevelDB's sequence numbers are
// null: they follow the MANIFEST's last one), for the log reader: LevelDB's, and RocksDB's
// recyclable records in a reused file, whose older records end the log.
#include <leveldb/db.h>
#include <leveldb/write_batch.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/file_checksum.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <thread>

#include "library_status.h"
#include "sections.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;

std::string Numbered(const std::string& prefix, size_t i) {
  const std::string digits = std::to_string(i);
  return prefix + std::string(digits.size() < 6 ? 6 - digits.size() : 0, '0') + digits;
}

std::string Value(Random& rng, size_t min, size_t max) {
  std::string v(min + rng.Uniform(max - min + 1), '\0');
  for (char& c : v) c = static_cast<char>('a' + rng.Uniform(26));
  return v;
}

// CURRENT, the MANIFEST it names and RocksDB's IDENTITY, copied into the case folder, and the names
// of every file the database left ("files": tables, logs, OPTIONS, LOCK...).
nlohmann::json CopyManifest(const CorpusRoot& root, const std::string& dir, const fs::path& db) {
  std::string current = ReadFile(db / "CURRENT");
  const std::string name = current.substr(0, current.find('\n'));
  nlohmann::json r = {{"current", root.CopyFile(dir + "/CURRENT", db / "CURRENT")},
                      {"manifest_name", name},
                      {"manifest", root.CopyFile(dir + "/" + name, db / name)}};
  if (fs::exists(db / "IDENTITY"))
    r["identity"] = root.CopyFile(dir + "/IDENTITY", db / "IDENTITY");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(db)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  r["files"] = files;
  return r;
}

// ---- RocksDB ----

struct RocksCase {
  std::string id;
  std::string what;
  rocksdb::Options options;
  // Column families beside "default", with their comparator (nullptr: bytewise).
  std::vector<std::pair<std::string, const rocksdb::Comparator*>> families;
  // Writes through the open database; handles[0] is the default column family. A column family
  // it drops leaves `handles`, its handle destroyed.
  std::function<void(rocksdb::DB*, std::vector<rocksdb::ColumnFamilyHandle*>&, Random&)> write;
  int reopen = 0;  // read-write reopens after the writes (each writes a new MANIFEST)
};

struct OpenRocks {
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  void Close() {
    for (auto* h : handles) Check(db->DestroyColumnFamilyHandle(h), "DestroyColumnFamilyHandle");
    handles.clear();
    Check(db->Close(), "Close");
    db.reset();
  }
};

std::vector<rocksdb::ColumnFamilyDescriptor> Descriptors(const RocksCase& c,
                                                         const std::vector<std::string>& names) {
  std::vector<rocksdb::ColumnFamilyDescriptor> out;
  for (const std::string& name : names) {
    rocksdb::ColumnFamilyOptions o(c.options);
    for (const auto& [family, comparator] : c.families) {
      if (family == name && comparator != nullptr) o.comparator = comparator;
    }
    out.emplace_back(name, o);
  }
  return out;
}

OpenRocks OpenRocksDb(const RocksCase& c, const fs::path& dir, bool read_only) {
  std::vector<std::string> names;
  Check(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(c.options), dir.string(), &names),
        "ListColumnFamilies");
  OpenRocks r;
  rocksdb::DB* raw = nullptr;
  const auto descriptors = Descriptors(c, names);
  Check(read_only ? rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(c.options), dir.string(),
                                                 descriptors, &r.handles, &raw)
                  : rocksdb::DB::Open(rocksdb::DBOptions(c.options), dir.string(), descriptors,
                                      &r.handles, &raw),
        "DB::Open " + dir.string());
  r.db.reset(raw);
  return r;
}

// Until no flush or compaction is pending or running.
void WaitForBackgroundWork(rocksdb::DB* db) {
  const char* properties[] = {"rocksdb.num-running-compactions", "rocksdb.compaction-pending",
                              "rocksdb.num-running-flushes", "rocksdb.mem-table-flush-pending"};
  for (int quiet = 0; quiet < 3;) {
    uint64_t busy = 0;
    for (const char* p : properties) {
      uint64_t v = 0;
      if (!db->GetAggregatedIntProperty(p, &v)) Fail(std::string("no property ") + p);
      busy += v;
    }
    quiet = busy == 0 ? quiet + 1 : 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

nlohmann::json RocksLiveFiles(rocksdb::DB* db,
                              const std::vector<rocksdb::ColumnFamilyHandle*>& handles) {
  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  nlohmann::json files = nlohmann::json::array();
  for (const rocksdb::LiveFileMetaData& f : live) {
    files.push_back({{"column_family", f.column_family_name},
                     {"level", f.level},
                     {"file_number", f.file_number},
                     {"size", f.size},
                     {"smallest_key", Hex(f.smallestkey)},
                     {"largest_key", Hex(f.largestkey)},
                     {"smallest_seqno", f.smallest_seqno},
                     {"largest_seqno", f.largest_seqno},
                     {"oldest_blob_file_number", f.oldest_blob_file_number},
                     {"oldest_ancester_time", f.oldest_ancester_time},
                     {"file_creation_time", f.file_creation_time},
                     {"file_checksum", Hex(f.file_checksum)},
                     {"file_checksum_func_name", f.file_checksum_func_name},
                     {"temperature", static_cast<int>(f.temperature)}});
  }
  nlohmann::json families = nlohmann::json::array();
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    rocksdb::ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(h, &meta);
    nlohmann::json blobs = nlohmann::json::array();
    for (const rocksdb::BlobMetaData& b : meta.blob_files) {
      blobs.push_back({{"number", b.blob_file_number},
                       {"total_blob_count", b.total_blob_count},
                       {"total_blob_bytes", b.total_blob_bytes},
                       {"garbage_blob_count", b.garbage_blob_count},
                       {"garbage_blob_bytes", b.garbage_blob_bytes},
                       {"checksum_method", b.checksum_method},
                       {"checksum_value", Hex(b.checksum_value)}});
    }
    families.push_back({{"id", h->GetID()},
                        {"name", h->GetName()},
                        {"comparator", h->GetComparator()->Name()},
                        {"levels", meta.levels.size()},
                        {"blob_files", blobs}});
  }
  return {{"files", files},
          {"column_families", families},
          {"last_sequence", db->GetLatestSequenceNumber()}};
}

nlohmann::json RocksCaseFiles(const CorpusRoot& root, const RocksCase& c) {
  const std::string dir = "db-manifest/" + c.id;
  const fs::path scratch = root.Scratch(c.id);
  fs::remove_all(scratch);
  fs::create_directories(scratch.parent_path());
  {
    rocksdb::Options o = c.options;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    Check(rocksdb::DB::Open(o, scratch.string(), &raw), "DB::Open " + c.id);
    OpenRocks db;
    db.db.reset(raw);
    db.handles.push_back(nullptr);
    for (const auto& descriptor : Descriptors(c, [&] {
           std::vector<std::string> names;
           for (const auto& f : c.families) names.push_back(f.first);
           return names;
         }())) {
      rocksdb::ColumnFamilyHandle* h = nullptr;
      Check(db.db->CreateColumnFamily(descriptor.options, descriptor.name, &h), "CreateCF");
      db.handles.push_back(h);
    }
    db.handles[0] = db.db->DefaultColumnFamily();
    Random rng(SeedFor(c.id));
    c.write(db.db.get(), db.handles, rng);
    for (auto* h : db.handles) Check(db.db->Flush(rocksdb::FlushOptions(), h), "Flush");
    WaitForBackgroundWork(db.db.get());
    db.handles.erase(db.handles.begin());  // the default handle is not destroyed
    db.Close();
  }
  for (int i = 0; i < c.reopen; ++i) {
    OpenRocks db = OpenRocksDb(c, scratch, false);
    WaitForBackgroundWork(db.db.get());
    db.Close();
  }
  OpenRocks db = OpenRocksDb(c, scratch, true);
  nlohmann::json r = {{"id", c.id}, {"format", "rocksdb"}, {"writer", c.what}};
  r["live"] = RocksLiveFiles(db.db.get(), db.handles);
  db.Close();
  r.update(CopyManifest(root, dir, scratch));
  return r;
}

rocksdb::Options SmallLevels() {
  rocksdb::Options o;
  o.write_buffer_size = 64 << 10;
  o.level0_file_num_compaction_trigger = 2;
  o.max_bytes_for_level_base = 256 << 10;
  o.max_bytes_for_level_multiplier = 4;
  o.target_file_size_base = 64 << 10;
  o.compression = rocksdb::kNoCompression;
  return o;
}

// Puts of `count` keys in random order with values of 50 to 300 bytes, then overwrites of every
// 5th key and deletions of every 7th, into `cf`.
void WriteHistory(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, Random& rng, size_t count,
                  const std::string& prefix) {
  const rocksdb::WriteOptions w;
  std::vector<size_t> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = i;
  for (size_t i = count; i > 1; --i) std::swap(order[i - 1], order[rng.Uniform(i)]);
  for (size_t i : order) Check(db->Put(w, cf, Numbered(prefix, i), Value(rng, 50, 300)), "Put");
  for (size_t i = 0; i < count; i += 5) Check(db->Put(w, cf, Numbered(prefix, i), "v2"), "Put");
  for (size_t i = 0; i < count; i += 7) Check(db->Delete(w, cf, Numbered(prefix, i)), "Delete");
}

std::vector<RocksCase> RocksCases() {
  std::vector<RocksCase> cases;
  cases.push_back({"rocksdb_levels",
                   "DB, 64 KiB write buffer, L0 trigger 2, 256 KiB level base: 6000 puts, "
                   "overwrites, deletes, a range deletion",
                   SmallLevels(),
                   {},
                   [](rocksdb::DB* db, auto& cf, Random& rng) {
                     WriteHistory(db, cf[0], rng, 6000, "key");
                     Check(
                         db->DeleteRange(rocksdb::WriteOptions(), cf[0], "key001000", "key001100"),
                         "DeleteRange");
                   },
                   0});
  {
    rocksdb::Options o = SmallLevels();
    o.file_checksum_gen_factory = rocksdb::GetFileChecksumGenCrc32cFactory();
    o.max_manifest_file_size = 8 << 10;  // rolls over to a new MANIFEST while writing
    cases.push_back(
        {"rocksdb_column_families",
         "DB with column families one, reverse (ReverseBytewiseComparator), dropped (dropped after "
         "its writes) and late (created after the drop); crc32c file checksums; an 8 KiB "
         "max_manifest_file_size",
         o,
         {{"one", nullptr},
          {"reverse", rocksdb::ReverseBytewiseComparator()},
          {"dropped", nullptr}},
         [o](rocksdb::DB* db, auto& cf, Random& rng) {
           WriteHistory(db, cf[0], rng, 2000, "d");
           WriteHistory(db, cf[1], rng, 3000, "one");
           WriteHistory(db, cf[2], rng, 3000, "rev");
           WriteHistory(db, cf[3], rng, 1000, "drop");
           Check(db->Flush(rocksdb::FlushOptions(), cf[3]), "Flush");
           Check(db->DropColumnFamily(cf[3]), "DropColumnFamily");
           Check(db->DestroyColumnFamilyHandle(cf[3]), "DestroyColumnFamilyHandle");
           cf.pop_back();
           rocksdb::ColumnFamilyHandle* late = nullptr;
           Check(db->CreateColumnFamily(rocksdb::ColumnFamilyOptions(o), "late", &late),
                 "CreateColumnFamily");
           WriteHistory(db, late, rng, 500, "late");
           Check(db->Flush(rocksdb::FlushOptions(), late), "Flush");
           Check(db->DestroyColumnFamilyHandle(late), "DestroyColumnFamilyHandle");
         },
         1});
  }
  {
    rocksdb::Options o = SmallLevels();
    o.atomic_flush = true;
    cases.push_back({"rocksdb_atomic_flush",
                     "DB with atomic_flush and column families a and b: flushes write atomic "
                     "groups of edits",
                     o,
                     {{"a", nullptr}, {"b", nullptr}},
                     [](rocksdb::DB* db, auto& cf, Random& rng) {
                       for (int round = 0; round < 4; ++round) {
                         for (size_t i = 0; i < cf.size(); ++i) {
                           std::string prefix = "r";
                           prefix += std::to_string(round);
                           prefix += "cf";
                           prefix += std::to_string(i);
                           WriteHistory(db, cf[i], rng, 400, prefix);
                         }
                         Check(db->Flush(rocksdb::FlushOptions(), cf), "atomic Flush");
                       }
                     },
                     0});
  }
  {
    rocksdb::Options o = SmallLevels();
    o.enable_blob_files = true;
    o.min_blob_size = 100;
    o.blob_file_size = 64 << 10;
    o.enable_blob_garbage_collection = true;
    o.blob_garbage_collection_age_cutoff = 1.0;
    cases.push_back(
        {"rocksdb_blob_files",
         "DB with blob files (min_blob_size 100, 64 KiB blob files) and blob "
         "garbage collection: overwrites leave garbage",
         o,
         {},
         [](rocksdb::DB* db, auto& cf, Random& rng) {
           WriteHistory(db, cf[0], rng, 3000, "blob");
           for (size_t i = 0; i < 3000; i += 3) {
             Check(db->Put(rocksdb::WriteOptions(), Numbered("blob", i), Value(rng, 150, 300)),
                   "Put");
           }
         },
         0});
  }
  {
    rocksdb::Options o = SmallLevels();
    o.target_file_size_base = 16 << 10;
    cases.push_back({"rocksdb_long_keys",
                     "DB with keys of 1 to 2 KiB in 16 KiB files, reopened twice: the MANIFEST's "
                     "first edit lists every file and spans several 32 KiB log blocks",
                     o,
                     {},
                     [](rocksdb::DB* db, auto& cf, Random& rng) {
                       for (size_t i = 0; i < 1500; ++i) {
                         const std::string key = Numbered("long", i) + Value(rng, 1024, 2048);
                         Check(db->Put(rocksdb::WriteOptions(), cf[0], key, Value(rng, 10, 50)),
                               "Put");
                       }
                     },
                     2});
  }
  return cases;
}

// The newest .log file in `dir`: the WAL the database was writing when it closed.
fs::path NewestLog(const fs::path& dir) {
  fs::path newest;
  uint64_t number = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".log") continue;
    const uint64_t n = std::stoull(e.path().stem().string());
    if (newest.empty() || n > number) newest = e.path(), number = n;
  }
  if (newest.empty()) Fail("no .log file in " + dir.string());
  return newest;
}

// The WAL record of the case: its copy, its number, and the write batches written into it as
// [first sequence number, count] (one per Put, then one WriteBatch of three).
nlohmann::json WalRecord(const CorpusRoot& root, const std::string& dir, const fs::path& log,
                         const nlohmann::json& batches) {
  const std::string name = log.filename().string();
  return {{"path", root.CopyFile(dir + "/" + name, log)},
          {"number", std::stoull(log.stem().string())},
          {"batches", batches}};
}

// The options of rocksdb_recycled_wal: recycle_log_file_num 2.
RocksCase RecycledWalOptions() {
  RocksCase c{"rocksdb_recycled_wal",
              "DB with recycle_log_file_num 2 (kSkipAnyCorruptedRecords): 1000 puts, Flush, 1000 "
              "puts, Flush, then 300 puts and a batch of three left in the WAL, which reuses the "
              "first WAL's file; the process exits without closing the database",
              rocksdb::Options(),
              {},
              nullptr,
              0};
  c.options.recycle_log_file_num = 2;
  // 7.8.3 turns recycling off under every other recovery mode (db_impl_open.cc SanitizeOptions).
  c.options.wal_recovery_mode = rocksdb::WALRecoveryMode::kSkipAnyCorruptedRecords;
  c.options.compression = rocksdb::kNoCompression;
  return c;
}

constexpr size_t kRecycledWalFlushedPuts = 2000;  // one sequence number each, from 1

// A DB with recycle_log_file_num 2: flushes retire WALs into the recycle list, and the next WAL
// reuses such a file, overwriting it from the start. A clean close truncates the file to what was
// written, so the writer runs in a process of its own (WriteRecycledWal) that exits without
// closing, as a crash would: the WAL live then holds its own (recyclable) records, then an older
// log's, which end it (docs/FORMATS.md 6.1).
nlohmann::json RecycledWalCase(const CorpusRoot& root) {
  const RocksCase c = RecycledWalOptions();
  const std::string dir = "db-manifest/" + c.id;
  const fs::path scratch = root.Scratch(c.id);
  fs::remove_all(scratch);
  fs::create_directories(scratch.parent_path());
  std::string command = "'";
  command += fs::read_symlink("/proc/self/exe").string();
  command += "' --write-recycled-wal '";
  command += scratch.string();
  command += "'";
  if (std::system(command.c_str()) != 0) Fail(c.id + ": " + command + " failed");
  nlohmann::json batches = nlohmann::json::array();
  for (uint64_t seq = kRecycledWalFlushedPuts + 1; seq <= kRecycledWalFlushedPuts + 300; ++seq) {
    batches.push_back({seq, 1});
  }
  batches.push_back({kRecycledWalFlushedPuts + 301, 3});
  nlohmann::json r = {{"id", c.id}, {"format", "rocksdb"}, {"writer", c.what}};
  r["wal"] = WalRecord(root, dir, NewestLog(scratch), batches);
  // Read back under kPointInTimeRecovery, which stops at the old record: under
  // kSkipAnyCorruptedRecords 7.8.3's log::Reader returns kOldRecord without consuming the record
  // (main consumes it) and its recovery loops on it forever.
  RocksCase reader = c;
  reader.options.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  OpenRocks db = OpenRocksDb(reader, scratch, true);
  r["live"] = RocksLiveFiles(db.db.get(), db.handles);
  db.Close();
  r.update(CopyManifest(root, dir, scratch));
  return r;
}

// ---- LevelDB ----

std::unique_ptr<leveldb::DB> OpenLevelDb(const fs::path& dir) {
  leveldb::Options o;
  o.create_if_missing = true;
  o.write_buffer_size = 16 << 20;  // flushes only where the case asks
  o.max_file_size = 1 << 20;
  o.compression = leveldb::kNoCompression;
  leveldb::DB* raw = nullptr;
  Check(leveldb::DB::Open(o, dir.string(), &raw), "leveldb::DB::Open " + dir.string());
  return std::unique_ptr<leveldb::DB>(raw);
}

// Flushes the memtable: a CompactRange over keys past every written key has no file to compact.
void FlushLevelDb(leveldb::DB* db) {
  const leveldb::Slice past("~~~~"), past_end("~~~~~");
  db->CompactRange(&past, &past_end);
}

std::string LevelDbSstables(leveldb::DB* db) {
  std::string text;
  if (!db->GetProperty("leveldb.sstables", &text)) Fail("no leveldb.sstables");
  return text;
}

nlohmann::json LevelDbCase(const CorpusRoot& root, const std::string& id, bool reopen) {
  const std::string dir = "db-manifest/" + id;
  const fs::path scratch = root.Scratch(id);
  fs::remove_all(scratch);
  fs::create_directories(scratch.parent_path());
  Random rng(SeedFor("leveldb_levels"));
  std::string sstables;
  std::vector<int> wal_batches;  // the ops of each batch left in the WAL
  {
    auto db = OpenLevelDb(scratch);
    const leveldb::WriteOptions w;
    // 2500 keys of ~1 KB, all pushed to the bottom: files of 1 MB on level 3 or so.
    for (size_t i = 0; i < 2500; ++i)
      Check(db->Put(w, Numbered("key", i), Value(rng, 800, 1200)), "Put");
    db->CompactRange(nullptr, nullptr);
    // Overwrites and deletions over the whole range: a flush that lands on level 2.
    for (size_t i = 0; i < 2500; i += 5) Check(db->Put(w, Numbered("key", i), "v2"), "Put");
    for (size_t i = 0; i < 2500; i += 7) Check(db->Delete(w, Numbered("key", i)), "Delete");
    FlushLevelDb(db.get());
    // Then narrower ranges: level 1, then level 0 twice.
    for (size_t round = 0; round < 3; ++round) {
      for (size_t i = 100 * round; i < 2500; i += 13) {
        Check(db->Put(w, Numbered("key", i), Value(rng, 10, 100)), "Put");
      }
      FlushLevelDb(db.get());
    }
    sstables = LevelDbSstables(db.get());
    if (!reopen) {
      // Left in the WAL (LevelDB does not flush on close): 200 puts, then a batch of three.
      for (size_t i = 0; i < 200; ++i) {
        Check(db->Put(w, Numbered("wal", i), Value(rng, 10, 50)), "Put");
        wal_batches.push_back(1);
      }
      leveldb::WriteBatch batch;
      batch.Put("batch-put", "v");
      batch.Delete("wal000001");
      batch.Put("batch-put-2", "w");
      Check(db->Write(w, &batch), "Write");
      wal_batches.push_back(3);
    }
  }
  if (reopen) {
    auto db = OpenLevelDb(scratch);  // recovery writes a new MANIFEST: one edit with every file
    if (LevelDbSstables(db.get()) != sstables) Fail(id + ": reopening changed the live files");
  }
  nlohmann::json r = {
      {"id", id},
      {"format", "leveldb"},
      {"writer", std::string("leveldb::DB: 2500 puts of ~1 KB compacted to the "
                             "bottom, overwrites and deletes flushed to level 2, "
                             "then flushes to levels 1 and 0") +
                     (reopen ? "; reopened" : "; 200 puts and a batch of three left in the WAL")},
      {"sstables", sstables}};
  if (!wal_batches.empty()) {
    // LevelDB does not say its sequence numbers: the batches follow the MANIFEST's last one.
    nlohmann::json batches = nlohmann::json::array();
    for (int n : wal_batches) batches.push_back({nullptr, n});
    r["wal"] = WalRecord(root, dir, NewestLog(scratch), batches);
  }
  r.update(CopyManifest(root, dir, scratch));
  return r;
}

}  // namespace

[[noreturn]] void WriteRecycledWal(const std::filesystem::path& dir) {
  const RocksCase c = RecycledWalOptions();
  rocksdb::Options o = c.options;
  o.create_if_missing = true;
  rocksdb::DB* db = nullptr;
  Check(rocksdb::DB::Open(o, dir.string(), &db), "DB::Open " + dir.string());
  Random rng(SeedFor(c.id));
  const rocksdb::WriteOptions w;
  for (const char* phase : {"a", "b"}) {
    for (size_t i = 0; i < kRecycledWalFlushedPuts / 2; ++i) {
      Check(db->Put(w, Numbered(phase, i), Value(rng, 100, 200)), "Put");
    }
    Check(db->Flush(rocksdb::FlushOptions()), "Flush");
  }
  WaitForBackgroundWork(db);
  if (db->GetLatestSequenceNumber() != kRecycledWalFlushedPuts) Fail("unexpected sequence number");
  for (size_t i = 0; i < 300; ++i) Check(db->Put(w, Numbered("wal", i), Value(rng, 10, 50)), "Put");
  rocksdb::WriteBatch batch;
  Check(batch.Put("batch-put", "v"), "WriteBatch::Put");
  Check(batch.Delete("wal000001"), "WriteBatch::Delete");
  Check(batch.SingleDelete("batch-single-delete"), "WriteBatch::SingleDelete");
  Check(db->Write(w, &batch), "Write");
  // The WAL's writes are in the file system; nothing is closed or truncated.
  std::_Exit(0);
}

nlohmann::json DbManifestSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  for (const RocksCase& c : RocksCases()) cases.push_back(RocksCaseFiles(root, c));
  cases.push_back(RecycledWalCase(root));
  cases.push_back(LevelDbCase(root, "leveldb_levels", false));
  cases.push_back(LevelDbCase(root, "leveldb_reopened", true));
  return root.FinishSection("db-manifest", "db_manifest", cases);
}

}  // namespace corpus
