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

std::string GoldenDir() {
  std::string dir;
  std::string source;
  if (const char* env = std::getenv("SSTFILTER_GOLDEN_DIR"); env != nullptr && *env != '\0') {
    dir = env;
    source = "environment variable SSTFILTER_GOLDEN_DIR";
  } else {
#ifdef SSTFILTER_DEFAULT_GOLDEN_DIR
    dir = SSTFILTER_DEFAULT_GOLDEN_DIR;
    source = "compile definition SSTFILTER_DEFAULT_GOLDEN_DIR";
#else
    Fail("neither SSTFILTER_GOLDEN_DIR nor SSTFILTER_DEFAULT_GOLDEN_DIR is set");
#endif
  }
  const std::filesystem::path manifest = std::filesystem::path(dir) / "manifest.json";
  if (!std::filesystem::is_regular_file(manifest)) {
    Fail("not found: " + manifest.string() + " (directory taken from " + source +
         "; set SSTFILTER_GOLDEN_DIR to the corpus root)");
  }
  return dir;
}

std::string GoldenPath(std::string_view relative) {
  return GoldenDir() + "/" + std::string(relative);
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
