// Writes the fixtures of tests/corpus/fixtures/v11-kv/ (and, through tables_meta.cc, v11-meta/)
// with RocksDB 11.8.1 built from its tagged source (README.md beside this file says how):
// block-based tables whose data blocks keep values apart from keys
// (separate_key_value_in_data_block), combined with filters, partitions, a prefix extractor, each
// codec and each checksum, and index blocks marked uniform (bit 29); the keys and values written,
// and RocksDB's own answer per probe.
//
// Tables are built as SstFileWriter builds them (table/sst_file_writer.cc: its properties
// collector, sequence number 0, kTypeValue), but through the table factory directly, so that the
// session id and file number, which SstFileWriter draws at random and which enter the properties,
// and the base of the context checksums (format_version >= 6) are fixed: the same build writes
// the same bytes on every run.
#include "generator.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "databases.h"
#include "db/dbformat.h"
#include "db/wide/wide_column_serialization.h"
#include "file/writable_file_writer.h"
#include "options/cf_options.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/wide_columns.h"
#include "table/sst_file_writer_collectors.h"
#include "table/table_builder.h"
#include "util/random.h"

namespace fs = std::filesystem;
using rocksdb::BlockBasedTableOptions;

namespace {

// A valid session id (20 base-36 digits, table/unique_id.cc EncodeSessionId) that marks the files
// as ours; DBImpl::GenerateDbSessionId would draw one at random.
constexpr char kSessionId[] = "SSTFILTERFIXTURE0001";
constexpr uint64_t kFileNumber = 1;
constexpr uint32_t kContextChecksumSeed = 0x5f11;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "generator: %s\n", what.c_str());
  std::exit(1);
}

void Check(const rocksdb::Status& s, const std::string& what) {
  if (!s.ok()) Fail(what + ": " + s.ToString());
}

const char* CompressionName(rocksdb::CompressionType c) {
  switch (c) {
    case rocksdb::kNoCompression:
      return "none";
    case rocksdb::kSnappyCompression:
      return "snappy";
    case rocksdb::kZlibCompression:
      return "zlib";
    case rocksdb::kBZip2Compression:
      return "bzip2";
    case rocksdb::kLZ4Compression:
      return "lz4";
    case rocksdb::kLZ4HCCompression:
      return "lz4hc";
    case rocksdb::kZSTD:
      return "zstd";
    default:
      Fail("unexpected compression");
  }
}

const char* ChecksumName(rocksdb::ChecksumType c) {
  switch (c) {
    case rocksdb::kCRC32c:
      return "kCRC32c";
    case rocksdb::kxxHash:
      return "kxxHash";
    case rocksdb::kxxHash64:
      return "kxxHash64";
    case rocksdb::kXXH3:
      return "kXXH3";
    default:
      Fail("unexpected checksum");
  }
}

rocksdb::Options MakeOptions(const Case& c) {
  BlockBasedTableOptions t;
  t.format_version = c.format_version;
  t.separate_key_value_in_data_block = c.separate_key_value_in_data_block;
  t.block_size = 1024;  // several data blocks from tens of KB
  t.block_restart_interval = c.block_restart_interval;
  t.checksum = c.checksum;
  // On by default since 9.x, it sizes filters by what the allocator hands out: off, so that the
  // filters depend on the keys alone and another machine writes the same bytes.
  t.optimize_filters_for_memory = false;
  if (c.filter == "bloom") t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(c.bits_per_key));
  if (c.filter == "ribbon") t.filter_policy.reset(rocksdb::NewRibbonFilterPolicy(c.bits_per_key));
  if (c.partitioned) {
    t.partition_filters = true;
    t.index_type = BlockBasedTableOptions::kTwoLevelIndexSearch;
    t.metadata_block_size = 256;
  }
  t.whole_key_filtering = c.whole_key_filtering;
  if (c.hash_index) t.data_block_index_type = BlockBasedTableOptions::kDataBlockBinaryAndHash;
  if (c.uniform_cv_threshold >= 0) {
    t.uniform_cv_threshold = c.uniform_cv_threshold;
    t.index_block_search_type = BlockBasedTableOptions::kAuto;
  }
  rocksdb::Options o;
  o.create_if_missing = true;
  o.compression = c.compression;
  if (!c.prefix.empty()) {
    o.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(std::stoul(c.prefix.substr(6))));
  }
  o.statistics = rocksdb::CreateDBStatistics();
  if (c.customize) c.customize(&o, &t);
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return o;
}

// Keys "GGGG:NNNNN" in groups of 8 per prefix GGGG, the groups 3 apart (so that prefixes absent
// from the table lie inside its range), NNNNN at an even stride; a few longer keys sharing
// prefixes; values of varied length, some empty, from a fixed LCG.
void MakeEntries(const Case& c, std::vector<std::string>* keys, std::vector<std::string>* values) {
  uint64_t state = 0x5eed0000u + c.keys;
  for (size_t i = 0; i < c.keys; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04zu:%05zu", i / 8 * 3, i * 7);
    keys->emplace_back(buf);
    if (i % 9 == 4) keys->back() += "/suffix";
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const size_t length = i % 13 == 0 ? 0 : (state >> 33) % 60;
    std::string value;
    for (size_t b = 0; b < length; ++b) value.push_back(static_cast<char>('a' + (i + b) % 26));
    values->push_back(value);
  }
}

bool IsEntity(const Case& c, size_t i) { return c.entity_every != 0 && i % c.entity_every == 1; }

// An entity's columns, sorted by name: the default one (`value`), "attr" (the value twice, so that
// it reaches a blob threshold the value alone does not) and "tag" (a few bytes, always inline).
rocksdb::WideColumns EntityColumns(const std::string& value, const std::string& attr,
                                   const std::string& tag) {
  return {{rocksdb::kDefaultWideColumnName, value}, {"attr", attr}, {"tag", tag}};
}

// What the table stores for entry i: its value, or for an entity the columns serialized as
// PutEntity does (version 1; the builder moves large columns out and writes version 2).
std::string StoredValue(const Case& c, size_t i, const std::string& value) {
  if (!IsEntity(c, i)) return value;
  const std::string attr = value + value;
  const std::string tag = "t" + std::to_string(i);
  std::string out;
  Check(rocksdb::WideColumnSerialization::Serialize(EntityColumns(value, attr, tag), out),
        "Serialize");
  return out;
}

void WriteTable(const Case& c, const rocksdb::Options& options, const fs::path& path,
                const std::vector<std::string>& keys, const std::vector<std::string>& values) {
  const rocksdb::ImmutableOptions ioptions(options);
  const rocksdb::MutableCFOptions moptions(options);
  const rocksdb::InternalKeyComparator icmp(options.comparator);
  rocksdb::InternalTblPropCollFactories collectors;
  collectors.emplace_back(new rocksdb::SstFileWriterPropertiesCollectorFactory(2, 0));
  const rocksdb::ReadOptions read_options;
  const rocksdb::WriteOptions write_options;
  // TableBuilderOptions keeps a reference to the column family name (table/table_builder.h): it
  // must outlive the builder, which a temporary "" does not (its bytes then entered the table).
  static const std::string kNoColumnFamilyName;
  // What SstFileWriter::OpenWithEmbeddedBlobs hands the builder (table/sst_file_writer.cc).
  rocksdb::SstFileWriterEmbeddedBlobOptions embedded;
  if (c.embedded_min_blob_size) embedded.min_blob_size = *c.embedded_min_blob_size;
  const rocksdb::TableBuilderOptions tbo(
      ioptions, moptions, read_options, write_options, icmp, &collectors, options.compression,
      options.compression_opts,
      rocksdb::TablePropertiesCollectorFactory::Context::kUnknownColumnFamily, kNoColumnFamilyName,
      -1, rocksdb::kUnknownNewestKeyTime, false, rocksdb::TableFileCreationReason::kMisc, 0, 0,
      "SST Writer", kSessionId, 0, kFileNumber, rocksdb::kMaxSequenceNumber,
      c.embedded_min_blob_size ? &embedded : nullptr);
  std::unique_ptr<rocksdb::FSWritableFile> file;
  const rocksdb::FileOptions file_options;
  Check(
      rocksdb::IOStatus(ioptions.fs->NewWritableFile(path.string(), file_options, &file, nullptr)),
      "NewWritableFile");
  rocksdb::WritableFileWriter writer(std::move(file), path.string(), file_options);
  // format_version >= 6 draws the base of the context checksums from the thread's Random
  // (block_based_table_builder.cc, Rep::Rep), seeded by the thread's id: seeded here instead.
  rocksdb::Random::GetTLSInstance()->Reset(kContextChecksumSeed);
  std::unique_ptr<rocksdb::TableBuilder> builder(
      moptions.table_factory->NewTableBuilder(tbo, &writer));
  for (size_t i = 0; i < keys.size(); ++i) {
    const rocksdb::InternalKey ikey(
        keys[i], 0, IsEntity(c, i) ? rocksdb::kTypeWideColumnEntity : rocksdb::kTypeValue);
    builder->Add(ikey.Encode(), StoredValue(c, i, values[i]));
  }
  Check(builder->Finish(), "TableBuilder::Finish");
  Check(writer.Close(rocksdb::IOOptions()), "close");
}

void WriteRecords(const fs::path& path, const std::vector<std::string>& records) {
  std::ofstream out(path, std::ios::binary);
  for (const std::string& r : records) {
    const auto n = static_cast<uint32_t>(r.size());
    const char len[4] = {static_cast<char>(n), static_cast<char>(n >> 8),
                         static_cast<char>(n >> 16), static_cast<char>(n >> 24)};
    out.write(len, 4);
    out.write(r.data(), static_cast<std::streamsize>(r.size()));
  }
  if (!out) Fail("write " + path.string());
}

std::string Hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char ch : s) {
    out.push_back(digits[ch >> 4]);
    out.push_back(digits[ch & 15]);
  }
  return out;
}

// The sum of some tickers, read before and after a call to see which of them it moved.
uint64_t Count(rocksdb::Statistics& st, std::initializer_list<rocksdb::Tickers> tickers) {
  uint64_t n = 0;
  for (rocksdb::Tickers t : tickers) n += st.getTickerCount(t);
  return n;
}

// The filter's answer to a Get: no, maybe, or not consulted (null). A whole-key filter moves
// BLOOM_FILTER_USEFUL / _FULL_POSITIVE, a prefix-only one BLOOM_FILTER_PREFIX_USEFUL / _CHECKED
// (block_based_table_reader.cc FullFilterKeyMayMatch).
nlohmann::json GetAnswer(rocksdb::DB* db, rocksdb::Statistics& st, const std::string& key,
                         const std::string* expected_value, nlohmann::json* read_value) {
  const auto no = {rocksdb::BLOOM_FILTER_USEFUL, rocksdb::BLOOM_FILTER_PREFIX_USEFUL};
  const auto asked = {rocksdb::BLOOM_FILTER_FULL_POSITIVE, rocksdb::BLOOM_FILTER_PREFIX_CHECKED};
  const uint64_t no_before = Count(st, no);
  const uint64_t asked_before = Count(st, asked);
  std::string value;
  const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), key, &value);
  if (!s.ok() && !s.IsNotFound()) Fail("Get: " + s.ToString());
  if (expected_value && (!s.ok() || value != *expected_value)) Fail("Get read back a wrong value");
  *read_value = s.ok() ? nlohmann::json(Hex(value)) : nlohmann::json(nullptr);
  if (Count(st, no) > no_before) return "no";
  if (Count(st, asked) > asked_before) return "maybe";
  return nullptr;
}

// GetEntity's columns, as [name, value] pairs in hex (a plain value: the default column alone).
nlohmann::json EntityAnswer(rocksdb::DB* db, const std::string& key) {
  rocksdb::PinnableWideColumns columns;
  Check(db->GetEntity(rocksdb::ReadOptions(), db->DefaultColumnFamily(), key, &columns),
        "GetEntity");
  nlohmann::json out = nlohmann::json::array();
  for (const rocksdb::WideColumn& column : columns.columns()) {
    out.push_back({Hex(column.name().ToString()), Hex(column.value().ToString())});
  }
  return out;
}

// The table's entries as RocksDB's own table iterator gives them (SstFileReader::NewTableIterator,
// which resolves same-file blob records: block_based_table_reader.cc MaybeResolveEmbeddedValue):
// their values, and their value types in `types`. Fails unless the keys are the ones written and
// every plain value the one written.
std::vector<std::string> TableIteratorValues(const Case& c, const rocksdb::Options& options,
                                             const fs::path& sst,
                                             const std::vector<std::string>& keys,
                                             const std::vector<std::string>& values,
                                             nlohmann::json* types) {
  rocksdb::SstFileReader reader(options);
  Check(reader.Open(sst.string()), "SstFileReader::Open");
  const std::unique_ptr<rocksdb::Iterator> it = reader.NewTableIterator();
  std::vector<std::string> out;
  *types = nlohmann::json::array();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    rocksdb::ParsedInternalKey parsed;
    Check(rocksdb::ParseInternalKey(it->key(), &parsed, false), "ParseInternalKey");
    const size_t i = out.size();
    if (i >= keys.size() || parsed.user_key.ToString() != keys[i]) Fail("table iterator: keys");
    out.push_back(it->value().ToString());
    types->push_back(static_cast<int>(parsed.type));
    if (!IsEntity(c, i) && (parsed.type != rocksdb::kTypeValue || out.back() != values[i])) {
      Fail("table iterator: entry " + std::to_string(i) + " is not the value written");
    }
  }
  Check(it->status(), "table iterator");
  if (out.size() != keys.size()) Fail("table iterator: entry count");
  return out;
}

// The prefix filter's answer to a Seek (total_order_seek=false): RocksDB 11 counts it per level
// (block_based_table_iterator.cc: *_SEEK_FILTERED when the filter said no, *_SEEK_FILTER_MATCH
// when it said maybe), no longer in BLOOM_FILTER_PREFIX_*.
nlohmann::json SeekAnswer(rocksdb::DB* db, rocksdb::Statistics& st, const std::string& key) {
  const auto no = {rocksdb::LAST_LEVEL_SEEK_FILTERED, rocksdb::NON_LAST_LEVEL_SEEK_FILTERED};
  const auto maybe = {rocksdb::LAST_LEVEL_SEEK_FILTER_MATCH,
                      rocksdb::NON_LAST_LEVEL_SEEK_FILTER_MATCH};
  const uint64_t no_before = Count(st, no);
  const uint64_t maybe_before = Count(st, maybe);
  rocksdb::ReadOptions ro;
  ro.total_order_seek = false;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  it->Seek(key);
  Check(it->status(), "Seek");
  if (Count(st, no) > no_before) return "no";
  if (Count(st, maybe) > maybe_before) return "maybe";
  return nullptr;
}

std::vector<Case> Cases() {
  using rocksdb::ChecksumType;
  std::vector<Case> cases;
  auto add = [&](Case c) { cases.push_back(std::move(c)); };
  add({.id = "kv-bloom-none", .filter = "bloom"});
  add({.id = "kv-ribbon-crc32c-fv6",
       .format_version = 6,
       .filter = "ribbon",
       .checksum = rocksdb::kCRC32c});
  add({.id = "kv-bloom-part-snappy",
       .filter = "bloom",
       .partitioned = true,
       .compression = rocksdb::kSnappyCompression,
       .checksum = rocksdb::kxxHash});
  add({.id = "kv-ribbon-part-zstd",
       .filter = "ribbon",
       .bits_per_key = 9,
       .partitioned = true,
       .compression = rocksdb::kZSTD,
       .checksum = rocksdb::kxxHash64});
  add({.id = "kv-bloom-fixed5-lz4",
       .format_version = 6,
       .filter = "bloom",
       .prefix = "fixed:5",
       .compression = rocksdb::kLZ4Compression});
  add({.id = "kv-ribbon-fixed4-nowhole-zlib",
       .filter = "ribbon",
       .prefix = "fixed:4",
       .whole_key_filtering = false,
       .compression = rocksdb::kZlibCompression,
       .checksum = rocksdb::kCRC32c});
  add({.id = "kv-bloom-bzip2", .filter = "bloom", .compression = rocksdb::kBZip2Compression});
  add({.id = "kv-bloom-lz4hc-fv5",
       .format_version = 5,
       .filter = "bloom",
       .compression = rocksdb::kLZ4HCCompression,
       .checksum = rocksdb::kxxHash64});
  add({.id = "kv-bloom-restart1", .filter = "bloom", .block_restart_interval = 1});
  add({.id = "kv-bloom-restart4-hash",
       .filter = "bloom",
       .block_restart_interval = 4,
       .hash_index = true});
  // A threshold no coefficient of variation reaches: every index block of 3 or more restart keys
  // is marked uniform (BlockBuilder::ScanForUniformity).
  add({.id = "kv-bloom-uniform-index", .filter = "bloom", .uniform_cv_threshold = 1e9});
  add({.id = "kv-bloom-part-uniform-index",
       .filter = "bloom",
       .partitioned = true,
       .compression = rocksdb::kSnappyCompression,
       .uniform_cv_threshold = 1e9});
  return cases;
}

}  // namespace

nlohmann::json RunCase(const Case& c, const fs::path& out_dir, const fs::path& scratch) {
  const rocksdb::Options options = MakeOptions(c);
  std::vector<std::string> keys, values;
  MakeEntries(c, &keys, &values);
  const fs::path sst = out_dir / (c.id + ".sst");
  WriteTable(c, options, sst, keys, values);
  WriteRecords(out_dir / (c.id + ".keys"), keys);
  // With entities, the values are what RocksDB's table iterator reads (an entity's columns
  // resolved and serialized again), and the manifest has each entry's type.
  nlohmann::json entry_types;
  WriteRecords(out_dir / (c.id + ".values"),
               c.entity_every == 0
                   ? values
                   : TableIteratorValues(c, options, sst, keys, values, &entry_types));

  const fs::path db_dir = scratch / c.id;
  fs::remove_all(db_dir);
  std::unique_ptr<rocksdb::DB> db;
  Check(rocksdb::DB::Open(options, db_dir.string(), &db), "DB::Open");
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = false;
  ingest.write_global_seqno = false;
  Check(db->IngestExternalFile({sst.string()}, ingest), "IngestExternalFile");

  // Probes: every third key (its value read back too), each key with a byte appended and with
  // its last byte dropped, keys of absent prefixes, and keys outside the table's range.
  nlohmann::json probes = nlohmann::json::array();
  auto probe = [&](const std::string& key, const std::string* value) {
    nlohmann::json read_value;
    nlohmann::json record = {
        {"key", Hex(key)},
        {"present", value != nullptr},
        {"answer", GetAnswer(db.get(), *options.statistics, key, value, &read_value)},
        {"seekAnswer", c.prefix.empty() ? nlohmann::json(nullptr)
                                        : SeekAnswer(db.get(), *options.statistics, key)}};
    // Get's value (hex, null when not found): what a reader resolving same-file blob indexes
    // must return. Only the embedded-blob cases record it, so that v11-kv and v11-meta keep their
    // bytes.
    if (c.embedded_min_blob_size) record["getValue"] = read_value;
    if (c.entity_every != 0 && value != nullptr) record["getEntity"] = EntityAnswer(db.get(), key);
    probes.push_back(std::move(record));
  };
  for (size_t i = 0; i < keys.size(); i += 3) {
    probe(keys[i], &values[i]);
    probe(keys[i] + "x", nullptr);
    probe(keys[i].substr(0, keys[i].size() - 1), nullptr);
  }
  // Keys inside the table's range whose group prefix no key has, so that prefix filters say no.
  for (size_t group = 1; group < keys.size() / 8 * 3; group += 3) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04zu:%05zu", group, group * 11);
    probe(buf, nullptr);
  }
  probe("", nullptr);
  probe("zzz", nullptr);
  db.reset();
  fs::remove_all(db_dir);

  nlohmann::json record = {
      {"id", c.id},
      {"kind", "rocksdb"},
      {"file", c.id + ".sst"},
      {"formatVersion", c.format_version},
      {"filter", c.filter == "none" ? nlohmann::json(nullptr) : nlohmann::json(c.filter)},
      {"bitsPerKey", c.bits_per_key},
      {"partitioned", c.partitioned},
      {"decoupled", true},  // decouple_partitioned_filters, left at 11.x's default
      {"metadataBlockSize", c.partitioned ? 256 : 4096},
      {"optimizeFiltersForMemory", false},
      {"prefix", c.prefix.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.prefix)},
      {"wholeKeyFiltering", c.whole_key_filtering},
      {"compression",
       c.compression_label.empty() ? CompressionName(c.compression) : c.compression_label.c_str()},
      {"checksum", ChecksumName(c.checksum)},
      {"separateKeyValueInDataBlock", c.separate_key_value_in_data_block},
      {"blockSize", 1024},
      {"blockRestartInterval", c.block_restart_interval},
      {"dataBlockHashIndex", c.hash_index},
      {"uniformCvThreshold", c.uniform_cv_threshold},
      {"keys", {{"path", c.id + ".keys"}, {"count", keys.size()}}},
      {"values", {{"path", c.id + ".values"}, {"count", values.size()}}},
      {"probes", probes}};
  if (c.embedded_min_blob_size) record["embeddedMinBlobSize"] = *c.embedded_min_blob_size;
  if (c.entity_every != 0) {
    record["entityEvery"] = c.entity_every;
    record["entryTypes"] = entry_types;
  }
  return record;
}

int main(int argc, char** argv) {
  if (argc != 3) Fail("usage: generator <out-dir> <scratch-dir>");
  const fs::path out_dir = argv[1];
  const fs::path scratch = argv[2];
  fs::create_directories(out_dir);
  fs::create_directories(scratch);
  nlohmann::json cases = nlohmann::json::array();
  for (const Case& c : Cases()) cases.push_back(RunCase(c, out_dir, scratch));
  WriteMetaTables(out_dir.parent_path() / "v11-meta", scratch);
  WriteEmbeddedBlobTables(out_dir.parent_path() / "v11-blob", scratch);
  const nlohmann::json manifest = {
      {"generator", "tests/corpus/rocksdb11/generator.cc"},
      {"library", "RocksDB 11.8.1 (git tag v11.8.1, built from upstream source)"},
      {"cases", cases}};
  std::ofstream(out_dir / "manifest.json") << manifest.dump(1) << "\n";
  WriteDatabases(out_dir.parent_path() / "v11-db", scratch / "v11-db");
  return 0;
}
