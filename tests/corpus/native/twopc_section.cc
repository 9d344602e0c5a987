// Section "db_twopc": write-ahead logs holding two-phase-commit transactions, and what RocksDB
// 7.8.3's recovery makes of them (docs/FORMATS.md 6.4, 6.6). Each case writes a TransactionDB
// whose keys also sit in flushed tables, leaves transactions prepared and committed, rolled back,
// and prepared but open at close (closed without flushing: the WALs stay), copies every file but
// LOCK and LOG, and records per probe key:
// - "transaction_db": Get from TransactionDB::Open (the default WRITE_COMMITTED policy) on a copy;
//   "prepared": the transactions it recovered as prepared (GetAllPreparedTransactions), each with
//   its write batch's records;
// - "read_only": the status of DB::OpenForReadOnly without allow_2pc (what plain DB tools get), in
//   a child process: Debian's library keeps its assertions and aborts there;
// - "read_only_2pc": Get from DB::OpenForReadOnly with allow_2pc (recovery without flushing), and
//   from that open the key's versions with their sequence numbers (GetAllKeyVersions) that the
//   tables alone do not hold (a read-only open of a copy without the WALs): the memtable's.
// Case "rocksdb_twopc_write_prepared" writes with the WRITE_PREPARED policy and records what a
// default TransactionDB::Open says of its WALs, and Get under WRITE_PREPARED.
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/debug.h>
#include <rocksdb/utilities/transaction.h>
#include <rocksdb/utilities/transaction_db.h>
#include <rocksdb/utilities/write_batch_with_index.h>
#include <rocksdb/write_batch.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>

#include "batch_recorder.h"
#include "library_status.h"
#include "sections.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;

constexpr int kKeys = 130;  // k000..k129: every probe

Key NumberedKey(int i) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "k%03d", i);
  return buf;
}

rocksdb::Options TwoPcOptions() {
  rocksdb::Options o;
  o.create_if_missing = true;
  o.avoid_flush_during_shutdown = true;  // the WALs stay what the last run wrote
  o.compression = rocksdb::kNoCompression;
  rocksdb::BlockBasedTableOptions t;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return o;
}

// WritePreparedTxnDB holds a snapshot of its own until it is deleted, so its Close reports
// "unreleased snapshot" (Aborted); deleting it closes it.
void CloseTransactionDb(rocksdb::TransactionDB* db) {
  const rocksdb::Status s = db->Close();
  if (!s.ok() && !s.IsAborted()) Fail("Close: " + s.ToString());
}

nlohmann::json Answer(const rocksdb::Status& s, const std::string& value, const Key& k) {
  if (s.ok()) return {{"status", "ok"}, {"value", Hex(value)}};
  if (s.IsNotFound()) return {{"status", "not-found"}};
  Fail("Get " + Hex(k) + ": " + s.ToString());
}

nlohmann::json GetAll(rocksdb::DB* db, const KeyList& probes) {
  nlohmann::json out = nlohmann::json::array();
  for (const Key& k : probes) {
    std::string value;
    out.push_back(Answer(db->Get(rocksdb::ReadOptions(), k, &value), value, k));
  }
  return out;
}

// Every version of every key (user key hex, sequence) -> (type, value hex), from `db`.
std::map<std::pair<std::string, uint64_t>, nlohmann::json> KeyVersions(rocksdb::DB* db) {
  std::vector<rocksdb::KeyVersion> versions;
  Check(rocksdb::GetAllKeyVersions(db, rocksdb::Slice(), rocksdb::Slice(), 1 << 20, &versions),
        "GetAllKeyVersions");
  std::map<std::pair<std::string, uint64_t>, nlohmann::json> out;
  for (const auto& v : versions) {
    out[{Hex(v.user_key), v.sequence}] = {{"type", v.type}, {"value", Hex(v.value)}};
  }
  return out;
}

std::unique_ptr<rocksdb::DB> OpenReadOnly(const fs::path& dir, bool allow_2pc,
                                          rocksdb::Status* status) {
  rocksdb::Options o = TwoPcOptions();
  o.create_if_missing = false;
  o.allow_2pc = allow_2pc;
  rocksdb::DB* raw = nullptr;
  *status = rocksdb::DB::OpenForReadOnly(o, dir.string(), &raw);
  return std::unique_ptr<rocksdb::DB>(raw);
}

// The memtable's versions of each probe: those a read-only open with allow_2pc sees that a copy
// without the WALs does not; newest first.
nlohmann::json MemtableVersions(rocksdb::DB* with_wal, const fs::path& scratch,
                                const KeyList& probes) {
  const fs::path tables_only = scratch / "tables-only";
  CopyDatabaseFiles(scratch / "db", tables_only, false);
  rocksdb::Status s;
  auto tables = OpenReadOnly(tables_only, false, &s);
  Check(s, "OpenForReadOnly without WALs");
  const auto in_tables = KeyVersions(tables.get());
  const auto all = KeyVersions(with_wal);
  nlohmann::json out = nlohmann::json::array();
  for (const Key& k : probes) {
    nlohmann::json list = nlohmann::json::array();
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
      if (it->first.first != Hex(k) || in_tables.count(it->first)) continue;
      nlohmann::json v = it->second;
      v["sequence"] = it->first.second;
      list.push_back(v);
    }
    out.push_back(list);
  }
  return out;
}

KeyList Probes() {
  KeyList probes;
  for (int i = 0; i < kKeys; ++i) probes.push_back(NumberedKey(i));
  return probes;
}

// `read` run in a child process, its JSON answer; {"open": "aborted by signal N"} when the
// library aborts (Debian's build keeps RocksDB's assertions, and recovery asserts on a status
// it then reports).
nlohmann::json Isolated(const fs::path& scratch, const std::function<nlohmann::json()>& read) {
  const fs::path out = scratch / "isolated.json";
  fs::remove(out);
  const pid_t pid = fork();
  if (pid < 0) Fail("fork");
  if (pid == 0) {
    const std::string text = read().dump();
    FILE* f = std::fopen(out.c_str(), "wb");
    if (f == nullptr || std::fwrite(text.data(), 1, text.size(), f) != text.size()) _exit(2);
    std::fclose(f);
    _exit(0);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) Fail("waitpid");
  if (WIFSIGNALED(status))
    return {{"open", "aborted by signal " + std::to_string(WTERMSIG(status))}};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) Fail("the isolated reader failed");
  return nlohmann::json::parse(ReadFile(out));
}

using Writer = std::function<void(rocksdb::TransactionDB*)>;

// Writes the database with `write` under `policy`, closes it and copies it into the corpus.
nlohmann::json WriteCase(const CorpusRoot& root, const std::string& id, const std::string& what,
                         rocksdb::TxnDBWritePolicy policy, const Writer& write,
                         fs::path* scratch_db) {
  const fs::path scratch = root.Scratch("db_twopc") / id;
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  *scratch_db = scratch / "written";
  {
    rocksdb::TransactionDBOptions txn_options;
    txn_options.write_policy = policy;
    rocksdb::TransactionDB* raw = nullptr;
    Check(rocksdb::TransactionDB::Open(TwoPcOptions(), txn_options, scratch_db->string(), &raw),
          "TransactionDB::Open");
    std::unique_ptr<rocksdb::TransactionDB> db(raw);
    write(db.get());
    CloseTransactionDb(db.get());
  }
  const std::string dir = "db-twopc/" + id + "/db";
  std::vector<std::string> files;
  for (const std::string& name : CopyDatabaseFiles(*scratch_db, scratch / "db")) {
    root.CopyFile(dir + "/" + name, scratch / "db" / name);
    files.push_back(name);
  }
  const KeyList probes = Probes();
  return {{"id", id},
          {"writer", what},
          {"dir", dir},
          {"files", files},
          {"probes",
           {{"path", root.WriteKeys("db-twopc/" + id + "/probes.keys", probes)},
            {"count", probes.size()}}}};
}

// A transaction named `name` (unnamed: "", it cannot be prepared); skip_concurrency_control lets a
// plain write touch its keys while it is prepared (the commit order then decides).
std::unique_ptr<rocksdb::Transaction> Begin(rocksdb::TransactionDB* db, const std::string& name,
                                            bool skip_concurrency_control = false) {
  rocksdb::TransactionOptions o;
  o.skip_concurrency_control = skip_concurrency_control;
  std::unique_ptr<rocksdb::Transaction> t(db->BeginTransaction(rocksdb::WriteOptions(), o));
  if (!name.empty()) Check(t->SetName(name), "SetName " + name);
  return t;
}

// Two flushed tables over k000..k119 (overwrites, deletions), then the transactions.
void TablesFirst(rocksdb::TransactionDB* db) {
  const rocksdb::WriteOptions w;
  for (int i = 0; i < 120; ++i) Check(db->Put(w, NumberedKey(i), "t1-" + std::to_string(i)), "Put");
  Check(db->Flush(rocksdb::FlushOptions()), "Flush");
  for (int i = 0; i < 120; i += 3)
    Check(db->Put(w, NumberedKey(i), "t2-" + std::to_string(i)), "Put");
  for (int i = 5; i < 120; i += 10) Check(db->Delete(w, NumberedKey(i)), "Delete");
  Check(db->Flush(rocksdb::FlushOptions()), "Flush");
}

void WriteCommittedHistory(rocksdb::TransactionDB* db) {
  const rocksdb::WriteOptions w;
  TablesFirst(db);
  // Prepared in this WAL, committed in the next one (a flush in between); and one left open here.
  auto span = Begin(db, "xid-span");
  Check(span->Put(NumberedKey(50), "span"), "Put");
  Check(span->Delete(NumberedKey(51)), "Delete");
  Check(span->Prepare(), "Prepare");
  auto open1 = Begin(db, "xid-open1");
  Check(open1->Put(NumberedKey(60), "open1"), "Put");
  Check(open1->Delete(NumberedKey(61)), "Delete");
  Check(open1->Put(NumberedKey(127), "open1-new"), "Put");
  Check(open1->Prepare(), "Prepare");
  Check(db->Put(w, NumberedKey(52), "before-flush"), "Put");
  Check(db->Flush(rocksdb::FlushOptions()), "Flush");
  Check(db->Put(w, NumberedKey(53), "after-flush"), "Put");
  Check(span->Commit(), "Commit");
  // Prepared and committed at once.
  auto c1 = Begin(db, "xid-c1");
  Check(c1->Put(NumberedKey(0), "c1"), "Put");
  Check(c1->Put(NumberedKey(1), "c1"), "Put");
  Check(c1->Delete(NumberedKey(2)), "Delete");
  Check(c1->Put(NumberedKey(125), "c1-new"), "Put");
  Check(c1->Prepare(), "Prepare");
  Check(c1->Commit(), "Commit");
  // Prepared, then rolled back.
  auto r1 = Begin(db, "xid-r1");
  Check(r1->Put(NumberedKey(10), "r1"), "Put");
  Check(r1->Delete(NumberedKey(11)), "Delete");
  Check(r1->Put(NumberedKey(126), "r1-new"), "Put");
  Check(r1->Prepare(), "Prepare");
  Check(r1->Rollback(), "Rollback");
  // Prepared; plain writes (one of the same key) in between; committed after them.
  auto late = Begin(db, "xid-late", true);
  Check(late->Put(NumberedKey(20), "late"), "Put");
  Check(late->Delete(NumberedKey(21)), "Delete");
  Check(late->Put(NumberedKey(22), "late-1"), "Put");
  Check(late->Put(NumberedKey(22), "late-2"), "Put");
  Check(late->Prepare(), "Prepare");
  Check(db->Put(w, NumberedKey(20), "plain-between"), "Put");
  Check(db->Put(w, NumberedKey(23), "plain-between"), "Put");
  Check(late->Commit(), "Commit");
  // A commit-time write batch: its records come in the commit's batch, before the prepared ones.
  auto ctb = Begin(db, "xid-ctb");
  Check(ctb->Put(NumberedKey(30), "ctb-prepared"), "Put");
  Check(ctb->GetCommitTimeWriteBatch()->Put(NumberedKey(31), "ctb-commit-time"), "Put");
  Check(ctb->GetCommitTimeWriteBatch()->Put(NumberedKey(30), "ctb-commit-time"), "Put");
  Check(ctb->Prepare(), "Prepare");
  Check(ctb->Commit(), "Commit");
  // Committed without Prepare: a plain batch.
  auto np = Begin(db, "");
  Check(np->Put(NumberedKey(40), "no-prepare"), "Put");
  Check(np->Delete(NumberedKey(41)), "Delete");
  Check(np->Commit(), "Commit");
  // Prepared in the last WAL and left open; a rollback of one prepared there too.
  auto open2 = Begin(db, "xid-open2");
  Check(open2->Put(NumberedKey(70), "open2"), "Put");
  Check(open2->Delete(NumberedKey(71)), "Delete");
  Check(open2->Prepare(), "Prepare");
  auto r2 = Begin(db, "xid-r2");
  Check(r2->Put(NumberedKey(80), "r2"), "Put");
  Check(r2->Prepare(), "Prepare");
  Check(db->Put(w, NumberedKey(81), "plain-last"), "Put");
  Check(r2->Rollback(), "Rollback");
  // Deleting a prepared transaction's handle writes nothing: it stays prepared in the WAL.
}

void WritePreparedHistory(rocksdb::TransactionDB* db) {
  TablesFirst(db);
  auto p1 = Begin(db, "xid-p1");
  Check(p1->Put(NumberedKey(0), "p1"), "Put");
  Check(p1->Delete(NumberedKey(1)), "Delete");
  Check(p1->Prepare(), "Prepare");
  Check(p1->Commit(), "Commit");
  // None is left prepared: WritePreparedTxnDB asserts at close that none is.
  Check(db->Put(rocksdb::WriteOptions(), NumberedKey(20), "plain"), "Put");
}

// Get and the prepared transactions from a TransactionDB::Open of a copy under `policy`; the
// error's text when it refuses to open.
nlohmann::json TransactionDbAnswers(const fs::path& written, const fs::path& copy,
                                    rocksdb::TxnDBWritePolicy policy, const KeyList& probes) {
  CopyDatabaseFiles(written, copy);
  rocksdb::TransactionDBOptions txn_options;
  txn_options.write_policy = policy;
  rocksdb::TransactionDB* raw = nullptr;
  rocksdb::Options o = TwoPcOptions();
  o.create_if_missing = false;
  const rocksdb::Status s = rocksdb::TransactionDB::Open(o, txn_options, copy.string(), &raw);
  if (!s.ok()) return {{"open", s.ToString()}};
  std::unique_ptr<rocksdb::TransactionDB> db(raw);
  nlohmann::json out = {{"open", "OK"}, {"answers", GetAll(db.get(), probes)}};
  std::vector<rocksdb::Transaction*> prepared;
  db->GetAllPreparedTransactions(&prepared);
  nlohmann::json list = nlohmann::json::array();
  for (rocksdb::Transaction* t : prepared) {
    BatchRecorder records;  // its markers (the noop Prepare turns into begin-prepare...) unused
    Check(t->GetWriteBatch()->GetWriteBatch()->Iterate(&records), "Iterate");
    list.push_back({{"name", t->GetName()}, {"records", records.records}});
    delete t;  // still prepared: closing the handle writes nothing
  }
  std::sort(list.begin(), list.end(),
            [](const nlohmann::json& a, const nlohmann::json& b) { return a["name"] < b["name"]; });
  out["prepared"] = list;
  CloseTransactionDb(db.get());
  return out;
}

nlohmann::json WriteCommittedCase(const CorpusRoot& root) {
  fs::path written;
  nlohmann::json c = WriteCase(
      root, "rocksdb_twopc",
      "TransactionDB (WRITE_COMMITTED) over two flushed tables of k000..k119: transactions "
      "prepared and committed, rolled back, committed after plain writes of their keys, with a "
      "commit-time batch, without prepare, prepared before a flush and committed after it, and "
      "two left prepared at close",
      rocksdb::TxnDBWritePolicy::WRITE_COMMITTED, WriteCommittedHistory, &written);
  const fs::path scratch = written.parent_path();
  const KeyList probes = Probes();
  c["transaction_db"] = TransactionDbAnswers(written, scratch / "txn",
                                             rocksdb::TxnDBWritePolicy::WRITE_COMMITTED, probes);
  c["read_only"] = Isolated(scratch, [&]() -> nlohmann::json {
    rocksdb::Status s;
    auto plain = OpenReadOnly(scratch / "db", false, &s);
    return {{"open", s.ToString()}};
  });
  rocksdb::Status s;
  auto db = OpenReadOnly(scratch / "db", true, &s);
  Check(s, "OpenForReadOnly with allow_2pc");
  c["read_only_2pc"] = {{"open", s.ToString()},
                        {"answers", GetAll(db.get(), probes)},
                        {"memtable_versions", MemtableVersions(db.get(), scratch, probes)}};
  return c;
}

nlohmann::json WritePreparedCase(const CorpusRoot& root) {
  fs::path written;
  nlohmann::json c =
      WriteCase(root, "rocksdb_twopc_write_prepared",
                "TransactionDB (WRITE_PREPARED) over two flushed tables: a transaction prepared "
                "and committed, a plain put",
                rocksdb::TxnDBWritePolicy::WRITE_PREPARED, WritePreparedHistory, &written);
  const fs::path scratch = written.parent_path();
  const KeyList probes = Probes();
  c["transaction_db"] = Isolated(scratch, [&] {
    return TransactionDbAnswers(written, scratch / "txn-committed",
                                rocksdb::TxnDBWritePolicy::WRITE_COMMITTED, probes);
  });
  c["transaction_db_write_prepared"] = TransactionDbAnswers(
      written, scratch / "txn-prepared", rocksdb::TxnDBWritePolicy::WRITE_PREPARED, probes);
  return c;
}

}  // namespace

nlohmann::json DbTwoPcSection(const CorpusRoot& root) {
  return root.FinishSection(
      "db-twopc", "db_twopc",
      nlohmann::json::array({WriteCommittedCase(root), WritePreparedCase(root)}));
}

}  // namespace corpus
