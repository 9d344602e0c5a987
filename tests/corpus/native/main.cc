// corpus-gen <root>: writes the corpus the tests check sstfilter against, from RocksDB and
// LevelDB themselves (Debian's librocksdb-dev and libleveldb-dev). tests/corpus/README.md
// describes the layout; scripts/corpus.sh decides when to run it.
#include <leveldb/db.h>
#include <rocksdb/version.h>

#include <chrono>
#include <iostream>
#include <set>

#include "sections.h"

namespace corpus {

uint64_t SeedFor(const std::string& id) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a: stable across runs and platforms
  for (unsigned char c : id) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

KeyList MakeProbes(const KeyList& keys, const KeyShape& shape, size_t absent, uint64_t seed,
                   const KeyList& extra, size_t max_keys, std::vector<uint8_t>* is_key) {
  const std::set<Key> key_set(keys.begin(), keys.end());
  std::set<Key> seen;
  KeyList probes;
  const auto add = [&](const Key& k) {
    if (seen.insert(k).second) {
      probes.push_back(k);
      is_key->push_back(key_set.count(k) ? 1 : 0);
    }
  };
  const size_t step = keys.size() > max_keys ? keys.size() / max_keys + 1 : 1;
  for (size_t i = 0; i < keys.size(); i += step) add(keys[i]);
  for (const Key& k : MakeAbsentKeys(shape, absent, seed, keys)) add(k);
  for (const Key& k : extra) add(k);
  return probes;
}

}  // namespace corpus

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--write-recycled-wal") {
    corpus::WriteRecycledWal(argv[2]);
  }
  if (argc != 2) {
    std::cerr << "usage: corpus-gen <output folder>\n";
    return 2;
  }
  using corpus::CorpusRoot;
  const CorpusRoot root{std::filesystem::path(argv[1])};
  nlohmann::json sections;
  const auto run = [&](const char* name, nlohmann::json (*section)(const CorpusRoot&)) {
    const auto start = std::chrono::steady_clock::now();
    sections[name] = section(root);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "corpus-gen: " << name << ": " << sections[name]["cases"] << " cases, " << seconds
              << " s\n";
  };
  run("hash", corpus::HashSection);
  run("leveldb_filter", corpus::LevelDbFilterSection);
  run("leveldb_table", corpus::LevelDbTableSection);
  run("rocksdb_filter", corpus::RocksDbFilterSection);
  run("rocksdb_sst", corpus::RocksDbSstSection);
  run("rocksdb_timestamp", corpus::RocksDbTimestampSection);
  run("rocksdb_values", corpus::RocksDbValuesSection);
  run("table_writer", corpus::TableWriterSection);
  run("db_manifest", corpus::DbManifestSection);
  run("db_wal", corpus::DbWalSection);
  run("db_get", corpus::DbGetSection);
  run("db_table_options", corpus::DbTableOptionsSection);
  run("db_live_files", corpus::DbLiveFilesSection);
  run("db_twopc", corpus::DbTwoPcSection);
  run("db_wal_damage", corpus::DbWalDamageSection);
  run("custom_comparator", corpus::CustomComparatorSection);
  root.WriteJson("manifest.json",
                 {{"format", "sstfilter-corpus/1"},
                  {"generator",
                   {{"tool", "tests/corpus/native (corpus-gen)"},
                    {"rocksdb", {{"version", rocksdb::GetRocksVersionAsString(true)}}},
                    {"leveldb",
                     {{"version", std::to_string(leveldb::kMajorVersion) + "." +
                                      std::to_string(leveldb::kMinorVersion)}}}}},
                  {"sections", sections}});
  return 0;
}
