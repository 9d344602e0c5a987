// Writes tests/corpus/fixtures/v11-db/: small databases that RocksDB 11.8.1 leaves with the WAL and
// MANIFEST records newer than the RocksDB 7 and 10 of the generated corpora, and RocksDB's own
// answer per Get on a copy of each, opened with the options that wrote it (README.md).
//
// - track_and_verify_wals: every WAL after the first starts with a predecessor record, type 130,
//   or 131 when WAL files are recycled (db/log_writer.cc MaybeAddPredecessorWALInfo), which
//   recovery checks against the WAL it replayed before (db/log_reader.cc
//   MaybeVerifyPredecessorWALInfo).
// - every MANIFEST that RocksDB 11 starts records kPersistUserDefinedTimestamps beside the
//   comparator and ends its snapshot with kLastCompactedManifestFileSize
//   (db/version_set.cc WriteCurrentStateToManifest); with fast_sst_open and a file system that
//   has open metadata for its tables, NewFile4 records carry kFileOpenMetadata (17).
// - persist_user_defined_timestamps = false: the tables hold keys without their timestamps, the
//   WALs with them (include/rocksdb/advanced_options.h).
// - wide-column entities flushed with enable_blob_files: their large columns go to the blob file
//   and the entity is stored in version 2 with those columns as blob indexes
//   (db/compaction/compaction_iterator.cc ExtractLargeColumnValuesIfNeeded).
// - a table SstFileWriter::OpenWithEmbeddedBlobs wrote (values and entity columns in blob records
//   of the table file itself), ingested under and over the database's own writes.
#include "databases.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/wide_columns.h"

namespace fs = std::filesystem;

namespace {

void Require(const rocksdb::Status& s, const std::string& what) {
  if (!s.ok()) throw std::runtime_error(what + ": " + s.ToString());
}

// A file system whose table files have open metadata, as a remote store's might
// (include/rocksdb/file_system.h FSRandomAccessFile::GetFileOpenMetadata): with fast_sst_open,
// RocksDB 11 keeps it in the table's NewFile4 record as custom field 17.
class OpenMetadataFileSystem : public rocksdb::FileSystemWrapper {
 public:
  using FileSystemWrapper::FileSystemWrapper;
  const char* Name() const override { return "SstfilterOpenMetadataFileSystem"; }

  rocksdb::IOStatus NewRandomAccessFile(const std::string& name,
                                        const rocksdb::FileOptions& options,
                                        std::unique_ptr<rocksdb::FSRandomAccessFile>* file,
                                        rocksdb::IODebugContext* debug) override {
    rocksdb::IOStatus s = target()->NewRandomAccessFile(name, options, file, debug);
    if (s.ok() && name.ends_with(".sst")) *file = std::make_unique<TableFile>(std::move(*file));
    return s;
  }

 private:
  class TableFile : public rocksdb::FSRandomAccessFileOwnerWrapper {
   public:
    using FSRandomAccessFileOwnerWrapper::FSRandomAccessFileOwnerWrapper;
    rocksdb::IOStatus GetFileOpenMetadata(std::string* metadata) override {
      *metadata = "sstfilter open metadata";
      return rocksdb::IOStatus::OK();
    }
  };
};

rocksdb::Env* OpenMetadataEnv() {
  static const std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(
      std::make_shared<OpenMetadataFileSystem>(rocksdb::FileSystem::Default()));
  return env.get();
}

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "key%03d", i);
  return buf;
}

// Key(0) to Key(n - 1): a database's probes.
std::vector<std::string> Keys(int n) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(Key(i));
  return keys;
}

// A value that names the session that wrote it, so an answer shows which write won.
std::string Value(int session, int i) {
  return "session" + std::to_string(session) + "-value" + std::to_string(i);
}

// rocksdb util/coding.h EncodeFixed64, as BytewiseComparatorWithU64Ts orders timestamps.
std::string Timestamp(uint64_t ts) {
  std::string out(8, '\0');
  for (int b = 0; b < 8; ++b) out[static_cast<size_t>(b)] = static_cast<char>(ts >> (8 * b));
  return out;
}

std::string Hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

rocksdb::Options BaseOptions();
nlohmann::json BaseOptionsJson();

struct Database {
  std::string id;
  std::string description;
  // The options every database shares (BaseOptions), each case adding its own.
  rocksdb::Options options = BaseOptions();
  nlohmann::json options_json = BaseOptionsJson();
  bool side_family = false;  // a second column family, "side"
  // Each session opens the database, writes, and closes it without a flush of its own; it gets
  // the "side" family's handle (null without it).
  std::vector<std::function<void(rocksdb::DB*, rocksdb::ColumnFamilyHandle*)>> sessions;
  std::vector<std::string> probes;
  std::string read_timestamp;  // with a timestamp comparator: ReadOptions::timestamp
  std::vector<std::string> older_read_timestamps;  // Gets read again at each of these
  std::vector<std::string> drop_files;             // removed after the sessions (a damaged copy)
  bool entities = false;                           // the answers include GetEntity's per probe
};

// Opens the database at `dir` as `d` says, with its "side" family's handle when it has one.
rocksdb::Status Open(const Database& d, const fs::path& dir, std::unique_ptr<rocksdb::DB>* db,
                     std::vector<std::unique_ptr<rocksdb::ColumnFamilyHandle>>* families) {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors = {
      {rocksdb::kDefaultColumnFamilyName, d.options}};
  if (d.side_family) descriptors.emplace_back("side", d.options);
  rocksdb::DBOptions options(d.options);
  options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  const rocksdb::Status s = rocksdb::DB::Open(options, dir.string(), descriptors, &handles, db);
  for (rocksdb::ColumnFamilyHandle* h : handles) families->emplace_back(h);
  return s;
}

// Closes `db` after its handles.
void Close(std::unique_ptr<rocksdb::DB>* db,
           std::vector<std::unique_ptr<rocksdb::ColumnFamilyHandle>>* families) {
  families->clear();
  Require((*db)->Close(), "close");
  db->reset();
}

rocksdb::WriteOptions Synced() {
  rocksdb::WriteOptions w;
  w.sync = true;
  return w;
}

void Put(rocksdb::DB* db, const std::string& key, const std::string& value) {
  Require(db->Put(Synced(), key, value), "put " + key);
}

void Delete(rocksdb::DB* db, const std::string& key) {
  Require(db->Delete(Synced(), key), "delete " + key);
}

void Flush(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family) {
  Require(db->Flush(rocksdb::FlushOptions(), family), "flush");
}

rocksdb::Options BaseOptions() {
  rocksdb::Options o;
  o.create_if_missing = true;
  o.compression = rocksdb::kNoCompression;
  o.track_and_verify_wals = true;
  // Reopening keeps the WALs of earlier sessions unflushed, so recovery reads a chain of them.
  o.avoid_flush_during_recovery = true;
  o.avoid_flush_during_shutdown = true;
  o.env = OpenMetadataEnv();
  o.fast_sst_open = true;
  return o;
}

nlohmann::json BaseOptionsJson() {
  return {{"compression", "none"},
          {"track_and_verify_wals", true},
          {"avoid_flush_during_recovery", true},
          {"avoid_flush_during_shutdown", true},
          {"fast_sst_open", true},
          {"file_open_metadata", "sstfilter open metadata"},
          {"wal_recovery_mode", "kPointInTimeRecovery"}};
}

// One session whose WALs stay live: a column family "side" is flushed to switch WALs while the
// default family's writes remain in them, so each WAL after the first starts with a type 130
// record naming the one before.
Database WalChain() {
  Database d{.id = "wal-chain",
             .description =
                 "three live WALs, each with a type 130 predecessor record, over a "
                 "flushed table; a second column family's flushes switch the WALs",
             .side_family = true};
  d.sessions.emplace_back([](rocksdb::DB* db, rocksdb::ColumnFamilyHandle* side) {
    Require(db->Put(Synced(), side, "side0", "x"), "put side0");
    for (int i = 0; i < 40; ++i) Put(db, Key(i), Value(1, i));
    Flush(db, db->DefaultColumnFamily());
    for (int i = 10; i < 20; ++i) Put(db, Key(i), Value(2, i));
    for (int i = 20; i < 25; ++i) Delete(db, Key(i));
    Require(db->Put(Synced(), side, "side1", "y"), "put side1");
    Flush(db, side);
    for (int i = 40; i < 50; ++i) Put(db, Key(i), Value(3, i));
    for (int i = 10; i < 13; ++i) Delete(db, Key(i));
    for (int i = 30; i < 35; ++i) Put(db, Key(i), Value(3, i));
    Require(db->Put(Synced(), side, "side2", "z"), "put side2");
    Flush(db, side);
    for (int i = 50; i < 55; ++i) Put(db, Key(i), Value(4, i));
    for (int i = 0; i < 5; ++i) Put(db, Key(i), Value(4, i));
    Put(db, Key(22), Value(4, 22));
  });
  d.probes = Keys(60);
  return d;
}

// The chain without its middle WAL: the last WAL's predecessor record names a WAL that recovery
// did not replay.
Database WalChainMissingMiddle(const std::string& middle_wal) {
  Database d = WalChain();
  d.id = "wal-chain-missing-middle";
  d.description = "wal-chain with its middle WAL removed after writing";
  d.drop_files.push_back(middle_wal);
  return d;
}

// WAL files recycled (recycle_log_file_num): the live WAL reuses an older one's file, its records
// in the recyclable format (types 5 to 8, 131) and the older WAL's records behind them.
Database WalRecycled() {
  Database d{.id = "wal-recycled",
             .description = "a live WAL in a recycled file, with a type 131 predecessor record"};
  d.options.recycle_log_file_num = 2;
  d.options_json["recycle_log_file_num"] = 2;
  d.sessions.emplace_back([](rocksdb::DB* db, rocksdb::ColumnFamilyHandle*) {
    for (int i = 0; i < 30; ++i) Put(db, Key(i), Value(1, i));
    Flush(db, db->DefaultColumnFamily());
    for (int i = 30; i < 40; ++i) Put(db, Key(i), Value(1, i));
    Flush(db, db->DefaultColumnFamily());
    for (int i = 0; i < 5; ++i) Put(db, Key(i), Value(1, i + 100));
    for (int i = 5; i < 8; ++i) Delete(db, Key(i));
    Put(db, Key(45), Value(1, 45));
  });
  d.probes = Keys(50);
  return d;
}

// User-defined timestamps kept in the memtable only: the tables' keys without them, the WALs'
// with them, the MANIFEST's kPersistUserDefinedTimestamps false.
Database TimestampsInMemtableOnly() {
  Database d{.id = "udt-memtable-only",
             .description =
                 "BytewiseComparatorWithU64Ts with persist_user_defined_timestamps = "
                 "false: a flushed table and a WAL"};
  d.options.comparator = rocksdb::BytewiseComparatorWithU64Ts();
  d.options.persist_user_defined_timestamps = false;
  d.options.allow_concurrent_memtable_write = false;
  d.options_json["comparator"] = "leveldb.BytewiseComparator.u64ts";
  d.options_json["persist_user_defined_timestamps"] = false;
  d.options_json["allow_concurrent_memtable_write"] = false;
  d.sessions.emplace_back([](rocksdb::DB* db, rocksdb::ColumnFamilyHandle*) {
    rocksdb::ColumnFamilyHandle* cf = db->DefaultColumnFamily();
    for (int i = 0; i < 20; ++i) {
      Require(db->Put(Synced(), cf, Key(i), Timestamp(1 + static_cast<uint64_t>(i)), Value(1, i)),
              "put");
    }
    Flush(db, db->DefaultColumnFamily());
    for (int i = 10; i < 30; ++i) {
      Require(db->Put(Synced(), cf, Key(i), Timestamp(100 + static_cast<uint64_t>(i)),
                      Value(1, i + 100)),
              "put");
    }
    for (int i = 0; i < 3; ++i) Require(db->Delete(Synced(), cf, Key(i), Timestamp(200)), "delete");
    // A later write at an older timestamp: a read at the newest takes the newer timestamp's value,
    // whatever the sequence numbers say.
    Require(db->Put(Synced(), cf, Key(5), Timestamp(60), Value(2, 5)), "put");
    Require(db->Put(Synced(), cf, Key(5), Timestamp(50), Value(3, 5)), "put");
    // Range deletions with timestamps, still in the WAL: over versions of the WAL and of the
    // table, under later writes at newer and at older timestamps, and one whose timestamp is
    // older than the versions it spans.
    const auto delete_range = [&](int begin, int end, uint64_t ts) {
      Require(db->DeleteRange(Synced(), cf, Key(begin), Key(end), Timestamp(ts)), "delete range");
    };
    delete_range(12, 16, 300);
    Require(db->Put(Synced(), cf, Key(13), Timestamp(310), Value(4, 13)), "put");
    Require(db->Put(Synced(), cf, Key(14), Timestamp(250), Value(4, 14)), "put");
    delete_range(6, 8, 95);
    delete_range(25, 27, 90);
  });
  d.probes = Keys(35);
  d.read_timestamp = Timestamp(~uint64_t{0});
  d.older_read_timestamps = {Timestamp(105), Timestamp(255)};
  return d;
}

// Entities whose large columns a flush moves to a blob file, beside plain values that go there
// too, and entities, puts and deletions still in the WAL over them.
Database BlobEntities() {
  Database d{.id = "blob-entities",
             .description =
                 "wide-column entities flushed with enable_blob_files (min_blob_size 20): "
                 "version 2 entities whose large columns, the default one among them, are "
                 "blob indexes; newer writes in the WAL",
             .entities = true};
  d.options.enable_blob_files = true;
  d.options.min_blob_size = 20;
  d.options_json["enable_blob_files"] = true;
  d.options_json["min_blob_size"] = 20;
  d.sessions.emplace_back([](rocksdb::DB* db, rocksdb::ColumnFamilyHandle*) {
    rocksdb::ColumnFamilyHandle* cf = db->DefaultColumnFamily();
    const auto put_entity = [&](int i, const rocksdb::WideColumns& columns) {
      Require(db->PutEntity(Synced(), cf, Key(i), columns), "put entity");
    };
    const std::string long_attr(40, 'a');
    for (int i = 0; i < 20; ++i) {
      // Odd keys: a default column long enough for the blob file; even keys: a short one.
      const std::string value =
          i % 2 == 1 ? Value(1, i) + "-long-enough-for-a-blob" : "d" + std::to_string(i);
      put_entity(i, {{rocksdb::kDefaultWideColumnName, value},
                     {"attr", long_attr + std::to_string(i)},
                     {"tag", "t" + std::to_string(i)}});
    }
    // No default column: Get answers an empty value.
    for (int i = 20; i < 25; ++i) put_entity(i, {{"attr", long_attr + std::to_string(i)}});
    for (int i = 25; i < 30; ++i) Put(db, Key(i), Value(1, i) + "-long-enough-for-a-blob");
    Flush(db, cf);
    for (int i = 30; i < 35; ++i) {
      put_entity(i,
                 {{rocksdb::kDefaultWideColumnName, Value(2, i) + "-in-the-memtable"}, {"x", "y"}});
    }
    Put(db, Key(3), Value(2, 3));
    Delete(db, Key(5));
    put_entity(7, {{"only", "a column"}});
  });
  d.probes = Keys(40);
  return d;
}

// A table with embedded blob records ingested between a flushed table and newer writes in the WAL:
// values and entity columns of at least 16 bytes in its own blob records.
Database IngestedEmbeddedBlobs() {
  Database d{.id = "ingested-embedded-blobs",
             .description =
                 "a table SstFileWriter::OpenWithEmbeddedBlobs wrote (min_blob_size 16: values "
                 "and entity columns in its blob records) ingested over a flushed table, under "
                 "newer writes in the WAL",
             .entities = true};
  rocksdb::BlockBasedTableOptions table;
  table.format_version = 7;  // what OpenWithEmbeddedBlobs requires
  d.options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  d.options_json["format_version"] = 7;
  d.options_json["ingested_embedded_min_blob_size"] = 16;
  d.sessions.emplace_back([options = d.options](rocksdb::DB* db, rocksdb::ColumnFamilyHandle*) {
    for (int i = 0; i < 10; ++i) Put(db, Key(i), Value(1, i));
    Flush(db, db->DefaultColumnFamily());
    const fs::path external = fs::temp_directory_path() / "sstfilter-v11-ingest.sst";
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
    rocksdb::SstFileWriterEmbeddedBlobOptions embedded;
    embedded.min_blob_size = 16;
    Require(writer.OpenWithEmbeddedBlobs(external.string(), embedded), "open embedded");
    for (int i = 5; i < 25; ++i) {
      // Even keys: a value, long enough for a blob record from key 10 on; odd keys: an entity
      // whose default column is long and whose "tag" is short.
      const std::string value = i < 10 ? "v" + std::to_string(i) : Value(2, i) + "-embedded";
      if (i % 2 == 0) {
        Require(writer.Put(Key(i), value), "put");
      } else {
        Require(writer.PutEntity(Key(i), {{rocksdb::kDefaultWideColumnName, value},
                                          {"tag", "t" + std::to_string(i)}}),
                "put entity");
      }
    }
    Require(writer.Finish(), "finish");
    rocksdb::IngestExternalFileOptions ingest;
    ingest.move_files = false;
    Require(db->IngestExternalFile({external.string()}, ingest), "ingest");
    fs::remove(external);
    Put(db, Key(7), Value(3, 7));
    Delete(db, Key(12));
    Put(db, Key(30), Value(3, 30));
  });
  d.probes = Keys(32);
  return d;
}

std::vector<std::string> FileNames(const fs::path& dir) {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Writes the database into `dir` (emptied first), without the files a reader does not need: the
// LOG files (times, host names) and the empty LOCK.
void Write(const Database& d, const fs::path& dir) {
  fs::remove_all(dir);
  for (const auto& session : d.sessions) {
    std::unique_ptr<rocksdb::DB> db;
    std::vector<std::unique_ptr<rocksdb::ColumnFamilyHandle>> families;
    Require(Open(d, dir, &db, &families), d.id + ": open");
    session(db.get(), d.side_family ? families[1].get() : nullptr);
    Close(&db, &families);
  }
  for (const std::string& name : d.drop_files) fs::remove(dir / name);
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name == "LOCK" || name.starts_with("LOG")) fs::remove(e.path());
  }
}

// A Get per probe, read at `timestamp` when it is not empty.
nlohmann::json GetAnswers(rocksdb::DB* db, const Database& d, const std::string& timestamp) {
  rocksdb::ReadOptions read;
  const rocksdb::Slice ts(timestamp);
  if (!timestamp.empty()) read.timestamp = &ts;
  nlohmann::json answers = nlohmann::json::array();
  for (const std::string& key : d.probes) {
    std::string value;
    const rocksdb::Status s = db->Get(read, key, &value);
    if (s.ok()) {
      answers.push_back({{"status", "ok"}, {"value", Hex(value)}});
    } else if (s.IsNotFound()) {
      answers.push_back({{"status", "not-found"}});
    } else {
      answers.push_back({{"status", "error"}, {"error", s.ToString()}});
    }
  }
  return answers;
}

// A GetEntity per probe: the columns as [name, value] pairs in hex, or the status.
nlohmann::json EntityAnswers(rocksdb::DB* db, const Database& d) {
  nlohmann::json answers = nlohmann::json::array();
  for (const std::string& key : d.probes) {
    rocksdb::PinnableWideColumns columns;
    const rocksdb::Status s =
        db->GetEntity(rocksdb::ReadOptions(), db->DefaultColumnFamily(), key, &columns);
    if (s.ok()) {
      nlohmann::json pairs = nlohmann::json::array();
      for (const rocksdb::WideColumn& c : columns.columns()) {
        pairs.push_back({Hex(c.name().ToString()), Hex(c.value().ToString())});
      }
      answers.push_back({{"status", "ok"}, {"columns", pairs}});
    } else if (s.IsNotFound()) {
      answers.push_back({{"status", "not-found"}});
    } else {
      answers.push_back({{"status", "error"}, {"error", s.ToString()}});
    }
  }
  return answers;
}

// What an iterator over the default family lists, at the read timestamp when there is one: each
// live user key once (without its timestamp), its value and, with timestamps, the timestamp of
// the version read (db/db_iter.cc).
nlohmann::json ScanAnswer(rocksdb::DB* db, const Database& d) {
  rocksdb::ReadOptions read;
  const rocksdb::Slice ts(d.read_timestamp);
  if (!d.read_timestamp.empty()) read.timestamp = &ts;
  const std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read));
  nlohmann::json entries = nlohmann::json::array();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    nlohmann::json e = {{"key", Hex(it->key().ToString())}, {"value", Hex(it->value().ToString())}};
    if (!d.read_timestamp.empty()) e["timestamp"] = Hex(it->timestamp().ToString());
    entries.push_back(e);
  }
  Require(it->status(), d.id + ": scan");
  return entries;
}

// RocksDB's reading: a copy opened as the database itself would be, a Get per probe (again at each
// older read timestamp) and a scan.
nlohmann::json Answers(const Database& d, const fs::path& dir, const fs::path& scratch) {
  const fs::path copy = scratch / (d.id + "-read");
  fs::remove_all(copy);
  fs::copy(dir, copy, fs::copy_options::recursive);
  std::unique_ptr<rocksdb::DB> db;
  std::vector<std::unique_ptr<rocksdb::ColumnFamilyHandle>> families;
  const rocksdb::Status open = Open(d, copy, &db, &families);
  nlohmann::json out = {{"open", open.ToString()}};
  if (!open.ok()) return out;
  out["answers"] = GetAnswers(db.get(), d, d.read_timestamp);
  if (!d.older_read_timestamps.empty()) {
    nlohmann::json older = nlohmann::json::array();
    for (const std::string& ts : d.older_read_timestamps) {
      older.push_back({{"read_timestamp", Hex(ts)}, {"answers", GetAnswers(db.get(), d, ts)}});
    }
    out["answers_at_older_timestamps"] = older;
  }
  if (d.entities) out["entities"] = EntityAnswers(db.get(), d);
  out["scan"] = ScanAnswer(db.get(), d);
  Close(&db, &families);
  return out;
}

nlohmann::json Run(const Database& d, const fs::path& out_dir, const fs::path& scratch) {
  const fs::path dir = out_dir / d.id;
  Write(d, dir);
  nlohmann::json probes = nlohmann::json::array();
  for (const std::string& p : d.probes) probes.push_back(Hex(p));
  nlohmann::json c = {{"id", d.id},
                      {"description", d.description},
                      {"dir", (out_dir.filename() / d.id).string()},  // from the corpus root
                      {"files", FileNames(dir)},
                      {"options", d.options_json},
                      {"probes", probes},
                      {"rocksdb", Answers(d, dir, scratch)}};
  if (!d.read_timestamp.empty()) c["read_timestamp"] = Hex(d.read_timestamp);
  if (!d.drop_files.empty()) c["removed_files"] = d.drop_files;
  return c;
}

// The middle one of the chain's three WALs.
std::string MiddleWal(const fs::path& chain_dir) {
  std::vector<std::string> wals;
  for (const std::string& name : FileNames(chain_dir)) {
    if (name.ends_with(".log")) wals.push_back(name);
  }
  if (wals.size() != 3)
    throw std::runtime_error("wal-chain left " + std::to_string(wals.size()) + " WALs, not 3");
  return wals[1];
}

}  // namespace

void WriteDatabases(const fs::path& out_dir, const fs::path& scratch) {
  fs::create_directories(out_dir);
  fs::create_directories(scratch);
  nlohmann::json cases = nlohmann::json::array();
  cases.push_back(Run(WalChain(), out_dir, scratch));
  cases.push_back(Run(WalChainMissingMiddle(MiddleWal(out_dir / "wal-chain")), out_dir, scratch));
  cases.push_back(Run(WalRecycled(), out_dir, scratch));
  cases.push_back(Run(TimestampsInMemtableOnly(), out_dir, scratch));
  cases.push_back(Run(BlobEntities(), out_dir, scratch));
  cases.push_back(Run(IngestedEmbeddedBlobs(), out_dir, scratch));
  const nlohmann::json manifest = {
      {"format", "sstfilter-corpus/1"},
      {"section", "v11_db"},
      {"generator", "tests/corpus/rocksdb11/databases.cc"},
      {"library", "RocksDB 11.8.1 (git tag v11.8.1, built from upstream source)"},
      {"cases", cases}};
  std::ofstream(out_dir / "manifest.json") << manifest.dump(1) << "\n";
}
