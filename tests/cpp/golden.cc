#include "golden.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sstfilter::golden {
namespace {

[[noreturn]] void Fail(const std::string& what) {
  throw std::runtime_error("golden corpus: " + what);
}

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

namespace {

std::string FromEnvironment(const char* variable, const char* fallback) {
  const char* env = std::getenv(variable);
  return env != nullptr && *env != '\0' ? env : fallback;
}

std::optional<Corpus> LoadCorpus(std::string name, const std::filesystem::path& dir) {
  const std::filesystem::path manifest = dir / "manifest.json";
  if (!std::filesystem::is_regular_file(manifest)) return std::nullopt;
  return Corpus{std::move(name), dir, ReadJson(manifest)};
}

}  // namespace

std::filesystem::path Corpus::Path(std::string_view relative) const { return dir / relative; }

std::optional<nlohmann::json> Corpus::Section(std::string_view section) const {
  const nlohmann::json& sections = manifest.at("sections");
  const auto it = sections.find(std::string(section));
  if (it == sections.end()) return std::nullopt;
  return ReadJson(Path(it->at("path").get<std::string>()));
}

namespace {

std::string FieldPath(const nlohmann::json& field) {
  return field.is_string() ? field.get<std::string>() : field.at("path").get<std::string>();
}

}  // namespace

std::vector<uint8_t> Corpus::ReadBytes(const nlohmann::json& field) const {
  return ReadFileBytes(Path(FieldPath(field)));
}

std::vector<std::vector<uint8_t>> Corpus::ReadKeys(const nlohmann::json& field) const {
  return ReadKeysFile(Path(FieldPath(field)));
}

const std::vector<Corpus>& Corpora() {
  static const std::vector<Corpus> corpora = [] {
    std::vector<Corpus> out;
    const std::string generated = FromEnvironment("SSTFILTER_CORPUS_DIR", SSTFILTER_CORPUS_DIR);
    auto corpus = LoadCorpus("generated", generated);
    if (!corpus) {
      Fail("no manifest.json in " + generated +
           " (run `bash scripts/corpus.sh`, or set SSTFILTER_CORPUS_DIR)");
    }
    out.push_back(std::move(*corpus));
    corpus = LoadCorpus("fixtures", SSTFILTER_FIXTURES_DIR);
    if (!corpus) Fail(std::string("no manifest.json in ") + SSTFILTER_FIXTURES_DIR);
    out.push_back(std::move(*corpus));
    corpus =
        LoadCorpus("shared", FromEnvironment("SSTFILTER_GOLDEN_DIR", SSTFILTER_DEFAULT_GOLDEN_DIR));
    if (corpus) out.push_back(std::move(*corpus));
    return out;
  }();
  return corpora;
}

std::vector<CorpusSection> Sections(std::string_view section) {
  std::vector<CorpusSection> out;
  for (const Corpus& corpus : Corpora()) {
    if (auto manifest = corpus.Section(section)) out.push_back({&corpus, std::move(*manifest)});
  }
  return out;
}

const Corpus& Generated() { return Corpora().front(); }

std::string CorporaSummary() {
  std::string out;
  for (const Corpus& corpus : Corpora()) {
    out += (out.empty() ? "" : ", ") + corpus.name + " (" + corpus.dir.string() + ")";
  }
  return out;
}

std::vector<uint8_t> ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail("cannot open " + path.string());
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) Fail("error reading " + path.string());
  return bytes;
}

std::vector<std::vector<uint8_t>> ReadKeysFile(const std::filesystem::path& path) {
  const std::vector<uint8_t> data = ReadFileBytes(path);
  std::vector<std::vector<uint8_t>> keys;
  size_t pos = 0;
  while (pos < data.size()) {
    if (data.size() - pos < 4) {
      Fail(path.string() + ": truncated length at offset " + std::to_string(pos));
    }
    const size_t len = DecodeFixed32(data.data() + pos);
    pos += 4;
    if (data.size() - pos < len) {
      Fail(path.string() + ": record " + std::to_string(keys.size()) + " of " +
           std::to_string(len) + " bytes runs past the end of the file");
    }
    const auto first = data.begin() + static_cast<std::ptrdiff_t>(pos);
    keys.emplace_back(first, first + static_cast<std::ptrdiff_t>(len));
    pos += len;
  }
  return keys;
}

nlohmann::json ReadJson(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = ReadFileBytes(path);
  try {
    return nlohmann::json::parse(bytes.begin(), bytes.end());
  } catch (const nlohmann::json::exception& e) {
    Fail(path.string() + ": " + e.what());
  }
}

std::vector<uint8_t> HexDecode(std::string_view hex) {
  if (hex.size() % 2 != 0) Fail("odd-length hex string \"" + std::string(hex) + "\"");
  std::vector<uint8_t> out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = HexDigitValue(hex[i]);
    const int lo = HexDigitValue(hex[i + 1]);
    if (hi < 0 || lo < 0) Fail("bad hex string \"" + std::string(hex) + "\"");
    out.push_back(static_cast<uint8_t>((hi << 4) | lo));
  }
  return out;
}

std::string HexEncode(ByteView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0x0f]);
  }
  return out;
}

uint64_t ParseHexU64(std::string_view hex) {
  std::string_view digits = hex;
  if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2);
  if (digits.empty() || digits.size() > 16) Fail("bad hex integer \"" + std::string(hex) + "\"");
  uint64_t value = 0;
  for (const char c : digits) {
    const int d = HexDigitValue(c);
    if (d < 0) Fail("bad hex integer \"" + std::string(hex) + "\"");
    value = (value << 4) | static_cast<uint64_t>(d);
  }
  return value;
}

std::string FormatHex(uint64_t value, int digits) {
  std::string out(static_cast<size_t>(digits), '0');
  for (size_t i = out.size(); i-- > 0; value >>= 4) out[i] = "0123456789abcdef"[value & 0x0f];
  return out;
}

}  // namespace sstfilter::golden
