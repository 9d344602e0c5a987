// Section "db_table_options": RocksDB reads a table with the options the database is opened with
// (which the newest OPTIONS file records), not with the ones the table was written with
// (docs/FORMATS.md 6.6.1). One database is written with a Bloom filter, whole-key filtering and a
// 4-byte fixed prefix extractor (tables on levels 0 and 1); then a copy of it is opened once per
// variant with other table options (DB::Open writes a new OPTIONS file), every probe is read with
// Get, and the Statistics tickers each Get moved are recorded. The variant's directory is copied
// after the database closed, so its newest OPTIONS file is the one the reads ran under.
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

#include "library_status.h"
#include "sections.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;

// "p012-k0345": prefixes "p000" to "p049" (4 bytes) with 40 keys each.
constexpr int kPrefixes = 50;
constexpr int kKeysPerPrefix = 40;

Key PrefixedKey(int prefix, int n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "p%03d-k%04d", prefix, n);
  return buf;
}

// How the database is configured when written, and how each variant changes it.
struct TableSetup {
  std::shared_ptr<const rocksdb::FilterPolicy> filter;
  bool whole_key_filtering = true;
  std::shared_ptr<const rocksdb::SliceTransform> prefix_extractor;
};

rocksdb::Options OptionsFor(const TableSetup& setup) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.disable_auto_compactions = true;  // the tree stays as written in every variant
  options.max_open_files = -1;
  options.compression = rocksdb::kNoCompression;
  options.prefix_extractor = setup.prefix_extractor;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = setup.filter;
  table.whole_key_filtering = setup.whole_key_filtering;
  table.no_block_cache = true;
  table.block_size = 1024;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

std::unique_ptr<rocksdb::DB> Open(const rocksdb::Options& options, const fs::path& dir) {
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::Open(options, dir.string(), &raw), "open " + dir.string());
  return std::unique_ptr<rocksdb::DB>(raw);
}

// A database variants start from, written with `setup`: level 1 from a compaction, then two
// level-0 files with overwrites and deletions; every odd prefix is left out, and some keys of the
// others too.
void WriteBase(const fs::path& dir, const TableSetup& setup) {
  std::unique_ptr<rocksdb::DB> db = Open(OptionsFor(setup), dir);
  for (int p = 0; p < kPrefixes; p += 2)
    for (int n = 0; n < kKeysPerPrefix; n += 2)
      Check(db->Put({}, PrefixedKey(p, n), "v1-" + PrefixedKey(p, n)), "put");
  Check(db->Put({}, "ab", "short key"), "put");
  Check(db->Flush({}), "flush");
  Check(db->CompactRange({}, nullptr, nullptr), "compact");
  for (int p = 0; p < kPrefixes; p += 4)
    for (int n = 0; n < kKeysPerPrefix; n += 6)
      Check(db->Put({}, PrefixedKey(p, n), "v2-" + PrefixedKey(p, n)), "put");
  Check(db->Flush({}), "flush");
  for (int p = 2; p < kPrefixes; p += 4)
    for (int n = 0; n < kKeysPerPrefix; n += 8) Check(db->Delete({}, PrefixedKey(p, n)), "delete");
  Check(db->Put({}, "p010-k9999", "late"), "put");
  Check(db->Flush({}), "flush");
  Check(db->Close(), "close");
}

const rocksdb::Tickers kTickers[] = {
    rocksdb::BLOOM_FILTER_USEFUL,
    rocksdb::BLOOM_FILTER_FULL_POSITIVE,
    rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE,
    rocksdb::BLOOM_FILTER_PREFIX_CHECKED,
    rocksdb::BLOOM_FILTER_PREFIX_USEFUL,
    rocksdb::GET_HIT_L0,
    rocksdb::GET_HIT_L1,
};

// Get for every probe in an open of `dir` with `setup`, the tickers each Get moved and the blocks
// it read (PerfContext block_read_count: with no block cache and every table opened at open, the
// data blocks).
nlohmann::json ReadAll(const fs::path& dir, const TableSetup& setup, const KeyList& probes) {
  rocksdb::Options options = OptionsFor(setup);
  options.create_if_missing = false;
  options.statistics = rocksdb::CreateDBStatistics();
  std::unique_ptr<rocksdb::DB> db = Open(options, dir);
  rocksdb::Statistics& st = *options.statistics;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  nlohmann::json out = nlohmann::json::array();
  for (const Key& k : probes) {
    std::vector<uint64_t> before;
    for (auto t : kTickers) before.push_back(st.getTickerCount(t));
    rocksdb::get_perf_context()->Reset();
    std::string value;
    const rocksdb::Status s = db->Get({}, k, &value);
    const uint64_t blocks_read = rocksdb::get_perf_context()->block_read_count;
    if (!s.ok() && !s.IsNotFound()) Fail("Get " + Hex(k) + ": " + s.ToString());
    nlohmann::json tickers;
    for (size_t i = 0; i < std::size(kTickers); ++i) {
      tickers[rocksdb::TickersNameMap[kTickers[i]].second] =
          st.getTickerCount(kTickers[i]) - before[i];
    }
    out.push_back({{"value", s.ok() ? nlohmann::json(Hex(value)) : nlohmann::json(nullptr)},
                   {"tickers", tickers},
                   {"block_read_count", blocks_read}});
  }
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  Check(db->Close(), "close");
  return out;
}

}  // namespace

nlohmann::json DbTableOptionsSection(const CorpusRoot& root) {
  const fs::path scratch = root.Scratch("db_table_options");
  fs::create_directories(scratch);

  // Probes: written keys, absent keys under written prefixes, keys under prefixes never written,
  // keys shorter than the prefix (outside the extractor's domain), keys outside every file.
  KeyList probes;
  for (int p = 0; p < kPrefixes; ++p)
    for (int n = 0; n < kKeysPerPrefix; n += 3) probes.push_back(PrefixedKey(p, n));
  for (const Key& k : KeyList{"ab", "a", "p01", "p0", "", "zz", "p010-k9999", "p010"})
    probes.push_back(k);

  using Filter = std::shared_ptr<const rocksdb::FilterPolicy>;
  using Extractor = std::shared_ptr<const rocksdb::SliceTransform>;
  const Filter bloom(rocksdb::NewBloomFilterPolicy(10));
  const Filter ribbon(rocksdb::NewRibbonFilterPolicy(10));
  const Extractor fixed4(rocksdb::NewFixedPrefixTransform(4));
  const Extractor fixed3(rocksdb::NewFixedPrefixTransform(3));
  // Two databases: Bloom with whole keys and prefixes, and Ribbon with prefixes only.
  const TableSetup whole_keys{bloom, true, fixed4};
  const TableSetup prefixes_only{ribbon, false, fixed4};
  const fs::path whole_keys_base = scratch / "base_whole_keys";
  const fs::path prefixes_only_base = scratch / "base_prefixes_only";
  WriteBase(whole_keys_base, whole_keys);
  WriteBase(prefixes_only_base, prefixes_only);
  struct Variant {
    std::string id;
    const fs::path& base;
    TableSetup setup;
  };
  const std::vector<Variant> variants = {
      {"as_written", whole_keys_base, whole_keys},
      {"no_filter", whole_keys_base, {nullptr, true, fixed4}},
      {"no_whole_key", whole_keys_base, {bloom, false, fixed4}},
      {"other_prefix", whole_keys_base, {bloom, true, fixed3}},
      {"other_prefix_no_whole_key", whole_keys_base, {bloom, false, fixed3}},
      {"no_prefix_no_whole_key", whole_keys_base, {bloom, false, nullptr}},
      {"ribbon", whole_keys_base, {ribbon, true, fixed4}},
      // The table's whole_key_filtering=false stands under true; a Bloom policy reads Ribbon.
      {"prefixes_only_as_written", prefixes_only_base, prefixes_only},
      {"prefixes_only_bloom_whole_key", prefixes_only_base, {bloom, true, fixed4}},
      {"prefixes_only_other_prefix", prefixes_only_base, {bloom, true, fixed3}},
  };
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& [id, base, setup] : variants) {
    const fs::path path = scratch / id;
    fs::copy(base, path, fs::copy_options::recursive);
    const nlohmann::json answers = ReadAll(path, setup, probes);
    const std::string dir = "db-table-options/" + id;
    const std::vector<std::string> files = root.CopyDatabase(dir + "/db", path);
    cases.push_back(
        {{"id", id},
         {"dir", dir + "/db"},
         {"files", files},
         {"options",
          {{"filter_policy", setup.filter ? setup.filter->Name() : "nullptr"},
           {"whole_key_filtering", setup.whole_key_filtering},
           {"prefix_extractor",
            setup.prefix_extractor ? setup.prefix_extractor->AsString() : "nullptr"}}},
         {"probes",
          {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
         {"answers", answers}});
  }
  return root.FinishSection("db-table-options", "db_table_options", cases);
}

}  // namespace corpus
