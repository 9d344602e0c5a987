// Section "db_get": a whole RocksDB 7.8.3 database as `db_bench` (Debian's rocksdb-tools) leaves
// it, and what DB::Get answers for hundreds of keys (docs/FORMATS.md 6.6). db_bench runs
// fillrandom, overwrite (with a few DeleteRange), deleterandom and mergerandom (uint64add) with a
// 64 KiB write buffer, level-0 compaction at 2 files and small levels; then deleterandom and a
// flush; then a few overwrites and merges left unflushed: files on levels 0 to 2 and a WAL. The
// case copies every file but LOG and LOCK and records, per probe key:
// - "with_wal": Get from a read-only open of the database (the WAL replayed into the memtable),
//   with the Statistics tickers and PerfContext counters that one Get moved;
// - "tables_only": the same from a copy without the WAL (what the tables alone answer);
// - for every fourth probe, what `ldb get --hex` prints (stdout, stderr, exit code) on a copy.
// Read-only opens use max_open_files = -1 (every table opened, its index and filter read, at open)
// and no block cache, so a Get's block_read_count is the data blocks it read.
#include <rocksdb/comparator.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "library_status.h"
#include "sections.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;

constexpr int kKeySpace = 6000;  // db_bench --num: keys 0..5999 are written
constexpr int kMergeKeys = 400;  // db_bench --merge_keys: keys 0..399 get merge operands
constexpr int kKeySize = 12;     // db_bench --key_size

// db_bench's key for a number (GenerateKeyFromInt): 8 bytes big-endian, padded with '0'.
Key BenchKey(uint64_t n) {
  Key k;
  for (int i = 7; i >= 0; --i) k += static_cast<char>((n >> (8 * i)) & 0xff);
  return k + std::string(kKeySize - 8, '0');
}

const rocksdb::Tickers kTickers[] = {
    rocksdb::BLOOM_FILTER_USEFUL,
    rocksdb::BLOOM_FILTER_FULL_POSITIVE,
    rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE,
    rocksdb::MEMTABLE_HIT,
    rocksdb::MEMTABLE_MISS,
    rocksdb::GET_HIT_L0,
    rocksdb::GET_HIT_L1,
    rocksdb::GET_HIT_L2_AND_UP,
};

// Get's answer for every probe from a read-only open of `dir`, with the counters each Get moved.
nlohmann::json ReadAll(const fs::path& dir, const KeyList& probes) {
  rocksdb::Options options;
  options.statistics = rocksdb::CreateDBStatistics();
  options.max_open_files = -1;
  rocksdb::ConfigOptions config;
  Check(rocksdb::MergeOperator::CreateFromString(config, "uint64add", &options.merge_operator),
        "uint64add merge operator");
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table.no_block_cache = true;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::unique_ptr<rocksdb::DB> db;
  {
    rocksdb::DB* raw = nullptr;
    Check(rocksdb::DB::OpenForReadOnly(options, dir.string(), &raw), "open " + dir.string());
    db.reset(raw);
  }
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  nlohmann::json out = nlohmann::json::array();
  rocksdb::Statistics& st = *options.statistics;
  for (const Key& k : probes) {
    std::vector<uint64_t> before;
    for (auto t : kTickers) before.push_back(st.getTickerCount(t));
    rocksdb::get_perf_context()->Reset();
    std::string value;
    const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), k, &value);
    const rocksdb::PerfContext& perf = *rocksdb::get_perf_context();
    nlohmann::json r;
    if (s.ok()) {
      r["status"] = "ok";
      r["value"] = Hex(value);
    } else if (s.IsNotFound()) {
      r["status"] = "not-found";
    } else {
      Fail("Get " + Hex(k) + ": " + s.ToString());
    }
    nlohmann::json tickers;
    for (size_t i = 0; i < std::size(kTickers); ++i) {
      tickers[rocksdb::TickersNameMap[kTickers[i]].second] =
          st.getTickerCount(kTickers[i]) - before[i];
    }
    r["tickers"] = tickers;
    r["perf"] = {{"block_read_count", perf.block_read_count},
                 {"bloom_sst_hit_count", perf.bloom_sst_hit_count},
                 {"bloom_sst_miss_count", perf.bloom_sst_miss_count},
                 {"get_from_memtable_count", perf.get_from_memtable_count}};
    out.push_back(r);
  }
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  Check(db->Close(), "close");
  return out;
}

void CopyDir(const fs::path& from, const fs::path& to, bool with_logs) {
  fs::create_directories(to);
  for (const auto& e : fs::directory_iterator(from)) {
    const std::string name = e.path().filename().string();
    if (!with_logs && name.size() > 4 && name.substr(name.size() - 4) == ".log") continue;
    fs::copy_file(e.path(), to / name, fs::copy_options::overwrite_existing);
  }
}

void Run(const std::string& command) {
  if (std::system(command.c_str()) != 0) Fail("failed: " + command);
}

// What `ldb --db=<dir> get --hex <key>` prints, and its exit code.
nlohmann::json LdbGet(const fs::path& dir, const fs::path& scratch, const Key& key) {
  const fs::path out = scratch / "ldb.out";
  const fs::path err = scratch / "ldb.err";
  const std::string command = "ldb --db=" + dir.string() + " get --hex 0x" + Hex(key) + " >" +
                              out.string() + " 2>" + err.string();
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) Fail("cannot run: " + command);
  return {{"stdout", ReadFile(out)}, {"stderr", ReadFile(err)}, {"exit_code", WEXITSTATUS(status)}};
}

// Case "rocksdb_column_families": column families "default", "one" and "reverse"
// (ReverseBytewiseComparator), each with puts, overwrites, deletions and a range deletion over two
// flushes, nothing left in the WAL; per column family, Get's answer for every probe.
nlohmann::json ColumnFamiliesCase(const CorpusRoot& root, const fs::path& scratch) {
  const fs::path path = scratch / "column_families";
  const std::vector<std::pair<std::string, const rocksdb::Comparator*>> families = {
      {"default", rocksdb::BytewiseComparator()},
      {"one", rocksdb::BytewiseComparator()},
      {"reverse", rocksdb::ReverseBytewiseComparator()}};
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const auto& [name, comparator] : families) {
    rocksdb::ColumnFamilyOptions cf;
    cf.comparator = comparator;
    rocksdb::BlockBasedTableOptions table;
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    descriptors.emplace_back(name, cf);
  }
  const auto key = [](int i) {
    std::string digits = std::to_string(i);
    return "k" + std::string(4 - digits.size(), '0') + digits;
  };
  rocksdb::DBOptions options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::Open(options, path.string(), descriptors, &handles, &raw),
        "open column families");
  std::unique_ptr<rocksdb::DB> db(raw);
  for (size_t f = 0; f < families.size(); ++f) {
    const std::string& name = families[f].first;
    for (int i = 0; i < 600; ++i)
      Check(db->Put({}, handles[f], key(i), name + "-" + std::to_string(i)), "put");
    Check(db->Flush({}, handles[f]), "flush");
    for (int i = 0; i < 600; i += 5)
      Check(db->Put({}, handles[f], key(i), name + "-again-" + std::to_string(i)), "put");
    for (int i = 0; i < 600; i += 7) Check(db->Delete({}, handles[f], key(i)), "delete");
    // [begin, end) in the family's order: the reverse family's range starts at the larger key.
    const bool reverse = families[f].second == rocksdb::ReverseBytewiseComparator();
    Check(db->DeleteRange({}, handles[f], key(reverse ? 330 : 300), key(reverse ? 300 : 330)),
          "delete range");
    Check(db->Flush({}, handles[f]), "flush");
  }
  KeyList probes;
  for (int i = 0; i < 620; i += 3) probes.push_back(key(i));
  nlohmann::json answers;
  for (size_t f = 0; f < families.size(); ++f) {
    nlohmann::json list = nlohmann::json::array();
    for (const Key& k : probes) {
      std::string value;
      const rocksdb::Status s = db->Get({}, handles[f], k, &value);
      if (!s.ok() && !s.IsNotFound()) Fail("Get: " + s.ToString());
      list.push_back(s.ok() ? nlohmann::json(value) : nlohmann::json(nullptr));
    }
    answers[families[f].first] = list;
  }
  for (auto* h : handles) Check(db->DestroyColumnFamilyHandle(h), "close handle");
  Check(db->Close(), "close");
  db.reset();
  const std::string dir = "db-get/rocksdb_column_families";
  const std::vector<std::string> files = root.CopyDatabase(dir + "/db", path);
  return {{"id", "rocksdb_column_families"},
          {"dir", dir + "/db"},
          {"files", files},
          {"probes",
           {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
          {"column_family_answers", answers}};
}

}  // namespace

nlohmann::json DbGetSection(const CorpusRoot& root) {
  const fs::path scratch = root.Scratch("db_get");
  const fs::path bench = scratch / "bench";
  fs::create_directories(scratch);
  // Three runs, each reopening the database: the writes, then deletions flushed into a table
  // (most of the first run's reach the bottom level, where compaction drops them), then a few
  // writes left in the WAL. Each run has a seed of its own (the same seed picks the same keys).
  const std::string common =
      "db_bench --db=" + bench.string() +
      " --merge_operator=uint64add --num=" + std::to_string(kKeySpace) +
      " --merge_keys=" + std::to_string(kMergeKeys) + " --key_size=" + std::to_string(kKeySize) +
      " --value_size=8 --write_buffer_size=65536 --level0_file_num_compaction_trigger=2"
      " --max_bytes_for_level_base=32768 --max_bytes_for_level_multiplier=4"
      " --target_file_size_base=16384 --bloom_bits=10 --compression_type=none --threads=1";
  const std::string quiet = " >>" + (scratch / "db_bench.out").string() + " 2>&1";
  Run(common +
      " --benchmarks=fillrandom,overwrite,deleterandom,mergerandom,waitforcompaction --deletes=800"
      " --writes_per_range_tombstone=2000 --max_num_range_tombstones=6"
      " --range_tombstone_width=30 --seed=17" +
      quiet);
  // The tree's shape must not hang on background timing. The first run waits for its compactions
  // (db_bench's waitforcompaction: closing the database drops those not yet started, and a loaded
  // machine once left only two levels), which leave levels 1 to 3; the later runs compact nothing,
  // so the second run's recovery and flush put files on level 0 that stay there.
  const std::string no_compactions = " --use_existing_db=1 --disable_auto_compactions=1";
  Run(common + no_compactions + " --benchmarks=deleterandom,flush --deletes=300 --seed=18" + quiet);
  Run(common + no_compactions + " --benchmarks=overwrite,mergerandom --writes=60 --seed=19" +
      quiet);

  const std::string dir = "db-get/rocksdb_bench";
  const std::vector<std::string> files = root.CopyDatabase(dir + "/db", bench);

  // Probes: merged keys, a sample of the rest of the key space, keys db_bench never writes, and
  // keys outside every file's range.
  KeyList probes;
  std::vector<std::string> kinds;
  for (int n = 0; n < kMergeKeys; n += 2)
    probes.push_back(BenchKey(n)), kinds.push_back("merge-range");
  for (int n = kMergeKeys; n < kKeySpace; n += 20)
    probes.push_back(BenchKey(n)), kinds.push_back("written-range");
  for (int n = kKeySpace; n < kKeySpace + 100; n += 2)
    probes.push_back(BenchKey(n)), kinds.push_back("never-written");
  for (const Key& k : KeyList{Key("\0", 1), Key(8, '\0'), Key(13, '\xff'),
                              Key("\x00\x00\x00\x00\x00\x00\x00\x05", 8)}) {
    probes.push_back(k);
    kinds.push_back("odd");
  }

  const fs::path tables_only = scratch / "tables-only";
  CopyDir(bench, tables_only, false);
  const nlohmann::json with_wal = ReadAll(bench, probes);
  const nlohmann::json without_wal = ReadAll(tables_only, probes);

  const fs::path ldb_copy = scratch / "ldb";
  CopyDir(bench, ldb_copy, true);
  nlohmann::json answers = nlohmann::json::array();
  for (size_t i = 0; i < probes.size(); ++i) {
    nlohmann::json a = {
        {"kind", kinds[i]}, {"with_wal", with_wal[i]}, {"tables_only", without_wal[i]}};
    if (i % 4 == 0) a["ldb"] = LdbGet(ldb_copy, scratch, probes[i]);
    answers.push_back(a);
  }
  const nlohmann::json c = {
      {"id", "rocksdb_bench"},
      {"dir", dir + "/db"},
      {"files", files},
      {"probes",
       {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
      {"answers", answers},
  };
  return root.FinishSection("db-get", "db_get",
                            nlohmann::json::array({c, ColumnFamiliesCase(root, scratch)}));
}

}  // namespace corpus
