// The JSON text writer of the Chrome store decoders (json_text.h).
#include "chrome/json_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sstfilter::chrome {

void AppendJsonString(std::string* out, std::u16string_view text) {
  AppendJsonUtf16(out, text.size(), [&](size_t i) { return static_cast<uint32_t>(text[i]); });
}

void AppendJsonLatin1(std::string* out, ByteView latin1) {
  AppendJsonUtf16(out, latin1.size(), [&](size_t i) { return static_cast<uint32_t>(latin1[i]); });
}

void AppendJsonUtf16Le(std::string* out, ByteView utf16le) {
  AppendJsonUtf16(out, utf16le.size() / 2, [&](size_t i) {
    return static_cast<uint32_t>(utf16le[2 * i] | (utf16le[2 * i + 1] << 8));
  });
}

void AppendJsonAscii(std::string* out, std::string_view text) {
  AppendJsonUtf16(out, text.size(),
                  [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(text[i])); });
}

std::string JsNumberText(double value) {
  if (value == 0) return "0";
  // The shortest of %.{1..17}e that reads back as the same double: its digits and exponent are
  // what ECMAScript's Number::toString picks (k digits, n the decimal exponent + 1).
  char buffer[40];
  for (int precision = 0; precision <= 16; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*e", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  std::string text(buffer);
  const bool negative = text[0] == '-';
  if (negative) text.erase(0, 1);
  const size_t e = text.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (text[i] != '.') digits.push_back(text[i]);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exponent = std::atoi(text.c_str() + e + 1);
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;
  std::string result = negative ? "-" : "";
  if (k <= n && n <= 21) {
    result += digits;
    result.append(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    result += digits.substr(0, static_cast<size_t>(n));
    result += '.';
    result += digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    result += "0.";
    result.append(static_cast<size_t>(-n), '0');
    result += digits;
  } else {
    result += digits.substr(0, 1);
    if (k > 1) {
      result += '.';
      result += digits.substr(1);
    }
    result += 'e';
    result += n - 1 >= 0 ? '+' : '-';
    result += std::to_string(std::abs(n - 1));
  }
  return result;
}

void AppendJsonNumber(std::string* out, double value) {
  if (std::isnan(value)) {
    out->append("{\"$number\":\"NaN\"}");
  } else if (std::isinf(value)) {
    out->append(value > 0 ? "{\"$number\":\"Infinity\"}" : "{\"$number\":\"-Infinity\"}");
  } else if (value == 0 && std::signbit(value)) {
    out->append("{\"$number\":\"-0\"}");
  } else {
    out->append(JsNumberText(value));
  }
}

void AppendJsonInt(std::string* out, int64_t value) { out->append(std::to_string(value)); }

void AppendJsonSafeInt(std::string* out, int64_t value) {
  constexpr int64_t kSafe = (int64_t{1} << 53) - 1;
  const bool exact = value >= -kSafe && value <= kSafe;
  if (!exact) out->push_back('"');
  out->append(std::to_string(value));
  if (!exact) out->push_back('"');
}

void AppendJsonMember(std::string* out, const char* name) {
  out->append(",\"");
  out->append(name);
  out->append("\":");
}

void AppendJsonIntMember(std::string* out, const char* name, int64_t value) {
  AppendJsonMember(out, name);
  AppendJsonSafeInt(out, value);
}

void AppendHex(std::string* out, ByteView bytes) {
  static const char* const kHex = "0123456789abcdef";
  out->reserve(out->size() + bytes.size() * 2);
  for (uint8_t b : bytes) {
    out->push_back(kHex[b >> 4]);
    out->push_back(kHex[b & 0xf]);
  }
}

}  // namespace sstfilter::chrome
