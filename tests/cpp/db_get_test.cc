// A database's Get (sstfilter/db_get.h) against the libraries' own answers, as the corpus
// generators recorded them beside the databases (tests/ts/db-get.test.ts checks ts/api/db-get.ts
// against the same): the db_get section's RocksDB 7.8.3 database with files on levels 0 to 2,
// range deletions, uint64add merge chains and an unflushed WAL (DB::Get with the WAL replayed and
// on a copy without it, and the Statistics and PerfContext counters each Get moved), its
// three-column-family database (one reverse bytewise), and the node corpus's node_db_get
// databases: LevelDB 1.23 (classic-level) and RocksDB 10.5.1 (rocksdb-native); and, as tests/ts/
// db-get-values.test.ts checks them, every record kind RocksDB writes replayed from a WAL and
// wide-column entities read from a table; and RocksDB 11.8.1's database with timestamps kept
// out of its tables (fixtures v11_db).
#include "sstfilter/db_get.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "golden.h"
#include "sstfilter/block_cache.h"
#include "sstfilter/db.h"
#include "sstfilter/wal_recovery.h"

namespace sstfilter {
namespace {

namespace fs = std::filesystem;
using Outcome = DbGetResult::Outcome;

// A database folder: its MANIFEST's state, the memtable replayed from its logs, its tables' bytes.
class Database {
 public:
  Database(fs::path dir, DbFormat format) : dir_(std::move(dir)), format_(format) {
    std::string manifest_name;
    if (Status s = ParseCurrentFile(golden::ReadFileBytes(dir_ / "CURRENT"), &manifest_name);
        !s.ok()) {
      throw std::runtime_error(dir_.string() + ": CURRENT: " + s.message());
    }
    const Bytes manifest = golden::ReadFileBytes(dir_ / manifest_name);
    if (Status s = ReadManifest(manifest, format, &manifest_); !s.ok()) {
      throw std::runtime_error(dir_.string() + ": " + manifest_name + ": " + s.message());
    }
    WalReplayOptions options;
    options.format = format;
    for (const ColumnFamilyState& cf : manifest_.column_families) {
      options.column_families.push_back(
          ReplayColumnFamily{cf.id, cf.log_number, BuiltinComparator(cf.comparator)});
    }
    replay_ = std::make_unique<WalReplay>(std::move(options));
    std::set<std::pair<uint64_t, std::string>> logs;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      if (e.path().extension() == ".log") logs.emplace(std::stoull(name), name);
    }
    for (const auto& [number, name] : logs) {
      if (Status s = replay_->ReplayLog(name, number, golden::ReadFileBytes(dir_ / name));
          !s.ok()) {
        throw std::runtime_error(dir_.string() + ": " + name + ": " + s.message());
      }
      log_numbers_.push_back(number);
    }
    if (Status s = replay_->Finish(); !s.ok()) {
      throw std::runtime_error(dir_.string() + ": replay: " + s.message());
    }
  }

  const ColumnFamilyState& Family(const std::string& name) const {
    for (const ColumnFamilyState& cf : manifest_.column_families) {
      if (cf.name == name) return cf;
    }
    throw std::runtime_error(dir_.string() + ": no column family " + name);
  }

  // The lookup of `key` in `family`, with the memtable or over the tables alone; through `cache`
  // where given, the tables named by this database's cache id and their file numbers.
  std::unique_ptr<DbGet> Get(const std::string& family, ByteView key, bool with_wal,
                             BlockCache* cache = nullptr,
                             std::optional<uint64_t> read_timestamp = std::nullopt) {
    DbGetOptions options;
    options.format = format_;
    options.family = &Family(family);
    options.read_timestamp = read_timestamp;
    options.read.block_cache = cache;
    options.read.cache_table.owner = cache_id_;
    if (with_wal) {
      options.memtable = &replay_->memtable();
      options.log_numbers = log_numbers_;
    }
    auto get = std::make_unique<DbGet>(std::move(options), key);
    TableOptions table_options;
    table_options.comparator = BuiltinComparator(Family(family).comparator);
    table_options.manifest_comparator = Family(family).comparator;
    const Status s = DbGetFromMemory(
        *get,
        [&](const TableFileMeta& meta, ByteView* bytes) {
          *bytes = TableBytes(meta.number);
          return Status::Ok();
        },
        table_options);
    if (!s.ok()) throw std::runtime_error(dir_.string() + ": get: " + s.message());
    return get;
  }

 private:
  const Bytes& TableBytes(uint64_t number) {
    auto it = tables_.find(number);
    if (it != tables_.end()) return it->second;
    std::string name = std::to_string(number);
    name.insert(0, name.size() < 6 ? 6 - name.size() : 0, '0');
    const fs::path ldb = dir_ / (name + ".ldb");
    const fs::path path = fs::exists(ldb) ? ldb : dir_ / (name + ".sst");
    return tables_.emplace(number, golden::ReadFileBytes(path)).first->second;
  }

  fs::path dir_;
  DbFormat format_;
  uint64_t cache_id_ = BlockCache::NewId();
  ManifestState manifest_;
  std::unique_ptr<WalReplay> replay_;
  std::vector<uint64_t> log_numbers_;
  std::map<uint64_t, Bytes> tables_;
};

// RocksDB's UInt64AddOperator (utilities/merge_operators/uint64add.cc): little-endian sums, other
// sizes counting 0.
Bytes Uint64Add(const DbGetResult& r) {
  auto number = [](const Bytes& b) {
    uint64_t n = 0;
    if (b.size() == 8) {
      for (int i = 7; i >= 0; --i) n = (n << 8) | b[i];
    }
    return n;
  };
  uint64_t sum = r.has_value ? number(r.value) : 0;
  for (const Bytes& o : r.operands) sum += number(o);
  Bytes out(8);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(sum >> (8 * i));
  return out;
}

// Our answer as the library's Get gives it: the value, or null for not found.
std::optional<Bytes> AsLibrary(const DbGetResult& r) {
  if (r.outcome == Outcome::kFound) return r.value;
  if (r.outcome == Outcome::kMergeOperands) return Uint64Add(r);
  return std::nullopt;
}

std::string Show(const std::optional<Bytes>& v) {
  return v ? golden::HexEncode(*v) : std::string("not found");
}

std::string Route(const DbGet& get) {
  std::string out;
  for (const DbGetStep& s : get.steps()) {
    out +=
        (s.where == DbGetStep::Where::kMemTable ? " log " : " L" + std::to_string(s.level) + " ") +
        std::to_string(s.file_number) + (s.in_range ? "" : " out") +
        " filter=" + DbGetFilterName(s.filter) + " entry=" + DbGetEntryName(s.entry) +
        " blocks=" + std::to_string(s.blocks_read) + ";";
  }
  return out;
}

std::optional<Bytes> Expected(const nlohmann::json& answer) {
  if (answer.at("status") == "not-found") return std::nullopt;
  return golden::HexDecode(answer.at("value").get<std::string>());
}

TEST(DbGet, RocksDbBenchDatabaseAnswersAsRocksDb) {
  size_t cases = 0;
  for (const golden::CorpusSection& section : golden::Sections("db_get")) {
    for (const nlohmann::json& c : section.manifest.at("cases")) {
      if (!c.contains("answers")) continue;
      ++cases;
      const std::string id = c.at("id").get<std::string>();
      Database db(section.corpus->Path(c.at("dir").get<std::string>()), DbFormat::kRocksDb);
      const auto probes = section.corpus->ReadKeys(c.at("probes"));
      const nlohmann::json& answers = c.at("answers");
      ASSERT_EQ(probes.size(), answers.size()) << id;
      ASSERT_GE(probes.size(), 300u) << id;
      std::set<Outcome> outcomes;
      size_t from_log = 0;
      for (size_t i = 0; i < probes.size(); ++i) {
        const std::string what =
            id + " probe " + std::to_string(i) + " " + golden::HexEncode(probes[i]);
        const nlohmann::json& a = answers[i];
        const auto tables = db.Get("default", probes[i], false);
        outcomes.insert(tables->result().outcome);
        EXPECT_EQ(Show(AsLibrary(tables->result())), Show(Expected(a.at("tables_only"))))
            << what << " (tables only):" << Route(*tables);
        const auto full = db.Get("default", probes[i], true);
        const DbGetResult& r = full->result();
        EXPECT_EQ(Show(AsLibrary(r)), Show(Expected(a.at("with_wal")))) << what << Route(*full);
        if (r.outcome != Outcome::kNotFound) {
          EXPECT_TRUE(r.sequence.has_value()) << what;
        }
        const auto& steps = full->steps();
        from_log += std::any_of(steps.begin(), steps.end(), [](const DbGetStep& s) {
          return s.where == DbGetStep::Where::kMemTable && s.entry != DbGetStep::Entry::kNone;
        });
        // The route against the counters RocksDB moved for the same Get.
        const nlohmann::json& tickers = a.at("with_wal").at("tickers");
        uint64_t useful = 0, positive = 0, blocks = 0;
        int hit_level = -1;
        for (const DbGetStep& s : steps) {
          useful += s.filter == DbGetStep::Filter::kNo;
          positive += s.filter == DbGetStep::Filter::kMaybe;
          blocks += s.blocks_read;
          using E = DbGetStep::Entry;
          const bool ends =
              s.entry == E::kValue || (r.outcome == Outcome::kMergeOperands &&
                                       (s.entry == E::kDeletion || s.entry == E::kSingleDeletion ||
                                        s.entry == E::kRangeDeletion));
          if (s.where == DbGetStep::Where::kTable && ends && hit_level < 0) hit_level = s.level;
        }
        EXPECT_EQ(useful, tickers.at("rocksdb.bloom.filter.useful").get<uint64_t>()) << what;
        EXPECT_EQ(positive, tickers.at("rocksdb.bloom.filter.full.positive").get<uint64_t>())
            << what << Route(*full);
        EXPECT_EQ(blocks, a.at("with_wal").at("perf").at("block_read_count").get<uint64_t>())
            << what << Route(*full);
        EXPECT_EQ(hit_level == 0, tickers.at("rocksdb.l0.hit").get<int>() == 1) << what;
        EXPECT_EQ(hit_level == 1, tickers.at("rocksdb.l1.hit").get<int>() == 1) << what;
        EXPECT_EQ(hit_level >= 2, tickers.at("rocksdb.l2andup.hit").get<int>() == 1) << what;
      }
      EXPECT_EQ(outcomes, (std::set<Outcome>{Outcome::kFound, Outcome::kDeleted, Outcome::kNotFound,
                                             Outcome::kMergeOperands}))
          << id << ": every outcome occurs over the tables alone";
      EXPECT_GT(from_log, 0u) << id << ": the WAL decides some probes";
    }
  }
  EXPECT_GE(cases, 1u) << "no db_get case with answers in " << golden::CorporaSummary();
}

TEST(DbGet, ColumnFamiliesAnswerAsRocksDb) {
  size_t cases = 0;
  for (const golden::CorpusSection& section : golden::Sections("db_get")) {
    for (const nlohmann::json& c : section.manifest.at("cases")) {
      if (!c.contains("column_family_answers")) continue;
      ++cases;
      const std::string id = c.at("id").get<std::string>();
      Database db(section.corpus->Path(c.at("dir").get<std::string>()), DbFormat::kRocksDb);
      const auto probes = section.corpus->ReadKeys(c.at("probes"));
      size_t found = 0;
      for (const auto& [family, answers] : c.at("column_family_answers").items()) {
        ASSERT_EQ(answers.size(), probes.size()) << id << " " << family;
        for (size_t i = 0; i < probes.size(); ++i) {
          const auto get = db.Get(family, probes[i], true);
          const std::optional<Bytes> ours = AsLibrary(get->result());
          std::optional<Bytes> theirs;
          if (!answers[i].is_null()) {
            const std::string v = answers[i].get<std::string>();
            theirs = Bytes(v.begin(), v.end());
          }
          found += theirs.has_value();
          EXPECT_EQ(Show(ours), Show(theirs))
              << id << " " << family << " probe " << i << Route(*get);
        }
      }
      EXPECT_GT(found, 0u) << id;
    }
  }
  EXPECT_GE(cases, 1u) << "no column-family db_get case in " << golden::CorporaSummary();
}

// RocksDB 11.8.1's database whose timestamps stay out of its tables (fixtures v11_db,
// persist_user_defined_timestamps = false): every probe as RocksDB's Get at the largest timestamp
// answered it, some decided by the WAL's versions (keys with timestamps), some by the table's
// (keys without, read with the minimum timestamp).
TEST(DbGet, TimestampsKeptOutOfTablesAnswerAsRocksDb11) {
  size_t cases = 0, from_log = 0, from_table = 0;
  for (const golden::CorpusSection& section : golden::Sections("v11_db")) {
    for (const nlohmann::json& c : section.manifest.at("cases")) {
      if (!c.contains("read_timestamp")) continue;
      ++cases;
      const std::string id = c.at("id").get<std::string>();
      // A Get here reads at the largest timestamp only.
      ASSERT_EQ(c.at("read_timestamp").get<std::string>(), "ffffffffffffffff") << id;
      ASSERT_EQ(c.at("rocksdb").at("open").get<std::string>(), "OK") << id;
      Database db(section.corpus->Path(c.at("dir").get<std::string>()), DbFormat::kRocksDb);
      const nlohmann::json& probes = c.at("probes");
      const nlohmann::json& answers = c.at("rocksdb").at("answers");
      ASSERT_EQ(probes.size(), answers.size()) << id;
      for (size_t i = 0; i < probes.size(); ++i) {
        const std::string hex = probes[i].get<std::string>();
        const auto get = db.Get("default", golden::HexDecode(hex), true);
        EXPECT_EQ(Show(AsLibrary(get->result())), Show(Expected(answers[i])))
            << id << " probe " << i << " " << hex << Route(*get);
        for (const DbGetStep& step : get->steps()) {
          const bool decided =
              step.entry == DbGetStep::Entry::kValue || step.entry == DbGetStep::Entry::kDeletion;
          (step.where == DbGetStep::Where::kMemTable ? from_log : from_table) += decided;
        }
      }
    }
  }
  EXPECT_GE(cases, 1u) << "no v11_db case with timestamps in " << golden::CorporaSummary();
  EXPECT_GT(from_log, 0u) << "no probe decided by the WAL";
  EXPECT_GT(from_table, 0u) << "no probe decided by the table";
}

// RocksDB 7.8.3's databases whose one table keeps its keys' timestamps (section
// rocksdb_timestamp: several versions per key, puts and deletions): a Get at each read timestamp,
// the oldest included, answers as the library's Get at that timestamp, the table's newer versions
// skipped.
TEST(DbGet, TimestampsKeptInTablesAnswerAsRocksDbAtEveryReadTimestamp) {
  size_t cases = 0, older_reads = 0, answers_differing_by_timestamp = 0;
  for (const auto& [corpus, manifest] : golden::Sections("rocksdb_timestamp")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      if (!c.contains("database")) continue;  // an older corpus recorded the table alone
      const std::string id = corpus->name + ":" + c.at("id").get<std::string>();
      Database db(corpus->Path(c.at("database").at("dir").get<std::string>()), DbFormat::kRocksDb);
      const std::vector<Bytes> probes = corpus->ReadKeys(c.at("probes"));
      std::vector<std::optional<Bytes>> at_newest;
      for (const nlohmann::json& read : c.at("reads")) {
        const uint64_t ts = std::stoull(read.at("read_timestamp_decimal").get<std::string>());
        const Bytes found = corpus->ReadBytes(read.at("found"));
        const std::vector<Bytes> values = corpus->ReadKeys(read.at("values"));
        ASSERT_EQ(found.size(), probes.size()) << id;
        std::vector<std::optional<Bytes>> answers;
        for (size_t i = 0; i < probes.size(); ++i) {
          const auto get = db.Get("default", probes[i], true, nullptr, ts);
          const std::optional<Bytes> expected =
              found[i] != 0 ? std::optional<Bytes>(values[i]) : std::nullopt;
          EXPECT_EQ(Show(AsLibrary(get->result())), Show(expected))
              << id << " at " << ts << " probe " << i << " " << golden::HexEncode(probes[i])
              << Route(*get);
          answers.push_back(expected);
        }
        if (ts == UINT64_MAX) {
          at_newest = answers;
        } else {
          ++older_reads;
        }
        if (!at_newest.empty() && answers != at_newest) ++answers_differing_by_timestamp;
      }
      ++cases;
    }
  }
  EXPECT_GE(cases, 3u) << "no rocksdb_timestamp database in " << golden::CorporaSummary();
  EXPECT_GE(older_reads, cases) << "no read below the newest timestamp";
  EXPECT_GT(answers_differing_by_timestamp, 0u) << "no read whose answers the timestamp changes";
}

// The node corpus: $SSTFILTER_NODE_CORPUS_DIR, else beside the generated corpus.
fs::path NodeCorpus() {
  const char* env = std::getenv("SSTFILTER_NODE_CORPUS_DIR");
  return env != nullptr && *env != '\0' ? fs::path(env)
                                        : golden::Generated().dir.parent_path() / "node";
}

TEST(DbGet, NodeDatabasesAnswerAsLevelDbAndRocksDb) {
  const fs::path root = NodeCorpus();
  const nlohmann::json manifest = golden::ReadJson(root / "manifest.json");
  const nlohmann::json section = golden::ReadJson(
      root / manifest.at("sections").at("node_db_get").at("path").get<std::string>());
  std::set<std::string> formats;
  for (const nlohmann::json& c : section.at("cases")) {
    const std::string id = c.at("id").get<std::string>();
    const std::string format = c.at("format").get<std::string>();
    formats.insert(format);
    Database db(root / c.at("dir").get<std::string>(),
                format == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb);
    const nlohmann::json& probes = c.at("probes");
    const nlohmann::json& answers = c.at("answers");
    ASSERT_EQ(probes.size(), answers.size()) << id;
    size_t found = 0;
    for (size_t i = 0; i < probes.size(); ++i) {
      const std::string key = probes[i].get<std::string>();
      const auto get = db.Get(
          "default", ByteView(reinterpret_cast<const uint8_t*>(key.data()), key.size()), true);
      std::optional<Bytes> theirs;
      if (!answers[i].is_null()) {
        const std::string v = answers[i].get<std::string>();
        theirs = Bytes(v.begin(), v.end());
      }
      found += theirs.has_value();
      EXPECT_EQ(Show(AsLibrary(get->result())), Show(theirs))
          << id << " probe " << i << " " << key << Route(*get);
    }
    EXPECT_GT(found, 0u) << id;
  }
  EXPECT_EQ(formats, (std::set<std::string>{"leveldb", "rocksdb"})) << root;
}

// The route of a lookup with its block-cache hits counted as reads: what the lookup without a
// cache reports.
std::string RouteUncached(const DbGet& get) {
  std::string out;
  for (const DbGetStep& s : get.steps()) {
    out += std::to_string(s.file_number) + " filter=" + DbGetFilterName(s.filter) +
           " entry=" + DbGetEntryName(s.entry) +
           " blocks=" + std::to_string(s.blocks_read + s.block_cache_hits) + ";";
  }
  return out;
}

// Every database of the corpora, every probe, twice through one block cache: the answers and the
// routes are those without it; the second time every data block comes from the cache (the tables
// are reopened for each lookup, and found again by the database's id and their file numbers), so
// blocks_read counts only the filter partitions, as PerfContext block_read_count does.
TEST(DbGet, ABlockCacheServesRepeatedLookupsWithTheSameAnswers) {
  struct Case {
    fs::path dir;
    DbFormat format;
    std::vector<Bytes> probes;
  };
  std::vector<Case> cases;
  for (const golden::CorpusSection& section : golden::Sections("db_get")) {
    for (const nlohmann::json& c : section.manifest.at("cases")) {
      if (!c.contains("answers")) continue;
      cases.push_back({section.corpus->Path(c.at("dir").get<std::string>()), DbFormat::kRocksDb,
                       section.corpus->ReadKeys(c.at("probes"))});
    }
  }
  const fs::path node = NodeCorpus();
  const nlohmann::json manifest = golden::ReadJson(node / "manifest.json");
  const nlohmann::json node_section = golden::ReadJson(
      node / manifest.at("sections").at("node_db_get").at("path").get<std::string>());
  for (const nlohmann::json& c : node_section.at("cases")) {
    Case one{
        node / c.at("dir").get<std::string>(),
        c.at("format").get<std::string>() == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb,
        {}};
    for (const nlohmann::json& p : c.at("probes")) {
      const std::string key = p.get<std::string>();
      one.probes.emplace_back(key.begin(), key.end());
    }
    cases.push_back(std::move(one));
  }
  std::set<DbFormat> formats;
  uint64_t hits = 0;
  for (const Case& c : cases) {
    Database db(c.dir, c.format);
    BlockCache cache(uint64_t{64} << 20);
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < c.probes.size(); ++i) {
        const std::string what = c.dir.string() + " pass " + std::to_string(pass) + " probe " +
                                 std::to_string(i) + " " + golden::HexEncode(c.probes[i]);
        const auto plain = db.Get("default", c.probes[i], true);
        const auto cached = db.Get("default", c.probes[i], true, &cache);
        EXPECT_EQ(Show(AsLibrary(cached->result())), Show(AsLibrary(plain->result()))) << what;
        EXPECT_EQ(RouteUncached(*cached), RouteUncached(*plain)) << what;
        for (const DbGetStep& s : cached->steps()) {
          hits += s.block_cache_hits;
          // Left to read the second time: the filter partition, if any.
          if (pass == 1) {
            EXPECT_LE(s.blocks_read, 1u) << what << Route(*cached);
          }
        }
        for (const DbGetStep& s : plain->steps()) EXPECT_EQ(s.block_cache_hits, 0u) << what;
      }
    }
    EXPECT_LE(cache.stats().bytes_held, cache.stats().capacity) << c.dir;
    formats.insert(c.format);
  }
  EXPECT_EQ(formats, (std::set<DbFormat>{DbFormat::kLevelDb, DbFormat::kRocksDb}))
      << "no LevelDB and RocksDB databases in " << golden::CorporaSummary();
  EXPECT_GT(hits, 0u) << "no block was served by the cache";
}

// The db_wal section's rocksdb_wal_kinds database: every record kind RocksDB writes, on column
// family cf1, which lives in the WAL only (the case copies no table: the default family's flushed
// one is not there), as tests/corpus/native/wal_section.cc (EveryKind and the batch) writes them;
// each key answers as DB::Get does for those writes. The entities answer their default column.
TEST(DbGet, EveryWrittenKindAnswersAsWritten) {
  struct Expectation {
    std::string family;
    std::string key;
    Outcome outcome;
    std::string value;  // kFound: the value; kMergeOperands: the operands newest first, joined by |
  };
  const std::vector<Expectation> expectations = {
      {"cf1", "c-put", Outcome::kFound, "value-c-"},
      {"cf1", "c-delete", Outcome::kDeleted, ""},
      {"cf1", "c-merge", Outcome::kMergeOperands, "operand-4|operand-3|operand-2|operand-1"},
      {"cf1", "c-range-c", Outcome::kDeleted, ""},
      {"cf1", "c-range-q", Outcome::kNotFound, ""},
      {"cf1", "c-entity", Outcome::kFound, "default-column"},
      {"cf1", "b-entity", Outcome::kFound, "v"},
      {"cf1", "b-delete", Outcome::kDeleted, ""},
      {"cf1", std::string("b-\0binary\xff", 11), Outcome::kFound, std::string("\0\x01\x02", 3)},
      {"cf1", "d-put", Outcome::kNotFound, ""},
  };
  size_t cases = 0;
  for (const golden::CorpusSection& section : golden::Sections("db_wal")) {
    for (const nlohmann::json& c : section.manifest.at("cases")) {
      if (c.at("id") != "rocksdb_wal_kinds") continue;
      ++cases;
      const std::string current = c.at("copied").at("CURRENT").get<std::string>();
      Database db(section.corpus->Path(current).parent_path(), DbFormat::kRocksDb);
      // cf1's keys with the sequence number of their newest record: a batch's records take its
      // sequence number and the ones after it, in order.
      std::map<std::string, uint64_t> newest_in_cf1;
      for (const nlohmann::json& batch : c.at("batches")) {
        uint64_t sequence = batch.at("sequence").get<uint64_t>();
        for (const nlohmann::json& record : batch.at("records")) {
          const Bytes key = golden::HexDecode(record.at("key").get<std::string>());
          if (record.at("cf") == 1) {
            uint64_t& newest = newest_in_cf1[std::string(key.begin(), key.end())];
            newest = std::max(newest, sequence);
          }
          ++sequence;
        }
      }
      for (const Expectation& e : expectations) {
        const auto get = db.Get(
            e.family, ByteView(reinterpret_cast<const uint8_t*>(e.key.data()), e.key.size()), true);
        const DbGetResult& r = get->result();
        std::string value(r.value.begin(), r.value.end());
        if (r.outcome == Outcome::kMergeOperands) {
          EXPECT_FALSE(r.has_value) << e.key;
          value.clear();
          for (const Bytes& o : r.operands) {
            if (!value.empty()) value += '|';
            value.append(o.begin(), o.end());
          }
        }
        EXPECT_EQ(DbGetOutcomeName(r.outcome), std::string(DbGetOutcomeName(e.outcome)))
            << e.family << " " << e.key << Route(*get);
        EXPECT_EQ(value, e.value) << e.family << " " << e.key << Route(*get);
        // The deciding sequence number: the newest record of the key in the batches RocksDB
        // wrote (the case lists them), the range deletion's for a key only that covers.
        const std::string decider = e.key == "c-range-c" ? "c-range-a" : e.key;
        const auto newest = newest_in_cf1.find(decider);
        if (r.outcome == Outcome::kNotFound) {
          EXPECT_FALSE(r.sequence.has_value()) << e.key;
        } else {
          ASSERT_TRUE(newest != newest_in_cf1.end()) << "no record of " << decider;
          EXPECT_EQ(r.sequence, std::optional<uint64_t>(newest->second)) << e.key << Route(*get);
        }
      }
    }
  }
  EXPECT_EQ(cases, 1u) << "no rocksdb_wal_kinds case in " << golden::CorporaSummary();
}

// The rocksdb_values section's "entities" table (PutEntity and one Put, flushed by RocksDB 7.8.3)
// as the one table of a database's bottom level: Get answers each key's default column as the
// columns GetEntity recorded hold it, the empty value where there is none.
TEST(DbGet, EntitiesAnswerTheirDefaultColumn) {
  size_t cases = 0;
  for (const golden::CorpusSection& section : golden::Sections("rocksdb_values")) {
    for (const nlohmann::json& c : section.manifest.at("cases")) {
      if (!c.contains("get_entity")) continue;
      ++cases;
      const Bytes file = section.corpus->ReadBytes(c.at("file"));
      std::vector<std::string> keys;
      for (const nlohmann::json& g : c.at("get_entity")) keys.push_back(g.at("key"));
      const auto [lowest, highest] = std::minmax_element(keys.begin(), keys.end());
      ColumnFamilyState family;
      family.comparator = std::string(kBytewiseComparatorName);
      family.files.resize(7);
      TableFileMeta meta;
      meta.number = 5;
      meta.size = file.size();
      meta.smallest.assign(lowest->begin(), lowest->end());
      meta.smallest.resize(meta.smallest.size() + 8);
      meta.largest.assign(highest->begin(), highest->end());
      meta.largest.resize(meta.largest.size() + 8);
      family.files[6].push_back(meta);
      size_t without_default = 0;
      for (const nlohmann::json& g : c.at("get_entity")) {
        const std::string key = g.at("key");
        const auto names = section.corpus->ReadKeys(g.at("names"));
        const auto values = section.corpus->ReadKeys(g.at("values"));
        const auto at =
            std::find_if(names.begin(), names.end(), [](const auto& n) { return n.empty(); });
        without_default += at == names.end();
        const Bytes expected = at == names.end() ? Bytes() : values[at - names.begin()];
        DbGetOptions options;
        options.family = &family;
        DbGet get(std::move(options),
                  ByteView(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
        ASSERT_TRUE(DbGetFromMemory(get,
                                    [&](const TableFileMeta&, ByteView* bytes) {
                                      *bytes = file;
                                      return Status::Ok();
                                    })
                        .ok())
            << key;
        EXPECT_EQ(get.result().outcome, Outcome::kFound) << key << Route(get);
        EXPECT_EQ(golden::HexEncode(get.result().value), golden::HexEncode(expected)) << key;
        ASSERT_EQ(get.steps().size(), 1u) << key;
        EXPECT_EQ(get.steps()[0].entry, DbGetStep::Entry::kValue) << key;
      }
      EXPECT_GT(without_default, 0u) << c.at("id") << ": an entity without a default column";
    }
  }
  EXPECT_GE(cases, 1u) << "no entities case in " << golden::CorporaSummary();
}

TEST(DbGet, RefusesMisuseWithTypedErrors) {
  ColumnFamilyState family;
  family.comparator = "no.such.Comparator";
  DbGetOptions options;
  options.family = &family;
  DbGet get(options, ByteView());
  EXPECT_EQ(get.Advance().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(get.Advance().code(), ErrorCode::kUnsupported) << "the failure is kept";

  DbGet no_family(DbGetOptions{}, ByteView());
  EXPECT_EQ(no_family.Advance().code(), ErrorCode::kBadOptions);

  family.comparator = std::string(kBytewiseComparatorName);
  DbGet empty(options, ByteView());
  ASSERT_TRUE(empty.Advance().ok());
  EXPECT_TRUE(empty.done());
  EXPECT_EQ(empty.result().outcome, Outcome::kNotFound);
  EXPECT_TRUE(empty.steps().empty());
}

}  // namespace
}  // namespace sstfilter
