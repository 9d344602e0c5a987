// Section "db_wal": write-ahead logs and OPTIONS files as RocksDB 7.8.3 and LevelDB 1.23 leave
// them (docs/FORMATS.md 6.4, 6.5). Every case writes a fresh database, closes it without flushing
// what the WAL holds (RocksDB: avoid_flush_during_shutdown; LevelDB never flushes on close), and
// copies its WALs, CURRENT, MANIFEST and newest OPTIONS file, recording:
// - "wal": the live WALs (RocksDB: DB::GetSortedWalFiles before closing; LevelDB: the newest log).
// - "batches": RocksDB: every write batch its recovery reads, as a WalFilter sees them in a
//   read-only open of the closed database (log number, header sequence and count), each walked
//   with WriteBatch::Iterate; "cf_log_numbers" the column families' log numbers that WalFilter is
//   given. LevelDB: the batches the case wrote, walked with leveldb's WriteBatch::Iterate, their
//   sequence numbers counted from 1 (a fresh database; one per record).
// - "options" (RocksDB): the options file's name and, from LoadLatestOptions, the library's own
//   reading of it: the DB options, and per column family its options and table options, as
//   "name=value" maps (GetStringFromDBOptions, GetStringFromColumnFamilyOptions,
//   TableFactory::GetOptionString, split by StringToMap).
#include <leveldb/db.h>
#include <leveldb/write_batch.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/options_util.h>
#include <rocksdb/utilities/transaction_db.h>
#include <rocksdb/wal_filter.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <functional>
#include <memory>

#include "batch_recorder.h"
#include "library_status.h"
#include "sections.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;

// Appends operands with a comma: any merge operator makes Merge records; this one needs no
// library utility.
class AppendOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* out, rocksdb::Logger*) const override {
    *out = existing == nullptr ? value.ToString() : existing->ToString() + "," + value.ToString();
    return true;
  }
  const char* Name() const override { return "CorpusAppendOperator"; }
};

uint64_t HeaderSequence(const std::string& rep) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(rep[i]);
  return v;
}

// Records every batch the recovery of a read-only open reads, and the column families' log
// numbers.
class WalRecorder : public rocksdb::WalFilter {
 public:
  nlohmann::json batches = nlohmann::json::array();
  nlohmann::json cf_log_numbers = nlohmann::json::object();

  void ColumnFamilyLogNumberMap(const std::map<uint32_t, uint64_t>& numbers,
                                const std::map<std::string, uint32_t>&) override {
    for (const auto& [id, number] : numbers) cf_log_numbers[std::to_string(id)] = number;
  }
  WalProcessingOption LogRecordFound(unsigned long long log_number, const std::string&,
                                     const rocksdb::WriteBatch& batch, rocksdb::WriteBatch*,
                                     bool*) override {
    BatchRecorder r;
    Check(batch.Iterate(&r), "WriteBatch::Iterate");
    batches.push_back({{"log", log_number},
                       {"sequence", HeaderSequence(batch.Data())},
                       {"count", batch.Count()},
                       {"records", r.records},
                       {"markers", r.markers}});
    return WalProcessingOption::kContinueProcessing;
  }
  const char* Name() const override { return "CorpusWalRecorder"; }
};

std::string Numbered(const std::string& prefix, size_t i) {
  const std::string digits = std::to_string(i);
  return prefix + std::string(digits.size() < 6 ? 6 - digits.size() : 0, '0') + digits;
}

// CURRENT, the MANIFEST, every .log file and the newest OPTIONS file, copied; every file name.
nlohmann::json CopyDatabase(const CorpusRoot& root, const std::string& dir, const fs::path& db) {
  nlohmann::json r;
  std::vector<std::string> files;
  nlohmann::json copied = nlohmann::json::object();
  for (const auto& e : fs::directory_iterator(db)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  std::string newest_options;
  for (const std::string& name : files) {
    if (name.rfind("OPTIONS-", 0) == 0) newest_options = name;  // sorted: the last is the newest
  }
  for (const std::string& name : files) {
    const bool wanted =
        name == "CURRENT" || name == "IDENTITY" || name.rfind("MANIFEST-", 0) == 0 ||
        (name.size() > 4 && name.substr(name.size() - 4) == ".log") || name == newest_options;
    if (wanted && name != "LOG") copied[name] = root.CopyFile(dir + "/" + name, db / name);
  }
  r["files"] = files;
  r["copied"] = copied;
  return r;
}

// ---- RocksDB ----

struct RocksWalCase {
  std::string id;
  std::string what;
  std::vector<std::string> families;  // beside "default"
  bool transactions = false;          // written through a TransactionDB (WriteCommitted)
  std::function<void(rocksdb::DB*, const std::vector<rocksdb::ColumnFamilyHandle*>&)> write;
};

rocksdb::Options RocksOptions(const std::shared_ptr<rocksdb::MergeOperator>& merge) {
  rocksdb::Options o;
  o.create_if_missing = true;
  o.create_missing_column_families = true;
  o.avoid_flush_during_shutdown = true;
  o.merge_operator = merge;
  o.compression = rocksdb::kNoCompression;
  o.write_buffer_size = 8 << 20;
  o.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(3));
  rocksdb::BlockBasedTableOptions t;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  t.format_version = 5;
  t.block_size = 8192;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return o;
}

// Every record kind RocksDB 7.8.3 writes through the DB's own calls, on column family `cf`.
void EveryKind(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const std::string& p) {
  const rocksdb::WriteOptions w;
  Check(db->Put(w, cf, p + "put", "value-" + p), "Put");
  Check(db->Delete(w, cf, p + "delete"), "Delete");
  Check(db->SingleDelete(w, cf, p + "single-delete"), "SingleDelete");
  Check(db->Merge(w, cf, p + "merge", "operand-1"), "Merge");
  Check(db->Merge(w, cf, p + "merge", "operand-2"), "Merge");
  Check(db->DeleteRange(w, cf, p + "range-a", p + "range-m"), "DeleteRange");
  const rocksdb::WideColumns columns{{"", "default-column"}, {"attr", "a"}, {"zeta", "z"}};
  Check(db->PutEntity(w, cf, p + "entity", columns), "PutEntity");
}

std::vector<RocksWalCase> RocksWalCases() {
  std::vector<RocksWalCase> cases;
  cases.push_back(
      {"rocksdb_wal_kinds",
       "every record kind on default and cf1, one at a time and in a batch with PutLogData; "
       "Flush of default only (a second WAL; cf1's data keeps the first live); then 200 puts, "
       "a 100 KB value (fragments across blocks) and merges on cf1",
       {"cf1"},
       false,
       [](rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>& h) {
         const rocksdb::WriteOptions w;
         EveryKind(db, h[0], "d-");
         EveryKind(db, h[1], "c-");
         rocksdb::WriteBatch batch;
         Check(batch.Put("b-put", "batch-value"), "WriteBatch::Put");
         Check(batch.PutLogData("opaque log data"), "WriteBatch::PutLogData");
         Check(batch.Delete(h[1], "b-delete"), "WriteBatch::Delete");
         Check(batch.Merge(h[1], "c-merge", "operand-3"), "WriteBatch::Merge");
         Check(batch.SingleDelete("b-single"), "WriteBatch::SingleDelete");
         Check(batch.DeleteRange(h[1], "b-range-a", "b-range-b"), "WriteBatch::DeleteRange");
         Check(batch.PutEntity(h[1], "b-entity", {{"", "v"}, {"c", "w"}}), "WriteBatch::PutEntity");
         Check(batch.Put(h[1], std::string("b-\0binary\xff", 11), std::string("\0\x01\x02", 3)),
               "WriteBatch::Put");
         Check(db->Write(w, &batch), "Write");
         Check(db->Flush(rocksdb::FlushOptions(), h[0]), "Flush");
         for (size_t i = 0; i < 200; ++i) {
           Check(db->Put(w, h[i % 2], Numbered("n-", i), std::string(10 + i % 50, 'x')), "Put");
         }
         Check(db->Put(w, "n-large", std::string(100000, 'L')), "Put");
         Check(db->Merge(w, h[1], "c-merge", "operand-4"), "Merge");
       }});
  cases.push_back(
      {"rocksdb_wal_transactions",
       "a TransactionDB (WriteCommitted): a transaction prepared and committed, one prepared "
       "and rolled back, one committed without prepare, and a plain put",
       {},
       true,
       [](rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>&) {
         auto* tdb = static_cast<rocksdb::TransactionDB*>(db);
         const rocksdb::WriteOptions w;
         std::unique_ptr<rocksdb::Transaction> t(tdb->BeginTransaction(w));
         Check(t->SetName("xid-commit"), "SetName");
         Check(t->Put("t-put", "t-value"), "Transaction::Put");
         Check(t->Delete("t-delete"), "Transaction::Delete");
         Check(t->Merge("t-merge", "t-operand"), "Transaction::Merge");
         Check(t->Prepare(), "Prepare");
         Check(t->Commit(), "Commit");
         t.reset(tdb->BeginTransaction(w));
         Check(t->SetName("xid-rollback"), "SetName");
         Check(t->Put("r-put", "r-value"), "Transaction::Put");
         Check(t->Prepare(), "Prepare");
         Check(t->Rollback(), "Rollback");
         t.reset(tdb->BeginTransaction(w));
         Check(t->Put("u-put", "u-value"), "Transaction::Put");
         Check(t->Commit(), "Commit");
         t.reset();
         Check(db->Put(w, "plain", "p"), "Put");
       }});
  return cases;
}

// "name=value;..." maps of the library's reading of the newest OPTIONS file.
nlohmann::json OptionsMap(const std::string& text) {
  std::unordered_map<std::string, std::string> map;
  Check(rocksdb::StringToMap(text, &map), "StringToMap");
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : map) out[k] = v;
  return out;
}

nlohmann::json LibraryOptions(const fs::path& db) {
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = true;
  config.ignore_unsupported_options = true;
  config.input_strings_escaped = true;
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  Check(rocksdb::LoadLatestOptions(config, db.string(), &db_options, &families),
        "LoadLatestOptions");
  std::string name;
  Check(rocksdb::GetLatestOptionsFileName(db.string(), rocksdb::Env::Default(), &name),
        "GetLatestOptionsFileName");
  std::string text;
  Check(rocksdb::GetStringFromDBOptions(config, db_options, &text), "GetStringFromDBOptions");
  nlohmann::json out = {{"file", name}, {"db", OptionsMap(text)}};
  nlohmann::json cfs = nlohmann::json::array();
  for (const auto& f : families) {
    Check(rocksdb::GetStringFromColumnFamilyOptions(config, f.options, &text),
          "GetStringFromColumnFamilyOptions");
    nlohmann::json cf = {{"name", f.name}, {"options", OptionsMap(text)}};
    Check(f.options.table_factory->GetOptionString(config, &text), "GetOptionString");
    cf["table_factory"] = f.options.table_factory->Name();
    cf["table"] = OptionsMap(text);
    cfs.push_back(cf);
  }
  out["column_families"] = cfs;
  return out;
}

nlohmann::json RocksWalCaseFiles(const CorpusRoot& root, const RocksWalCase& c) {
  const std::string dir = "db-wal/" + c.id;
  const fs::path scratch = root.Scratch(c.id);
  fs::remove_all(scratch);
  fs::create_directories(scratch.parent_path());
  const auto merge = std::make_shared<AppendOperator>();
  rocksdb::Options options = RocksOptions(merge);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors{{"default", options}};
  for (const std::string& name : c.families) descriptors.emplace_back(name, options);
  nlohmann::json alive = nlohmann::json::array();
  {
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    if (c.transactions) {
      rocksdb::TransactionDB* tdb = nullptr;
      Check(rocksdb::TransactionDB::Open(options, rocksdb::TransactionDBOptions(), scratch.string(),
                                         descriptors, &handles, &tdb),
            "TransactionDB::Open");
      raw = tdb;
    } else {
      Check(rocksdb::DB::Open(options, scratch.string(), descriptors, &handles, &raw), "DB::Open");
    }
    std::unique_ptr<rocksdb::DB> db(raw);
    c.write(db.get(), handles);
    rocksdb::VectorLogPtr wals;
    Check(db->GetSortedWalFiles(wals), "GetSortedWalFiles");
    for (const auto& wal : wals) {
      if (wal->Type() != rocksdb::kAliveLogFile) continue;
      std::string name = wal->PathName();
      name = name.substr(name.rfind('/') + 1);
      alive.push_back({{"name", name}, {"number", wal->LogNumber()}});
    }
    for (auto* h : handles) Check(db->DestroyColumnFamilyHandle(h), "DestroyColumnFamilyHandle");
    Check(db->Close(), "Close");
  }
  nlohmann::json r = {{"id", c.id}, {"format", "rocksdb"}, {"writer", c.what}, {"wal", alive}};
  r.update(CopyDatabase(root, dir, scratch));
  r["options"] = LibraryOptions(scratch);
  // The library's reading of the WALs: a read-only open recovers them into memtables and shows
  // every batch to the WalFilter.
  auto recorder = std::make_shared<WalRecorder>();
  rocksdb::Options reader = options;
  reader.create_if_missing = false;
  reader.wal_filter = recorder.get();
  reader.allow_2pc = c.transactions;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::OpenForReadOnly(reader, scratch.string(), descriptors, &handles, &raw),
        "DB::OpenForReadOnly");
  for (auto* h : handles) Check(raw->DestroyColumnFamilyHandle(h), "DestroyColumnFamilyHandle");
  delete raw;
  r["batches"] = recorder->batches;
  r["cf_log_numbers"] = recorder->cf_log_numbers;
  return r;
}

// ---- LevelDB ----

class LevelDbBatchRecorder : public leveldb::WriteBatch::Handler {
 public:
  nlohmann::json records = nlohmann::json::array();
  void Put(const leveldb::Slice& k, const leveldb::Slice& v) override {
    records.push_back({{"kind", "put"},
                       {"cf", 0},
                       {"key", Hex(std::string_view(k.data(), k.size()))},
                       {"value", Hex(std::string_view(v.data(), v.size()))}});
  }
  void Delete(const leveldb::Slice& k) override {
    records.push_back({{"kind", "delete"},
                       {"cf", 0},
                       {"key", Hex(std::string_view(k.data(), k.size()))},
                       {"value", ""}});
  }
};

nlohmann::json LevelDbWalCase(const CorpusRoot& root) {
  const std::string id = "leveldb_wal";
  const std::string dir = "db-wal/" + id;
  const fs::path scratch = root.Scratch(id);
  fs::remove_all(scratch);
  fs::create_directories(scratch.parent_path());
  nlohmann::json batches = nlohmann::json::array();
  uint64_t sequence = 1;  // a fresh database's first
  {
    leveldb::Options o;
    o.create_if_missing = true;
    o.compression = leveldb::kNoCompression;
    leveldb::DB* raw = nullptr;
    Check(leveldb::DB::Open(o, scratch.string(), &raw), "leveldb::DB::Open");
    std::unique_ptr<leveldb::DB> db(raw);
    // Each Put and Delete is a batch of one (DB::Put builds one); written here as the batch it is.
    const auto write = [&](leveldb::WriteBatch& batch) {
      LevelDbBatchRecorder r;
      Check(batch.Iterate(&r), "WriteBatch::Iterate");
      Check(db->Write(leveldb::WriteOptions(), &batch), "Write");
      batches.push_back(
          {{"sequence", sequence}, {"count", r.records.size()}, {"records", r.records}});
      sequence += r.records.size();
    };
    for (size_t i = 0; i < 100; ++i) {
      leveldb::WriteBatch b;
      if (i % 10 == 9) {
        b.Delete(Numbered("k-", i - 5));
      } else {
        b.Put(Numbered("k-", i), std::string(5 + i, 'v'));
      }
      write(b);
    }
    leveldb::WriteBatch b;
    b.Put("batch-put", "v");
    b.Delete("k-000001");
    b.Put(std::string("batch-\0binary", 13), std::string("\xff\x00", 2));
    write(b);
    leveldb::WriteBatch large;
    large.Put("large", std::string(70000, 'L'));  // three blocks: FIRST, MIDDLE, LAST
    write(large);
  }
  nlohmann::json r = {{"id", id},
                      {"format", "leveldb"},
                      {"writer",
                       "leveldb::DB: 90 puts and 10 deletes, a batch of three, a 70 KB value; "
                       "closed (LevelDB does not flush its memtable on close)"},
                      {"batches", batches}};
  r.update(CopyDatabase(root, dir, scratch));
  nlohmann::json alive = nlohmann::json::array();
  for (const std::string name : r["files"]) {
    if (name.size() > 4 && name.substr(name.size() - 4) == ".log") {
      alive.push_back({{"name", name}, {"number", std::stoull(name.substr(0, name.size() - 4))}});
    }
  }
  if (alive.size() != 1) Fail(id + ": expected one log");
  r["wal"] = alive;
  for (auto& batch : r["batches"]) batch["log"] = alive[0]["number"];
  return r;
}

}  // namespace

nlohmann::json DbWalSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  for (const RocksWalCase& c : RocksWalCases()) cases.push_back(RocksWalCaseFiles(root, c));
  cases.push_back(LevelDbWalCase(root));
  return root.FinishSection("db-wal", "db_wal", cases);
}

}  // namespace corpus
