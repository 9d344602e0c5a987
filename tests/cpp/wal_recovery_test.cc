// The replay of write-ahead logs into the memtable (sstfilter/wal_recovery.h, memtable.h) against
// the corpus sections the Jest suites check ts/api/wal-recovery.ts with (tests/ts/
// db-wal-damage.test.ts, db-twopc.test.ts): RocksDB 7.8.3 databases with damaged WALs under each
// recovery mode, a LevelDB 1.23 WAL read past four kinds of damage, and TransactionDBs with
// prepared, committed and rolled-back transactions. Each replay must stop where the TypeScript
// replay does, refuse where DB::Open refuses, and leave the memtable versions RocksDB's recovery
// gives; every probe's answer, taken from the memtable and else the newest table entry, must be
// the reopened database's.
#include "sstfilter/wal_recovery.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "golden.h"
#include "log_chunks.h"
#include "sstfilter/db.h"
#include "sstfilter/memtable.h"
#include "sstfilter/table.h"

namespace sstfilter {
namespace {

namespace fs = std::filesystem;

// A database folder of the corpus: its MANIFEST's state and its files.
struct Folder {
  fs::path dir;
  ManifestState manifest;
};

Folder OpenFolder(const golden::Corpus& corpus, const std::string& dir, DbFormat format) {
  Folder out{corpus.Path(dir), {}};
  const Bytes current = golden::ReadFileBytes(out.dir / "CURRENT");
  std::string manifest_name;
  if (Status s = ParseCurrentFile(current, &manifest_name); !s.ok()) {
    throw std::runtime_error(dir + ": CURRENT: " + s.message());
  }
  const Bytes manifest = golden::ReadFileBytes(out.dir / manifest_name);
  if (Status s = ReadManifest(manifest, format, &out.manifest); !s.ok()) {
    throw std::runtime_error(dir + ": " + manifest_name + ": " + s.message());
  }
  return out;
}

uint64_t LogNumber(const std::string& name) { return std::stoull(name.substr(0, name.find('.'))); }

// The options a database's recovery replays its logs with: its column families (comparators by
// the MANIFEST's names) and, for RocksDB, the mode and paranoid checks its OPTIONS file records.
WalReplayOptions OptionsFor(const Folder& folder, DbFormat format, const nlohmann::json& recovery) {
  WalReplayOptions options;
  options.format = format;
  if (!recovery.is_null()) {
    options.mode = static_cast<WalRecoveryMode>(recovery.at("wal_recovery_mode").get<int>());
    options.paranoid_checks = recovery.at("paranoid_checks").get<bool>();
  }
  for (const ColumnFamilyState& cf : folder.manifest.column_families) {
    ComparatorRef comparator = BuiltinComparator(cf.comparator);
    if (comparator == nullptr) throw std::runtime_error("no built-in comparator " + cf.comparator);
    options.column_families.push_back(ReplayColumnFamily{cf.id, cf.log_number, comparator});
  }
  return options;
}

std::vector<WalReplay::FamilyWithTables> FamiliesWithTables(const Folder& folder) {
  std::vector<WalReplay::FamilyWithTables> out;
  for (const ColumnFamilyState& cf : folder.manifest.column_families) {
    const bool has_tables = std::any_of(cf.files.begin(), cf.files.end(),
                                        [](const auto& level) { return !level.empty(); });
    if (has_tables) out.push_back({cf.id, cf.name, cf.log_number});
  }
  return out;
}

// Replays `logs` in order, each fed in chunks of `chunk` bytes. The status is the first failure
// (EndLog's or Finish's); `failed_log` names the log it came from when EndLog failed.
Status Replay(WalReplay* replay, const Folder& folder, const std::vector<std::string>& logs,
              size_t chunk, std::string* failed_log) {
  for (const std::string& name : logs) {
    const Bytes file = golden::ReadFileBytes(folder.dir / name);
    replay->BeginLog(name, LogNumber(name));
    for (size_t at = 0; at < file.size(); at += chunk) {
      replay->Append(ByteView(file).subspan(at, std::min(chunk, file.size() - at)));
    }
    if (Status s = replay->EndLog(); !s.ok()) {
      *failed_log = name;
      return s;
    }
  }
  return replay->Finish(FamiliesWithTables(folder));
}

std::string Text(ByteView key) { return std::string(key.begin(), key.end()); }

// What a replay did, as one text: each log's records, stop, end, status and drops, the
// transactions left prepared, the next sequence number and the memtable's size; chunked and whole
// replays must write the same.
std::string ReplayText(const WalReplay& replay, const Status& status) {
  std::string out = "status " + log_chunks::StatusText(status) + "\n";
  for (const RecoveredLog& log : replay.logs()) {
    out += log.name + " records " + std::to_string(log.records);
    if (log.stopped) {
      out += std::string(" stopped ") + ReplayStopReasonName(log.stopped->reason) + "@" +
             std::to_string(log.stopped->offset) + " " + log.stopped->what;
    }
    out += "\n";
    out += log_chunks::EndText(log.end);
    out += "status " + log_chunks::StatusText(log.status);
    out += log.malformed_batch ? " malformed\n" : "\n";
    out += log_chunks::DropsText(log.drops, log.unlisted_drops);
  }
  for (const PreparedTransaction& t : replay.PreparedUncommitted()) {
    out += "prepared " + XidText(t.xid) + " " + t.log + "@" + std::to_string(t.offset) + " " +
           std::to_string(t.records.size()) + " records\n";
  }
  out += "next " + (replay.next_sequence() ? std::to_string(*replay.next_sequence()) : "none");
  return out + " memtable " + std::to_string(replay.memtable().entry_count()) + " " +
         std::to_string(replay.memtable().record_bytes()) + "\n";
}

// The whole file, then chunks from a byte to just past a block (log_chunks.h).
std::vector<size_t> ReplayChunkSizes() {
  std::vector<size_t> out = {size_t{1} << 30};
  out.insert(out.end(), log_chunks::kChunkSizes.begin(), log_chunks::kChunkSizes.end());
  return out;
}

// The newest version of every user key in the default family's live tables: (sequence, type,
// value). These corpora hold puts and deletions only, so the newest sequence number decides.
struct TableVersion {
  uint64_t sequence = 0;
  uint8_t type = 0;
  Bytes value;
};
std::map<std::string, TableVersion> NewestTableVersions(const Folder& folder) {
  std::map<std::string, TableVersion> out;
  const ColumnFamilyState* family = folder.manifest.ColumnFamily(0);
  if (family == nullptr) return out;
  for (const auto& level : family->files) {
    for (const TableFileMeta& meta : level) {
      char name[32];
      std::snprintf(name, sizeof(name), "%06llu.%s", static_cast<unsigned long long>(meta.number),
                    folder.manifest.format == DbFormat::kLevelDb ? "ldb" : "sst");
      const Bytes file = golden::ReadFileBytes(folder.dir / name);
      std::unique_ptr<TableReader> reader;
      if (Status s = OpenTableFromMemory(file, TableOptions{}, &reader); !s.ok()) {
        throw std::runtime_error(std::string(name) + ": " + s.message());
      }
      TableCursor cursor(*reader, TableCursor::Content::kEntries);
      while (!cursor.at_end()) {
        if (Status s = DriveFromMemory(cursor, file); !s.ok()) {
          throw std::runtime_error(std::string(name) + ": " + s.message());
        }
        const auto& ko = cursor.key_offsets();
        const auto& vo = cursor.value_offsets();
        for (size_t i = 0; i + 1 < ko.size(); ++i) {
          const std::string key(cursor.key_data().begin() + ko[i],
                                cursor.key_data().begin() + ko[i + 1]);
          const uint64_t tag = cursor.tags()[i];
          TableVersion& v = out[key];
          if ((tag >> 8) >= v.sequence) {
            v = TableVersion{tag >> 8, static_cast<uint8_t>(tag & 0xff),
                             Bytes(cursor.value_data().begin() + vo[i],
                                   cursor.value_data().begin() + vo[i + 1])};
          }
        }
        cursor.ClearBatch();
      }
    }
  }
  return out;
}

// A Get's answer as the corpus writes it: {"status": "ok", "value": hex} or {"status":
// "not-found"}; from the memtable's newest version of the key if it has one, else the tables'.
nlohmann::json Answer(const MemTable& memtable, const std::map<std::string, TableVersion>& tables,
                      ByteView key, bool* from_memtable) {
  const std::vector<MemTableVersion> versions = memtable.Versions(0, key);
  const uint64_t tombstone = memtable.CoveringTombstone(0, key);
  *from_memtable = !versions.empty() || tombstone > 0;
  const auto found = [](ByteView value) {
    return nlohmann::json{{"status", "ok"}, {"value", golden::HexEncode(value)}};
  };
  const nlohmann::json not_found = {{"status", "not-found"}};
  if (!versions.empty() && versions[0].sequence > tombstone) {
    const MemTableVersion& v = versions[0];
    return v.kind == WalRecordKind::kPut ? found(v.value) : not_found;
  }
  if (tombstone > 0) return not_found;
  const auto t = tables.find(Text(key));
  if (t == tables.end() || t->second.type != 1) return not_found;
  return found(t->second.value);
}

// Every probe's answer against the library's; the number answered by the memtable.
size_t ExpectAnswers(const std::string& where, const Folder& folder, const MemTable& memtable,
                     const std::vector<Bytes>& probes, const nlohmann::json& answers) {
  const auto tables = NewestTableVersions(folder);
  EXPECT_EQ(probes.size(), answers.size()) << where;
  size_t from_memtable = 0;
  for (size_t i = 0; i < std::min(probes.size(), answers.size()); ++i) {
    bool memtable_decided = false;
    nlohmann::json want = answers[i];
    if (want.contains("value")) {
      want["value"] = golden::HexEncode(golden::HexDecode(want["value"].get<std::string>()));
    }
    EXPECT_EQ(Answer(memtable, tables, probes[i], &memtable_decided), want)
        << where << " probe " << i << " " << Text(probes[i]);
    from_memtable += memtable_decided ? 1 : 0;
  }
  return from_memtable;
}

std::string Stops(const WalReplay& replay) {
  std::string out;
  for (const RecoveredLog& log : replay.logs()) {
    if (!out.empty()) out += ", ";
    out += log.name + " " +
           (log.stopped ? ReplayStopReasonName(log.stopped->reason) : std::string("whole"));
  }
  return out;
}

TEST(WalRecovery, DamagedLogsStopResumeOrRefuseAsDbOpen) {
  size_t opened = 0, refused = 0;
  for (const auto& [corpus, manifest] : golden::Sections("db_wal_damage")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      const std::string id = c.at("id");
      const DbFormat format = c.at("format") == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb;
      const Folder folder = OpenFolder(*corpus, c.at("dir"), format);
      const std::vector<std::string> logs = c.at("logs");
      const std::string open = c.at("library").at("open");
      // Whole, and in chunks that split records and blocks: the same replay.
      std::string whole;
      for (const size_t chunk : ReplayChunkSizes()) {
        const std::string where = corpus->name + ":" + id + " chunk " + std::to_string(chunk);
        WalReplay replay(OptionsFor(folder, format, c.value("recovery", nlohmann::json())));
        std::string failed_log;
        const Status s = Replay(&replay, folder, logs, chunk, &failed_log);
        const std::string text = ReplayText(replay, s) + "failed " + failed_log;
        if (whole.empty()) whole = text;
        EXPECT_EQ(text, whole) << where << ": not the replay of the whole files";
        if (open != "OK") {
          // RocksDB's words after its "Corruption: ", on the damaged log.
          EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << where << ": " << s.message();
          EXPECT_NE(s.message().find(open.substr(std::string("Corruption: ").size())),
                    std::string::npos)
              << where << ": " << s.message();
          const std::string named =
              failed_log.empty() ? replay.UnresumedDamage()->first : failed_log;
          EXPECT_EQ(named, c.at("damage")[0].at("file").get<std::string>()) << where;
          refused += chunk == log_chunks::kChunkSizes[0] ? 1 : 0;
          continue;
        }
        ASSERT_TRUE(s.ok()) << where << ": " << s.message();
        const std::string first = logs[0], second = logs.size() > 1 ? logs[1] : "";
        if (id == "rocksdb_damaged_older_wal" || id == "rocksdb_torn_older_wal") {
          EXPECT_EQ(Stops(replay), first + " damage, " + second + " sequence-gap") << where;
          EXPECT_EQ(replay.logs()[1].records, 0u) << where;
        } else if (id == "rocksdb_damaged_newer_wal") {
          EXPECT_EQ(Stops(replay), first + " whole, " + second + " damage") << where;
        } else if (id == "rocksdb_resumed_wal") {
          EXPECT_EQ(Stops(replay),
                    first + " damage, " + second + " sequence-gap, " + logs[2] + " whole")
              << where;
          EXPECT_GT(replay.logs()[2].records, 0u) << where;
          EXPECT_FALSE(replay.UnresumedDamage().has_value()) << where;
        } else if (id == "rocksdb_tolerate_torn_older_wal") {
          EXPECT_EQ(Stops(replay), first + " whole, " + second + " whole") << where;
          EXPECT_EQ(replay.logs()[0].end.kind, LogEnd::Kind::kTorn) << where;
        } else if (id == "rocksdb_skip_any_damaged_older_wal" ||
                   id == "rocksdb_unparanoid_damaged_older_wal") {
          EXPECT_EQ(Stops(replay), first + " whole, " + second + " whole") << where;
          EXPECT_TRUE(replay.logs()[0].status.ok()) << where;
          ASSERT_FALSE(replay.logs()[0].drops.empty()) << where;
          EXPECT_EQ(replay.logs()[0].drops[0].status.code(), ErrorCode::kChecksumMismatch) << where;
        } else if (id == "leveldb_damaged_wal") {
          EXPECT_EQ(Stops(replay), first + " whole") << where;
          EXPECT_GE(replay.logs()[0].drops.size(), c.at("damage").size()) << where;
        } else {
          ADD_FAILURE() << "no expectation for " << where;
        }
        const std::vector<Bytes> probes = corpus->ReadKeys(c.at("probes"));
        const size_t decided =
            ExpectAnswers(where, folder, replay.memtable(), probes, c.at("library").at("answers"));
        EXPECT_GT(decided, 0u) << where << ": no probe answered by the memtable";
        opened += chunk == log_chunks::kChunkSizes[0] ? 1 : 0;
      }
    }
  }
  EXPECT_GE(opened, 7u);
  EXPECT_GE(refused, 3u);
}

const char* KindOfType(int type) {
  switch (type) {
    case 0:
      return "delete";
    case 1:
      return "put";
    case 2:
      return "merge";
    case 7:
      return "single-delete";
    default:
      return "?";
  }
}

// " kind/cf/key hex/value hex", appended piece by piece.
void AppendRecord(std::string* line, const std::string& kind, uint32_t column_family, ByteView key,
                  ByteView value) {
  line->append(" ").append(kind).append("/").append(std::to_string(column_family));
  line->append("/").append(golden::HexEncode(key)).append("/").append(golden::HexEncode(value));
}

TEST(WalRecovery, TwoPhaseCommitAsTransactionDbRecoversIt) {
  size_t cases = 0;
  for (const auto& [corpus, manifest] : golden::Sections("db_twopc")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      const std::string where = corpus->name + ":" + c.at("id").get<std::string>();
      const Folder folder = OpenFolder(*corpus, c.at("dir"), DbFormat::kRocksDb);
      // allow_2pc: every log down to the MANIFEST's min log number to keep.
      std::vector<std::string> logs;
      for (const std::string name : c.at("files")) {
        if (name.ends_with(".log") && LogNumber(name) >= folder.manifest.min_log_number_to_keep) {
          logs.push_back(name);
        }
      }
      std::sort(logs.begin(), logs.end());
      WalReplay replay(OptionsFor(folder, DbFormat::kRocksDb, nullptr));
      std::string failed_log;
      const Status s = Replay(&replay, folder, logs, size_t{1} << 30, &failed_log);
      for (const size_t chunk : log_chunks::kChunkSizes) {
        WalReplay chunked(OptionsFor(folder, DbFormat::kRocksDb, nullptr));
        const Status cs = Replay(&chunked, folder, logs, chunk, &failed_log);
        EXPECT_EQ(ReplayText(chunked, cs), ReplayText(replay, s)) << where << " chunk " << chunk;
        if (!cs.ok() || !s.ok()) continue;
        for (const Bytes& probe : corpus->ReadKeys(c.at("probes"))) {
          EXPECT_EQ(chunked.memtable().Versions(0, probe).size(),
                    replay.memtable().Versions(0, probe).size())
              << where << " chunk " << chunk << " probe " << Text(probe);
        }
      }
      if (c.contains("transaction_db_write_prepared")) {
        // A WRITE_COMMITTED recovery refuses a WRITE_PREPARED log.
        EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << where << ": " << s.message();
        EXPECT_NE(s.message().find("WRITE_PREPARED"), std::string::npos) << s.message();
        ++cases;
        continue;
      }
      ASSERT_TRUE(s.ok()) << where << ": " << s.message();
      const std::vector<Bytes> probes = corpus->ReadKeys(c.at("probes"));
      // The memtable's versions of each probe are the ones RocksDB's recovery gives.
      const nlohmann::json& theirs = c.at("read_only_2pc").at("memtable_versions");
      ASSERT_EQ(theirs.size(), probes.size()) << where;
      size_t in_memtable = 0;
      for (size_t i = 0; i < probes.size(); ++i) {
        std::vector<std::string> want, got;
        for (const nlohmann::json& v : theirs[i]) {
          want.push_back(std::to_string(v.at("sequence").get<uint64_t>()) + " " +
                         KindOfType(v.at("type").get<int>()) + " " +
                         golden::HexEncode(golden::HexDecode(v.at("value").get<std::string>())));
        }
        for (const MemTableVersion& v : replay.memtable().Versions(0, probes[i])) {
          got.push_back(std::to_string(v.sequence) + " " + WalRecordKindName(v.kind) + " " +
                        golden::HexEncode(v.value));
        }
        EXPECT_EQ(got, want) << where << " probe " << i << " " << Text(probes[i]);
        in_memtable += want.empty() ? 0 : 1;
      }
      EXPECT_GE(in_memtable, 12u) << where;
      ExpectAnswers(where, folder, replay.memtable(), probes, c.at("transaction_db").at("answers"));
      // The transactions left prepared, with their records.
      std::vector<std::string> prepared_got, prepared_want;
      for (const PreparedTransaction& t : replay.PreparedUncommitted()) {
        std::string line = XidText(t.xid) + ":";
        for (const WalRecord& r : t.records) {
          AppendRecord(&line, WalRecordKindName(r.kind), r.column_family, r.key, r.value);
        }
        prepared_got.push_back(line);
      }
      for (const nlohmann::json& t : c.at("transaction_db").at("prepared")) {
        std::string line = t.at("name").get<std::string>() + ":";
        for (const nlohmann::json& r : t.at("records")) {
          AppendRecord(&line, r.at("kind").get<std::string>(), r.at("cf").get<uint32_t>(),
                       golden::HexDecode(r.at("key").get<std::string>()),
                       golden::HexDecode(r.at("value").get<std::string>()));
        }
        prepared_want.push_back(line);
      }
      std::sort(prepared_got.begin(), prepared_got.end());
      EXPECT_EQ(prepared_got, prepared_want) << where;
      EXPECT_GE(prepared_want.size(), 2u) << where;
      // The record listener sees each record the replay numbers: as many as the logs count, and
      // every version the memtable holds of a probe with its sequence number.
      {
        std::vector<WalRecord> listed;
        WalReplayOptions listening = OptionsFor(folder, DbFormat::kRocksDb, nullptr);
        listening.on_record = [&](const WalRecord& r) { listed.push_back(r); };
        WalReplay heard(std::move(listening));
        ASSERT_TRUE(Replay(&heard, folder, logs, size_t{1} << 30, &failed_log).ok()) << where;
        uint64_t counted = 0;
        for (const RecoveredLog& log : heard.logs()) counted += log.records;
        EXPECT_EQ(listed.size(), counted) << where;
        for (size_t i = 0; i < probes.size(); ++i) {
          for (const MemTableVersion& v : heard.memtable().Versions(0, probes[i])) {
            const bool seen = std::any_of(listed.begin(), listed.end(), [&](const WalRecord& r) {
              return r.sequence == v.sequence && r.column_family == 0 && r.key == probes[i];
            });
            EXPECT_TRUE(seen) << where << " probe " << i << " sequence " << v.sequence;
          }
        }
      }
      // Keeping one key: the same versions of it, and nothing else.
      for (size_t i = 0; i < probes.size(); ++i) {
        WalReplayOptions only = OptionsFor(folder, DbFormat::kRocksDb, nullptr);
        only.only_key = probes[i];
        WalReplay one(std::move(only));
        ASSERT_TRUE(Replay(&one, folder, logs, size_t{1} << 30, &failed_log).ok()) << where;
        const auto all = replay.memtable().Versions(0, probes[i]);
        const auto kept = one.memtable().Versions(0, probes[i]);
        EXPECT_EQ(kept.size(), all.size()) << where << " only probe " << i;
        EXPECT_EQ(one.memtable().entry_count(), kept.size()) << where << " only probe " << i;
      }
      ++cases;
    }
  }
  EXPECT_GE(cases, 2u);
}

// RocksDB 11.8.1's databases (fixtures v11_db) whose WALs carry predecessor records (types 130 and
// 131) under track_and_verify_wals: replayed as DB::Open replays them, every Get equals
// RocksDB's, and the chain missing a WAL is refused as RocksDB refuses it. The database with
// timestamps kept out of its tables is db_get_test.cc's and tests/ts/db-v11.test.ts's, the one of
// wide-column entities and a blob file (whose Gets read the blob file) db-v11.test.ts's.
TEST(WalRecovery, RocksDb11PredecessorRecordsAsDbOpen) {
  size_t opened = 0, refused = 0;
  for (const auto& [corpus, manifest] : golden::Sections("v11_db")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      if (c.contains("read_timestamp") || c.at("rocksdb").contains("entities")) continue;
      const std::string where = corpus->name + ":" + c.at("id").get<std::string>();
      const Folder folder = OpenFolder(*corpus, c.at("dir"), DbFormat::kRocksDb);
      // RecoverLogFiles replays the logs from the oldest family's log number on.
      uint64_t min_log = UINT64_MAX;
      for (const ColumnFamilyState& cf : folder.manifest.column_families) {
        min_log = std::min(min_log, cf.log_number);
      }
      std::vector<std::string> logs;
      for (const std::string name : c.at("files")) {
        if (name.ends_with(".log") && LogNumber(name) >= min_log) logs.push_back(name);
      }
      WalReplayOptions options = OptionsFor(folder, DbFormat::kRocksDb, nullptr);
      options.track_and_verify_wals = c.at("options").at("track_and_verify_wals").get<bool>();
      ASSERT_TRUE(options.track_and_verify_wals) << where;
      for (const size_t chunk : log_chunks::kChunkSizes) {
        WalReplay replay(options);
        std::string failed_log;
        const Status s = Replay(&replay, folder, logs, chunk, &failed_log);
        const std::string open = c.at("rocksdb").at("open");
        const std::string at = where + " chunk " + std::to_string(chunk);
        if (open != "OK") {
          // RocksDB: "Column family inconsistency: SST file contains data beyond the point of
          // corruption in CF side"; ours names the predecessor check and the family.
          EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << at << ": " << s.message();
          EXPECT_NE(s.message().find("column family side"), std::string::npos)
              << at << ": " << s.message();
          ASSERT_EQ(replay.logs().size(), logs.size()) << at;
          const RecoveredLog& stopped = replay.logs().back();
          EXPECT_NE(stopped.status.message().find("mismatched predecessor log number"),
                    std::string::npos)
              << at << ": " << stopped.status.message();
          refused += chunk == log_chunks::kChunkSizes[0] ? 1 : 0;
          continue;
        }
        ASSERT_TRUE(s.ok()) << at << ": " << s.message();
        std::vector<Bytes> keys;
        for (const std::string hex : c.at("probes")) keys.push_back(golden::HexDecode(hex));
        const size_t from_memtable =
            ExpectAnswers(at, folder, replay.memtable(), keys, c.at("rocksdb").at("answers"));
        EXPECT_GE(from_memtable, 9u) << at;  // the WALs decide a part of the probes
        opened += chunk == log_chunks::kChunkSizes[0] ? 1 : 0;
      }
    }
  }
  EXPECT_GE(opened, 2u) << golden::CorporaSummary();
  EXPECT_GE(refused, 1u) << golden::CorporaSummary();
}

// The replay keeping one key (what `sstfilter db get` runs) under a timestamp comparator: the key
// comes without a timestamp and its versions at every timestamp are kept, the same as the whole
// replay holds (fixtures v11_db, the database whose WAL keys carry timestamps).
TEST(WalRecovery, OneKeyUnderTimestampsKeepsItsVersionsAtEveryTimestamp) {
  size_t kept_versions = 0;
  size_t spanning_deletions = 0;
  for (const auto& [corpus, manifest] : golden::Sections("v11_db")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      if (!c.contains("read_timestamp")) continue;
      const std::string where = corpus->name + ":" + c.at("id").get<std::string>();
      const Folder folder = OpenFolder(*corpus, c.at("dir"), DbFormat::kRocksDb);
      std::vector<std::string> logs;
      for (const std::string name : c.at("files")) {
        if (name.ends_with(".log")) logs.push_back(name);
      }
      std::string failed_log;
      WalReplay whole(OptionsFor(folder, DbFormat::kRocksDb, nullptr));
      ASSERT_TRUE(Replay(&whole, folder, logs, size_t{1} << 30, &failed_log).ok()) << where;
      for (const nlohmann::json& probe : c.at("probes")) {
        const Bytes key = golden::HexDecode(probe.get<std::string>());
        WalReplayOptions only = OptionsFor(folder, DbFormat::kRocksDb, nullptr);
        only.only_key = key;
        // The range deletions whose user-key bounds (the 8-byte timestamps cut off) span the key
        // are kept too, at whatever timestamp.
        size_t spanning = 0;
        only.on_record = [&](const WalRecord& r) {
          if (r.kind != WalRecordKind::kRangeDelete || r.key.size() < 8 || r.value.size() < 8)
            return;
          const ByteView begin = ByteView(r.key).first(r.key.size() - 8);
          const ByteView end = ByteView(r.value).first(r.value.size() - 8);
          if (CompareBytes(begin, key) <= 0 && CompareBytes(key, end) < 0) ++spanning;
        };
        WalReplay one(std::move(only));
        ASSERT_TRUE(Replay(&one, folder, logs, size_t{1} << 30, &failed_log).ok()) << where;
        const auto all = whole.memtable().VersionsAtEveryTimestamp(0, key);
        const auto kept = one.memtable().VersionsAtEveryTimestamp(0, key);
        ASSERT_EQ(kept.size(), all.size()) << where << " probe " << probe;
        for (size_t i = 0; i < kept.size(); ++i) {
          EXPECT_EQ(kept[i].sequence, all[i].sequence) << where << " probe " << probe;
        }
        EXPECT_EQ(one.memtable().entry_count(), kept.size() + spanning)
            << where << " probe " << probe;
        EXPECT_EQ(one.memtable().CoveringTombstone(0, key),
                  whole.memtable().CoveringTombstone(0, key))
            << where << " probe " << probe;
        kept_versions += kept.size();
        spanning_deletions += spanning;
      }
    }
  }
  EXPECT_GT(kept_versions, 0u) << "no v11_db case with timestamps in " << golden::CorporaSummary();
  EXPECT_GT(spanning_deletions, 0u)
      << "no v11_db range deletion with timestamps in " << golden::CorporaSummary();
}

}  // namespace
}  // namespace sstfilter
