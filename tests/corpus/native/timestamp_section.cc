// Section "rocksdb_timestamp": tables whose keys carry user-defined timestamps, written by RocksDB
// 7.8.3 with its comparator leveldb.BytewiseComparator.u64ts (BytewiseComparatorWithU64Ts: an
// 8-byte little-endian timestamp after each user key; keys sort by user key, then the newest
// timestamp first). Several timestamps per key, puts and deletions, written by SstFileWriter
// (Put/Delete with a timestamp; answers from a DB that ingested the file) or by a DB (Put, Delete
// and SingleDelete with a timestamp, then Flush to one file; answers from that DB).
//
// Recorded per table:
// - the entries as RocksDB's own iterator yields them: ReadOptions::timestamp at the largest
//   timestamp and iter_start_ts at the smallest show every version, keys as internal keys (user
//   key, timestamp, tag), deletions included; the DB holds this one file only;
// - for each read timestamp, each probe's Get: what the filter said (Statistics tickers, as the
//   rocksdb_sst section reads them) and what Get returned (found, value, the version's timestamp);
// - the database those Gets read (closed after them): its one table, MANIFEST and OPTIONS file.
#include <rocksdb/comparator.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <rocksdb/table_properties.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "filter_tickers.h"
#include "library_status.h"
#include "sections.h"

namespace rocksdb {
// Defined by librocksdb 7.8.3 (util/comparator.cc) but declared only by the headers of later
// versions (include/rocksdb/comparator.h).
const Comparator* BytewiseComparatorWithU64Ts();
}  // namespace rocksdb

namespace corpus {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxTimestamp = UINT64_MAX;
// Timestamps written are 1..kTimestampRange; reads happen at these.
constexpr uint64_t kTimestampRange = 1000;
constexpr uint64_t kReadTimestamps[] = {kMaxTimestamp, 700, 300, 1, 0};

struct TsConfig {
  std::string id;
  bool db = false;     // written by a DB's flush instead of SstFileWriter
  std::string prefix;  // "", "fixed:N" or "capped:N"
  bool whole_key_filtering = true;
  bool partitioned = false;
  std::string shape = "bin:1:16";
  size_t count = 1500;
};

std::vector<TsConfig> TsConfigs() {
  return {
      {.id = "ts_sst_bloom"},
      {.id = "ts_db_bloom_dec", .db = true, .shape = "dec", .count = 2000},
      {.id = "ts_sst_prefix_fixed3_wkf0",
       .prefix = "fixed:3",
       .whole_key_filtering = false,
       .shape = "pfx:100:3:1:10"},
      {.id = "ts_db_prefix_capped4_wkf1",
       .db = true,
       .prefix = "capped:4",
       .shape = "pfxmix:200:0:8"},
      {.id = "ts_db_partitioned", .db = true, .partitioned = true, .count = 3000},
  };
}

std::string Timestamp(uint64_t t) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = char((t >> (8 * i)) & 0xff);
  return out;
}

rocksdb::Options MakeOptions(const TsConfig& c) {
  rocksdb::BlockBasedTableOptions t;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  t.whole_key_filtering = c.whole_key_filtering;
  t.block_size = 1024;
  if (c.partitioned) {
    t.partition_filters = true;
    t.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    t.metadata_block_size = 256;
  }
  rocksdb::Options o;
  o.comparator = rocksdb::BytewiseComparatorWithU64Ts();
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  o.compression = rocksdb::kNoCompression;
  if (!c.prefix.empty()) {
    const size_t n = std::stoul(c.prefix.substr(c.prefix.find(':') + 1));
    o.prefix_extractor.reset(c.prefix.rfind("fixed:", 0) == 0
                                 ? rocksdb::NewFixedPrefixTransform(n)
                                 : rocksdb::NewCappedPrefixTransform(n));
  }
  o.create_if_missing = true;
  o.statistics = rocksdb::CreateDBStatistics();
  o.disable_auto_compactions = true;
  return o;
}

// One version of a key: its timestamp and what was written.
struct Version {
  uint64_t timestamp;
  enum Kind : uint8_t { kPut, kDelete, kSingleDelete } kind;
};

// 1 to 4 versions per key, distinct timestamps, newest first (the order a writer must add them
// in); about one in six a deletion (SingleDelete only through a DB, only on a key's newest).
std::vector<Version> VersionsFor(Random& rng, bool db) {
  std::set<uint64_t, std::greater<>> stamps;
  const uint32_t n = rng.Range(1, 4);
  while (stamps.size() < n) stamps.insert(1 + rng.Uniform(kTimestampRange));
  std::vector<Version> out;
  for (uint64_t t : stamps) {
    Version v{t, Version::kPut};
    if (rng.Uniform(6) == 0) {
      v.kind = db && out.empty() && rng.Uniform(2) == 0 ? Version::kSingleDelete : Version::kDelete;
    }
    out.push_back(v);
  }
  return out;
}

std::string ValueFor(size_t key, uint64_t timestamp) {
  return std::to_string(key) + "@" + std::to_string(timestamp);
}

// Writes every version of every key, into `sst` (SstFileWriter) or into the DB.
void WriteVersions(const TsConfig& c, const KeyList& keys,
                   const std::vector<std::vector<Version>>& versions, rocksdb::DB* db,
                   const fs::path& sst) {
  std::unique_ptr<rocksdb::SstFileWriter> writer;
  if (!c.db) {
    writer = std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(), MakeOptions(c));
    Check(writer->Open(sst.string()), "SstFileWriter::Open");
  }
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  for (size_t i = 0; i < keys.size(); ++i) {
    for (const Version& v : versions[i]) {
      const std::string ts = Timestamp(v.timestamp);
      const std::string value = ValueFor(i, v.timestamp);
      rocksdb::Status s;
      if (writer) {
        s = v.kind == Version::kPut ? writer->Put(keys[i], ts, value) : writer->Delete(keys[i], ts);
      } else if (v.kind == Version::kPut) {
        s = db->Put(wo, keys[i], ts, value);
      } else if (v.kind == Version::kDelete) {
        s = db->Delete(wo, keys[i], ts);
      } else {
        s = db->SingleDelete(wo, keys[i], ts);
      }
      Check(s, "writing a version");
    }
  }
  if (writer) Check(writer->Finish(), "SstFileWriter::Finish");
}

// The entries RocksDB's iterator yields with every version visible: user keys, timestamps and
// tags as 8 little-endian bytes each, values.
struct IteratedEntries {
  KeyList keys, values;
  std::string timestamps, tags;
  std::set<uint8_t> types;
};

IteratedEntries IterateAll(rocksdb::DB* db) {
  const std::string high = Timestamp(kMaxTimestamp), low = Timestamp(0);
  const rocksdb::Slice high_slice(high), low_slice(low);
  rocksdb::ReadOptions ro;
  ro.timestamp = &high_slice;
  ro.iter_start_ts = &low_slice;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  IteratedEntries out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    // With iter_start_ts the key is the internal key: user key, timestamp, tag.
    const rocksdb::Slice key = it->key();
    if (key.size() < 16) Fail("an iterated key shorter than its timestamp and tag");
    const size_t user = key.size() - 16;
    out.keys.push_back(key.ToString().substr(0, user));
    out.timestamps += key.ToString().substr(user, 8);
    out.tags += key.ToString().substr(user + 8, 8);
    out.types.insert(uint8_t(key[user + 8]));
    out.values.push_back(it->value().ToString());
  }
  Check(it->status(), "iterating every version");
  return out;
}

nlohmann::json TsCase(const CorpusRoot& root, const TsConfig& c) {
  const KeyShape shape = ParseShape(c.shape);
  const KeyList keys = MakeKeys(shape, c.count, SeedFor(c.id));
  Random rng(SeedFor(c.id + "/versions"));
  std::vector<std::vector<Version>> versions;
  size_t written = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    versions.push_back(VersionsFor(rng, c.db));
    written += versions.back().size();
  }
  const rocksdb::Options options = MakeOptions(c);
  const fs::path scratch = root.Scratch(c.id);
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  const fs::path sst = scratch / "table.sst";
  if (!c.db) WriteVersions(c, keys, versions, nullptr, sst);
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::Open(options, (scratch / "db").string(), &raw), "DB::Open");
  std::unique_ptr<rocksdb::DB> db(raw);
  fs::path table = sst;
  if (c.db) {
    WriteVersions(c, keys, versions, db.get(), sst);
    Check(db->Flush(rocksdb::FlushOptions()), "Flush");
    std::vector<rocksdb::LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    if (files.size() != 1) Fail(c.id + ": expected one table file in the DB");
    table = fs::path(files[0].db_path) / files[0].name.substr(files[0].name.find_first_not_of('/'));
  } else {
    rocksdb::IngestExternalFileOptions ingest;
    ingest.move_files = false;
    ingest.write_global_seqno = false;
    Check(db->IngestExternalFile({sst.string()}, ingest), "IngestExternalFile");
  }
  const std::string dir = "rocksdb-timestamp/" + c.id;
  const std::string table_path = root.CopyFile(dir + "/table.sst", table);

  const IteratedEntries entries = IterateAll(db.get());
  if (entries.keys.size() != written) {
    Fail(c.id + ": the iterator yields " + std::to_string(entries.keys.size()) + " entries, " +
         std::to_string(written) + " were written");
  }
  rocksdb::SstFileReader reader(options);
  Check(reader.Open(table.string()), "SstFileReader::Open");
  const auto props = reader.GetTableProperties();
  nlohmann::json user_properties = nlohmann::json::object();
  for (const auto& [name, value] : props->user_collected_properties) {
    user_properties[name] = Hex(value);
  }

  // Probes: every key (up to 2000) and absent keys of the same shape.
  std::vector<uint8_t> is_key;
  const KeyList probes = MakeProbes(keys, shape, 1500, SeedFor(c.id), {}, 2000, &is_key);
  const std::shared_ptr<const rocksdb::SliceTransform> extractor = options.prefix_extractor;
  // A read at timestamp T sees only versions at or below T: the probes with one are the keys at T
  // (a filter may rightly rule out a key whose versions are all newer).
  std::map<Key, uint64_t> oldest;
  for (size_t i = 0; i < keys.size(); ++i) oldest[keys[i]] = versions[i].back().timestamp;
  nlohmann::json reads = nlohmann::json::array();
  for (const uint64_t read_ts : kReadTimestamps) {
    std::vector<uint8_t> visible;
    for (const Key& p : probes) {
      const auto found = oldest.find(p);
      visible.push_back(found != oldest.end() && found->second <= read_ts ? 1 : 0);
    }
    const std::string ts = Timestamp(read_ts);
    const rocksdb::Slice ts_slice(ts);
    rocksdb::ReadOptions ro;
    ro.timestamp = &ts_slice;
    std::vector<uint8_t> answers, found;
    KeyList values, found_timestamps;
    for (const Key& p : probes) {
      rocksdb::Status s;
      std::string value, got_ts;
      uint8_t answer = GetFilterAnswer(*options.statistics, [&] {
        s = db->Get(ro, db->DefaultColumnFamily(), p, &value, &got_ts);
        if (!s.ok() && !s.IsNotFound()) Fail(c.id + ": Get: " + s.ToString());
      });
      // Without whole-key filtering, 7.8.3 counts a Get of a key outside the extractor's domain
      // as a filter positive although no filter was read (as in the rocksdb_sst section).
      if (!c.whole_key_filtering && extractor && !extractor->InDomain(p)) answer = 2;
      answers.push_back(answer);
      found.push_back(s.ok() ? 1 : 0);
      values.push_back(s.ok() ? value : "");
      // NotFound of a deleted key still reports the deletion's timestamp.
      found_timestamps.push_back(got_ts);
    }
    const std::string name = read_ts == kMaxTimestamp ? "max" : std::to_string(read_ts);
    const std::string at = dir + "/read_" + name;
    reads.push_back({{"read_timestamp", Hex(Timestamp(read_ts))},
                     {"read_timestamp_decimal", std::to_string(read_ts)},
                     {"get_results", root.WriteU8(at + "/get_results.u8", answers)},
                     {"found", root.WriteU8(at + "/found.u8", found)},
                     {"values", root.WriteKeys(at + "/values.keys", values)},
                     {"timestamps", root.WriteKeys(at + "/timestamps.keys", found_timestamps)},
                     {"probe_has_version", root.WriteU8(at + "/probe_has_version.u8", visible)},
                     {"summary", Summary(answers, visible)}});
  }
  db.reset();
  const std::vector<std::string> database = root.CopyDatabase(dir + "/db", scratch / "db");
  nlohmann::json prefix = nullptr;
  if (extractor) prefix = extractor->AsString();
  return {
      {"id", c.id},
      {"writer", c.db ? "rocksdb::DB: Put, Delete and SingleDelete with timestamps, Flush to one "
                        "L0 file; answers from that DB"
                      : "rocksdb::SstFileWriter: Put and Delete with timestamps; answers from a "
                        "DB that ingested it (move_files=false, write_global_seqno=false)"},
      {"options",
       {{"comparator", options.comparator->Name()},
        {"timestamp_size", options.comparator->timestamp_size()},
        {"filter_policy", {{"factory", "NewBloomFilterPolicy"}, {"bits_per_key", 10}}},
        {"whole_key_filtering", c.whole_key_filtering},
        {"partition_filters", c.partitioned},
        {"prefix_extractor", prefix}}},
      {"file", {{"path", table_path}, {"bytes", fs::file_size(table)}}},
      {"properties",
       {{"rocksdb.comparator", props->comparator_name},
        {"rocksdb.num.entries", props->num_entries},
        {"rocksdb.prefix.extractor.name", props->prefix_extractor_name}}},
      // 7.8.3 records the timestamps' range through its built-in collector, not their size.
      {"user_collected_properties_hex", user_properties},
      {"keys", KeysRecord(root.WriteKeys(dir + "/keys.keys", keys), keys, c.shape, SeedFor(c.id))},
      {"entries",
       {{"route", "DB iterator, ReadOptions::timestamp = max, iter_start_ts = 0 (every version)"},
        {"count", entries.keys.size()},
        {"types", std::vector<uint8_t>(entries.types.begin(), entries.types.end())},
        {"keys", root.WriteKeys(dir + "/entries/keys.keys", entries.keys)},
        {"timestamps", root.WriteBytes(dir + "/entries/timestamps.bin", entries.timestamps)},
        {"tags", root.WriteBytes(dir + "/entries/tags.bin", entries.tags)},
        {"values", root.WriteKeys(dir + "/entries/values.keys", entries.values)}}},
      {"probes",
       {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
      {"probe_is_key", root.WriteU8(dir + "/probe_is_key.u8", is_key)},
      {"reads", reads},
      {"database", {{"dir", dir + "/db"}, {"files", database}}},
  };
}

}  // namespace

nlohmann::json RocksDbTimestampSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  for (const TsConfig& c : TsConfigs()) cases.push_back(TsCase(root, c));
  return root.FinishSection("rocksdb-timestamp", "rocksdb_timestamp", cases);
}

}  // namespace corpus
