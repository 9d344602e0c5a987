// The corpus sections this generator writes. Each writes its files and section manifest under
// the root and returns its entry for the top-level manifest ({"path", "cases"}).
#pragma once

#include <nlohmann/json.hpp>

#include "corpus_io.h"

namespace corpus {

nlohmann::json CustomComparatorSection(const CorpusRoot& root);
nlohmann::json DbGetSection(const CorpusRoot& root);
nlohmann::json DbLiveFilesSection(const CorpusRoot& root);  // after DbGetSection
nlohmann::json DbManifestSection(const CorpusRoot& root);
nlohmann::json DbTableOptionsSection(const CorpusRoot& root);
nlohmann::json DbTwoPcSection(const CorpusRoot& root);
nlohmann::json DbWalSection(const CorpusRoot& root);
nlohmann::json DbWalDamageSection(const CorpusRoot& root);
nlohmann::json HashSection(const CorpusRoot& root);
nlohmann::json LevelDbFilterSection(const CorpusRoot& root);
nlohmann::json LevelDbTableSection(const CorpusRoot& root);
nlohmann::json RocksDbFilterSection(const CorpusRoot& root);
nlohmann::json RocksDbSstSection(const CorpusRoot& root);
nlohmann::json RocksDbTimestampSection(const CorpusRoot& root);
nlohmann::json RocksDbValuesSection(const CorpusRoot& root);
nlohmann::json TableWriterSection(const CorpusRoot& root);

// corpus-gen --write-recycled-wal <dir>: db_manifest's rocksdb_recycled_wal writer, run as a
// process of its own that exits without closing the database (a crash, as far as the files go).
[[noreturn]] void WriteRecycledWal(const std::filesystem::path& dir);

// A stable per-case seed, so adding a case does not change the keys of the others.
uint64_t SeedFor(const std::string& id);

// Probes that are keys (every key up to `max_keys`, else an even sample), then `absent` keys of
// the same shape, then `extra` (separators and their neighbours), without duplicates;
// `is_key` gets 1 for each probe that is one of `keys`.
KeyList MakeProbes(const KeyList& keys, const KeyShape& shape, size_t absent, uint64_t seed,
                   const KeyList& extra, size_t max_keys, std::vector<uint8_t>* is_key);

}  // namespace corpus
