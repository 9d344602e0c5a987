// Sections "leveldb_filter" and "leveldb_table": filters and tables written by LevelDB 1.23 and
// LevelDB's own answers.
// - Raw filters: FilterPolicy::CreateFilter and KeyMayMatch, both public API.
// - Tables written by TableBuilder (user keys): the filter LevelDB's Table::InternalGet would
//   consult is the one for the data block that Table::ApproximateOffsetOf (the same index seek)
//   returns; KeyMayMatch on it is the answer (LevelDB table/table.cc, table/filter_block.cc).
// - Tables written by a DB (internal keys): DB::Get through an Env that counts reads of table
//   files. With the table open and nothing cached, a Get reads its data block exactly when the
//   filter said "maybe". Some DBs overwrite and delete keys under a snapshot before compacting,
//   so that their table keeps both versions and deletions (both LevelDB value types).
// - Every table's entries as LevelDB's own iterator over the table yields them (Table::Open and
//   Table::NewIterator, public API): internal keys (user key, sequence, type) for DB tables, user
//   keys for TableBuilder tables, and the values.
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>
#include <leveldb/table.h>
#include <leveldb/table_builder.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <set>

#include "library_status.h"
#include "sections.h"
#include "table_layout.h"

namespace corpus {
namespace {

namespace fs = std::filesystem;
constexpr int kFilterBaseLg = 11;  // LevelDB table/filter_block.cc: one filter per 2 KiB

std::vector<leveldb::Slice> Slices(const KeyList& keys) {
  return std::vector<leveldb::Slice>(keys.begin(), keys.end());
}

// Counts reads of table files (not of the log, manifest or current files).
class CountingEnv : public leveldb::EnvWrapper {
 public:
  CountingEnv() : EnvWrapper(leveldb::Env::Default()) {}
  leveldb::Status NewRandomAccessFile(const std::string& name,
                                      leveldb::RandomAccessFile** result) override {
    leveldb::Status s = target()->NewRandomAccessFile(name, result);
    if (s.ok() && name.size() > 4 && name.substr(name.size() - 4) == ".ldb") {
      *result = new CountingFile(*result, &reads_);
    }
    return s;
  }
  uint64_t reads() const { return reads_.load(); }

 private:
  class CountingFile : public leveldb::RandomAccessFile {
   public:
    CountingFile(leveldb::RandomAccessFile* file, std::atomic<uint64_t>* reads)
        : file_(file), reads_(reads) {}
    leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                         char* scratch) const override {
      ++*reads_;
      return file_->Read(offset, n, result, scratch);
    }

   private:
    std::unique_ptr<leveldb::RandomAccessFile> file_;
    std::atomic<uint64_t>* reads_;
  };
  std::atomic<uint64_t> reads_{0};
};

struct TableConfig {
  std::string id;
  int bits = 10;
  size_t block_size = 4096;
  int restart_interval = 16;
  bool snappy = false;
  std::string shape = "bin:1:24";
  size_t count = 3000;
  bool db = false;
  // DB only: after the puts, a snapshot, then every 5th key overwritten and every 7th deleted.
  bool history = false;
};

std::vector<TableConfig> TableConfigs() {
  return {
      {.id = "tb_b10_bs256", .block_size = 256},
      {.id = "tb_b10_bs1024", .block_size = 1024},
      {.id = "tb_b10_bs4096", .block_size = 4096, .count = 5000},
      {.id = "tb_b10_bs1024_snappy", .block_size = 1024, .snappy = true, .shape = "text"},
      {.id = "tb_b10_tiny_with_empty", .block_size = 512, .shape = "tiny", .count = 400},
      {.id = "tb_b5_bs512_hibin_restart4",
       .bits = 5,
       .block_size = 512,
       .restart_interval = 4,
       .shape = "hibin:1:16"},
      {.id = "tb_b20_long", .bits = 20, .block_size = 4096, .shape = "long:100:1200", .count = 200},
      {.id = "tb_b1_bs8192_dec", .bits = 1, .block_size = 8192, .shape = "dec", .count = 8000},
      {.id = "tb_b32_bs2048_mixlen",
       .bits = 32,
       .block_size = 2048,
       .shape = "mixlen",
       .count = 2000},
      {.id = "db_b10_bs1024", .block_size = 1024, .count = 4000, .db = true},
      {.id = "db_b10_bs256_text", .block_size = 256, .shape = "text", .db = true, .history = true},
      {.id = "db_b16_bs4096_snappy_dec",
       .bits = 16,
       .block_size = 4096,
       .snappy = true,
       .shape = "dec",
       .count = 6000,
       .db = true},
      {.id = "db_b5_bs512_hibin",
       .bits = 5,
       .block_size = 512,
       .shape = "hibin:1:12",
       .db = true,
       .history = true},
      {.id = "db_b10_bs8192_mixlen",
       .block_size = 8192,
       .shape = "mixlen",
       .count = 2500,
       .db = true},
  };
}

struct FilterBlock {
  Handle handle;
  std::string contents;
  std::vector<uint32_t> offsets;  // num_filters + 1 entries, the last is the array's offset
};

FilterBlock ReadFilterBlock(const std::string& file, const Footer& footer,
                            const std::string& policy_name) {
  FilterBlock fb;
  const auto handle = FindMeta(file, footer, "filter." + policy_name);
  if (!handle) Fail("LevelDB table without a filter block");
  fb.handle = *handle;
  fb.contents = *ReadBlock(file, fb.handle);
  const std::string& c = fb.contents;
  if (c.size() < 5 || uint8_t(c.back()) != kFilterBaseLg) Fail("unexpected filter block");
  const auto u32 = [&](size_t at) {
    return uint32_t(uint8_t(c[at])) | uint32_t(uint8_t(c[at + 1])) << 8 |
           uint32_t(uint8_t(c[at + 2])) << 16 | uint32_t(uint8_t(c[at + 3])) << 24;
  };
  const uint32_t array_offset = u32(c.size() - 5);
  for (size_t at = array_offset; at + 5 < c.size(); at += 4) fb.offsets.push_back(u32(at));
  fb.offsets.push_back(array_offset);
  return fb;
}

std::string WriteTable(const fs::path& path, const leveldb::Options& options, const KeyList& keys) {
  leveldb::WritableFile* out = nullptr;
  Check(leveldb::Env::Default()->NewWritableFile(path.string(), &out), "NewWritableFile");
  std::unique_ptr<leveldb::WritableFile> file(out);
  leveldb::TableBuilder builder(options, file.get());
  for (size_t i = 0; i < keys.size(); ++i) builder.Add(keys[i], std::to_string(i));
  Check(builder.Finish(), "TableBuilder::Finish");
  Check(file->Close(), "Close");
  return ReadFile(path);
}

// The answers of a TableBuilder table: see the file comment.
std::vector<uint8_t> TableRouteAnswers(const leveldb::Options& options, const fs::path& path,
                                       const std::string& file, const Footer& footer,
                                       const FilterBlock& fb, const KeyList& probes,
                                       std::vector<uint32_t>* filter_index) {
  leveldb::RandomAccessFile* raw = nullptr;
  Check(leveldb::Env::Default()->NewRandomAccessFile(path.string(), &raw), "open table");
  std::unique_ptr<leveldb::RandomAccessFile> source(raw);
  leveldb::Table* opened = nullptr;
  Check(leveldb::Table::Open(options, source.get(), file.size(), &opened), "Table::Open");
  std::unique_ptr<leveldb::Table> table(opened);
  std::vector<uint8_t> answers;
  const size_t num_filters = fb.offsets.size() - 1;
  for (const Key& p : probes) {
    const uint64_t offset = table->ApproximateOffsetOf(p);
    if (offset == footer.metaindex.offset) {  // past the last index entry: no block, no filter
      answers.push_back(2);
      filter_index->push_back(0xffffffffu);
      continue;
    }
    const uint64_t i = offset >> kFilterBaseLg;
    filter_index->push_back(static_cast<uint32_t>(i));
    if (i >= num_filters) {
      answers.push_back(1);  // FilterBlockReader treats a missing filter as a match
    } else {
      const uint32_t start = fb.offsets[i], limit = fb.offsets[i + 1];
      const leveldb::Slice filter(fb.contents.data() + start, limit - start);
      answers.push_back(start < limit && options.filter_policy->KeyMayMatch(p, filter) ? 1 : 0);
    }
  }
  return answers;
}

// Writes the keys through a DB and compacts them into one table; `make_probes` chooses the probes
// from that table's bytes, and each is answered by Get. Returns the table's bytes.
std::string DbRoute(const TableConfig& c, leveldb::Options options, const fs::path& dir,
                    const KeyList& keys,
                    const std::function<KeyList(const std::string&)>& make_probes, KeyList* probes,
                    std::vector<uint8_t>* answers) {
  CountingEnv env;
  std::unique_ptr<leveldb::Cache> cache(leveldb::NewLRUCache(8 << 20));
  options.env = &env;
  options.block_cache = cache.get();
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 20;
  options.max_file_size = 64 << 20;
  fs::remove_all(dir);
  leveldb::DB* raw = nullptr;
  Check(leveldb::DB::Open(options, dir.string(), &raw), "DB::Open");
  std::unique_ptr<leveldb::DB> db(raw);
  for (size_t i = 0; i < keys.size(); ++i) {
    Check(db->Put(leveldb::WriteOptions(), keys[i], std::to_string(i)), "Put");
  }
  // The snapshot keeps the versions it sees through the compaction, and a deletion newer than it
  // is kept too (leveldb db/db_impl.cc DoCompactionWork).
  const leveldb::Snapshot* snapshot = c.history ? db->GetSnapshot() : nullptr;
  for (size_t i = 0; c.history && i < keys.size(); ++i) {
    if (i % 5 == 0)
      Check(db->Put(leveldb::WriteOptions(), keys[i], std::to_string(i) + "-new"), "Put");
    if (i % 7 == 0) Check(db->Delete(leveldb::WriteOptions(), keys[i]), "Delete");
  }
  db->CompactRange(nullptr, nullptr);
  std::vector<fs::path> tables;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".ldb") tables.push_back(e.path());
  }
  if (tables.size() != 1) Fail(c.id + ": expected one table file after CompactRange");
  const std::string file = ReadFile(tables[0]);
  *probes = make_probes(file);
  leveldb::ReadOptions read;
  read.fill_cache = false;  // every data block read goes to the file
  std::string value;
  db->Get(read, keys.front(), &value);  // opens the table: footer, index, filter
  for (const Key& p : *probes) {
    const uint64_t before = env.reads();
    const leveldb::Status s = db->Get(read, p, &value);
    if (!s.ok() && !s.IsNotFound()) Fail(c.id + ": Get: " + s.ToString());
    const uint64_t reads = env.reads() - before;
    if (reads > 1) Fail(c.id + ": one Get read more than one block");
    const bool in_range = p >= keys.front() && p <= keys.back();
    answers->push_back(!in_range ? 2 : reads == 1 ? 1 : 0);
    if (!in_range && reads) Fail(c.id + ": Get outside the table's range read it");
  }
  if (snapshot != nullptr) db->ReleaseSnapshot(snapshot);
  db.reset();
  fs::remove_all(dir);
  return file;
}

// The entries LevelDB's iterator over the table yields: user keys, tags (8 little-endian bytes
// each; DB tables only), values, and the value types seen.
struct IteratedEntries {
  KeyList keys, values;
  std::string tags;
  std::set<int> types;
};

IteratedEntries IterateTable(const leveldb::Options& options, const fs::path& path, bool db) {
  leveldb::RandomAccessFile* raw = nullptr;
  Check(leveldb::Env::Default()->NewRandomAccessFile(path.string(), &raw), "open table");
  std::unique_ptr<leveldb::RandomAccessFile> source(raw);
  leveldb::Table* opened = nullptr;
  Check(leveldb::Table::Open(options, source.get(), fs::file_size(path), &opened), "Table::Open");
  std::unique_ptr<leveldb::Table> table(opened);
  leveldb::ReadOptions read;
  read.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(read));
  IteratedEntries out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string key = it->key().ToString();
    if (db) {
      if (key.size() < 8) Fail(path.string() + ": an internal key shorter than its tag");
      out.tags += key.substr(key.size() - 8);
      out.types.insert(uint8_t(key[key.size() - 8]));
      key.resize(key.size() - 8);
    }
    out.keys.push_back(std::move(key));
    out.values.push_back(it->value().ToString());
  }
  Check(it->status(), "iterating " + path.string());
  return out;
}

}  // namespace

nlohmann::json LevelDbFilterSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  const int bits_list[] = {1, 2, 5, 8, 10, 16, 20, 32};
  const size_t counts[] = {0, 1, 2, 3, 10, 100, 1000, 50000};
  const char* shapes[] = {"bin:1:24", "hibin:1:12",   "dec", "mixlen",
                          "bin:0:8",  "long:100:600", "text"};
  size_t shape_index = 0;
  for (int bits : bits_list) {
    std::unique_ptr<const leveldb::FilterPolicy> policy(leveldb::NewBloomFilterPolicy(bits));
    for (size_t n : counts) {
      const std::string shape = n == 50000 ? "bin:1:32" : shapes[shape_index++ % std::size(shapes)];
      const std::string id = "ldbf_b" + std::to_string(bits) + "_n" + std::to_string(n);
      const KeyShape key_shape = ParseShape(shape);
      const KeyList keys = MakeKeys(key_shape, n, SeedFor(id));
      const KeyList probes = MakeAbsentKeys(
          key_shape, std::min<size_t>(std::max<size_t>(5 * n, 2000), 20000), SeedFor(id), keys);
      const std::vector<leveldb::Slice> slices = Slices(keys);
      std::string filter;
      policy->CreateFilter(slices.data(), static_cast<int>(slices.size()), &filter);
      bool keys_all_match = true;
      for (const Key& k : keys) keys_all_match &= policy->KeyMayMatch(k, filter);
      std::vector<uint8_t> answers;
      for (const Key& p : probes) answers.push_back(policy->KeyMayMatch(p, filter) ? 1 : 0);
      nlohmann::json r = FilterCaseFiles(root, "leveldb-filter/", id, keys, shape, SeedFor(id),
                                         filter, probes, answers, keys_all_match);
      r["id"] = id;
      r["bits_per_key"] = bits;
      r["policy_name"] = policy->Name();
      r["filter"]["num_probes_byte"] = uint8_t(filter.back());
      cases.push_back(std::move(r));
    }
  }
  return root.FinishSection("leveldb-filter", "leveldb_filter", cases);
}

nlohmann::json LevelDbTableSection(const CorpusRoot& root) {
  nlohmann::json cases = nlohmann::json::array();
  size_t tail_cases = 0;
  for (const TableConfig& c : TableConfigs()) {
    std::unique_ptr<const leveldb::FilterPolicy> policy(leveldb::NewBloomFilterPolicy(c.bits));
    leveldb::Options options;
    options.filter_policy = policy.get();
    options.block_size = c.block_size;
    options.block_restart_interval = c.restart_interval;
    options.compression = c.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    const KeyShape shape = ParseShape(c.shape);
    const KeyList keys = MakeKeys(shape, c.count, SeedFor(c.id));
    const std::string dir = "leveldb-table/" + c.id;
    const fs::path scratch = root.Scratch(c.id);
    fs::create_directories(scratch);

    // Probes: keys, absent keys, and every index separator with its neighbours.
    std::vector<Handle> blocks;
    std::vector<uint8_t> is_key;
    size_t separator_probes = 0;
    const auto make_probes = [&](const std::string& table) {
      const Footer f = ParseFooter(table);
      KeyList extra;
      for (const auto& [key, value] : BlockEntries(*ReadBlock(table, f.index))) {
        const Key user_key = c.db ? key.substr(0, key.size() - 8) : key;
        extra.push_back(user_key);
        for (Key& n : Neighbours(user_key)) extra.push_back(std::move(n));
        blocks.push_back(DecodeHandle(value));
      }
      separator_probes = extra.size();
      return MakeProbes(keys, shape, 2500, SeedFor(c.id), extra, 2000, &is_key);
    };
    KeyList probes;
    std::vector<uint8_t> answers;
    std::vector<uint32_t> filter_index;
    std::string file;
    if (c.db) {
      file = DbRoute(c, options, scratch / "db", keys, make_probes, &probes, &answers);
    } else {
      file = WriteTable(scratch / "table.ldb", options, keys);
      probes = make_probes(file);
    }
    const Footer footer = ParseFooter(file);
    const std::string table_path = root.WriteBytes(dir + "/table.ldb", file);
    const IteratedEntries entries = IterateTable(options, root.Abs(table_path), c.db);
    if (c.history && entries.types != std::set<int>{0, 1}) {
      Fail(c.id + ": the table does not hold both puts and deletions");
    }
    if (!c.history && entries.keys != keys) Fail(c.id + ": the table's keys are not those written");
    if (!c.db) {
      answers =
          TableRouteAnswers(options, scratch / "table.ldb", file, footer,
                            ReadFilterBlock(file, footer, policy->Name()), probes, &filter_index);
    }
    const FilterBlock fb = ReadFilterBlock(file, footer, policy->Name());
    size_t empty_filters = 0;
    for (size_t i = 0; i + 1 < fb.offsets.size(); ++i)
      empty_filters += fb.offsets[i] == fb.offsets[i + 1];
    // LevelDB's TableBuilder::Flush starts a filter range at the end of the last data block too,
    // so when that block crosses two 2 KiB boundaries the filter block ends in empty filters.
    const Handle last = blocks.back();
    const bool tail =
        ((last.offset + last.size + 5) >> kFilterBaseLg) >= (last.offset >> kFilterBaseLg) + 2;
    tail_cases += tail;
    nlohmann::json r = {
        {"id", c.id},
        {"writer",
         c.db ? "leveldb::DB: Put of every key, CompactRange(nullptr, nullptr) to one table"
              : "leveldb::TableBuilder (user keys)"},
        {"answer_route",
         c.db ? "DB::Get through an Env counting table-file reads (fill_cache=false)"
              : "FilterPolicy::KeyMayMatch on the filter for Table::ApproximateOffsetOf(probe)"},
        {"options",
         {{"filter_policy", {{"factory", "NewBloomFilterPolicy"}, {"bits_per_key", c.bits}}},
          {"block_size", c.block_size},
          {"block_restart_interval", c.restart_interval},
          {"compression", c.snappy ? "kSnappyCompression" : "kNoCompression"},
          {"comparator", "leveldb.BytewiseComparator"}}},
        {"internal_keys", c.db},
        {"file", {{"path", table_path}, {"bytes", file.size()}}},
        {"footer",
         {{"metaindex_handle", {footer.metaindex.offset, footer.metaindex.size}},
          {"index_handle", {footer.index.offset, footer.index.size}}}},
        {"num_data_blocks", blocks.size()},
        {"filter_block",
         {{"metaindex_name", std::string("filter.") + policy->Name()},
          {"handle", {fb.handle.offset, fb.handle.size}},
          {"path", root.WriteBytes(dir + "/filter_block.bin", fb.contents)},
          {"bytes", fb.contents.size()},
          {"base_lg", kFilterBaseLg},
          {"num_filters", fb.offsets.size() - 1},
          {"empty_filters", empty_filters},
          {"ends_past_last_block_range", tail}}},
        // The table's user keys in order: a key written more than once repeats per version.
        {"keys", KeysRecord(root.WriteKeys(dir + "/keys.keys", entries.keys), entries.keys, c.shape,
                            SeedFor(c.id))},
        {"history", c.history},
        {"entries",
         {{"route", "leveldb::Table::Open, Table::NewIterator (verify_checksums)"},
          {"count", entries.keys.size()},
          {"types", entries.types},
          {"keys", root.WriteKeys(dir + "/entries/keys.keys", entries.keys)},
          {"tags", c.db ? nlohmann::json(root.WriteBytes(dir + "/entries/tags.bin", entries.tags))
                        : nlohmann::json(nullptr)},
          {"values", root.WriteKeys(dir + "/entries/values.keys", entries.values)}}},
        {"probes",
         {{"path", root.WriteKeys(dir + "/probes.keys", probes)}, {"count", probes.size()}}},
        {"probe_is_key", root.WriteU8(dir + "/probe_is_key.u8", is_key)},
        {"get_results", root.WriteU8(dir + "/get_results.u8", answers)},
        {"summary", {{"get", Summary(answers, is_key)}, {"separator_probes", separator_probes}}},
    };
    if (!c.db)
      r["probe_filter_index"] = root.WriteU32(dir + "/probe_filter_index.u32", filter_index);
    cases.push_back(std::move(r));
  }
  if (tail_cases == 0) Fail("no LevelDB table whose filter block ends past its last block's range");
  return root.FinishSection("leveldb-table", "leveldb_table", cases);
}

}  // namespace corpus
