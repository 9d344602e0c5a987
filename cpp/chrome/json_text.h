// A small JSON text writer for the Chrome store decoders (docs/FORMATS.md 7.5, the tagged JSON of
// IndexedDB values): strings from UTF-16 code units (lone surrogates as \uXXXX escapes, as
// JSON.stringify writes them) or Latin-1 bytes, numbers as JavaScript prints them, hex for bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sstfilter/bytes.h"

namespace sstfilter::chrome {

// Appends a JSON string literal of UTF-16 code units, read by `unit(i)` for i < count.
template <typename UnitAt>
void AppendJsonUtf16(std::string* out, size_t count, UnitAt unit);

// A JSON string of UTF-16 code units held as char16_t.
void AppendJsonString(std::string* out, std::u16string_view text);
// A JSON string of Latin-1 bytes (V8's one-byte strings, localStorage's Latin-1 values).
void AppendJsonLatin1(std::string* out, ByteView latin1);
// A JSON string of UTF-16LE bytes (an odd last byte is an error the caller checks first).
void AppendJsonUtf16Le(std::string* out, ByteView utf16le);
// A JSON string of ASCII/UTF-8 text already known to need no escapes but quotes and backslashes.
void AppendJsonAscii(std::string* out, std::string_view text);

// JavaScript's Number::toString for a finite double (shortest round-trip digits; -0 prints "0").
std::string JsNumberText(double value);
// A number in tagged JSON: a JSON number when finite and not -0, else {"$number": "..."}.
void AppendJsonNumber(std::string* out, double value);
// An int64 as a JSON number (exact: every int64 prints its digits).
void AppendJsonInt(std::string* out, int64_t value);
// An int64 as a JSON number where a double holds it exactly, else as a decimal string (so that
// JavaScript's JSON.parse never rounds it).
void AppendJsonSafeInt(std::string* out, int64_t value);
// `,"name":`: the start of an object member after the first.
void AppendJsonMember(std::string* out, const char* name);
// `,"name":` and the value as AppendJsonSafeInt writes it.
void AppendJsonIntMember(std::string* out, const char* name, int64_t value);
// Lower-case hex of the bytes, unquoted.
void AppendHex(std::string* out, ByteView bytes);

// ---- implementation of the template ----

inline void AppendEscapedUnit(std::string* out, uint32_t u) {
  static const char* const kHex = "0123456789abcdef";
  out->append("\\u");
  out->push_back(kHex[(u >> 12) & 0xf]);
  out->push_back(kHex[(u >> 8) & 0xf]);
  out->push_back(kHex[(u >> 4) & 0xf]);
  out->push_back(kHex[u & 0xf]);
}

inline void AppendCodePointUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

template <typename UnitAt>
void AppendJsonUtf16(std::string* out, size_t count, UnitAt unit) {
  out->push_back('"');
  for (size_t i = 0; i < count; ++i) {
    const uint32_t u = unit(i);
    switch (u) {
      case '"':
        out->append("\\\"");
        continue;
      case '\\':
        out->append("\\\\");
        continue;
      case '\b':
        out->append("\\b");
        continue;
      case '\f':
        out->append("\\f");
        continue;
      case '\n':
        out->append("\\n");
        continue;
      case '\r':
        out->append("\\r");
        continue;
      case '\t':
        out->append("\\t");
        continue;
      default:
        break;
    }
    if (u < 0x20) {
      AppendEscapedUnit(out, u);
    } else if (u >= 0xd800 && u <= 0xdbff) {
      const uint32_t next = i + 1 < count ? unit(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        AppendCodePointUtf8(out, 0x10000 + ((u - 0xd800) << 10) + (next - 0xdc00));
        ++i;
      } else {
        AppendEscapedUnit(out, u);  // a lone high surrogate
      }
    } else if (u >= 0xdc00 && u <= 0xdfff) {
      AppendEscapedUnit(out, u);  // a lone low surrogate
    } else {
      AppendCodePointUtf8(out, u);
    }
  }
  out->push_back('"');
}

}  // namespace sstfilter::chrome
