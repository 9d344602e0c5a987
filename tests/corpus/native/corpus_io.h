// Writing a corpus root: key files, answer files and manifests in the layout
// tests/corpus/README.md describes (the same conventions as the corpus the tests read), plus the
// deterministic key shapes every section draws from.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace corpus {

using Key = std::string;  // raw bytes; std::string so the libraries' Slices take it directly
using KeyList = std::vector<Key>;

// splitmix64: small, fast and fully determined by its seed, so a regenerated corpus holds the
// same keys, filters and answers.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  uint64_t Uniform(uint64_t n) { return Next() % n; }
  uint32_t Range(uint32_t lo, uint32_t hi) {
    return lo + static_cast<uint32_t>(Uniform(hi - lo + 1));
  }

 private:
  uint64_t state_;
};

// A key shape: "bin:1:24" random bytes of 1..24, "hibin:1:16" bytes >= 0x80, "dec" decimal
// numbers, "text" words, "long:100:1200", "tiny" (0..2 bytes, the empty key included),
// "mixlen" (1..300 bytes); for prefix extractors "pfx:P:L:a:b" (one of P prefixes of L bytes,
// then a..b random bytes) and "pfxmix:P:a:b" (one of P prefixes of a..b bytes, some shorter than
// the extractor's length, then 0..8 random bytes).
struct KeyShape {
  std::string name;  // as recorded in manifests, e.g. "bin:1:24"
  std::string kind;
  uint32_t min_len = 0;  // of the whole key, or of the suffix (pfx) or prefix (pfxmix)
  uint32_t max_len = 0;
  KeyList prefixes;  // pfx and pfxmix only
};
KeyShape ParseShape(const std::string& name);

// `count` distinct keys of `shape`, sorted bytewise (the order every writer needs).
KeyList MakeKeys(const KeyShape& shape, size_t count, uint64_t seed);

// `count` keys of `shape` that are not in `present` (sorted), in random order.
KeyList MakeAbsentKeys(const KeyShape& shape, size_t count, uint64_t seed, const KeyList& present);

// Keys that sort next to `key`: the key with its last byte stepped down and up, the key plus a
// zero byte, and its prefix without the last byte. Probing a table's index separators and
// these neighbours covers the index and partition seeks at their boundaries.
KeyList Neighbours(const Key& key);

std::string Hex(std::string_view bytes);

// A corpus root under construction. Paths given to it are relative to the root, as every
// manifest records them.
class CorpusRoot {
 public:
  explicit CorpusRoot(std::filesystem::path dir);
  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path Abs(const std::string& relative) const { return dir_ / relative; }
  // Where a case keeps the databases and files it only works with (removed by FinishSection).
  std::filesystem::path Scratch(const std::string& name) const { return dir_ / ".scratch" / name; }

  // Each returns `relative`, for the manifest.
  std::string WriteKeys(const std::string& relative, const KeyList& keys) const;
  std::string WriteBytes(const std::string& relative, std::string_view bytes) const;
  std::string WriteU8(const std::string& relative, const std::vector<uint8_t>& values) const;
  std::string WriteU32(const std::string& relative, const std::vector<uint32_t>& values) const;
  void WriteJson(const std::string& relative, const nlohmann::json& value) const;
  std::string CopyFile(const std::string& relative, const std::filesystem::path& from) const;
  // Copies a closed database's files (DatabaseFiles) into `relative`/; returns their names.
  std::vector<std::string> CopyDatabase(const std::string& relative,
                                        const std::filesystem::path& from) const;

  // Ends a section of cases: removes the scratch folder (.scratch) the section's databases used,
  // writes `folder`/manifest.json, and returns the section's entry for the root manifest.
  nlohmann::json FinishSection(const std::string& folder, const std::string& section,
                               const nlohmann::json& cases) const;

 private:
  std::filesystem::path dir_;
};

std::string ReadFile(const std::filesystem::path& path);
// Writes `bytes` to `path` (a path of its own, not one under a CorpusRoot), replacing the file.
void WriteFile(const std::filesystem::path& path, std::string_view bytes);

// The files of the database in `dir` a reader needs, sorted: all but LOCK and the info logs (LOG*).
std::vector<std::string> DatabaseFiles(const std::filesystem::path& dir);

// Copies those files of the database in `from` into `to` (created, files replaced), without the
// WALs when `with_logs` is false; returns the names copied.
std::vector<std::string> CopyDatabaseFiles(const std::filesystem::path& from,
                                           const std::filesystem::path& to, bool with_logs = true);

// {"path", "count", "shape", "seed"} record of a key file.
nlohmann::json KeysRecord(const std::string& path, const KeyList& keys, const std::string& shape,
                          uint64_t seed);

// What every raw-filter case records under `dir` (a section folder ending in '/'): its keys
// ("keys"), the filter ("filter": path, bytes), the absent probes ("probes") with the library's
// answer to each ("probe_results", "summary"), and whether every key matched ("keys_all_match").
nlohmann::json FilterCaseFiles(const CorpusRoot& root, const std::string& dir,
                               const std::string& id, const KeyList& keys, const std::string& shape,
                               uint64_t seed, std::string_view filter, const KeyList& probes,
                               const std::vector<uint8_t>& answers, bool keys_all_match);

// Counts of an answer file (0 no, 1 maybe, 2 not consulted) split by whether the probe is a key.
nlohmann::json Summary(const std::vector<uint8_t>& answers, const std::vector<uint8_t>& is_key);

// Fails the whole run: a corpus the generator doubts must not be written.
[[noreturn]] void Fail(const std::string& what);

}  // namespace corpus
