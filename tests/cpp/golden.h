// The corpora the GoogleTest suites check sstfilter against (layout: tests/corpus/README.md):
// the corpus generated from RocksDB and LevelDB into build/corpus/native (required), the fixtures
// committed under tests/corpus/fixtures, and the shared golden corpus when it is present. Every
// function throws std::runtime_error naming the path it tried when a required corpus or a file
// is missing or malformed, so a test using it fails loudly instead of skipping.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sstfilter/bytes.h"

namespace sstfilter::golden {

// One corpus root: the folder holding a top-level manifest.json whose "sections" name each
// section's manifest; every path in a manifest is relative to the root.
struct Corpus {
  std::string name;  // "generated", "fixtures" or "shared"
  std::filesystem::path dir;
  nlohmann::json manifest;

  std::filesystem::path Path(std::string_view relative) const;
  // The file a case's field names ({"path": "..."} or the path itself), read whole or as a .keys
  // file.
  std::vector<uint8_t> ReadBytes(const nlohmann::json& field) const;
  std::vector<std::vector<uint8_t>> ReadKeys(const nlohmann::json& field) const;
  // The section's manifest, or nullopt when this corpus has no such section.
  std::optional<nlohmann::json> Section(std::string_view section) const;
};

// Every corpus the tests run: the generated one ($SSTFILTER_CORPUS_DIR, else the
// SSTFILTER_CORPUS_DIR compile definition; throws if it is missing), the committed fixtures, and
// the shared golden corpus ($SSTFILTER_GOLDEN_DIR, else SSTFILTER_DEFAULT_GOLDEN_DIR) if present.
const std::vector<Corpus>& Corpora();

// The corpora holding `section`, each with that section's manifest.
struct CorpusSection {
  const Corpus* corpus;
  nlohmann::json manifest;
};
std::vector<CorpusSection> Sections(std::string_view section);

// The generated corpus, which every run has: for tests that need one particular table.
const Corpus& Generated();

// A one-line account of which corpora ran, for the test log: "generated, fixtures, shared".
std::string CorporaSummary();

std::vector<uint8_t> ReadFileBytes(const std::filesystem::path& path);

// A .keys file: records of a u32 little-endian length followed by that many bytes.
std::vector<std::vector<uint8_t>> ReadKeysFile(const std::filesystem::path& path);

nlohmann::json ReadJson(const std::filesystem::path& path);

// Lowercase or uppercase hex digits, two per byte; throws on odd length or a non-hex character.
std::vector<uint8_t> HexDecode(std::string_view hex);
// Lowercase, two digits per byte (the corpus convention).
std::string HexEncode(ByteView bytes);

// A hex integer with an optional "0x" prefix, e.g. a seed key ("0xbc9f1d34") or a 64-bit value
// ("5342c3010fe1dd04"); throws if it is empty, not hex, or wider than 64 bits.
uint64_t ParseHexU64(std::string_view hex);
// Lowercase, zero-padded to `digits` digits (8 for 32-bit values, 16 for 64-bit ones).
std::string FormatHex(uint64_t value, int digits);

}  // namespace sstfilter::golden
