// Sections "rocksdb_filter" and "rocksdb_sst": tables written by RocksDB 7.8.3 (SstFileWriter, or
// a DB's flush and compaction) and RocksDB's own answer for every probe. The answers come from a
// DB reading the table: each Get and each prefix Seek is bracketed by Statistics ticker reads,
// and the tickers that moved say whether the filter was consulted and what it said.
//
// A raw filter is the filter block of a table with one full filter: RocksDB's filter builder and
// reader are not public API in 7.x, and a full filter block is exactly the builder's output. Its
// keys include the empty key and a run of 0xff bytes longer than any probe, so that every probe
// lies inside the table's key range and the DB consults the filter for it.
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
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "filter_tickers.h"
#include "library_status.h"
#include "sections.h"
#include "table_layout.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;
using rocksdb::ChecksumType;
using rocksdb::CompressionType;

struct SstConfig {
  std::string id;
  uint32_t format_version = 5;
  ChecksumType checksum = rocksdb::kCRC32c;
  CompressionType compression = rocksdb::kNoCompression;
  // CompressionOptions: > 0 gives the table a rocksdb.compression_dict block (raw samples, or a
  // dictionary zstd trains from zstd_max_train_bytes of them).
  uint32_t max_dict_bytes = 0;
  uint32_t zstd_max_train_bytes = 0;
  size_t block_size = 4096;
  int restart_interval = 16;
  bool ribbon = false;
  double bits = 10;
  int bloom_before_level = -1;  // Ribbon only
  bool partitioned = false;
  uint64_t metadata_block_size = 4096;
  std::string prefix;  // "", "fixed:N" or "capped:N"
  bool whole_key_filtering = true;
  std::string shape = "bin:1:24";
  size_t count = 2000;
  size_t absent = 2500;
  bool db = false;  // written by a DB's flush, then its compaction, instead of SstFileWriter
};

const char* ChecksumName(ChecksumType t) {
  switch (t) {
    case rocksdb::kNoChecksum:
      return "kNoChecksum";
    case rocksdb::kCRC32c:
      return "kCRC32c";
    case rocksdb::kxxHash:
      return "kxxHash";
    case rocksdb::kxxHash64:
      return "kxxHash64";
    case rocksdb::kXXH3:
      return "kXXH3";
  }
  Fail("unknown checksum type");
}

const char* CompressionName(CompressionType t) {
  switch (t) {
    case rocksdb::kNoCompression:
      return "kNoCompression";
    case rocksdb::kSnappyCompression:
      return "kSnappyCompression";
    case rocksdb::kZlibCompression:
      return "kZlibCompression";
    case rocksdb::kLZ4Compression:
      return "kLZ4Compression";
    case rocksdb::kZSTD:
      return "kZSTD";
    case rocksdb::kBZip2Compression:
      return "kBZip2Compression";
    case rocksdb::kLZ4HCCompression:
      return "kLZ4HCCompression";
    default:
      Fail("compression not used by this corpus");
  }
}

std::shared_ptr<const rocksdb::SliceTransform> PrefixExtractor(const std::string& spec) {
  if (spec.empty()) return nullptr;
  const size_t n = std::stoul(spec.substr(spec.find(':') + 1));
  if (spec.rfind("fixed:", 0) == 0) {
    return std::shared_ptr<const rocksdb::SliceTransform>(rocksdb::NewFixedPrefixTransform(n));
  }
  return std::shared_ptr<const rocksdb::SliceTransform>(rocksdb::NewCappedPrefixTransform(n));
}

rocksdb::Options MakeOptions(const SstConfig& c) {
  rocksdb::BlockBasedTableOptions t;
  t.format_version = c.format_version;
  t.checksum = c.checksum;
  t.block_size = c.block_size;
  t.block_restart_interval = c.restart_interval;
  t.filter_policy.reset(c.ribbon ? rocksdb::NewRibbonFilterPolicy(c.bits, c.bloom_before_level)
                                 : rocksdb::NewBloomFilterPolicy(c.bits));
  t.optimize_filters_for_memory = false;
  t.whole_key_filtering = c.whole_key_filtering;
  if (c.partitioned) {
    t.partition_filters = true;
    t.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    t.metadata_block_size = c.metadata_block_size;
  }
  rocksdb::Options o;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  o.compression = c.compression;
  o.compression_opts.max_dict_bytes = c.max_dict_bytes;
  o.compression_opts.zstd_max_train_bytes = c.zstd_max_train_bytes;
  o.prefix_extractor = PrefixExtractor(c.prefix);
  o.create_if_missing = true;
  o.statistics = rocksdb::CreateDBStatistics();
  o.disable_auto_compactions = true;
  return o;
}

nlohmann::json OptionsRecord(const SstConfig& c) {
  nlohmann::json policy =
      c.ribbon ? nlohmann::json{{"factory", "NewRibbonFilterPolicy"},
                                {"bloom_equivalent_bits_per_key", c.bits},
                                {"bloom_before_level", c.bloom_before_level}}
               : nlohmann::json{{"factory", "NewBloomFilterPolicy"}, {"bits_per_key", c.bits}};
  nlohmann::json prefix = nullptr;
  if (!c.prefix.empty()) {
    const auto e = PrefixExtractor(c.prefix);
    prefix = {{"kind", c.prefix.substr(0, c.prefix.find(':'))},
              {"length", std::stoul(c.prefix.substr(c.prefix.find(':') + 1))},
              {"name", e->AsString()}};
  }
  return {{"format_version", c.format_version},
          {"checksum", ChecksumName(c.checksum)},
          {"compression", CompressionName(c.compression)},
          {"max_dict_bytes", c.max_dict_bytes},
          {"zstd_max_train_bytes", c.zstd_max_train_bytes},
          {"block_size", c.block_size},
          {"block_restart_interval", c.restart_interval},
          {"filter_policy", policy},
          {"partition_filters", c.partitioned},
          {"index_type", c.partitioned ? "kTwoLevelIndexSearch" : "kBinarySearch"},
          {"metadata_block_size", c.metadata_block_size},
          {"prefix_extractor", prefix},
          {"whole_key_filtering", c.whole_key_filtering},
          {"optimize_filters_for_memory", false}};
}

std::string ValueFor(size_t i) {
  std::string v(4, '\0');
  for (int b = 0; b < 4; ++b) v[b] = char((i >> (8 * b)) & 0xff);
  return v;
}

// A DB opened for answering, removed with its folder when done.
class AnsweringDb {
 public:
  AnsweringDb(const rocksdb::Options& options, const fs::path& dir) : options_(options), dir_(dir) {
    fs::remove_all(dir_);
    rocksdb::DB* db = nullptr;
    Check(rocksdb::DB::Open(options_, dir_.string(), &db), "open " + dir_.string());
    db_.reset(db);
  }
  ~AnsweringDb() {
    db_.reset();
    fs::remove_all(dir_);
  }
  rocksdb::DB* db() { return db_.get(); }

  // Get: 0 the filter said no, 1 maybe, 2 not consulted.
  uint8_t GetAnswer(const Key& probe) {
    return GetFilterAnswer(*options_.statistics, [&] {
      std::string value;
      const rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), probe, &value);
      if (!s.ok() && !s.IsNotFound()) Fail("Get: " + s.ToString());
    });
  }

  // Seek with the prefix filter (total_order_seek=false): 0 no, 1 maybe, 2 not checked.
  uint8_t SeekAnswer(const Key& probe) {
    rocksdb::Statistics& st = *options_.statistics;
    const uint64_t checked = st.getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_CHECKED);
    const uint64_t useful = st.getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_USEFUL);
    rocksdb::ReadOptions ro;
    ro.total_order_seek = false;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro));
    it->Seek(probe);
    Check(it->status(), "Seek");
    const uint64_t d_checked = st.getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_CHECKED) - checked;
    const uint64_t d_useful = st.getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_USEFUL) - useful;
    if (d_checked > 1) Fail("one Seek checked more than one prefix filter");
    return !d_checked ? 2 : d_useful ? 0 : 1;
  }

 private:
  rocksdb::Options options_;
  fs::path dir_;
  std::unique_ptr<rocksdb::DB> db_;
};

// The properties RocksDB's own TableProperties reports, by the names the properties block uses
// (RocksDB table/meta_blocks.cc, PropertyBlockBuilder::AddTableProperty). Only those it always
// writes; the case says so with "properties_partial".
nlohmann::json PropertiesRecord(const fs::path& file) {
  rocksdb::Options options;
  rocksdb::SstFileReader reader(options);
  Check(reader.Open(file.string()), "SstFileReader::Open");
  const auto p = reader.GetTableProperties();
  nlohmann::json r = {
      {"rocksdb.num.entries", p->num_entries},
      {"rocksdb.num.data.blocks", p->num_data_blocks},
      {"rocksdb.data.size", p->data_size},
      {"rocksdb.index.size", p->index_size},
      {"rocksdb.filter.size", p->filter_size},
      {"rocksdb.num.filter_entries", p->num_filter_entries},
      {"rocksdb.raw.key.size", p->raw_key_size},
      {"rocksdb.raw.value.size", p->raw_value_size},
      {"rocksdb.num.range-deletions", p->num_range_deletions},
      {"rocksdb.index.key.is.user.key", p->index_key_is_user_key},
      {"rocksdb.index.value.is.delta.encoded", p->index_value_is_delta_encoded},
      {"rocksdb.format.version", p->format_version},
      {"rocksdb.fixed.key.length", p->fixed_key_len},
      {"rocksdb.filter.policy", p->filter_policy_name},
      {"rocksdb.comparator", p->comparator_name},
      {"rocksdb.compression", p->compression_name},
      {"rocksdb.prefix.extractor.name", p->prefix_extractor_name},
  };
  if (p->index_partitions != 0) {
    r["rocksdb.index.partitions"] = p->index_partitions;
    r["rocksdb.top-level.index.size"] = p->top_level_index_size;
  }
  return r;
}

std::string MetaName(const std::string& file, const Footer& footer, const std::string& prefix) {
  const auto found = FindMetaPrefix(file, footer, prefix);
  return found ? found->first : "";
}

nlohmann::json HandleJson(const Handle& h) { return {h.offset, h.size}; }

// The filter's recorded form (RocksDB table/block_based/filter_policy.cc decides the metadata;
// docs/FORMATS.md 2.7 to 2.10). `built_impl` and `filter_meta` read its last five bytes.
void DescribeFilterBits(const std::string& bits, nlohmann::json* out) {
  if (bits.size() <= 5) {
    (*out)["built_impl"] = "always_false";
    return;
  }
  const auto byte = [&](size_t from_end) { return uint8_t(bits[bits.size() - from_end]); };
  if (byte(5) == 0xff) {
    (*out)["built_impl"] = byte(4) == 0 ? "fastlocalbloom" : "always_true";
    (*out)["filter_meta"] = {{"sub_impl", byte(4)},
                             {"log2_block_bytes", 6 + (byte(3) >> 5)},
                             {"num_probes", byte(3) & 31},
                             {"data_len", bits.size() - 5}};
  } else if (byte(5) == 0xfe) {
    (*out)["built_impl"] = "ribbon";
    (*out)["filter_meta"] = {{"seed", byte(4)},
                             {"num_blocks", byte(3) | (byte(2) << 8) | (byte(1) << 16)},
                             {"data_len", bits.size() - 5}};
  } else if (byte(5) == 0) {
    (*out)["built_impl"] = "always_true";
  } else {
    (*out)["built_impl"] = "legacybloom";
    (*out)["filter_meta"] = {
        {"num_probes", byte(5)},
        {"num_lines", byte(4) | (byte(3) << 8) | (byte(2) << 16) | (uint32_t(byte(1)) << 24)}};
  }
}

// Writes the table's filter (full, or every partition and the partition index) next to it and
// returns the manifest's "filter" record; `separators` gets the user keys the filter's partition
// index and the data index separate blocks with.
nlohmann::json RecordFilter(const CorpusRoot& root, const std::string& dir, const std::string& file,
                            const Footer& footer, KeyList* separators) {
  const bool delta_encoded = footer.format_version >= 4;
  const bool index_has_seq = footer.format_version <= 2;
  const auto user_key = [&](const std::string& k) {
    return index_has_seq && k.size() >= 8 ? k.substr(0, k.size() - 8) : k;
  };
  // The data index, when it is a single uncompressed block of user keys or internal keys.
  if (auto index = ReadBlock(file, footer.index)) {
    for (const auto& [key, value] : BlockEntries(*index, delta_encoded)) {
      separators->push_back(user_key(key));
    }
  }
  const std::string full = MetaName(file, footer, "fullfilter.");
  if (!full.empty()) {
    const Handle h = *FindMeta(file, footer, full);
    const std::string bits = *ReadBlock(file, h);
    nlohmann::json r = {{"kind", "full"},
                        {"metaindex_name", full},
                        {"handle", HandleJson(h)},
                        {"path", root.WriteBytes(dir + "/table.filter.bin", bits)},
                        {"bytes", bits.size()}};
    DescribeFilterBits(bits, &r);
    return r;
  }
  const std::string part = MetaName(file, footer, "partitionedfilter.");
  if (part.empty()) Fail(dir + ": table has no filter");
  const Handle h = *FindMeta(file, footer, part);
  const std::string index = *ReadBlock(file, h);
  nlohmann::json partitions = nlohmann::json::array();
  std::set<std::string> impls;
  size_t i = 0;
  for (const auto& [key, value] : BlockEntries(index, delta_encoded)) {
    separators->push_back(user_key(key));
    const Handle ph = DecodeHandle(value);
    const std::string bits = *ReadBlock(file, ph);
    char name[32];
    std::snprintf(name, sizeof name, "%04zu.bin", i);
    nlohmann::json p = {{"index", i},
                        {"separator_hex", Hex(key)},
                        {"handle", HandleJson(ph)},
                        {"path", root.WriteBytes(dir + "/table.filter_partitions/" + name, bits)},
                        {"bytes", bits.size()}};
    DescribeFilterBits(bits, &p);
    impls.insert(p["built_impl"].get<std::string>());
    partitions.push_back(std::move(p));
    ++i;
  }
  return {{"kind", "partitioned"},
          {"metaindex_name", part},
          {"handle", HandleJson(h)},
          {"index_path", root.WriteBytes(dir + "/table.filter_index.bin", index)},
          {"index_key_includes_seq", index_has_seq},
          {"index_value_delta_encoded", delta_encoded},
          {"num_partitions", partitions.size()},
          {"partition_impls", std::vector<std::string>(impls.begin(), impls.end())},
          {"partitions", std::move(partitions)}};
}

nlohmann::json FooterRecord(const Footer& f) {
  const char* names[] = {"kNoChecksum", "kCRC32c", "kxxHash", "kxxHash64", "kXXH3"};
  char magic[17];
  std::snprintf(magic, sizeof magic, "%016llx", static_cast<unsigned long long>(f.magic));
  return {{"format_version", f.format_version},
          {"checksum_type", f.checksum_type < 5 ? names[f.checksum_type] : "unknown"},
          {"metaindex_handle", HandleJson(f.metaindex)},
          {"index_handle", HandleJson(f.index)},
          {"magic", magic}};
}

nlohmann::json MetaindexRecord(const std::string& file, const Footer& footer) {
  nlohmann::json r = nlohmann::json::object();
  for (const auto& [name, value] : BlockEntries(*ReadBlock(file, footer.metaindex))) {
    r[name] = HandleJson(DecodeHandle(value));
  }
  return r;
}

std::string SstDump(const fs::path& file) {
  const std::string command = "cd '" + file.parent_path().string() +
                              "' && sst_dump --file=" + file.filename().string() +
                              " --show_properties 2>&1 | grep -v 'options.env is'";
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
  }
  return out;
}

// Everything about one written table except how it was written: layout records, probes and the
// DB's answers. `db` answers for this table alone (ingested) or is the DB that wrote it.
nlohmann::json DescribeTable(const CorpusRoot& root, const SstConfig& c, const std::string& id,
                             const fs::path& sst, const KeyList& keys, AnsweringDb& db,
                             const nlohmann::json& writer) {
  const std::string dir = "rocksdb-sst/" + id;
  const std::string file = ReadFile(sst);
  const Footer footer = ParseFooter(file);
  KeyList separators;
  nlohmann::json filter = RecordFilter(root, dir, file, footer, &separators);
  KeyList extra;
  for (const Key& s : separators) {
    extra.push_back(s);
    for (Key& n : Neighbours(s)) extra.push_back(std::move(n));
  }
  const KeyShape shape = ParseShape(c.shape);
  std::vector<uint8_t> is_key;
  const KeyList probes = MakeProbes(keys, shape, c.absent, SeedFor(id), extra, 2000, &is_key);
  const auto extractor = PrefixExtractor(c.prefix);
  std::vector<uint8_t> get, seek;
  for (const Key& p : probes) {
    uint8_t answer = db.GetAnswer(p);
    // Without whole-key filtering, RocksDB 7.8.3 counts a Get whose key is outside the
    // extractor's domain as a filter positive although no filter was read.
    if (!c.whole_key_filtering && extractor && !extractor->InDomain(p)) answer = 2;
    get.push_back(answer);
    if (extractor) seek.push_back(db.SeekAnswer(p));
  }
  const std::string table_path = root.CopyFile(dir + "/table.sst", sst);
  root.WriteBytes(dir + "/table.sst_dump.txt", SstDump(root.Abs(table_path)));
  nlohmann::json r = {
      {"id", id},
      {"writer", writer},
      {"options", OptionsRecord(c)},
      {"file", {{"path", table_path}, {"bytes", file.size()}}},
      {"sst_dump", dir + "/table.sst_dump.txt"},
      {"footer", FooterRecord(footer)},
      {"metaindex", MetaindexRecord(file, footer)},
      {"properties", PropertiesRecord(sst)},
      {"properties_partial", true},
      {"keys", KeysRecord(root.WriteKeys(dir + "/keys.keys", keys), keys, c.shape, SeedFor(id))},
      {"values", {{"shape", "u32le"}, {"description", "the key's index in sorted order"}}},
      {"filter", std::move(filter)},
      {"probes",
       {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
      {"probe_is_key", root.WriteU8(dir + "/probe_is_key.u8", is_key)},
      {"get_results", root.WriteU8(dir + "/get_results.u8", get)},
      {"seek_prefix_results",
       extractor ? nlohmann::json(root.WriteU8(dir + "/seek_prefix_results.u8", seek)) : nullptr},
      {"summary", {{"get", Summary(get, is_key)}, {"separator_probes", extra.size()}}},
  };
  return r;
}

// A table written by SstFileWriter and answered by a DB that ingested a copy of it.
fs::path WriteSst(const CorpusRoot& root, const SstConfig& c, const KeyList& keys) {
  const rocksdb::Options options = MakeOptions(c);
  const fs::path sst = root.Scratch(c.id + ".sst");
  fs::create_directories(sst.parent_path());
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  Check(writer.Open(sst.string()), "SstFileWriter::Open");
  for (size_t i = 0; i < keys.size(); ++i) Check(writer.Put(keys[i], ValueFor(i)), "Put");
  Check(writer.Finish(), "SstFileWriter::Finish");
  return sst;
}

std::unique_ptr<AnsweringDb> IngestingDb(const CorpusRoot& root, const SstConfig& c,
                                         const fs::path& sst) {
  auto db = std::make_unique<AnsweringDb>(MakeOptions(c), root.Scratch(c.id + ".db"));
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = false;
  ingest.write_global_seqno = false;
  Check(db->db()->IngestExternalFile({sst.string()}, ingest), "IngestExternalFile");
  return db;
}

std::vector<nlohmann::json> SstCase(const CorpusRoot& root, const SstConfig& c) {
  const KeyList keys = MakeKeys(ParseShape(c.shape), c.count, SeedFor(c.id));
  if (!c.db) {
    const fs::path sst = WriteSst(root, c, keys);
    auto db = IngestingDb(root, c, sst);
    const nlohmann::json writer =
        "rocksdb::SstFileWriter; answers from a DB that ingested it (move_files=false, "
        "write_global_seqno=false)";
    nlohmann::json r = DescribeTable(root, c, c.id, sst, keys, *db, writer);
    fs::remove(sst);
    return {std::move(r)};
  }
  AnsweringDb db(MakeOptions(c), root.Scratch(c.id + ".db"));
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  for (size_t i = 0; i < keys.size(); ++i) Check(db.db()->Put(wo, keys[i], ValueFor(i)), "Put");
  const auto live_file = [&] {
    std::vector<rocksdb::LiveFileMetaData> files;
    db.db()->GetLiveFilesMetaData(&files);
    if (files.size() != 1) Fail(c.id + ": expected one table file in the DB");
    return fs::path(files[0].db_path) / files[0].name.substr(files[0].name.find_first_not_of('/'));
  };
  Check(db.db()->Flush(rocksdb::FlushOptions()), "Flush");
  std::vector<nlohmann::json> out;
  out.push_back(DescribeTable(root, c, c.id, live_file(), keys, db,
                              "rocksdb::DB: Put of every key, Flush to one L0 file; answers "
                              "from that DB (one L0 file: no key-range check before the filter)"));
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  Check(db.db()->CompactRange(compact, nullptr, nullptr), "CompactRange");
  out.push_back(DescribeTable(root, c, c.id + "__compacted", live_file(), keys, db,
                              "rocksdb::DB: CompactRange(kForce) of the flushed file; answers "
                              "from that DB"));
  return out;
}

// Bits per key in an id: 9.9 -> "9p9", 10 -> "10".
std::string BitsName(double bits) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", bits);
  std::string name = text;
  std::replace(name.begin(), name.end(), '.', 'p');
  return name;
}

std::vector<SstConfig> SstConfigs() {
  using rocksdb::kCRC32c, rocksdb::kxxHash, rocksdb::kxxHash64, rocksdb::kXXH3;
  using rocksdb::kLZ4Compression, rocksdb::kSnappyCompression, rocksdb::kZlibCompression,
      rocksdb::kZSTD;
  std::vector<SstConfig> v;
  const auto add = [&](SstConfig c) { v.push_back(std::move(c)); };
  // Every format_version RocksDB 7.8.3 writes, every checksum, every codec.
  for (uint32_t fv : {2u, 3u, 4u, 5u})
    add({.id = "fv" + std::to_string(fv) + "_bloom10_crc32c", .format_version = fv});
  add({.id = "fv5_bloom10_xxhash", .checksum = kxxHash});
  add({.id = "fv5_bloom10_xxhash64", .checksum = kxxHash64});
  add({.id = "fv5_bloom10_xxh3", .checksum = kXXH3});
  add({.id = "fv3_bloom10_xxhash64_snappy",
       .format_version = 3,
       .checksum = kxxHash64,
       .compression = kSnappyCompression});
  add({.id = "fv4_bloom10_xxh3_lz4",
       .format_version = 4,
       .checksum = kXXH3,
       .compression = kLZ4Compression});
  add({.id = "fv5_bloom10_snappy", .compression = kSnappyCompression});
  add({.id = "fv5_bloom10_lz4", .compression = kLZ4Compression});
  add({.id = "fv5_bloom10_zstd_xxh3", .checksum = kXXH3, .compression = kZSTD});
  add({.id = "fv5_bloom10_zlib", .compression = kZlibCompression});
  add({.id = "fv2_bloom10_snappy", .format_version = 2, .compression = kSnappyCompression});
  // BZip2 and LZ4HC, and the codecs that take a dictionary, with one (16 KiB of samples, as RocksDB
  // suggests for bottommost zstd; zstd also with a trained one).
  add({.id = "fv5_bloom10_bzip2", .compression = rocksdb::kBZip2Compression});
  add({.id = "fv2_bloom10_bzip2", .format_version = 2, .compression = rocksdb::kBZip2Compression});
  for (auto [name, codec] :
       {std::pair{"zstd", kZSTD}, std::pair{"lz4", kLZ4Compression},
        std::pair{"lz4hc", rocksdb::kLZ4HCCompression}, std::pair{"zlib", kZlibCompression}}) {
    add({.id = std::string("fv5_bloom10_") + name + "_dict16k",
         .compression = codec,
         .max_dict_bytes = 16384,
         .count = 20000});
  }
  add({.id = "fv5_bloom10_zstd_trained_dict16k",
       .compression = kZSTD,
       .max_dict_bytes = 16384,
       .zstd_max_train_bytes = 1 << 20,
       .count = 20000});
  // FastLocalBloom, legacy Bloom and Ribbon across bits per key and key counts.
  const std::pair<double, size_t> fast[] = {{1, 100},     {3.3, 500}, {6.5, 1000}, {9.9, 2000},
                                            {15.5, 5000}, {20, 3000}, {30, 1500},  {50, 700}};
  for (auto [bits, n] : fast) {
    add({.id = "fv5_bloom" + BitsName(bits) + "_n" + std::to_string(n), .bits = bits, .count = n});
  }
  const std::pair<double, size_t> legacy[] = {
      {1, 300}, {3.3, 800}, {6.5, 2000}, {15.5, 3000}, {30, 1000}};
  for (auto [bits, n] : legacy) {
    add({.id = "fv4_legacy" + BitsName(bits) + "_n" + std::to_string(n),
         .format_version = 4,
         .bits = bits,
         .count = n});
  }
  add({.id = "fv5_ribbon9p9_n10", .ribbon = true, .bits = 9.9, .count = 10});
  add({.id = "fv5_ribbon10_n100", .ribbon = true, .count = 100});
  add({.id = "fv5_ribbon3p3_n3000", .ribbon = true, .bits = 3.3, .count = 3000});
  add({.id = "fv5_ribbon10_n5000", .ribbon = true, .count = 5000});
  add({.id = "fv5_ribbon20_xxh3_n4000",
       .checksum = kXXH3,
       .ribbon = true,
       .bits = 20,
       .count = 4000});
  add({.id = "fv5_ribbon50_n1000", .ribbon = true, .bits = 50, .count = 1000});
  add({.id = "fv4_ribbon9p9_snappy_n12000",
       .format_version = 4,
       .compression = kSnappyCompression,
       .ribbon = true,
       .bits = 9.9,
       .count = 12000});
  // Written by a DB: flush then compaction (Ribbon's bloom_before_level=0 gives Bloom at L0).
  add({.id = "db_ribbon10_bbl0",
       .ribbon = true,
       .bloom_before_level = 0,
       .count = 5000,
       .db = true});
  add({.id = "db_bloom10_zstd_text",
       .compression = kZSTD,
       .shape = "text",
       .count = 3000,
       .db = true});
  add({.id = "db_bloom10_fv2_part",
       .format_version = 2,
       .block_size = 512,
       .partitioned = true,
       .metadata_block_size = 256,
       .count = 4000,
       .db = true});
  // Partitioned filters.
  add({.id = "part_bloom10_mbs256",
       .block_size = 512,
       .partitioned = true,
       .metadata_block_size = 256,
       .count = 5000});
  add({.id = "part_bloom10_mbs1024_xxh3_n12000",
       .checksum = kXXH3,
       .block_size = 1024,
       .partitioned = true,
       .metadata_block_size = 1024,
       .count = 12000});
  add({.id = "part_legacy_fv4_mbs512",
       .format_version = 4,
       .block_size = 1024,
       .partitioned = true,
       .metadata_block_size = 512,
       .count = 5000});
  add({.id = "part_legacy_fv2_mbs512",
       .format_version = 2,
       .block_size = 1024,
       .partitioned = true,
       .metadata_block_size = 512,
       .count = 4000});
  add({.id = "part_legacy_fv3_mbs4096_hibin",
       .format_version = 3,
       .block_size = 256,
       .partitioned = true,
       .metadata_block_size = 4096,
       .shape = "hibin:1:6",
       .count = 6000});
  add({.id = "part_ribbon10_mbs512",
       .block_size = 1024,
       .ribbon = true,
       .partitioned = true,
       .metadata_block_size = 512,
       .count = 8000});
  add({.id = "part_ribbon10_mbs256_mixed_impls",
       .block_size = 512,
       .ribbon = true,
       .partitioned = true,
       .metadata_block_size = 256,
       .count = 3000});
  // Prefix extractors, with and without whole-key filtering.
  add({.id = "part_prefix_fixed4_wkf0",
       .block_size = 512,
       .partitioned = true,
       .metadata_block_size = 256,
       .prefix = "fixed:4",
       .whole_key_filtering = false,
       .shape = "pfx:200:4:1:12",
       .count = 4000});
  add({.id = "db_part_prefix_capped3_ribbon_bbl0",
       .block_size = 1024,
       .ribbon = true,
       .bits = 9.9,
       .bloom_before_level = 0,
       .partitioned = true,
       .metadata_block_size = 512,
       .prefix = "capped:3",
       .shape = "pfxmix:300:1:10",
       .count = 6000,
       .db = true});
  add({.id = "prefix_fixed3_wkf1", .prefix = "fixed:3", .shape = "pfx:100:3:1:10", .count = 3000});
  add({.id = "prefix_fixed3_wkf0",
       .prefix = "fixed:3",
       .whole_key_filtering = false,
       .shape = "pfx:100:3:1:10",
       .count = 3000});
  add({.id = "prefix_capped4_wkf1",
       .prefix = "capped:4",
       .shape = "pfxmix:200:0:8",
       .count = 3000});
  add({.id = "prefix_capped4_wkf0",
       .prefix = "capped:4",
       .whole_key_filtering = false,
       .shape = "pfxmix:200:0:8",
       .count = 3000});
  add({.id = "prefix_fixed8_wkf0_ribbon",
       .ribbon = true,
       .prefix = "fixed:8",
       .whole_key_filtering = false,
       .shape = "pfx:500:8:0:8",
       .count = 5000});
  add({.id = "prefix_fixed2_wkf1_legacy_fv4",
       .format_version = 4,
       .prefix = "fixed:2",
       .shape = "bin:1:10",
       .count = 2000});
  // Block sizes and key shapes.
  add({.id = "bs256", .block_size = 256});
  add({.id = "bs16384_n8000", .block_size = 16384, .count = 8000});
  add({.id = "bs65536_zstd_n10000", .compression = kZSTD, .block_size = 65536, .count = 10000});
  add({.id = "keys_decimal", .shape = "dec", .count = 5000});
  add({.id = "keys_long", .shape = "long:100:2000", .count = 150, .absent = 200});
  add({.id = "keys_tiny_with_empty", .shape = "tiny", .count = 500});
  add({.id = "keys_text_xxh3", .checksum = kXXH3, .shape = "text", .count = 3000});
  add({.id = "keys_hibin_legacy_fv4", .format_version = 4, .shape = "hibin:1:16", .count = 3000});
  add({.id = "keys_mixlen", .shape = "mixlen", .count = 3000});
  add({.id = "big_dec_n200000_snappy",
       .compression = kSnappyCompression,
       .shape = "dec",
       .count = 200000,
       .absent = 20000});
  add({.id = "big_dec_n200000_ribbon_part_zstd",
       .checksum = kXXH3,
       .compression = kZSTD,
       .ribbon = true,
       .bits = 9.9,
       .partitioned = true,
       .shape = "dec",
       .count = 200000,
       .absent = 20000});
  return v;
}

}  // namespace

nlohmann::json RocksDbSstSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  for (const SstConfig& c : SstConfigs()) {
    for (nlohmann::json& r : SstCase(root, c)) cases.push_back(std::move(r));
  }
  return root.FinishSection("rocksdb-sst", "rocksdb_sst", cases);
}

nlohmann::json RocksDbFilterSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  struct Impl {
    const char* name;
    uint32_t format_version;
    bool ribbon;
  };
  const Impl impls[] = {
      {"fastlocalbloom", 5, false}, {"legacybloom", 4, false}, {"ribbon", 5, true}};
  const double bits_list[] = {1, 3.3, 6.5, 9.9, 10, 15.5, 20, 30, 50};
  const char* shapes[] = {"bin:1:24", "hibin:1:16", "dec", "mixlen", "bin:0:8", "long:100:600"};
  size_t shape_index = 0;
  for (const Impl& impl : impls) {
    for (double bits : bits_list) {
      std::vector<size_t> counts = {2, 3, 10, 100, 1000, 10000};
      if (bits == 1 || bits == 6.5 || bits == 9.9 || bits == 20) counts.push_back(200000);
      for (size_t n : counts) {
        const std::string shape =
            n == 200000 ? "bin:1:32" : shapes[shape_index++ % std::size(shapes)];
        const std::string id_str = std::string("rdbf_") + impl.name + "_fv" +
                                   std::to_string(impl.format_version) + "_b" + BitsName(bits) +
                                   "_n" + std::to_string(n);
        SstConfig c{.id = id_str,
                    .format_version = impl.format_version,
                    .ribbon = impl.ribbon,
                    .bits = bits,
                    .shape = shape};
        // The bracketing keys: the smallest key there is, and one above every probe.
        const KeyShape key_shape = ParseShape(shape);
        KeyList keys = MakeKeys(key_shape, n - 1, SeedFor(id_str));
        keys.erase(keys.begin() + (keys.front().empty() ? 0 : n - 2));  // n - 2 non-empty keys
        const size_t longest = std::max<size_t>(key_shape.max_len, 32) + 1;
        keys.insert(keys.begin(), Key());
        keys.push_back(Key(std::max<size_t>(longest, 2100), '\xff'));
        const size_t absent = std::min<size_t>(std::max<size_t>(3 * n, 3000), 20000);
        KeyList probes = MakeAbsentKeys(key_shape, absent, SeedFor(id_str), keys);
        probes.erase(std::remove_if(probes.begin(), probes.end(),
                                    [&](const Key& p) { return p.empty() || p >= keys.back(); }),
                     probes.end());
        const fs::path sst = WriteSst(root, c, keys);
        auto db = IngestingDb(root, c, sst);
        std::vector<uint8_t> answers;
        bool keys_all_match = true;
        for (const Key& k : keys) keys_all_match &= db->GetAnswer(k) == 1;
        for (const Key& p : probes) {
          answers.push_back(db->GetAnswer(p));
          if (answers.back() == 2) Fail(id_str + ": a probe inside the key range was not filtered");
        }
        const std::string file = ReadFile(sst);
        const Footer footer = ParseFooter(file);
        const std::string meta = MetaName(file, footer, "fullfilter.");
        if (meta.empty()) Fail(id_str + ": no full filter");
        const std::string bits_bytes = *ReadBlock(file, *FindMeta(file, footer, meta));
        fs::remove(sst);
        nlohmann::json r = {
            {"id", id_str},
            {"requested_impl", impl.name},
            {"policy", impl.ribbon ? nlohmann::json{{"factory", "NewRibbonFilterPolicy"},
                                                    {"bloom_equivalent_bits_per_key", bits},
                                                    {"bloom_before_level", -1}}
                                   : nlohmann::json{{"factory", "NewBloomFilterPolicy"},
                                                    {"bits_per_key", bits}}},
            {"table_options",
             {{"format_version", impl.format_version}, {"optimize_filters_for_memory", false}}},
        };
        r.update(FilterCaseFiles(root, "rocksdb-filter/", id_str, keys, shape, SeedFor(id_str),
                                 bits_bytes, probes, answers, keys_all_match));
        DescribeFilterBits(bits_bytes, &r);
        cases.push_back(std::move(r));
      }
    }
  }
  return root.FinishSection("rocksdb-filter", "rocksdb_filter", cases);
}

}  // namespace corpus
