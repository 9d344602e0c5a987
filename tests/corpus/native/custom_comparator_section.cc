// Section "custom_comparator": tables and databases whose keys are ordered by a comparator of the
// generator's own (not bytewise), and what RocksDB 7.8.3 and LevelDB 1.23 answer for them. A
// reader that does not know such an order must never answer "definitely not" for a key the file
// holds; one that is given the order must answer as the library does.
//
// The two orders (tests/ts/custom-comparators.ts has the same two in TypeScript):
// - sstfilter.test.U64SuffixComparator: keys of 8 bytes or more by the little-endian u64 in their
//   last 8 bytes, ties by the bytewise order of the whole keys; keys shorter than 8 bytes before
//   all others, bytewise among themselves.
// - sstfilter.test.ReversePrefixComparator: the first min(4, size) bytes of each key (its prefix)
//   compared bytewise and the result negated (so "ab" sorts after "abcd", and the empty key last);
//   equal prefixes: the rest of the keys (from byte 4 on) compared bytewise.
// Neither shortens separators or successors (FindShortestSeparator, FindShortSuccessor do
// nothing), so index keys are whole keys.
//
// Cases:
// - sst_<order>_{bloom,ribbon,partitioned}: SstFileWriter tables (block_size 1024; FastLocalBloom
//   at format_version 5, Ribbon, or a partitioned Bloom filter with a two-level index and a small
//   metadata_block_size); per probe the filter answer of DB::Get on a DB of the same comparator
//   that ingested the table (filter_tickers.h), and Get's value.
// - db_<order>: a RocksDB database with tables on levels 0, 1 and 2 (CompactFiles), overwrites and
//   deletions across them, and writes left in the WAL; per probe DB::Get from a read-only open.
// - leveldb_u64_suffix: a LevelDB database under U64SuffixComparator with tables on levels 0, 1
//   and 2 (4 KiB blocks; the level-2 table written by a compaction), a WAL; per probe DB::Get on a
//   copy, and per table the entries LevelDB's own iterator over it yields.
// The database cases are in custom_comparator_databases.cc.
#include <leveldb/comparator.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>
#include <leveldb/table.h>
#include <rocksdb/comparator.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <string_view>

#include "custom_comparator.h"
#include "filter_tickers.h"
#include "library_status.h"
#include "sections.h"
#include "table_layout.h"

namespace corpus {
namespace custom_comparator {

namespace fs = std::filesystem;

// ---- The two orders, written once for both libraries -------------------------------------------

int Bytewise(std::string_view a, std::string_view b) {
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

uint64_t LastU64(std::string_view key) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | uint8_t(key[key.size() - 8 + i]);
  return v;
}

int CompareU64Suffix(std::string_view a, std::string_view b) {
  const bool a_long = a.size() >= 8, b_long = b.size() >= 8;
  if (a_long != b_long) return a_long ? 1 : -1;
  if (a_long) {
    const uint64_t x = LastU64(a), y = LastU64(b);
    if (x != y) return x < y ? -1 : 1;
  }
  return Bytewise(a, b);
}

int CompareReversePrefix(std::string_view a, std::string_view b) {
  const std::string_view pa = a.substr(0, std::min<size_t>(4, a.size()));
  const std::string_view pb = b.substr(0, std::min<size_t>(4, b.size()));
  const int prefix = Bytewise(pa, pb);
  if (prefix != 0) return -prefix;
  return Bytewise(a.substr(pa.size()), b.substr(pb.size()));
}

const Order kU64Suffix{"sstfilter.test.U64SuffixComparator", "u64_suffix", CompareU64Suffix};
const Order kReversePrefix{"sstfilter.test.ReversePrefixComparator", "reverse_prefix",
                           CompareReversePrefix};

class RocksOrder : public rocksdb::Comparator {
 public:
  explicit RocksOrder(const Order& order) : order_(order) {}
  const char* Name() const override { return order_.name; }
  int Compare(const rocksdb::Slice& a, const rocksdb::Slice& b) const override {
    return order_.compare({a.data(), a.size()}, {b.data(), b.size()});
  }
  void FindShortestSeparator(std::string*, const rocksdb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  Order order_;
};

class LevelOrder : public leveldb::Comparator {
 public:
  explicit LevelOrder(const Order& order) : order_(order) {}
  const char* Name() const override { return order_.name; }
  int Compare(const leveldb::Slice& a, const leveldb::Slice& b) const override {
    return order_.compare({a.data(), a.size()}, {b.data(), b.size()});
  }
  void FindShortestSeparator(std::string*, const leveldb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  Order order_;
};

const rocksdb::Comparator* RocksComparator(const Order& order) {
  static const RocksOrder u64(kU64Suffix), reverse(kReversePrefix);
  return order.compare == CompareU64Suffix ? static_cast<const rocksdb::Comparator*>(&u64)
                                           : &reverse;
}

const leveldb::Comparator* LevelComparator() {
  static const LevelOrder u64(kU64Suffix);
  return &u64;
}

// ---- Keys ---------------------------------------------------------------------------------------

std::string RandomBytes(Random& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = char(rng.Uniform(256));
  return s;
}

std::string Le64(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = char((v >> (8 * i)) & 0xff);
  return s;
}

void SortBy(const Order& order, KeyList* keys) {
  std::sort(keys->begin(), keys->end(),
            [&](const Key& a, const Key& b) { return order.compare(a, b) < 0; });
}

// `count` distinct keys for `order`, sorted by it. U64Suffix: a few keys shorter than 8 bytes,
// then 0..4 random bytes and a u64 (half small numbers, half any), some u64s shared by two keys.
// ReversePrefix: a few keys of 1..3 bytes, then one of count/8 random 4-byte prefixes and 0..8
// random bytes.
KeyList MakeOrderedKeys(const Order& order, size_t count, uint64_t seed) {
  Random rng(seed);
  std::set<Key> set;
  const size_t short_keys = count / 40;
  while (set.size() < short_keys) {
    set.insert(
        RandomBytes(rng, order.compare == CompareU64Suffix ? rng.Range(1, 7) : rng.Range(1, 3)));
  }
  KeyList prefixes;
  for (size_t i = 0; i < count / 8; ++i) prefixes.push_back(RandomBytes(rng, 4));
  while (set.size() < count) {
    if (order.compare == CompareU64Suffix) {
      const uint64_t v = rng.Uniform(2) ? rng.Uniform(100000) : rng.Next();
      set.insert(RandomBytes(rng, rng.Range(0, 4)) + Le64(v));
      if (rng.Uniform(8) == 0 && set.size() < count)
        set.insert(RandomBytes(rng, rng.Range(0, 4)) + Le64(v));
    } else {
      set.insert(prefixes[rng.Uniform(prefixes.size())] + RandomBytes(rng, rng.Range(0, 8)));
    }
  }
  KeyList keys(set.begin(), set.end());
  SortBy(order, &keys);
  return keys;
}

// Keys next to `key` in `order` (some may be keys too).
KeyList OrderNeighbours(const Order& order, const Key& key, Random& rng) {
  KeyList out;
  if (order.compare == CompareU64Suffix) {
    if (key.size() < 8) {
      out.push_back(key + '\0');
      out.push_back(key.substr(0, key.size() - 1));
      return out;
    }
    const Key prefix = key.substr(0, key.size() - 8);
    const uint64_t v = LastU64(key);
    out.push_back(prefix + Le64(v + 1));
    out.push_back(prefix + Le64(v - 1));
    out.push_back(prefix + '\x01' + Le64(v));                    // the same u64, a tie
    out.push_back(RandomBytes(rng, rng.Range(0, 3)) + Le64(v));  // likewise
    return out;
  }
  const Key prefix = key.substr(0, 4), rest = key.size() > 4 ? key.substr(4) : "";
  out.push_back(key + '\0');
  out.push_back(prefix + RandomBytes(rng, rng.Range(1, 6)));
  if (!rest.empty()) out.push_back(prefix + rest.substr(0, rest.size() - 1));
  if (prefix.size() == 4) {
    Key other = prefix;
    other[3] = char(uint8_t(other[3]) + 1);
    out.push_back(other + rest);
    out.push_back(prefix.substr(0, 3));  // a shorter prefix: after every key of `prefix`
  }
  return out;
}

// Probes: every `step`-th key (is_key 1; `key_index` gets its index in `keys`), then about
// `absent` keys that are not keys (key_index -1), most of them neighbours of keys in the order (so
// they interleave with the keys), a few random, and keys before the first and after the last.
KeyList MakeOrderedProbes(const Order& order, const KeyList& keys, size_t step, size_t absent,
                          uint64_t seed, std::vector<uint8_t>* is_key,
                          std::vector<long>* key_index) {
  Random rng(seed ^ 0x5bd1e995);
  std::set<Key> seen(keys.begin(), keys.end());
  KeyList probes;
  for (size_t i = 0; i < keys.size(); i += step) {
    probes.push_back(keys[i]);
    is_key->push_back(1);
    key_index->push_back(long(i));
  }
  const auto add = [&](const Key& k) {
    if (seen.insert(k).second) {
      probes.push_back(k);
      is_key->push_back(0);
      key_index->push_back(-1);
    }
  };
  // Outside the keys' range: the empty key (first in U64Suffix, last in ReversePrefix), and keys
  // at the other end.
  add("");
  if (order.compare == CompareU64Suffix) {
    add(Le64(~uint64_t{0}));
    add("\xff" + Le64(~uint64_t{0}));
  } else {
    add("\xff\xff\xff\xff");
    add(std::string("\xff\xff\xff\xff\xff", 5));
    add(std::string(1, '\0'));
  }
  const size_t target = probes.size() + absent;
  while (probes.size() < target) {
    if (rng.Uniform(10) == 0) {
      add(RandomBytes(rng, rng.Range(1, 12)));
      continue;
    }
    for (const Key& k : OrderNeighbours(order, keys[rng.Uniform(keys.size())], rng)) {
      if (probes.size() < target) add(k);
    }
  }
  return probes;
}

std::string ValueFor(size_t i) {
  std::string v(4, '\0');
  for (int b = 0; b < 4; ++b) v[b] = char((i >> (8 * b)) & 0xff);
  return v;
}

nlohmann::json GetJson(const rocksdb::Status& s, const std::string& value,
                       const std::string& what) {
  if (s.ok()) return {{"status", "ok"}, {"value", Hex(value)}};
  if (s.IsNotFound()) return {{"status", "not-found"}};
  Fail(what + ": " + s.ToString());
}

nlohmann::json GetJson(const leveldb::Status& s, const std::string& value,
                       const std::string& what) {
  if (s.ok()) return {{"status", "ok"}, {"value", Hex(value)}};
  if (s.IsNotFound()) return {{"status", "not-found"}};
  Fail(what + ": " + s.ToString());
}

// ---- RocksDB tables -----------------------------------------------------------------------------

enum class FilterKind { kBloom, kRibbon, kPartitioned };

struct TableConfig {
  const Order* order;
  FilterKind filter;
  const char* filter_id;
};

rocksdb::Options TableOptions(const TableConfig& c) {
  rocksdb::BlockBasedTableOptions t;
  t.format_version = 5;
  t.block_size = 1024;
  t.filter_policy.reset(c.filter == FilterKind::kRibbon ? rocksdb::NewRibbonFilterPolicy(10, -1)
                                                        : rocksdb::NewBloomFilterPolicy(10));
  t.optimize_filters_for_memory = false;
  if (c.filter == FilterKind::kPartitioned) {
    t.partition_filters = true;
    t.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    t.metadata_block_size = 256;
  }
  rocksdb::Options o;
  o.comparator = RocksComparator(*c.order);
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  o.compression = rocksdb::kNoCompression;
  o.create_if_missing = true;
  o.disable_auto_compactions = true;
  o.statistics = rocksdb::CreateDBStatistics();
  return o;
}

nlohmann::json TableOptionsRecord(const TableConfig& c) {
  const bool partitioned = c.filter == FilterKind::kPartitioned;
  return {{"comparator", c.order->name},
          {"format_version", 5},
          {"block_size", 1024},
          {"filter_policy", c.filter == FilterKind::kRibbon ? "NewRibbonFilterPolicy(10, -1)"
                                                            : "NewBloomFilterPolicy(10)"},
          {"partition_filters", partitioned},
          {"index_type", partitioned ? "kTwoLevelIndexSearch" : "kBinarySearch"},
          {"metadata_block_size", partitioned ? 256 : 4096},
          {"compression", "kNoCompression"}};
}

// How many partitions the table's filter has (0: a full filter).
size_t FilterPartitions(const std::string& file) {
  const Footer footer = ParseFooter(file);
  const auto part = FindMetaPrefix(file, footer, "partitionedfilter.");
  if (!part) return 0;
  return BlockEntries(*ReadBlock(file, part->second), true).size();
}

nlohmann::json TableCase(const CorpusRoot& root, const TableConfig& c) {
  const std::string id = std::string("sst_") + c.order->id + "_" + c.filter_id;
  const std::string dir = "custom-comparator/" + id;
  const KeyList keys = MakeOrderedKeys(*c.order, 2000, SeedFor(id));
  const rocksdb::Options options = TableOptions(c);
  const fs::path sst = root.Scratch(id + ".sst");
  fs::create_directories(sst.parent_path());
  {
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
    Check(writer.Open(sst.string()), "SstFileWriter::Open");
    for (size_t i = 0; i < keys.size(); ++i) Check(writer.Put(keys[i], ValueFor(i)), "Put");
    Check(writer.Finish(), "SstFileWriter::Finish");
  }
  const fs::path db_dir = root.Scratch(id + ".db");
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::Open(options, db_dir.string(), &raw), "open " + db_dir.string());
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = false;
  ingest.write_global_seqno = false;
  Check(db->IngestExternalFile({sst.string()}, ingest), "IngestExternalFile");

  std::vector<uint8_t> is_key;
  std::vector<long> key_index;
  const KeyList probes =
      MakeOrderedProbes(*c.order, keys, 1, 1200, SeedFor(id), &is_key, &key_index);
  std::vector<uint8_t> answers, found;
  KeyList values;
  for (const Key& p : probes) {
    std::string value;
    rocksdb::Status s;
    answers.push_back(GetFilterAnswer(*options.statistics,
                                      [&] { s = db->Get(rocksdb::ReadOptions(), p, &value); }));
    if (!s.ok() && !s.IsNotFound()) Fail(id + ": Get: " + s.ToString());
    found.push_back(s.ok() ? 1 : 0);
    values.push_back(s.ok() ? value : "");
  }
  for (size_t i = 0; i < probes.size(); ++i) {
    const bool expected = i < keys.size();
    if (found[i] != expected || (expected && values[i] != ValueFor(i)))
      Fail(id + ": Get of probe " + std::to_string(i) + " is not what was written");
  }
  rocksdb::TableProperties props;
  {
    rocksdb::TablePropertiesCollection all;
    Check(db->GetPropertiesOfAllTables(&all), "GetPropertiesOfAllTables");
    if (all.size() != 1) Fail(id + ": expected one table");
    props = *all.begin()->second;
  }
  Check(db->Close(), "close");
  db.reset();
  const std::string file = ReadFile(sst);
  const size_t partitions = FilterPartitions(file);
  if (props.comparator_name != c.order->name) Fail(id + ": rocksdb.comparator is not the order's");
  if (c.filter == FilterKind::kPartitioned && (partitions < 3 || props.index_partitions < 3))
    Fail(id + ": too few filter or index partitions");
  const nlohmann::json summary = Summary(answers, is_key);
  if (summary["no"].get<size_t>() == 0) Fail(id + ": the filter never said no");
  return {
      {"id", id},
      {"kind", "table"},
      {"comparator", c.order->name},
      {"writer",
       "rocksdb::SstFileWriter; answers from a DB of the same comparator that ingested it "
       "(move_files=false, write_global_seqno=false)"},
      {"options", TableOptionsRecord(c)},
      {"file", {{"path", root.CopyFile(dir + "/table.sst", sst)}, {"bytes", file.size()}}},
      {"properties",
       {{"rocksdb.comparator", props.comparator_name},
        {"rocksdb.num.entries", props.num_entries},
        {"rocksdb.num.data.blocks", props.num_data_blocks},
        {"rocksdb.index.partitions", props.index_partitions},
        {"rocksdb.filter.policy", props.filter_policy_name}}},
      {"filter_partitions", partitions},
      {"keys_count", keys.size()},
      {"values",
       {{"shape", "u32le"}, {"description", "the key's index in the comparator's order"}}},
      {"probes",
       {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
      {"probe_is_key", root.WriteU8(dir + "/probe_is_key.u8", is_key)},
      {"get_results", root.WriteU8(dir + "/get_results.u8", answers)},
      {"get_found", root.WriteU8(dir + "/get_found.u8", found)},
      {"get_values", root.WriteKeys(dir + "/get_values.keys", values)},
      {"summary", {{"get", summary}}},
  };
}

}  // namespace custom_comparator

using custom_comparator::FilterKind;
using custom_comparator::kReversePrefix;
using custom_comparator::kU64Suffix;
using custom_comparator::LevelDbCase;
using custom_comparator::Order;
using custom_comparator::RocksDbCase;
using custom_comparator::TableCase;

nlohmann::json CustomComparatorSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  for (const Order* order : {&kU64Suffix, &kReversePrefix}) {
    cases.push_back(TableCase(root, {order, FilterKind::kBloom, "bloom"}));
    cases.push_back(TableCase(root, {order, FilterKind::kRibbon, "ribbon"}));
    cases.push_back(TableCase(root, {order, FilterKind::kPartitioned, "partitioned"}));
  }
  for (const Order* order : {&kU64Suffix, &kReversePrefix})
    cases.push_back(RocksDbCase(root, *order));
  cases.push_back(LevelDbCase(root));
  return root.FinishSection("custom-comparator", "custom_comparator", cases);
}

}  // namespace corpus
