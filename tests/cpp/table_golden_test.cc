// Every table of every corpus (rocksdb-sst, leveldb-table, head), compressed ones included, opened
// natively through the in-memory driver: footer, metaindex, properties, raw filters, every
// recorded point-lookup and prefix-seek answer, and the keys.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "golden.h"
#include "packed_keys.h"
#include "sstfilter/table.h"
#include "table/table_reader.h"

namespace sstfilter {
namespace {

using golden::HexDecode;
using golden::ReadFileBytes;
using golden::ReadJson;
using golden::ReadKeysFile;
using KeyList = std::vector<std::vector<uint8_t>>;

// Result codes of every section: 0 = the filter said no, 1 = maybe, 2 = not consulted.
struct GoldenTable {
  std::string id;
  Bytes file;
  bool internal_keys = true;
  bool compressed = false;
  KeyList keys;
  std::optional<KeyList> values;  // the value of each key, when the corpus records them
  KeyList probes;
  std::vector<uint8_t> get;
  std::optional<std::vector<uint8_t>> seek;
  std::vector<Bytes> filters;            // expected raw filters, when the corpus stores them
  std::optional<nlohmann::json> props;   // expected properties, when the corpus records them
  bool props_partial = false;            // the corpus records only some of the properties
  std::optional<nlohmann::json> footer;  // rocksdb-sst footer record
};

std::vector<GoldenTable> LoadRocksDbSst() {
  std::vector<GoldenTable> out;
  for (const auto& [corpus, manifest] : golden::Sections("rocksdb_sst")) {
    for (const auto& c : manifest.at("cases")) {
      GoldenTable t;
      t.id = corpus->name + ":rocksdb-sst/" + c.at("id").get<std::string>();
      t.file = corpus->ReadBytes(c.at("file"));
      t.compressed = c.at("options").at("compression") != "kNoCompression";
      t.keys = corpus->ReadKeys(c.at("keys"));
      t.probes = corpus->ReadKeys(c.at("probes"));
      t.get = corpus->ReadBytes(c.at("get_results"));
      if (!c.at("seek_prefix_results").is_null()) {
        t.seek = corpus->ReadBytes(c.at("seek_prefix_results"));
      }
      const auto& filter = c.at("filter");
      if (filter.at("kind") == "full") {
        t.filters.push_back(corpus->ReadBytes(filter));
      } else {
        for (const auto& p : filter.at("partitions")) {
          t.filters.push_back(corpus->ReadBytes(p));
        }
      }
      t.props = c.at("properties");
      t.props_partial = c.value("properties_partial", false);
      t.footer = c.at("footer");
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<GoldenTable> LoadLevelDbTables() {
  std::vector<GoldenTable> out;
  for (const auto& [corpus, manifest] : golden::Sections("leveldb_table")) {
    for (const auto& c : manifest.at("cases")) {
      GoldenTable t;
      t.id = corpus->name + ":leveldb-table/" + c.at("id").get<std::string>();
      t.file = corpus->ReadBytes(c.at("file"));
      t.internal_keys = c.at("internal_keys").get<bool>();
      t.compressed = c.at("options").at("compression") != "kNoCompression";
      t.keys = corpus->ReadKeys(c.at("keys"));
      t.probes = corpus->ReadKeys(c.at("probes"));
      t.get = corpus->ReadBytes(c.at("get_results"));
      t.filters.push_back(corpus->ReadBytes(c.at("filter_block")));
      t.props = nlohmann::json::object();  // LevelDB tables have no properties
      out.push_back(std::move(t));
    }
  }
  return out;
}

// The committed RocksDB 11 fixtures (tests/corpus/fixtures/README.md): section `section` in the
// folder `folder`, each case with its keys, values when recorded, and RocksDB's answer per probe.
std::vector<GoldenTable> LoadFixtureTables(const char* section, const std::string& folder) {
  std::vector<GoldenTable> out;
  const auto code = [](const nlohmann::json& answer) -> uint8_t {
    return answer == "no" ? 0 : answer == "maybe" ? 1 : 2;
  };
  for (const auto& [corpus, manifest] : golden::Sections(section)) {
    for (const auto& c : manifest.at("cases")) {
      GoldenTable t;
      t.id = corpus->name + ":" + folder + "/" + c.at("id").get<std::string>();
      t.file = ReadFileBytes(corpus->Path(folder + "/" + c.at("file").get<std::string>()));
      t.compressed = c.at("compression") != "none";
      // A .keys file beside the table (the fixtures), or inline hex (as the shared corpus has it).
      if (c.at("keys").is_array()) {
        for (const auto& k : c.at("keys")) t.keys.push_back(HexDecode(k.get<std::string>()));
      } else {
        t.keys =
            ReadKeysFile(corpus->Path(folder + "/" + c.at("keys").at("path").get<std::string>()));
      }
      if (c.contains("values")) {
        t.values =
            ReadKeysFile(corpus->Path(folder + "/" + c.at("values").at("path").get<std::string>()));
      }
      std::vector<uint8_t> seek;
      for (const auto& p : c.at("probes")) {
        t.probes.push_back(HexDecode(p.at("key").get<std::string>()));
        t.get.push_back(code(p.at("answer")));
        seek.push_back(code(p.at("seekAnswer")));  // null (not checked) is 2
      }
      if (!c.at("prefix").is_null()) t.seek = seek;
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::unique_ptr<TableReader> Open(const Bytes& file, bool internal_keys, Status* status) {
  TableOptions options;
  options.internal_keys = internal_keys;
  std::unique_ptr<TableReader> reader;
  *status = OpenTableFromMemory(file, options, &reader);
  return reader;
}

KeyList AllKeys(const TableReader& reader, const Bytes& file, Status* status, uint64_t begin = 0,
                uint64_t end = UINT64_MAX) {
  KeyList keys;
  TableCursor cursor(reader);
  cursor.SetBlockRange(begin, end);
  for (;;) {
    *status = DriveFromMemory(cursor, file);
    if (!status->ok() || cursor.at_end()) return keys;
    const auto& offsets = cursor.key_offsets();
    for (size_t i = 0; i + 1 < offsets.size(); ++i) {
      keys.emplace_back(cursor.key_data().begin() + offsets[i],
                        cursor.key_data().begin() + offsets[i + 1]);
    }
    cursor.ClearBatch();
  }
}

std::string Hex(ByteView b) { return golden::HexEncode(b); }

// The entries a walk reads (Content::kEntries) are the keys with the values written, in order.
void CheckValues(const GoldenTable& t, const TableReader& reader) {
  TableCursor cursor(reader, TableCursor::Content::kEntries);
  size_t n = 0;
  for (;;) {
    const Status s = DriveFromMemory(cursor, t.file);
    ASSERT_TRUE(s.ok()) << t.id << ": entries: " << s.message() << " at " << s.offset();
    if (cursor.at_end()) break;
    const auto& key_offsets = cursor.key_offsets();
    const auto& value_offsets = cursor.value_offsets();
    for (size_t i = 0; i + 1 < key_offsets.size(); ++i, ++n) {
      ASSERT_LT(n, t.values->size()) << t.id << ": more entries than written";
      const ByteView key =
          ByteView(cursor.key_data()).subspan(key_offsets[i], key_offsets[i + 1] - key_offsets[i]);
      const ByteView value =
          ByteView(cursor.value_data())
              .subspan(value_offsets[i], value_offsets[i + 1] - value_offsets[i]);
      const auto& want_key = t.keys[n];
      const auto& want_value = (*t.values)[n];
      ASSERT_TRUE(std::equal(key.begin(), key.end(), want_key.begin(), want_key.end()))
          << t.id << ": entry " << n << " key " << Hex(key) << ", written " << Hex(want_key);
      ASSERT_TRUE(std::equal(value.begin(), value.end(), want_value.begin(), want_value.end()))
          << t.id << ": entry " << n << " value " << Hex(value) << ", written " << Hex(want_value);
    }
    cursor.ClearBatch();
  }
  EXPECT_EQ(n, t.values->size()) << t.id << ": entries read back";
}

// The data blocks a walk of every key reads, in order.
std::vector<BlockHandle> WalkedDataBlocks(const TableReader& reader, const Bytes& file,
                                          Status* status) {
  std::vector<BlockHandle> blocks;
  TableCursor cursor(reader);
  for (;;) {
    *status = DriveFromMemory(cursor, file);
    if (!status->ok() || cursor.at_end()) return blocks;
    for (const TableCursor::BatchBlock& b : cursor.key_blocks()) blocks.push_back(b.handle);
    cursor.ClearBatch();
  }
}

// The layout listing tiles the file: blocks (with trailers) from 0 to the footer without gaps or
// overlaps, the footer to the end; its data blocks are those a walk reads, as many as the
// properties count, and the data and filter sizes add up to what the properties record.
void CheckLayout(const GoldenTable& t, const TableReader& reader) {
  TableLayoutRead layout(reader);
  Status s = DriveFromMemory(layout, t.file);
  ASSERT_TRUE(s.ok()) << t.id << ": layout: " << s.message() << " at " << s.offset();
  ASSERT_TRUE(layout.done()) << t.id;
  const std::vector<TableRegion>& regions = layout.regions();
  ASSERT_FALSE(regions.empty()) << t.id;
  std::map<TableRegionKind, uint64_t> count;
  std::map<TableRegionKind, uint64_t> bytes;   // with trailers
  std::map<TableRegionKind, uint64_t> stored;  // without
  std::vector<BlockHandle> data;
  uint64_t at = 0;
  for (const TableRegion& r : regions) {
    const char* kind = TableRegionKindName(r.kind);
    EXPECT_EQ(r.handle.offset, at) << t.id << ": " << kind << " block after byte " << at;
    EXPECT_NE(r.kind, TableRegionKind::kGap) << t.id << ": gap at " << r.handle.offset;
    at = r.handle.offset + r.span();
    ++count[r.kind];
    bytes[r.kind] += r.span();
    stored[r.kind] += r.handle.size;
    if (r.kind == TableRegionKind::kData) {
      data.push_back(r.handle);
      EXPECT_TRUE(r.separator.has_value()) << t.id << ": data block at " << r.handle.offset;
    }
  }
  EXPECT_EQ(at, t.file.size()) << t.id;
  EXPECT_EQ(regions.back().kind, TableRegionKind::kFooter) << t.id;
  EXPECT_EQ(count[TableRegionKind::kMetaindex], 1u) << t.id;

  const std::vector<BlockHandle> walked = WalkedDataBlocks(reader, t.file, &s);
  ASSERT_TRUE(s.ok()) << t.id << ": " << s.message();
  ASSERT_EQ(data.size(), walked.size()) << t.id << ": data blocks";
  for (size_t i = 0; i < data.size(); ++i) {
    EXPECT_EQ(data[i].offset, walked[i].offset) << t.id << ": data block " << i;
    EXPECT_EQ(data[i].size, walked[i].size) << t.id << ": data block " << i;
  }

  const OpenedTable& table = reader.table();
  const std::optional<TableFilterInfo> filter = reader.filter_info();
  EXPECT_EQ(count[TableRegionKind::kFilterPartition], filter ? filter->partitions : 0) << t.id;
  EXPECT_EQ(count[TableRegionKind::kFilter] + count[TableRegionKind::kFilterTopIndex],
            filter ? 1u : 0u)
      << t.id;
  if (table.family == TableFamily::kLevelDb) {
    EXPECT_EQ(count[TableRegionKind::kProperties], 0u) << t.id;
    return;
  }
  EXPECT_EQ(count[TableRegionKind::kProperties], 1u) << t.id;
  const TableProperties& props = table.properties;
  EXPECT_EQ(count[TableRegionKind::kData], props.Number("rocksdb.num.data.blocks")) << t.id;
  // data.size is the builder's offset after the last data block (block_based_table_builder.cc,
  // `props.data_size = r->get_offset()`), so it counts the embedded blob records among them.
  EXPECT_EQ(bytes[TableRegionKind::kData] + bytes[TableRegionKind::kEmbeddedBlobs],
            props.Number("rocksdb.data.size"))
      << t.id;
  EXPECT_EQ(count[TableRegionKind::kEmbeddedBlobs] > 0, table.embedded_blobs) << t.id;
  if (table.index_type == kTwoLevelIndexSearch) {
    EXPECT_EQ(count[TableRegionKind::kIndex], props.Number("rocksdb.index.partitions")) << t.id;
    EXPECT_EQ(count[TableRegionKind::kTopIndex], 1u) << t.id;
  } else {
    EXPECT_EQ(count[TableRegionKind::kIndex], 1u) << t.id;
  }
  // (rocksdb.index.size counts index blocks before compression: not a layout fact.)
  if (filter) {
    // Filter blocks are never compressed; the property counts them without trailers.
    EXPECT_EQ(stored[TableRegionKind::kFilter] + stored[TableRegionKind::kFilterPartition] +
                  stored[TableRegionKind::kFilterTopIndex],
              props.Number("rocksdb.filter.size"))
        << t.id;
  }
}

void CheckProperties(const GoldenTable& t, const OpenedTable& table) {
  const nlohmann::json& expected = *t.props;
  size_t matched = 0;
  for (const TableProperty& p : table.properties.all()) {
    if (!expected.contains(p.name)) {
      // The corpus drops the creation times, which change from run to run.
      EXPECT_TRUE(t.props_partial || p.name == "rocksdb.creation.time" ||
                  p.name == "rocksdb.oldest.key.time" || p.name == "rocksdb.file.creation.time")
          << t.id << ": unexpected property " << p.name;
      continue;
    }
    ++matched;
    const nlohmann::json& e = expected.at(p.name);
    switch (p.kind) {
      case TableProperty::Kind::kNumber:
        EXPECT_EQ(e, nlohmann::json(p.number)) << t.id << " " << p.name;
        break;
      case TableProperty::Kind::kText:
        EXPECT_EQ(e, nlohmann::json(std::string(p.bytes.begin(), p.bytes.end())))
            << t.id << " " << p.name;
        break;
      case TableProperty::Kind::kBinary:
        EXPECT_EQ(e, nlohmann::json({{"hex", Hex(p.bytes)}})) << t.id << " " << p.name;
        break;
    }
  }
  EXPECT_EQ(matched, expected.size()) << t.id << ": properties missing";
}

void CheckTable(const GoldenTable& t, size_t* probes_checked) {
  Status s;
  auto reader = Open(t.file, t.internal_keys, &s);
  ASSERT_TRUE(s.ok()) << t.id << ": " << s.message() << " at " << s.offset();
  const OpenedTable& table = reader->table();
  if (t.footer) {
    EXPECT_EQ(table.footer.format_version, (*t.footer).at("format_version").get<uint32_t>());
    EXPECT_EQ(table.footer.metaindex.offset, (*t.footer).at("metaindex_handle")[0].get<uint64_t>());
    EXPECT_EQ(table.index_handle.offset, (*t.footer).at("index_handle")[0].get<uint64_t>());
  }
  if (t.props) CheckProperties(t, table);
  if (!t.filters.empty()) {
    const std::vector<ByteView> raw = reader->filter_bytes();
    ASSERT_EQ(raw.size(), t.filters.size()) << t.id;
    for (size_t i = 0; i < raw.size(); ++i) {
      EXPECT_TRUE(
          std::equal(raw[i].begin(), raw[i].end(), t.filters[i].begin(), t.filters[i].end()))
          << t.id << " filter " << i;
    }
  }
  std::set<std::string> key_set;
  for (const auto& k : t.keys) key_set.emplace(k.begin(), k.end());
  for (size_t i = 0; i < t.probes.size(); ++i) {
    bool maybe = false;
    s = reader->MayContain(t.probes[i], &maybe);
    ASSERT_TRUE(s.ok()) << t.id << " probe " << i << ": " << s.message();
    if (t.get[i] != 2) {
      EXPECT_EQ(maybe, t.get[i] == 1) << t.id << " get probe " << i;
    } else {
      // Not consulted: the database skipped the file (the key is outside its range), or the
      // filter holds prefixes and the key is outside the extractor's domain (then: may match).
      const auto& e = table.prefix_extractor;
      const bool out_of_domain = !table.whole_key_filtering && e && !e->InDomain(t.probes[i]);
      EXPECT_TRUE(out_of_domain
                      ? maybe
                      : key_set.count(std::string(t.probes[i].begin(), t.probes[i].end())) == 0)
          << t.id << " get probe " << i << " (not consulted)";
    }
    if (t.seek) {
      s = reader->PrefixMayMatch(t.probes[i], &maybe);
      ASSERT_TRUE(s.ok()) << t.id << " probe " << i << ": " << s.message();
      if ((*t.seek)[i] != 2) {
        EXPECT_EQ(maybe, (*t.seek)[i] == 1) << t.id << " seek probe " << i;
      }
    }
  }
  // The batch path answers as the key-by-key one, for the probes and for the table's own keys.
  for (const KeyList* list : {&t.probes, &t.keys}) {
    const testing::PackedKeys packed(*list);
    std::vector<uint8_t> batch(list->size(), 2);
    s = reader->MayContainMany(packed.view(), batch.data());
    ASSERT_TRUE(s.ok()) << t.id << ": " << s.message();
    for (size_t i = 0; i < list->size(); ++i) {
      bool maybe = false;
      ASSERT_TRUE(reader->MayContain((*list)[i], &maybe).ok());
      ASSERT_EQ(batch[i], maybe ? 1 : 0) << t.id << (list == &t.keys ? " key " : " probe ") << i;
    }
  }
  *probes_checked += t.probes.size();
  for (size_t i = 0; i < t.keys.size(); ++i) {
    bool maybe = false;
    ASSERT_TRUE(reader->MayContain(t.keys[i], &maybe).ok());
    EXPECT_TRUE(maybe) << t.id << " key " << i;
  }
  const KeyList keys = AllKeys(*reader, t.file, &s);
  ASSERT_TRUE(s.ok()) << t.id << ": " << s.message();
  EXPECT_TRUE(keys == t.keys) << t.id << ": keys() differ";
  if (t.values) CheckValues(t, *reader);
  CheckLayout(t, *reader);
  // Two cursors over the blocks before and after an offset walk the same keys between them, the
  // second entering the index by the offset (IndexBlock::IteratorNearOffset): at thirds of the
  // file, and at, just before and just after the start of a data block in the middle.
  const std::vector<BlockHandle> blocks = WalkedDataBlocks(*reader, t.file, &s);
  ASSERT_TRUE(s.ok()) << t.id << ": " << s.message();
  std::vector<uint64_t> splits = {t.file.size() / 3, 2 * t.file.size() / 3};
  if (!blocks.empty()) {
    const uint64_t start = blocks[blocks.size() / 2].offset;
    splits.insert(splits.end(), {start, start + 1, start == 0 ? 0 : start - 1});
  }
  for (const uint64_t middle : splits) {
    KeyList halves = AllKeys(*reader, t.file, &s, 0, middle);
    ASSERT_TRUE(s.ok()) << t.id << ": " << s.message();
    const KeyList rest = AllKeys(*reader, t.file, &s, middle);
    ASSERT_TRUE(s.ok()) << t.id << ": " << s.message();
    halves.insert(halves.end(), rest.begin(), rest.end());
    EXPECT_TRUE(halves == t.keys) << t.id << ": keys of [0, " << middle << ") and on differ";
  }
}

void CheckSection(const std::vector<GoldenTable>& tables, const char* name) {
  ASSERT_FALSE(tables.empty()) << name << ": no tables in " << golden::CorporaSummary();
  size_t probes = 0;
  size_t compressed = 0;
  for (const GoldenTable& t : tables) {
    CheckTable(t, &probes);
    compressed += t.compressed ? 1 : 0;
  }
  EXPECT_GT(probes, 0u) << name;
  std::printf(
      "[ golden   ] %s: %zu tables (%zu compressed), %zu probes answered as recorded (corpora: "
      "%s)\n",
      name, tables.size(), compressed, probes, golden::CorporaSummary().c_str());
}

TEST(TableGolden, RocksDbSst) { CheckSection(LoadRocksDbSst(), "rocksdb-sst"); }
TEST(TableGolden, LevelDbTable) { CheckSection(LoadLevelDbTables(), "leveldb-table"); }
TEST(TableGolden, Head) { CheckSection(LoadFixtureTables("head", "head"), "head"); }
TEST(TableGolden, V11SeparatedValues) {
  CheckSection(LoadFixtureTables("v11_kv", "v11-kv"), "v11-kv");
}
// The v11-meta tables every codec of this reader decodes (the custom codec's table is
// table_compression_manager_test.cc's).
TEST(TableGolden, V11CompressionNamesAndUserDefinedIndexes) {
  std::vector<GoldenTable> tables = LoadFixtureTables("v11_meta", "v11-meta");
  std::erase_if(tables, [](const GoldenTable& t) { return t.id.ends_with("/custom-codec-0x81"); });
  CheckSection(tables, "v11-meta");
}

// Embedded blob tables (SstFileWriter::OpenWithEmbeddedBlobs): the entries a walk reads carry the
// blob records' payloads, which are the values written.
TEST(TableGolden, V11EmbeddedBlobs) {
  CheckSection(LoadFixtureTables("v11_blob", "v11-blob"), "v11-blob");
}

}  // namespace
}  // namespace sstfilter
