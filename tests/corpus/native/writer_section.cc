// Section "table_writer": tables written by RocksDB 7.8.3's SstFileWriter and LevelDB 1.23's
// TableBuilder over a grid of entry sets and options, with everything needed to write the same
// bytes again: the entries in the order they were added, the options, and the properties that
// carry an identity or a clock (which no second writer can reproduce on its own). The table
// writer's tests (tests/cpp/table_writer_test.cc) hand those to sstfilter's writer and compare
// the files byte for byte.
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>
#include <leveldb/table_builder.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "library_status.h"
#include "sections.h"
#include "table_layout.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;

// Entry operations as the entries file records them: the RocksDB value type of each.
enum class Op : uint8_t { kDelete = 0, kPut = 1, kMerge = 2, kDeleteRange = 0x0f };

struct Entry {
  Op op = Op::kPut;
  Key key;
  std::string value;  // the range's end key for kDeleteRange
};

// Entry sets: each a function of its seed.
std::vector<Entry> PutsOnly(uint64_t seed, size_t count, const std::string& shape) {
  Random r(seed ^ 0x5eed);
  std::vector<Entry> out;
  for (Key& k : MakeKeys(ParseShape(shape), count, seed)) {
    std::string v(r.Uniform(120), '\0');
    for (char& c : v) c = char(r.Next());
    out.push_back({Op::kPut, std::move(k), std::move(v)});
  }
  return out;
}

// "<tag><i>" (snprintf: GCC 12 misreads `Tagged('m', i)` as an overlapping copy).
std::string Tagged(char tag, size_t i) {
  char text[32];
  std::snprintf(text, sizeof text, "%c%zu", tag, i);
  return text;
}

// Puts, deletes and merges in key order, then range deletions over stretches of those keys.
std::vector<Entry> Mixed(uint64_t seed) {
  const KeyList keys = MakeKeys(ParseShape("bin:1:16"), 1500, seed);
  std::vector<Entry> out;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % 7 == 3) {
      out.push_back({Op::kDelete, keys[i], ""});
    } else if (i % 5 == 2) {
      out.push_back({Op::kMerge, keys[i], Tagged('m', i)});
    } else {
      out.push_back({Op::kPut, keys[i], Tagged('v', i)});
    }
  }
  for (size_t i = 10; i + 9 < keys.size(); i += 97) {
    out.push_back({Op::kDeleteRange, keys[i], keys[i + 9]});
  }
  return out;
}

// Keys that share long prefixes (a few hundred bytes), so blocks lean on delta encoding and
// separators are found deep into the keys.
std::vector<Entry> LongPrefixes(uint64_t seed) {
  Random r(seed);
  std::vector<std::string> stems;
  for (int s = 0; s < 4; ++s) {
    std::string stem(200 + r.Uniform(200), '\0');
    for (char& c : stem) c = char('a' + r.Uniform(26));
    stems.push_back(std::move(stem));
  }
  KeyList keys;
  for (const std::string& stem : stems) {
    for (Key& tail : MakeKeys(ParseShape("bin:0:6"), 300, r.Next())) keys.push_back(stem + tail);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<Entry> out;
  for (size_t i = 0; i < keys.size(); ++i) out.push_back({Op::kPut, keys[i], std::to_string(i)});
  return out;
}

std::vector<Entry> EmptyValues(uint64_t seed) {
  std::vector<Entry> out;
  for (Key& k : MakeKeys(ParseShape("dec"), 3000, seed)) out.push_back({Op::kPut, k, ""});
  return out;
}

// Keys of 1 byte to 1 KiB.
std::vector<Entry> KeySizes(uint64_t seed) {
  Random r(seed);
  KeyList keys;
  for (size_t i = 0; i < 800; ++i) {
    std::string k(i < 40 ? 1 + i % 3 : 1 + r.Uniform(1024), '\0');
    for (char& c : k) c = char(r.Next());
    keys.push_back(std::move(k));
  }
  keys.push_back(std::string(1024, '\xff'));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<Entry> out;
  for (size_t i = 0; i < keys.size(); ++i) out.push_back({Op::kPut, keys[i], Key(i % 50, 'x')});
  return out;
}

// Many small entries: dozens of data blocks, so a partitioned index and filter have several
// partitions even at metadata_block_size 4096.
std::vector<Entry> ManySmall(uint64_t seed) {
  Random r(seed ^ 0x5eed);
  std::vector<Entry> out;
  for (Key& k : MakeKeys(ParseShape("bin:4:20"), 6000, seed)) {
    out.push_back({Op::kPut, std::move(k), Tagged('v', r.Uniform(100000))});
  }
  return out;
}

// Range deletions and no point entry: an index without entries, no filter block.
std::vector<Entry> RangesOnly(uint64_t seed) {
  const KeyList keys = MakeKeys(ParseShape("bin:1:16"), 40, seed);
  std::vector<Entry> out;
  for (size_t i = 0; i + 1 < keys.size(); i += 2) {
    out.push_back({Op::kDeleteRange, keys[i], keys[i + 1]});
  }
  return out;
}

std::vector<Entry> MakeEntries(const std::string& set, uint64_t seed) {
  if (set == "puts") return PutsOnly(seed, 2000, "bin:1:24");
  if (set == "many") return ManySmall(seed);
  if (set == "ranges_only") return RangesOnly(seed);
  if (set == "puts_small") return PutsOnly(seed, 40, "text");
  if (set == "prefixed") return PutsOnly(seed, 2500, "pfxmix:30:2:9");
  if (set == "mixed") return Mixed(seed);
  if (set == "long_prefixes") return LongPrefixes(seed);
  if (set == "empty_values") return EmptyValues(seed);
  if (set == "key_sizes") return KeySizes(seed);
  Fail("unknown entry set " + set);
}

// records: u8 op (the RocksDB value type: 1 put, 0 delete, 2 merge, 0x0f range deletion),
// u32le key length, key, u32le value length, value (the end key of a range deletion).
std::string EncodeEntries(const std::vector<Entry>& entries) {
  std::string out;
  const auto put32 = [&](size_t v) {
    for (int b = 0; b < 4; ++b) out.push_back(char((v >> (8 * b)) & 0xff));
  };
  for (const Entry& e : entries) {
    out.push_back(char(e.op));
    put32(e.key.size());
    out += e.key;
    put32(e.value.size());
    out += e.value;
  }
  return out;
}

struct WriterConfig {
  std::string id;
  std::string library = "rocksdb";  // or "leveldb" (TableBuilder)
  std::string entries = "puts";
  uint32_t format_version = 5;
  std::string checksum = "crc32c";       // "none", "crc32c", "xxhash", "xxhash64", "xxh3"
  std::string compression = "none";      // or "snappy"
  std::string filter = "rocksdb-bloom";  // "none", "leveldb", "rocksdb-legacy-bloom",
                                         // "rocksdb-bloom", "rocksdb-ribbon"
  double bits = 10;
  std::string prefix;  // "", "fixed:N" or "capped:N"
  bool whole_key_filtering = true;
  size_t block_size = 4096;
  int restart_interval = 16;
  std::string index = "binary-search";  // or "two-level" (kTwoLevelIndexSearch)
  bool partition_filters = false;
  size_t metadata_block_size = 4096;
};

rocksdb::ChecksumType RocksChecksum(const std::string& name) {
  if (name == "none") return rocksdb::kNoChecksum;
  if (name == "crc32c") return rocksdb::kCRC32c;
  if (name == "xxhash") return rocksdb::kxxHash;
  if (name == "xxhash64") return rocksdb::kxxHash64;
  if (name == "xxh3") return rocksdb::kXXH3;
  Fail("unknown checksum " + name);
}

rocksdb::CompressionType RocksCompression(const std::string& name) {
  if (name == "none") return rocksdb::kNoCompression;
  if (name == "snappy") return rocksdb::kSnappyCompression;
  if (name == "zlib") return rocksdb::kZlibCompression;
  if (name == "bzip2") return rocksdb::kBZip2Compression;
  if (name == "lz4") return rocksdb::kLZ4Compression;
  if (name == "lz4hc") return rocksdb::kLZ4HCCompression;
  if (name == "zstd") return rocksdb::kZSTD;
  Fail("unknown compression " + name);
}

rocksdb::Options RocksOptions(const WriterConfig& c) {
  rocksdb::BlockBasedTableOptions t;
  t.format_version = c.format_version;
  t.checksum = RocksChecksum(c.checksum);
  t.block_size = c.block_size;
  t.block_restart_interval = c.restart_interval;
  if (c.filter == "rocksdb-ribbon") {
    t.filter_policy.reset(rocksdb::NewRibbonFilterPolicy(c.bits, -1));
  } else if (c.filter != "none") {
    // NewBloomFilterPolicy writes the legacy Bloom below format_version 5, FastLocalBloom above.
    const bool legacy = c.filter == "rocksdb-legacy-bloom";
    if (legacy != (c.format_version < 5)) Fail(c.id + ": Bloom kind and format_version disagree");
    t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(c.bits));
  }
  t.optimize_filters_for_memory = false;
  t.whole_key_filtering = c.whole_key_filtering;
  if (c.index == "two-level") {
    t.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  } else if (c.index != "binary-search") {
    Fail(c.id + ": unknown index " + c.index);
  }
  // RocksDB would quietly drop partition_filters without the two-level index.
  if (c.partition_filters && c.index != "two-level") Fail(c.id + ": partitions need two-level");
  t.partition_filters = c.partition_filters;
  t.metadata_block_size = c.metadata_block_size;
  rocksdb::Options o;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  o.compression = RocksCompression(c.compression);
  if (!c.prefix.empty()) {
    const size_t n = std::stoul(c.prefix.substr(c.prefix.find(':') + 1));
    o.prefix_extractor.reset(c.prefix.rfind("fixed:", 0) == 0
                                 ? rocksdb::NewFixedPrefixTransform(n)
                                 : rocksdb::NewCappedPrefixTransform(n));
  }
  return o;
}

void WriteWithSstFileWriter(const WriterConfig& c, const std::vector<Entry>& entries,
                            const fs::path& path) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), RocksOptions(c));
  Check(writer.Open(path.string()), c.id + ": SstFileWriter::Open");
  for (const Entry& e : entries) {
    switch (e.op) {
      case Op::kPut:
        Check(writer.Put(e.key, e.value), c.id + ": Put");
        break;
      case Op::kDelete:
        Check(writer.Delete(e.key), c.id + ": Delete");
        break;
      case Op::kMerge:
        Check(writer.Merge(e.key, e.value), c.id + ": Merge");
        break;
      case Op::kDeleteRange:
        Check(writer.DeleteRange(e.key, e.value), c.id + ": DeleteRange");
        break;
    }
  }
  Check(writer.Finish(), c.id + ": SstFileWriter::Finish");
}

void WriteWithTableBuilder(const WriterConfig& c, const std::vector<Entry>& entries,
                           const fs::path& path) {
  leveldb::Options o;
  o.block_size = c.block_size;
  o.block_restart_interval = c.restart_interval;
  o.compression = c.compression == "snappy" ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  std::unique_ptr<const leveldb::FilterPolicy> policy;
  if (c.filter == "leveldb") policy.reset(leveldb::NewBloomFilterPolicy(int(c.bits)));
  o.filter_policy = policy.get();
  leveldb::WritableFile* out = nullptr;
  Check(leveldb::Env::Default()->NewWritableFile(path.string(), &out), "NewWritableFile");
  std::unique_ptr<leveldb::WritableFile> file(out);
  leveldb::TableBuilder builder(o, file.get());
  for (const Entry& e : entries) {
    if (e.op != Op::kPut) Fail(c.id + ": TableBuilder tables hold puts only");
    builder.Add(e.key, e.value);
  }
  Check(builder.Finish(), c.id + ": TableBuilder::Finish");
  Check(file->Close(), c.id + ": Close");
}

// The properties no second writer can know: identities and clocks, by their block names. The
// numeric ones are varint64 in the block and numbers here.
nlohmann::json IdentityRecord(const std::vector<std::pair<std::string, std::string>>& props) {
  static const char* const kText[] = {"rocksdb.creating.db.identity",
                                      "rocksdb.creating.host.identity",
                                      "rocksdb.creating.session.identity"};
  static const char* const kNumbers[] = {"rocksdb.creation.time", "rocksdb.file.creation.time",
                                         "rocksdb.oldest.key.time", "rocksdb.original.file.number"};
  nlohmann::json r = nlohmann::json::object();
  for (const auto& [name, value] : props) {
    for (const char* t : kText) {
      if (name == t) r[name] = value;
    }
    for (const char* n : kNumbers) {
      if (name != n) continue;
      uint64_t v = 0;
      for (size_t i = 0, shift = 0; i < value.size(); ++i, shift += 7) {
        v |= uint64_t(uint8_t(value[i]) & 0x7f) << shift;
      }
      r[name] = v;
    }
  }
  return r;
}

nlohmann::json OptionsRecord(const WriterConfig& c) {
  nlohmann::json o = {{"format", c.library},        {"compression", c.compression},
                      {"filter", c.filter},         {"bits_per_key", c.bits},
                      {"block_size", c.block_size}, {"restart_interval", c.restart_interval}};
  if (c.library == "rocksdb") {
    o["format_version"] = c.format_version;
    o["checksum"] = c.checksum;
    o["prefix_extractor"] = c.prefix.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.prefix);
    o["whole_key_filtering"] = c.whole_key_filtering;
    o["index_type"] = c.index;
    o["partition_filters"] = c.partition_filters;
    o["metadata_block_size"] = c.metadata_block_size;
  }
  return o;
}

nlohmann::json WriterCase(const CorpusRoot& root, const WriterConfig& c) {
  const std::vector<Entry> entries = MakeEntries(c.entries, SeedFor(c.entries));
  const fs::path scratch = root.Scratch(c.id + ".table");
  fs::create_directories(scratch.parent_path());
  if (c.library == "rocksdb") {
    WriteWithSstFileWriter(c, entries, scratch);
  } else {
    WriteWithTableBuilder(c, entries, scratch);
  }
  const std::string file = ReadFile(scratch);
  const std::string dir = "table-writer/" + c.id;
  nlohmann::json r = {
      {"id", c.id},
      {"writer", c.library == "rocksdb" ? "rocksdb::SstFileWriter" : "leveldb::TableBuilder"},
      {"options", OptionsRecord(c)},
      {"entries",
       {{"set", c.entries},
        {"count", entries.size()},
        {"path", root.WriteBytes(dir + "/entries.bin", EncodeEntries(entries))}}},
      {"file",
       {{"path",
         root.WriteBytes(dir + (c.library == "rocksdb" ? "/table.sst" : "/table.ldb"), file)},
        {"bytes", file.size()}}},
  };
  if (c.library == "rocksdb") {
    const Footer footer = ParseFooter(file);
    const auto handle = FindMeta(file, footer, "rocksdb.properties");
    if (!handle) Fail(c.id + ": no properties block");
    const auto props = BlockEntries(*ReadBlock(file, *handle));
    nlohmann::json all = nlohmann::json::object();
    for (const auto& [name, value] : props) all[name] = Hex(value);
    r["identity"] = IdentityRecord(props);
    r["properties_hex"] = std::move(all);
  }
  fs::remove(scratch);
  return r;
}

// Partitioned filters and the two-level index: every format_version with the Bloom it picks and
// Ribbon (whose small partitions fall back to Bloom), metadata_block_size from one byte (a
// partition per data block) to the default, prefix extractors, snappy, every checksum.
template <typename Add>
void PartitionedConfigs(const Add& add) {
  const auto partitioned = [](std::string id, std::string filter, size_t metadata) {
    return WriterConfig{.id = std::move(id),
                        .entries = "many",
                        .filter = std::move(filter),
                        .index = "two-level",
                        .partition_filters = true,
                        .metadata_block_size = metadata};
  };
  for (uint32_t fv : {2u, 3u, 4u, 5u}) {
    const std::string bloom = fv < 5 ? "rocksdb-legacy-bloom" : "rocksdb-bloom";
    const std::string name = "part_fv" + std::to_string(fv);
    for (size_t metadata : {256, 1024, 4096}) {
      const std::string m = std::to_string(metadata);
      WriterConfig c = partitioned(name + "_bloom_meta" + m, bloom, metadata);
      c.format_version = fv;
      add(c);
      c = partitioned(name + "_ribbon_meta" + m, "rocksdb-ribbon", metadata);
      c.format_version = fv;
      add(c);
    }
    WriterConfig c = partitioned(name + "_bloom_snappy_mixed", bloom, 512);
    c.format_version = fv;
    c.entries = "mixed";
    c.compression = "snappy";
    add(c);
    // The two-level index alone, with a full filter or none.
    add({.id = "twolevel_fv" + std::to_string(fv) + "_bloom_meta256",
         .format_version = fv,
         .filter = bloom,
         .index = "two-level",
         .metadata_block_size = 256});
    add({.id = "twolevel_fv" + std::to_string(fv) + "_nofilter_snappy_meta1024",
         .entries = "many",
         .format_version = fv,
         .compression = "snappy",
         .filter = "none",
         .index = "two-level",
         .metadata_block_size = 1024});
  }
  for (size_t metadata : {1, 64, 100000}) {
    add(partitioned("part_fv5_bloom_meta" + std::to_string(metadata), "rocksdb-bloom", metadata));
    add(partitioned("part_fv5_ribbon_meta" + std::to_string(metadata), "rocksdb-ribbon", metadata));
  }
  for (const char* sum : {"none", "xxhash", "xxhash64", "xxh3"}) {
    WriterConfig c = partitioned(std::string("part_fv5_bloom_snappy_") + sum, "rocksdb-bloom", 512);
    c.checksum = sum;
    c.compression = "snappy";
    add(c);
  }
  for (const char* prefix : {"fixed:3", "capped:4"}) {
    const std::string p = std::string(prefix).replace(std::string(prefix).find(':'), 1, "");
    for (const char* filter : {"rocksdb-bloom", "rocksdb-ribbon", "rocksdb-legacy-bloom"}) {
      for (bool whole : {true, false}) {
        for (size_t metadata : {256, 1024}) {
          WriterConfig c =
              partitioned(std::string("part_") + filter + "_" + p + (whole ? "" : "_nowhole") +
                              "_meta" + std::to_string(metadata),
                          filter, metadata);
          c.entries = "prefixed";
          c.prefix = prefix;
          c.whole_key_filtering = whole;
          if (std::string(filter) == "rocksdb-legacy-bloom") c.format_version = 4;
          add(c);
        }
      }
    }
  }
  for (const char* set : {"long_prefixes", "key_sizes", "empty_values", "puts_small", "puts"}) {
    WriterConfig c = partitioned(std::string("part_fv5_bloom_") + set, "rocksdb-bloom", 512);
    c.entries = set;
    add(c);
  }
  WriterConfig c = partitioned("part_fv5_nofilter", "none", 512);
  add(c);
  for (const char* index : {"binary-search", "two-level"}) {
    add({.id = std::string("fv5_bloom_ranges_only_") + index,
         .entries = "ranges_only",
         .index = index,
         .partition_filters = index == std::string("two-level")});
  }
  c = partitioned("part_fv5_bloom_block256_meta4096", "rocksdb-bloom", 4096);
  c.block_size = 256;
  add(c);
  c = partitioned("part_fv5_bloom_bits3p5_meta512", "rocksdb-bloom", 512);
  c.bits = 3.5;
  add(c);
  c = partitioned("part_fv5_ribbon_bits20_meta512", "rocksdb-ribbon", 512);
  c.bits = 20;
  add(c);
}

std::vector<WriterConfig> WriterConfigs() {
  std::vector<WriterConfig> v;
  const auto add = [&](WriterConfig c) { v.push_back(std::move(c)); };
  // Every format_version 7.8.3 writes, with the Bloom it picks and without a filter.
  for (uint32_t fv : {2u, 3u, 4u, 5u}) {
    const std::string bloom = fv < 5 ? "rocksdb-legacy-bloom" : "rocksdb-bloom";
    const std::string name = "fv" + std::to_string(fv);
    add({.id = name + "_bloom", .format_version = fv, .filter = bloom});
    add({.id = name + "_nofilter", .format_version = fv, .filter = "none"});
    add({.id = name + "_ribbon_mixed",
         .entries = "mixed",
         .format_version = fv,
         .filter = "rocksdb-ribbon"});
    add({.id = name + "_bloom_snappy",
         .format_version = fv,
         .compression = "snappy",
         .filter = bloom});
  }
  // Every checksum.
  for (const char* sum : {"none", "xxhash", "xxhash64", "xxh3"}) {
    add({.id = std::string("fv5_bloom_") + sum, .checksum = sum});
    add({.id = std::string("fv3_legacy_snappy_") + sum,
         .format_version = 3,
         .checksum = sum,
         .compression = "snappy",
         .filter = "rocksdb-legacy-bloom"});
  }
  // Entry sets.
  for (const char* set : {"mixed", "long_prefixes", "empty_values", "key_sizes", "puts_small"}) {
    add({.id = std::string("fv5_bloom_") + set, .entries = set});
    add({.id = std::string("fv4_legacy_snappy_") + set,
         .entries = set,
         .format_version = 4,
         .compression = "snappy",
         .filter = "rocksdb-legacy-bloom"});
    add({.id = std::string("fv2_nofilter_") + set,
         .entries = set,
         .format_version = 2,
         .filter = "none"});
  }
  // Prefix extractors, with and without whole-key filtering.
  for (const char* prefix : {"fixed:3", "capped:4"}) {
    const std::string p = std::string(prefix).replace(std::string(prefix).find(':'), 1, "");
    add({.id = "fv5_bloom_" + p, .entries = "prefixed", .prefix = prefix});
    add({.id = "fv5_bloom_" + p + "_nowhole",
         .entries = "prefixed",
         .prefix = prefix,
         .whole_key_filtering = false});
    add({.id = "fv4_legacy_" + p + "_nowhole",
         .entries = "prefixed",
         .format_version = 4,
         .filter = "rocksdb-legacy-bloom",
         .prefix = prefix,
         .whole_key_filtering = false});
    add({.id = "fv5_ribbon_" + p,
         .entries = "prefixed",
         .filter = "rocksdb-ribbon",
         .prefix = prefix});
  }
  add({.id = "fv5_nofilter_fixed3", .entries = "prefixed", .filter = "none", .prefix = "fixed:3"});
  // Bits per key.
  add({.id = "fv5_bloom_bits3p5", .bits = 3.5});
  add({.id = "fv5_ribbon_bits20", .filter = "rocksdb-ribbon", .bits = 20});
  add({.id = "fv3_legacy_bits7", .format_version = 3, .filter = "rocksdb-legacy-bloom", .bits = 7});
  // Block sizes and restart intervals.
  for (int interval : {1, 2, 7, 64}) {
    add({.id = "fv5_bloom_restart" + std::to_string(interval), .restart_interval = interval});
    add({.id = "fv4_legacy_restart" + std::to_string(interval) + "_long_prefixes",
         .entries = "long_prefixes",
         .format_version = 4,
         .filter = "rocksdb-legacy-bloom",
         .restart_interval = interval});
  }
  for (size_t block : {64, 256, 1000, 16384}) {
    add({.id = "fv5_bloom_block" + std::to_string(block), .block_size = block});
    add({.id = "fv3_legacy_snappy_block" + std::to_string(block) + "_mixed",
         .entries = "mixed",
         .format_version = 3,
         .compression = "snappy",
         .filter = "rocksdb-legacy-bloom",
         .block_size = block});
  }
  add({.id = "fv5_bloom_block1_key_sizes", .entries = "key_sizes", .block_size = 1});
  // Every other codec RocksDB 7.8.3 links, with its default CompressionOptions.
  for (const char* codec : {"zlib", "bzip2", "lz4", "lz4hc", "zstd"}) {
    add({.id = std::string("fv5_bloom_") + codec, .compression = codec});
    add({.id = std::string("fv2_nofilter_") + codec + "_mixed",
         .entries = "mixed",
         .format_version = 2,
         .compression = codec,
         .filter = "none"});
    add({.id = std::string("fv4_legacy_") + codec + "_long_prefixes",
         .entries = "long_prefixes",
         .format_version = 4,
         .compression = codec,
         .filter = "rocksdb-legacy-bloom",
         .block_size = 16384});
  }
  // LevelDB's TableBuilder: user keys, no filter or its Bloom filter block.
  for (const char* set : {"puts", "long_prefixes", "empty_values", "key_sizes", "puts_small"}) {
    for (const char* compression : {"none", "snappy"}) {
      for (const char* filter : {"none", "leveldb"}) {
        add({.id = std::string("ldb_") + set + "_" + compression + "_" + filter,
             .library = "leveldb",
             .entries = set,
             .compression = compression,
             .filter = filter});
      }
    }
  }
  for (int interval : {1, 5, 64}) {
    add({.id = "ldb_puts_restart" + std::to_string(interval),
         .library = "leveldb",
         .filter = "leveldb",
         .restart_interval = interval});
  }
  for (size_t block : {64, 1000, 16384}) {
    add({.id = "ldb_puts_snappy_block" + std::to_string(block),
         .library = "leveldb",
         .compression = "snappy",
         .filter = "leveldb",
         .block_size = block});
  }
  add({.id = "ldb_puts_bits3", .library = "leveldb", .filter = "leveldb", .bits = 3});
  PartitionedConfigs(add);
  return v;
}

}  // namespace

nlohmann::json TableWriterSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  for (const WriterConfig& c : WriterConfigs()) cases.push_back(WriterCase(root, c));
  return root.FinishSection("table-writer", "table_writer", cases);
}

}  // namespace corpus
