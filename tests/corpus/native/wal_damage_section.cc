// Section "db_wal_damage": databases whose write-ahead logs are damaged in the middle, and what
// the libraries' recovery makes of them (docs/FORMATS.md 6.4.2). Each case damages a closed
// database's WAL and records the status of DB::Open on a copy and, where it opens, Get for every
// probe.
// - RocksDB 7.8.3 (default kPointInTimeRecovery): a database with two live WALs (reopened with
//   avoid_flush_during_recovery, so the first log stays live), damaged in the older log (a
//   flipped byte, or cut short in a record) or in the newer one; the damaged database reopened
//   with avoid_flush_during_recovery and written to again, so a third log continues the sequence
//   numbers recovery reached; two column families where the damaged log is older than the
//   default family's log number; and the two-log database written and reopened under the other
//   recovery modes and paranoid_checks=false (the OPTIONS file records them).
// - LevelDB 1.23 (paranoid_checks false, the default): one WAL of twelve blocks (eleven whole)
//   with a flipped byte, a damaged fragment of a record spanning blocks, a bad record length and
//   a write batch with an unknown tag (its CRC rewritten to match); and what paranoid_checks=true
//   makes of it.
#include <leveldb/db.h>
#include <leveldb/write_batch.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <cstdio>
#include <memory>

#include "library_status.h"
#include "sections.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;

constexpr size_t kLogBlock = 32768;
constexpr size_t kLogHeader = 7;  // both libraries' legacy header: CRC, length, type
constexpr int kKeySpace = 520;    // probes k0000..k0519 (RocksDB cases)

Key NumberedKey(int i) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "k%04d", i);
  return buf;
}

std::string RoundValue(char round, int i) {
  std::string v = std::string(1, round) + "-" + std::to_string(i) + "-";
  v.resize(80, round);
  return v;
}

// The physical records of a log (legacy headers; neither writer here recycles logs).
struct Physical {
  size_t offset;  // of the header
  uint8_t type;   // 1 FULL, 2 FIRST, 3 MIDDLE, 4 LAST
  uint32_t length;
};

std::vector<Physical> PhysicalRecords(const std::string& file) {
  std::vector<Physical> out;
  size_t pos = 0;
  while (pos + kLogHeader <= file.size()) {
    const size_t left = kLogBlock - pos % kLogBlock;
    if (left < kLogHeader) {
      pos += left;
      continue;
    }
    const uint32_t length = static_cast<uint8_t>(file[pos + 4]) |
                            static_cast<uint32_t>(static_cast<uint8_t>(file[pos + 5])) << 8;
    out.push_back({pos, static_cast<uint8_t>(file[pos + 6]), length});
    pos += kLogHeader + length;
  }
  return out;
}

// CRC32C as both libraries mask it in a record header (util/crc32c.h Mask).
uint32_t MaskedCrc32c(std::string_view data) {
  uint32_t crc = ~0u;
  for (const char c : data) {
    crc ^= static_cast<uint8_t>(c);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
  }
  crc = ~crc;
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

nlohmann::json Damage(const std::string& file, size_t offset, const std::string& what) {
  return {{"file", file}, {"offset", offset}, {"what", what}};
}

// Flips the middle payload byte of `record` in `bytes`.
nlohmann::json FlipPayloadByte(std::string* bytes, const Physical& record,
                               const std::string& file) {
  const size_t at = record.offset + kLogHeader + record.length / 2;
  (*bytes)[at] = static_cast<char>((*bytes)[at] ^ 0x20);
  return Damage(file, at,
                "a flipped byte in the record at offset " + std::to_string(record.offset) +
                    " (a checksum mismatch)");
}

std::vector<std::string> LogNames(const fs::path& dir) {
  std::vector<std::string> logs;
  for (const std::string& name : DatabaseFiles(dir)) {
    if (name.size() > 4 && name.substr(name.size() - 4) == ".log") logs.push_back(name);
  }
  return logs;  // sorted by name: the same width, so by number
}

KeyList Probes(int count) {
  KeyList probes;
  for (int i = 0; i < count; ++i) probes.push_back(NumberedKey(i));
  return probes;
}

template <typename Status>
nlohmann::json Answer(const Status& s, const std::string& value, const Key& k) {
  if (s.ok()) return {{"status", "ok"}, {"value", Hex(value)}};
  if (s.IsNotFound()) return {{"status", "not-found"}};
  Fail("Get " + Hex(k) + ": " + s.ToString());
}

// ---- RocksDB ----

// What decides how recovery reads damage; the OPTIONS file records both.
struct Recovery {
  rocksdb::WALRecoveryMode mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  bool paranoid_checks = true;
};

rocksdb::Options WriterOptions(const Recovery& recovery) {
  rocksdb::Options o;
  o.wal_recovery_mode = recovery.mode;
  o.paranoid_checks = recovery.paranoid_checks;
  o.create_if_missing = true;
  o.create_missing_column_families = true;
  o.avoid_flush_during_shutdown = true;  // the WALs stay as written
  o.avoid_flush_during_recovery = true;  // a reopen keeps the older WALs live
  o.compression = rocksdb::kNoCompression;
  rocksdb::BlockBasedTableOptions t;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return o;
}

// Keys [from, to) in batches of four records: puts of `round`'s value, every `delete_every`th a
// delete (0: none).
void WriteRound(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, char round, int from, int to,
                int delete_every) {
  rocksdb::WriteBatch batch;
  for (int i = from; i < to; ++i) {
    if (delete_every != 0 && i % delete_every == 0) {
      Check(batch.Delete(cf, NumberedKey(i)), "Delete");
    } else {
      Check(batch.Put(cf, NumberedKey(i), RoundValue(round, i)), "Put");
    }
    if (batch.Count() == 4 || i + 1 == to) {
      Check(db->Write(rocksdb::WriteOptions(), &batch), "Write");
      batch.Clear();
    }
  }
}

// Runs `write` on the database at `dir` (created when missing) with the families it lists, and
// closes it.
void WithRocksDb(
    const fs::path& dir, const std::vector<std::string>& families,
    const std::function<void(rocksdb::DB*, std::vector<rocksdb::ColumnFamilyHandle*>&)>& write,
    const Recovery& recovery = {}) {
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : families) {
    descriptors.emplace_back(name, rocksdb::ColumnFamilyOptions(WriterOptions(recovery)));
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  fs::create_directories(dir.parent_path());
  Check(rocksdb::DB::Open(rocksdb::DBOptions(WriterOptions(recovery)), dir.string(), descriptors,
                          &handles, &raw),
        "DB::Open " + dir.string());
  write(raw, handles);
  for (auto* h : handles) Check(raw->DestroyColumnFamilyHandle(h), "DestroyColumnFamilyHandle");
  Check(raw->Close(), "Close");
  delete raw;
}

// DB::Open on a copy of `dir` with the recovery options its OPTIONS file records (the writer's):
// its status, and where it opens, Get in the default column family for every probe.
nlohmann::json RocksDbReading(const fs::path& dir, const fs::path& copy,
                              const std::vector<std::string>& families, const KeyList& probes,
                              const Recovery& recovery) {
  CopyDatabaseFiles(dir, copy);
  rocksdb::Options o;
  o.wal_recovery_mode = recovery.mode;
  o.paranoid_checks = recovery.paranoid_checks;
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : families) descriptors.emplace_back(name, o);
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  const rocksdb::Status s = rocksdb::DB::Open(o, copy.string(), descriptors, &handles, &raw);
  if (!s.ok()) return {{"open", s.ToString()}};
  nlohmann::json answers = nlohmann::json::array();
  for (const Key& k : probes) {
    std::string value;
    answers.push_back(Answer(raw->Get(rocksdb::ReadOptions(), k, &value), value, k));
  }
  for (auto* h : handles) Check(raw->DestroyColumnFamilyHandle(h), "DestroyColumnFamilyHandle");
  delete raw;
  return {{"open", "OK"}, {"answers", answers}};
}

struct RocksCase {
  std::string id;
  std::string writer;
  fs::path db;  // the damaged database
  std::vector<std::string> families;
  nlohmann::json damage;
  Recovery recovery = {};
};

nlohmann::json RocksCaseFiles(const CorpusRoot& root, const RocksCase& c) {
  const std::string dir = "db-wal-damage/" + c.id + "/db";
  const KeyList probes = Probes(kKeySpace);
  nlohmann::json out = {
      {"id", c.id},
      {"format", "rocksdb"},
      {"writer", c.writer},
      {"dir", dir},
      {"files", root.CopyDatabase(dir, c.db)},
      {"logs", LogNames(c.db)},
      {"damage", c.damage},
      {"probes",
       {{"path", root.WriteKeys("db-wal-damage/" + c.id + "/probes.keys", probes)},
        {"count", probes.size()}}}};
  out["recovery"] = {{"wal_recovery_mode", static_cast<int>(c.recovery.mode)},
                     {"paranoid_checks", c.recovery.paranoid_checks}};
  out["library"] =
      RocksDbReading(c.db, c.db.parent_path() / "reopened", c.families, probes, c.recovery);
  return out;
}

// Two live WALs: the first holds round b over a flushed table of round a, the second (written
// after a reopen that kept the first live) round c.
void WriteTwoLogs(const fs::path& dir, const Recovery& recovery = {}) {
  WithRocksDb(
      dir, {"default"},
      [](rocksdb::DB* db, auto& cf) {
        WriteRound(db, cf[0], 'a', 0, 400, 0);
        Check(db->Flush(rocksdb::FlushOptions()), "Flush");
        WriteRound(db, cf[0], 'b', 0, 300, 17);
      },
      recovery);
  WithRocksDb(
      dir, {"default"}, [](rocksdb::DB* db, auto& cf) { WriteRound(db, cf[0], 'c', 100, 400, 13); },
      recovery);
  if (LogNames(dir).size() != 2) Fail("db_wal_damage: expected two live WALs");
}

// Damages the middle record of `log` in the database at `db`: a flipped payload byte, or the file
// cut inside the record. Returns what was done.
nlohmann::json DamageMiddleRecord(const fs::path& db, const std::string& log, bool cut) {
  std::string bytes = ReadFile(db / log);
  const std::vector<Physical> records = PhysicalRecords(bytes);
  const Physical& record = records[records.size() / 2];
  nlohmann::json damage;
  if (cut) {
    const size_t at = record.offset + kLogHeader + record.length / 2;
    bytes.resize(at);
    damage = Damage(log, at, "the file cut short in a record");
  } else {
    damage = FlipPayloadByte(&bytes, record, log);
  }
  WriteFile(db / log, bytes);
  return damage;
}

// The two-WAL database written under `recovery`, one of its logs damaged, reopened under the same
// options.
nlohmann::json ModeCase(const CorpusRoot& root, const std::string& id, const std::string& what,
                        const Recovery& recovery, bool newer, bool cut) {
  const fs::path db = root.Scratch("db_wal_damage") / id / "db";
  WriteTwoLogs(db, recovery);
  const nlohmann::json damage = DamageMiddleRecord(db, LogNames(db)[newer ? 1 : 0], cut);
  return RocksCaseFiles(root,
                        {id, what, db, {"default"}, nlohmann::json::array({damage}), recovery});
}

std::vector<nlohmann::json> RocksDbCases(const CorpusRoot& root) {
  const fs::path scratch = root.Scratch("db_wal_damage");
  const fs::path written = scratch / "two-logs";
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  WriteTwoLogs(written);
  const std::vector<std::string> logs = LogNames(written);
  std::vector<nlohmann::json> cases;
  // A copy of the two-log database with `log`'s middle record damaged.
  const auto damaged = [&](const std::string& id, const std::string& log, bool cut) {
    const fs::path db = scratch / id / "db";
    CopyDatabaseFiles(written, db);
    return std::pair{db, nlohmann::json::array({DamageMiddleRecord(db, log, cut)})};
  };
  const std::string history =
      "round a (k0000..k0399) flushed, round b (k0000..k0299, every 17th deleted) in the first "
      "WAL, reopened with avoid_flush_during_recovery, round c (k0100..k0399, every 13th deleted) "
      "in the second; batches of four";
  const auto two_log_case = [&](const std::string& id, const std::string& what,
                                const std::string& log, bool cut) {
    auto [db, damage] = damaged(id, log, cut);
    cases.push_back(RocksCaseFiles(root, {id, history + "; " + what, db, {"default"}, damage}));
  };
  two_log_case("rocksdb_damaged_older_wal", "a byte flipped in the older WAL", logs[0], false);
  two_log_case("rocksdb_torn_older_wal", "the older WAL cut short inside a record", logs[0], true);
  two_log_case("rocksdb_damaged_newer_wal", "a byte flipped in the newer WAL", logs[1], false);
  {
    // The older log damaged, then reopened (recovery stops at the damage) and written to: the
    // third log's sequence numbers continue from where recovery stopped.
    auto [db, damage] = damaged("rocksdb_resumed_wal", logs[0], false);
    WithRocksDb(db, {"default"},
                [](rocksdb::DB* d, auto& cf) { WriteRound(d, cf[0], 'd', 200, 500, 0); });
    if (LogNames(db).size() < 3) Fail("rocksdb_resumed_wal: expected three WALs");
    cases.push_back(RocksCaseFiles(
        root, {"rocksdb_resumed_wal",
               history + "; a byte flipped in the older WAL; reopened with "
                         "avoid_flush_during_recovery and round d (k0200..k0499) written",
               db,
               {"default"},
               damage}));
  }
  {
    // Two families: "side" keeps the first log live after the default family's flush moved its
    // log number past it.
    const fs::path db = scratch / "rocksdb_sst_ahead" / "db";
    WithRocksDb(db, {"default", "side"}, [](rocksdb::DB* d, auto& cf) {
      WriteRound(d, cf[0], 'a', 0, 200, 0);
      WriteRound(d, cf[1], 's', 0, 100, 0);
      Check(d->Flush(rocksdb::FlushOptions(), cf[0]), "Flush default");
      WriteRound(d, cf[0], 'b', 100, 300, 0);
      WriteRound(d, cf[1], 't', 50, 150, 0);
    });
    const std::vector<std::string> side_logs = LogNames(db);
    if (side_logs.size() != 2) Fail("rocksdb_sst_ahead: expected two live WALs");
    const nlohmann::json damage = DamageMiddleRecord(db, side_logs[0], false);
    cases.push_back(RocksCaseFiles(
        root, {"rocksdb_sst_ahead",
               "families default and side: k0000..k0199 in default, k0000..k0099 in side; default "
               "flushed; k0100..k0299 in default and k0050..k0149 in side in the second WAL; a "
               "byte flipped in the first WAL, which only side still needs",
               db,
               {"default", "side"},
               nlohmann::json::array({damage})}));
  }
  // The other recovery modes, and paranoid_checks=false, as the OPTIONS file records them.
  using Mode = rocksdb::WALRecoveryMode;
  const std::string two_logs = "the two-WAL history, written and reopened with ";
  cases.push_back(
      ModeCase(root, "rocksdb_tolerate_damaged_older_wal",
               two_logs + "kTolerateCorruptedTailRecords; a byte flipped in the older WAL",
               {Mode::kTolerateCorruptedTailRecords, true}, false, false));
  cases.push_back(
      ModeCase(root, "rocksdb_tolerate_torn_older_wal",
               two_logs + "kTolerateCorruptedTailRecords; the older WAL cut in a record",
               {Mode::kTolerateCorruptedTailRecords, true}, false, true));
  cases.push_back(ModeCase(root, "rocksdb_absolute_torn_newer_wal",
                           two_logs + "kAbsoluteConsistency; the newer WAL cut in a record",
                           {Mode::kAbsoluteConsistency, true}, true, true));
  cases.push_back(ModeCase(root, "rocksdb_skip_any_damaged_older_wal",
                           two_logs + "kSkipAnyCorruptedRecords; a byte flipped in the older WAL",
                           {Mode::kSkipAnyCorruptedRecords, true}, false, false));
  cases.push_back(ModeCase(root, "rocksdb_unparanoid_damaged_older_wal",
                           two_logs + "paranoid_checks=false; a byte flipped in the older WAL",
                           {Mode::kPointInTimeRecovery, false}, false, false));
  return cases;
}

// ---- LevelDB ----

constexpr int kLevelDbKeys = 2000;

// Keys [from, to) stepping by `step` in batches of five records: puts of `round`'s value, every
// `delete_every`th key a delete (0: none).
void WriteLevelDbRound(leveldb::DB* db, char round, int from, int to, int step, int delete_every) {
  leveldb::WriteBatch batch;
  int in_batch = 0;
  for (int i = from; i < to; i += step) {
    if (delete_every != 0 && i % delete_every == 0) {
      batch.Delete(NumberedKey(i));
    } else {
      batch.Put(NumberedKey(i), RoundValue(round, i));
    }
    if (++in_batch == 5 || i + step >= to) {
      Check(db->Write(leveldb::WriteOptions(), &batch), "leveldb Write");
      batch.Clear();
      in_batch = 0;
    }
  }
}

// The first FULL record starting in `block` past its first quarter.
const Physical& FullRecordIn(const std::vector<Physical>& records, size_t block) {
  for (const Physical& r : records) {
    if (r.type == 1 && r.offset >= block * kLogBlock + kLogBlock / 4 &&
        r.offset < (block + 1) * kLogBlock - 200) {
      return r;
    }
  }
  Fail("leveldb_damaged_wal: no record to damage in block " + std::to_string(block));
}

// Rewrites the tag of the batch's third record to 0x07, which LevelDB does not know, and the
// record's CRC to match, so only WriteBatch::Iterate sees the damage.
nlohmann::json UnknownTag(std::string* bytes, const Physical& record, const std::string& file) {
  const size_t payload = record.offset + kLogHeader;
  size_t pos = payload + 12;  // after the batch header
  for (int skip = 0; skip < 2; ++skip) {
    const uint8_t tag = static_cast<uint8_t>((*bytes)[pos++]);
    for (int field = 0; field < (tag == 1 ? 2 : 1); ++field) {
      pos += 1 + static_cast<uint8_t>((*bytes)[pos]);  // lengths below 128: one varint byte
    }
  }
  (*bytes)[pos] = 0x07;
  const uint32_t crc =
      MaskedCrc32c(std::string_view(*bytes).substr(record.offset + 6, 1 + record.length));
  for (int i = 0; i < 4; ++i) (*bytes)[record.offset + i] = static_cast<char>(crc >> (8 * i));
  return Damage(file, pos,
                "the third record of the batch at offset " + std::to_string(record.offset) +
                    " given the unknown tag 7 (the record's CRC rewritten to match)");
}

nlohmann::json LevelDbReading(const fs::path& dir, const fs::path& copy, bool paranoid,
                              const KeyList& probes) {
  CopyDatabaseFiles(dir, copy);
  leveldb::Options o;
  o.paranoid_checks = paranoid;
  leveldb::DB* raw = nullptr;
  const leveldb::Status s = leveldb::DB::Open(o, copy.string(), &raw);
  if (!s.ok()) return {{"open", s.ToString()}};
  std::unique_ptr<leveldb::DB> db(raw);
  nlohmann::json answers = nlohmann::json::array();
  for (const Key& k : probes) {
    std::string value;
    answers.push_back(Answer(db->Get(leveldb::ReadOptions(), k, &value), value, k));
  }
  return {{"open", "OK"}, {"answers", answers}};
}

nlohmann::json LevelDbCase(const CorpusRoot& root) {
  const std::string id = "leveldb_damaged_wal";
  const fs::path scratch = root.Scratch("db_wal_damage_leveldb");
  const fs::path db = scratch / "db";
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  {
    leveldb::Options o;
    o.create_if_missing = true;
    o.compression = leveldb::kNoCompression;
    leveldb::DB* raw = nullptr;
    Check(leveldb::DB::Open(o, db.string(), &raw), "leveldb::DB::Open");
    std::unique_ptr<leveldb::DB> d(raw);
    WriteLevelDbRound(d.get(), 'a', 0, kLevelDbKeys, 1, 0);
    Check(d->Put(leveldb::WriteOptions(), "big", std::string(100000, 'B')), "leveldb Put");
    WriteLevelDbRound(d.get(), 'b', 1, kLevelDbKeys, 2, 11);
    WriteLevelDbRound(d.get(), 'c', 0, 300, 1, 7);
  }
  const std::vector<std::string> logs = LogNames(db);
  if (logs.size() != 1) Fail(id + ": expected one log");
  std::string bytes = ReadFile(db / logs[0]);
  if (bytes.size() < 11 * kLogBlock) Fail(id + ": the log is shorter than eleven blocks");
  const std::vector<Physical> records = PhysicalRecords(bytes);
  nlohmann::json damage = nlohmann::json::array();
  damage.push_back(FlipPayloadByte(&bytes, FullRecordIn(records, 1), logs[0]));
  for (const Physical& r : records) {
    if (r.type == 3) {  // the first MIDDLE fragment of "big"
      damage.push_back(FlipPayloadByte(&bytes, r, logs[0]));
      break;
    }
  }
  const Physical& long_record = FullRecordIn(records, 9);
  bytes[long_record.offset + 4] = '\xff';
  bytes[long_record.offset + 5] = '\xff';
  damage.push_back(Damage(logs[0], long_record.offset + 4,
                          "the length of the record at offset " +
                              std::to_string(long_record.offset) + " set to 65535"));
  damage.push_back(UnknownTag(&bytes, FullRecordIn(records, 10), logs[0]));
  WriteFile(db / logs[0], bytes);

  const std::string dir = "db-wal-damage/" + id + "/db";
  KeyList probes = Probes(kLevelDbKeys + 10);
  probes.push_back("big");
  return {
      {"id", id},
      {"format", "leveldb"},
      {"writer",
       "leveldb::DB in batches of five: round a over k0000..k1999, a 100 KB value, round b over "
       "the odd keys (every 11th deleted), round c over k0000..k0299 (every 7th deleted); "
       "closed, one WAL of " +
           std::to_string(bytes.size()) + " bytes"},
      {"dir", dir},
      {"files", root.CopyDatabase(dir, db)},
      {"logs", logs},
      {"damage", damage},
      {"probes",
       {{"path", root.WriteKeys("db-wal-damage/" + id + "/probes.keys", probes)},
        {"count", probes.size()}}},
      {"library", LevelDbReading(db, scratch / "reopened", false, probes)},
      {"library_paranoid", LevelDbReading(db, scratch / "paranoid", true, probes)}};
}

}  // namespace

nlohmann::json DbWalDamageSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  for (nlohmann::json& c : RocksDbCases(root)) cases.push_back(std::move(c));
  cases.push_back(LevelDbCase(root));
  return root.FinishSection("db-wal-damage", "db_wal_damage", cases);
}

}  // namespace corpus
