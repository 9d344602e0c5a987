// Section "rocksdb_values": tables whose entries hold RocksDB's structured values (docs/FORMATS.md
// 3.10), written by RocksDB 7.8.3, with what RocksDB itself makes of them:
// - blob_db_*: a DB with enable_blob_files (min_blob_size 20) and each blob compression; Put,
//   Flush: the table holds blob indexes (kTypeBlobIndex, kind kBlob) for the long values and
//   plain values for the short ones. Recorded: the blob files, and Get's value for every key.
// - blob_crafted: blob indexes of every kind (kBlobTTL and kInlinedTTL too, which 7.8.3 writes
//   only through the legacy stacked BlobDB, every compression type, and values that do not
//   decode). A DB writes them as plain values (restart interval 1, no checksums, no compression),
//   then their type bytes are set to kTypeBlobIndex in place: the table is RocksDB's but for those
//   bytes. Blob indexes cannot be written as such: a flush decodes every blob index
//   (FileMetaData::UpdateBoundaries) and fails on the broken ones; and SstFileWriter's tables
//   make sst_dump assert that entries are plain values (global sequence numbers).
// - entities: a DB's PutEntity (wide-column entities: none, the default column alone, many
//   columns, binary names and values, long values), a Put and a Delete, Flush. Recorded:
//   GetEntity's columns for every key.
// Every case records sst_dump's scan output, standard output and standard error apart, with
// --decode_blob_index, --decode_blob_index --output_hex and without flags.
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/wide_columns.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "library_status.h"
#include "sections.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;

constexpr char kTypeValue = 0x01;      // rocksdb db/dbformat.h ValueType
constexpr char kTypeBlobIndex = 0x11;  // the type byte blob_crafted's entries get

// sst_dump --command=scan over `file` with `flags`: its standard output and standard error.
std::pair<std::string, std::string> SstDumpScan(const fs::path& file, const std::string& flags) {
  const fs::path err = fs::absolute(file.parent_path() / "sst_dump.stderr");
  const std::string command = "cd '" + file.parent_path().string() +
                              "' && sst_dump --file=" + file.filename().string() +
                              " --command=scan " + flags + " 2>'" + err.string() + "'";
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) Fail("cannot run " + command);
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  if (pclose(p) != 0) Fail(command + " failed: " + ReadFile(err));
  std::string errors = ReadFile(err);
  fs::remove(err);
  return {out, errors};
}

// Runs sst_dump's scans of the case's table; returns {flags: {stdout, stderr}} paths.
nlohmann::json RecordSstDump(const CorpusRoot& root, const std::string& dir,
                             const std::string& table_path) {
  const std::pair<const char*, const char*> runs[] = {
      {"decode", "--decode_blob_index"},
      {"decode_hex", "--decode_blob_index --output_hex"},
      {"plain", ""},
  };
  nlohmann::json r = nlohmann::json::object();
  for (const auto& [name, flags] : runs) {
    const auto [out, err] = SstDumpScan(root.Abs(table_path), flags);
    r[name] = {{"flags", flags},
               {"stdout", root.WriteBytes(dir + "/sst_dump." + name + ".out", out)},
               {"stderr", root.WriteBytes(dir + "/sst_dump." + name + ".err", err)}};
  }
  return r;
}

std::unique_ptr<rocksdb::DB> OpenDb(rocksdb::Options o, const fs::path& dir) {
  o.create_if_missing = true;
  o.disable_auto_compactions = true;
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::Open(o, dir.string(), &raw), "DB::Open " + dir.string());
  return std::unique_ptr<rocksdb::DB>(raw);
}

// The one file of `ext` in `dir` after a flush.
fs::path OnlyFile(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ext) found.push_back(e.path());
  }
  if (found.size() != 1)
    Fail(std::to_string(found.size()) + " " + ext + " files in " + dir.string());
  return found[0];
}

std::string KeyNumbered(size_t i) {
  const std::string digits = std::to_string(i);
  return "key" + std::string(digits.size() < 5 ? 5 - digits.size() : 0, '0') + digits;
}

// Values of 1 to 300 bytes, some with NUL and high bytes: those of 20 bytes and more go to the
// blob file.
std::string BlobDbValue(Random& rng, size_t i) {
  std::string v(1 + rng.Uniform(300), '\0');
  for (char& c : v) c = static_cast<char>(i % 3 == 0 ? rng.Uniform(256) : 'a' + rng.Uniform(26));
  return v;
}

nlohmann::json BlobDbCase(const CorpusRoot& root, const std::string& id,
                          rocksdb::CompressionType compression) {
  const std::string dir = "rocksdb-values/" + id;
  const fs::path scratch = root.Scratch(id);
  fs::remove_all(scratch);
  fs::create_directories(scratch.parent_path());
  rocksdb::Options o;
  o.enable_blob_files = true;
  o.min_blob_size = 20;
  o.blob_compression_type = compression;
  o.compression = rocksdb::kNoCompression;
  auto db = OpenDb(o, scratch);
  Random rng(SeedFor(id));
  KeyList keys, values;
  for (size_t i = 0; i < 400; ++i) {
    keys.push_back(KeyNumbered(i));
    values.push_back(BlobDbValue(rng, i));
    Check(db->Put(rocksdb::WriteOptions(), keys.back(), values.back()), "Put");
  }
  Check(db->Flush(rocksdb::FlushOptions()), "Flush");
  KeyList got;
  for (const Key& k : keys) {
    std::string v;
    Check(db->Get(rocksdb::ReadOptions(), k, &v), "Get " + k);
    got.push_back(v);
  }
  if (got != values) Fail(id + ": Get did not return what Put wrote");
  const fs::path blob = OnlyFile(scratch, ".blob");
  const std::string table_path = root.CopyFile(dir + "/table.sst", OnlyFile(scratch, ".sst"));
  const std::string blob_name = blob.filename().string();
  nlohmann::json r = {
      {"id", id},
      {"writer", "rocksdb::DB with enable_blob_files, min_blob_size 20: Put, Flush"},
      {"blob_compression", static_cast<int>(compression)},
      {"file", {{"path", table_path}}},
      {"blob_files",
       {{{"number", std::stoull(blob_name)},
         {"path", root.CopyFile(dir + "/" + blob_name, blob)}}}},
      {"keys", root.WriteKeys(dir + "/keys.keys", keys)},
      {"get_values", root.WriteKeys(dir + "/get_values.keys", got)},
  };
  db.reset();
  r["sst_dump"] = RecordSstDump(root, dir, table_path);
  return r;
}

std::string Varint(uint64_t v) {
  std::string out;
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>(v | 0x80));
  out.push_back(static_cast<char>(v));
  return out;
}

// Blob indexes of every kind, as rocksdb db/blob/blob_index.h encodes them, and broken ones.
KeyList CraftedBlobIndexes() {
  const auto blob = [](uint64_t file, uint64_t offset, uint64_t size, uint8_t compression) {
    return std::string(1, '\1') + Varint(file) + Varint(offset) + Varint(size) +
           std::string(1, static_cast<char>(compression));
  };
  const auto blob_ttl = [&](uint64_t expiration, uint64_t file, uint64_t offset, uint64_t size,
                            uint8_t compression) {
    return std::string(1, '\2') + Varint(expiration) +
           blob(file, offset, size, compression).substr(1);
  };
  const auto inlined = [](uint64_t expiration, const std::string& value) {
    return std::string(1, '\0') + Varint(expiration) + value;
  };
  KeyList out;
  // Every CompressionType 7.8.3 names (its sst_dump, built with assertions, aborts on others).
  for (uint8_t compression : {0, 1, 2, 3, 4, 5, 6, 7, 0x40, 0xff}) {
    out.push_back(blob(12, 3456, 789, compression));
  }
  out.push_back(blob(0, 0, 0, 0));
  out.push_back(blob(UINT64_MAX, UINT64_MAX, UINT64_MAX, 1));
  out.push_back(blob_ttl(1700000000, 5, 100, 2000, 0));
  out.push_back(blob_ttl(UINT64_MAX, 1, 2, 3, 7));
  out.push_back(inlined(1700000000, "inlined value"));
  out.push_back(inlined(0, ""));
  out.push_back(inlined(42, std::string("nul\0inside\xff", 11)));
  // Broken: an unknown kind, a missing compression byte, a byte too many, a truncated varint,
  // an inlined index without its expiration.
  out.push_back(std::string("\3\1\2\3\0", 5));
  out.push_back(blob(1, 2, 3, 0).substr(0, 4));
  out.push_back(blob(1, 2, 3, 0) + "x");
  out.push_back(std::string("\1\x80", 2));
  out.push_back(std::string(1, '\0'));
  return out;
}

nlohmann::json BlobCraftedCase(const CorpusRoot& root) {
  const std::string id = "blob_crafted";
  const std::string dir = "rocksdb-values/" + id;
  const fs::path scratch = root.Scratch(id);
  fs::remove_all(scratch);
  fs::create_directories(scratch.parent_path());
  rocksdb::BlockBasedTableOptions t;
  t.block_restart_interval = 1;  // every key whole, so its type byte can be found
  t.checksum = rocksdb::kNoChecksum;
  rocksdb::Options o;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  o.compression = rocksdb::kNoCompression;
  auto db = OpenDb(o, scratch);
  const KeyList values = CraftedBlobIndexes();
  KeyList keys;
  for (size_t i = 0; i < values.size(); ++i) {
    keys.push_back(KeyNumbered(i));
    Check(db->Put(rocksdb::WriteOptions(), keys.back(), values[i]), "Put");
  }
  Check(db->Flush(rocksdb::FlushOptions()), "Flush");
  db.reset();
  // Each entry's internal key is the user key then the tag (sequence i + 1, kTypeValue), stored
  // whole: its first tag byte becomes kTypeBlobIndex.
  std::string file = ReadFile(OnlyFile(scratch, ".sst"));
  for (size_t i = 0; i < keys.size(); ++i) {
    std::string internal = keys[i] + kTypeValue;
    for (int b = 0; b < 7; ++b) internal.push_back(static_cast<char>(((i + 1) >> (8 * b)) & 0xff));
    const size_t at = file.find(internal);
    if (at == std::string::npos || file.find(internal, at + 1) != std::string::npos) {
      Fail(id + ": the entry of " + keys[i] + " is not in the file exactly once");
    }
    file[at + keys[i].size()] = kTypeBlobIndex;
  }
  const std::string table_path = root.WriteBytes(dir + "/table.sst", file);
  return {
      {"id", id},
      {"writer",
       "rocksdb::DB (block_restart_interval 1, kNoChecksum, no compression): Put, Flush; the "
       "entries' type bytes then set to kTypeBlobIndex"},
      {"file", {{"path", table_path}}},
      {"keys", root.WriteKeys(dir + "/keys.keys", keys)},
      {"values", root.WriteKeys(dir + "/values.keys", values)},
      {"sst_dump", RecordSstDump(root, dir, table_path)},
  };
}

// Column sets for PutEntity: names ascend as WideColumns must be given.
std::vector<rocksdb::WideColumns> EntityColumns(std::vector<std::string>& storage, Random& rng) {
  storage.clear();
  storage.reserve(4096);  // the columns point into it
  const auto s = [&](std::string v) -> const std::string& {
    return storage.emplace_back(std::move(v));
  };
  std::vector<rocksdb::WideColumns> out;
  out.push_back({});
  out.push_back({{rocksdb::kDefaultWideColumnName, s("only the default")}});
  out.push_back({{s(""), s("")}, {s("a"), s("1")}, {s("b"), s("")}});
  out.push_back({{s("attr"), s(std::string("bin\0\xff\x80", 6))},
                 {s(std::string("n\0ul", 4)), s("x")},
                 {s("\xfe\xff"), s("high")}});
  out.push_back({{s("big"), s(std::string(5000, 'z'))}, {s("small"), s("s")}});
  for (int n : {5, 40, 200}) {
    rocksdb::WideColumns many;
    for (int i = 0; i < n; ++i) {
      char name[16];
      std::snprintf(name, sizeof name, "col%04d", i);
      std::string value(rng.Uniform(30), '\0');
      for (char& c : value) c = static_cast<char>(rng.Uniform(256));
      many.emplace_back(s(name), s(value));
    }
    out.push_back(many);
  }
  return out;
}

nlohmann::json EntitiesCase(const CorpusRoot& root) {
  const std::string id = "entities";
  const std::string dir = "rocksdb-values/" + id;
  const fs::path scratch = root.Scratch(id);
  fs::remove_all(scratch);
  fs::create_directories(scratch.parent_path());
  rocksdb::Options o;
  o.compression = rocksdb::kNoCompression;
  auto db = OpenDb(o, scratch);
  Random rng(SeedFor(id));
  std::vector<std::string> storage;
  const std::vector<rocksdb::WideColumns> sets = EntityColumns(storage, rng);
  KeyList keys;
  for (size_t i = 0; i < sets.size(); ++i) {
    keys.push_back(KeyNumbered(i));
    Check(db->PutEntity(rocksdb::WriteOptions(), db->DefaultColumnFamily(), keys.back(), sets[i]),
          "PutEntity");
  }
  keys.push_back(
      KeyNumbered(sets.size()));  // a plain value: GetEntity gives it as the default column
  Check(db->Put(rocksdb::WriteOptions(), keys.back(), "plain"), "Put");
  Check(db->Flush(rocksdb::FlushOptions()), "Flush");
  // What GetEntity returns for each key: names and values, one .keys file of pairs per key.
  nlohmann::json entities = nlohmann::json::array();
  for (const Key& k : keys) {
    rocksdb::PinnableWideColumns columns;
    Check(db->GetEntity(rocksdb::ReadOptions(), db->DefaultColumnFamily(), k, &columns),
          "GetEntity " + k);
    KeyList names, values;
    for (const rocksdb::WideColumn& c : columns.columns()) {
      names.push_back(c.name().ToString());
      values.push_back(c.value().ToString());
    }
    entities.push_back({{"key", k},
                        {"names", root.WriteKeys(dir + "/" + k + ".names.keys", names)},
                        {"values", root.WriteKeys(dir + "/" + k + ".values.keys", values)}});
  }
  db.reset();
  const std::string table_path = root.CopyFile(dir + "/table.sst", OnlyFile(scratch, ".sst"));
  return {
      {"id", id},
      {"writer", "rocksdb::DB: PutEntity (and one Put), Flush"},
      {"file", {{"path", table_path}}},
      {"get_entity", entities},
      {"sst_dump", RecordSstDump(root, dir, table_path)},
  };
}

}  // namespace

nlohmann::json RocksDbValuesSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  cases.push_back(BlobDbCase(root, "blob_db_none", rocksdb::kNoCompression));
  cases.push_back(BlobDbCase(root, "blob_db_snappy", rocksdb::kSnappyCompression));
  cases.push_back(BlobCraftedCase(root));
  cases.push_back(EntitiesCase(root));
  return root.FinishSection("rocksdb-values", "rocksdb_values", cases);
}

}  // namespace corpus
