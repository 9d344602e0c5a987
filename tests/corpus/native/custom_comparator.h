// What the custom_comparator section's two files share (custom_comparator_section.cc: the two
// orders, their keys and probes, the table cases and the section itself;
// custom_comparator_databases.cc: the RocksDB and LevelDB database cases), moved out of
// custom_comparator_section.cc. The orders are described there; the comparators are the
// rocksdb::Comparator and leveldb::Comparator interfaces of RocksDB 7.8.3 and LevelDB 1.23.
#pragma once

#include <leveldb/comparator.h>
#include <leveldb/status.h>
#include <rocksdb/comparator.h>
#include <rocksdb/status.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "corpus_io.h"

namespace corpus::custom_comparator {

// std::string_view::compare as -1, 0 or 1.
int Bytewise(std::string_view a, std::string_view b);
// The little-endian u64 in the last 8 bytes of `key` (8 bytes or more).
uint64_t LastU64(std::string_view key);

struct Order {
  const char* name;
  const char* id;  // in case ids
  int (*compare)(std::string_view, std::string_view);
};

extern const Order kU64Suffix;
extern const Order kReversePrefix;

// The order as each library's comparator (LevelDB: U64Suffix only).
const rocksdb::Comparator* RocksComparator(const Order& order);
const leveldb::Comparator* LevelComparator();

// `count` distinct keys for `order`, sorted by it. U64Suffix: a few keys shorter than 8 bytes,
// then 0..4 random bytes and a u64 (half small numbers, half any), some u64s shared by two keys.
// ReversePrefix: a few keys of 1..3 bytes, then one of count/8 random 4-byte prefixes and 0..8
// random bytes.
KeyList MakeOrderedKeys(const Order& order, size_t count, uint64_t seed);
// Probes: every `step`-th key (is_key 1; `key_index` gets its index in `keys`), then about
// `absent` keys that are not keys (key_index -1), most of them neighbours of keys in the order (so
// they interleave with the keys), a few random, and keys before the first and after the last.
KeyList MakeOrderedProbes(const Order& order, const KeyList& keys, size_t step, size_t absent,
                          uint64_t seed, std::vector<uint8_t>* is_key,
                          std::vector<long>* key_index);

// A Get's answer as the corpus records it: {"status": "ok", "value"} or {"status": "not-found"};
// any other status fails the run.
nlohmann::json GetJson(const rocksdb::Status& s, const std::string& value, const std::string& what);
nlohmann::json GetJson(const leveldb::Status& s, const std::string& value, const std::string& what);

// The database cases (custom_comparator_databases.cc): db_<order> and leveldb_u64_suffix.
nlohmann::json RocksDbCase(const CorpusRoot& root, const Order& order);
nlohmann::json LevelDbCase(const CorpusRoot& root);

}  // namespace corpus::custom_comparator
