#include "corpus_io.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <stdexcept>

namespace corpus {

uint64_t Random::Next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void Fail(const std::string& what) {
  std::cerr << "corpus-gen: " << what << "\n";
  std::exit(1);
}

namespace {

std::vector<uint32_t> ShapeNumbers(const std::string& name) {
  std::vector<uint32_t> numbers;
  for (size_t colon = name.find(':'); colon != std::string::npos;
       colon = name.find(':', colon + 1)) {
    numbers.push_back(static_cast<uint32_t>(std::stoul(name.substr(colon + 1))));
  }
  return numbers;
}

Key RandomBytes(Random& rng, uint32_t len, uint8_t or_mask = 0) {
  Key key(len, '\0');
  for (auto& c : key) c = static_cast<char>(static_cast<uint8_t>(rng.Next() >> 56) | or_mask);
  return key;
}

}  // namespace

KeyShape ParseShape(const std::string& name) {
  KeyShape shape;
  shape.name = name;
  shape.kind = name.substr(0, name.find(':'));
  const std::vector<uint32_t> n = ShapeNumbers(name);
  const auto expect = [&](size_t count) {
    if (n.size() != count) Fail("bad key shape " + name);
  };
  if (shape.kind == "bin" || shape.kind == "hibin" || shape.kind == "long") {
    expect(2);
    shape.min_len = n[0], shape.max_len = n[1];
  } else if (shape.kind == "tiny") {
    expect(0);
    shape.max_len = 2;
  } else if (shape.kind == "mixlen") {
    expect(0);
    shape.min_len = 1, shape.max_len = 300;
  } else if (shape.kind == "pfx" || shape.kind == "pfxmix") {
    const bool fixed = shape.kind == "pfx";
    expect(fixed ? 4 : 3);
    Random rng(0x70726566 ^ n[0]);
    std::set<Key> prefixes;
    while (prefixes.size() < n[0]) {
      prefixes.insert(RandomBytes(rng, fixed ? n[1] : rng.Range(n[1], n[2])));
    }
    shape.prefixes.assign(prefixes.begin(), prefixes.end());
    shape.min_len = fixed ? n[2] : 0, shape.max_len = fixed ? n[3] : 8;
  } else if (shape.kind != "dec" && shape.kind != "text") {
    Fail("unknown key shape " + name);
  }
  if (shape.min_len > shape.max_len) Fail("bad key shape " + name);
  return shape;
}

namespace {

constexpr std::string_view kWords[] = {"apple", "user",  "order", "event", "key",  "idx",
                                       "log",   "table", "row",   "col",   "meta", "blob"};

Key OneKey(const KeyShape& shape, Random& rng) {
  Key key;
  if (shape.kind == "dec") return std::to_string(rng.Uniform(10'000'000'000ULL));
  if (shape.kind == "text") {
    const uint32_t words = rng.Range(1, 4);
    for (uint32_t w = 0; w < words; ++w) {
      if (w) key += '/';
      key += kWords[rng.Uniform(std::size(kWords))];
      key += std::to_string(rng.Uniform(100000));
    }
    return key;
  }
  const uint32_t len = rng.Range(shape.min_len, shape.max_len);
  if (!shape.prefixes.empty()) {
    return shape.prefixes[rng.Uniform(shape.prefixes.size())] + RandomBytes(rng, len);
  }
  return RandomBytes(rng, len, shape.kind == "hibin" ? 0x80 : 0);
}

uint64_t KeySpaceLimit(const KeyShape& shape) {
  // The tiny shape has 1 + 256 + 65536 distinct keys; every other shape is effectively unbounded.
  return shape.kind == "tiny" ? 1 + 256 + 65536 : ~uint64_t{0};
}

}  // namespace

KeyList MakeKeys(const KeyShape& shape, size_t count, uint64_t seed) {
  if (count > KeySpaceLimit(shape) / 2) Fail("too many keys for shape " + shape.name);
  Random rng(seed);
  std::set<Key> keys;
  while (keys.size() < count) keys.insert(OneKey(shape, rng));
  return KeyList(keys.begin(), keys.end());
}

KeyList MakeAbsentKeys(const KeyShape& shape, size_t count, uint64_t seed, const KeyList& present) {
  Random rng(seed ^ 0xabad1deaULL);
  std::set<Key> seen(present.begin(), present.end());
  KeyList out;
  for (size_t attempts = 0; out.size() < count && attempts < count * 20; ++attempts) {
    Key k = OneKey(shape, rng);
    if (seen.insert(k).second) out.push_back(std::move(k));
  }
  return out;
}

KeyList Neighbours(const Key& key) {
  KeyList out;
  out.push_back(key + '\0');
  if (!key.empty()) {
    Key down = key;
    Key up = key;
    down.back() = static_cast<char>(static_cast<uint8_t>(down.back()) - 1);
    up.back() = static_cast<char>(static_cast<uint8_t>(up.back()) + 1);
    out.push_back(down);
    out.push_back(up);
    out.push_back(key.substr(0, key.size() - 1));
  }
  return out;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

CorpusRoot::CorpusRoot(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::filesystem::create_directories(dir_);
}

std::string CorpusRoot::WriteBytes(const std::string& relative, std::string_view bytes) const {
  const std::filesystem::path path = Abs(relative);
  std::filesystem::create_directories(path.parent_path());
  WriteFile(path, bytes);
  return relative;
}

void WriteFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) Fail("cannot write " + path.string());
}

std::string CorpusRoot::WriteKeys(const std::string& relative, const KeyList& keys) const {
  std::string data;
  for (const Key& k : keys) {
    const uint32_t n = static_cast<uint32_t>(k.size());
    for (int i = 0; i < 4; ++i) data += static_cast<char>((n >> (8 * i)) & 0xff);
    data += k;
  }
  return WriteBytes(relative, data);
}

std::string CorpusRoot::WriteU8(const std::string& relative,
                                const std::vector<uint8_t>& values) const {
  return WriteBytes(relative,
                    std::string_view(reinterpret_cast<const char*>(values.data()), values.size()));
}

std::string CorpusRoot::WriteU32(const std::string& relative,
                                 const std::vector<uint32_t>& values) const {
  std::string data;
  for (uint32_t v : values) {
    for (int i = 0; i < 4; ++i) data += static_cast<char>((v >> (8 * i)) & 0xff);
  }
  return WriteBytes(relative, data);
}

void CorpusRoot::WriteJson(const std::string& relative, const nlohmann::json& value) const {
  WriteBytes(relative, value.dump(1) + "\n");
}

nlohmann::json CorpusRoot::FinishSection(const std::string& folder, const std::string& section,
                                         const nlohmann::json& cases) const {
  std::filesystem::remove_all(dir_ / ".scratch");
  const std::string manifest = folder + "/manifest.json";
  WriteJson(manifest, {{"format", "sstfilter-corpus/1"}, {"section", section}, {"cases", cases}});
  return {{"path", manifest}, {"cases", cases.size()}};
}

std::string CorpusRoot::CopyFile(const std::string& relative,
                                 const std::filesystem::path& from) const {
  return WriteBytes(relative, ReadFile(from));
}

std::vector<std::string> DatabaseFiles(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name == "LOCK" || name.rfind("LOG", 0) == 0) continue;
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> CopyDatabaseFiles(const std::filesystem::path& from,
                                           const std::filesystem::path& to, bool with_logs) {
  std::filesystem::create_directories(to);
  std::vector<std::string> names;
  for (const std::string& name : DatabaseFiles(from)) {
    if (!with_logs && name.size() > 4 && name.substr(name.size() - 4) == ".log") continue;
    std::filesystem::copy_file(from / name, to / name,
                               std::filesystem::copy_options::overwrite_existing);
    names.push_back(name);
  }
  return names;
}

std::vector<std::string> CorpusRoot::CopyDatabase(const std::string& relative,
                                                  const std::filesystem::path& from) const {
  std::vector<std::string> names = DatabaseFiles(from);
  for (const std::string& name : names) CopyFile(relative + "/" + name, from / name);
  return names;
}

nlohmann::json FilterCaseFiles(const CorpusRoot& root, const std::string& dir,
                               const std::string& id, const KeyList& keys, const std::string& shape,
                               uint64_t seed, std::string_view filter, const KeyList& probes,
                               const std::vector<uint8_t>& answers, bool keys_all_match) {
  return {
      {"keys", KeysRecord(root.WriteKeys(dir + "keys/" + id + ".keys", keys), keys, shape, seed)},
      {"filter",
       {{"path", root.WriteBytes(dir + "filters/" + id + ".bin", filter)},
        {"bytes", filter.size()}}},
      {"probes",
       {{"path", root.WriteKeys(dir + "probes/" + id + ".keys", probes)},
        {"count", probes.size()},
        {"all_absent", true}}},
      {"probe_results", root.WriteU8(dir + "results/" + id + ".u8", answers)},
      {"keys_all_match", keys_all_match},
      {"summary", Summary(answers, {})},
  };
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail("cannot read " + path.string());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

nlohmann::json KeysRecord(const std::string& path, const KeyList& keys, const std::string& shape,
                          uint64_t seed) {
  return {{"path", path}, {"count", keys.size()}, {"shape", shape}, {"seed", seed}};
}

nlohmann::json Summary(const std::vector<uint8_t>& answers, const std::vector<uint8_t>& is_key) {
  size_t no = 0, maybe = 0, not_consulted = 0, false_negatives = 0, absent_consulted = 0,
         false_positives = 0;
  for (size_t i = 0; i < answers.size(); ++i) {
    const bool key = !is_key.empty() && is_key[i];
    if (answers[i] == 0) ++no;
    if (answers[i] == 1) ++maybe;
    if (answers[i] == 2) ++not_consulted;
    if (key && answers[i] == 0) ++false_negatives;
    if (!key && answers[i] != 2) ++absent_consulted;
    if (!key && answers[i] == 1) ++false_positives;
  }
  if (false_negatives) Fail("a library answered no for a key it holds");
  return {{"probes", answers.size()},
          {"no", no},
          {"maybe", maybe},
          {"not_consulted", not_consulted},
          {"false_negatives", false_negatives},
          {"absent_consulted", absent_consulted},
          {"false_positives", false_positives},
          {"fp_rate", absent_consulted ? double(false_positives) / double(absent_consulted) : 0.0}};
}

}  // namespace corpus
