// Scan lines with escaped bytes (AppendScanLine, ShownBytes::kEscaped): what a terminal shows as
// it is stays, every other byte is \xNN, and a line is always one line.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sstfilter/table_cursor.h"

namespace sstfilter {
namespace {

Bytes Of(const std::string& s) { return Bytes(s.begin(), s.end()); }

// The scan line of a put (seq 7) of `key` and `value`, its bytes shown as `shown`.
std::string Line(const std::string& key, const std::string& value,
                 ShownBytes shown = ShownBytes::kEscaped, const std::string& timestamp = "") {
  Bytes out, errors;
  AppendScanLine(Of(key), Of(timestamp), (uint64_t{7} << 8) | 1, Of(value),
                 ScanTextOptions{.bytes = shown}, &out, &errors);
  EXPECT_TRUE(errors.empty()) << "key " << key;
  return std::string(out.begin(), out.end());
}

// The escaped form of `bytes` as key, value alike: what is between the quotes of its line.
std::string Escaped(const std::string& bytes) {
  const std::string line = Line(bytes, "v");
  const std::string tail = "' seq:7, type:1 => v\n";
  EXPECT_EQ(line.substr(line.size() - tail.size()), tail) << "key " << bytes;
  return line.substr(1, line.size() - 1 - tail.size());
}

TEST(ScanTextEscaped, KeepsPrintableAsciiAndDoublesBackslashes) {
  EXPECT_EQ(Escaped(" azAZ09~!'\"{}"), " azAZ09~!'\"{}");
  EXPECT_EQ(Escaped("a\\b"), "a\\\\b");
  // An escape as text reads back apart from the byte it would stand for.
  EXPECT_EQ(Escaped("\\x00"), "\\\\x00");
}

TEST(ScanTextEscaped, EscapesControlBytesIncludingNulNewlineTabAndDel) {
  EXPECT_EQ(Escaped(std::string("a\0\x01", 3) + "b"), "a\\x00\\x01b");
  EXPECT_EQ(Escaped("x\ny\r\tz\x1b[2J\x7f"), "x\\x0ay\\x0d\\x09z\\x1b[2J\\x7f");
  // A Chrome Local Storage key ("_" origin NUL 0x01 name): sst_dump's %s ends the key half at the
  // NUL and its line goes on with " => " and a newline in the value; escaped, all shows on one
  // line.
  const std::string key = std::string("_https://a.test\0\x01name", 21);
  EXPECT_EQ(Line(key, "\x01v\n", ShownBytes::kRaw), "'_https://a.test => \x01v\n\n");
  EXPECT_EQ(Line(key, "\x01v\n"), "'_https://a.test\\x00\\x01name' seq:7, type:1 => \\x01v\\x0a\n");
}

TEST(ScanTextEscaped, KeepsWellFormedUtf8OfPrintableCharacters) {
  EXPECT_EQ(Escaped("caf\xc3\xa9 \xe2\x82\xac \xe4\xb8\xad \xf0\x9f\x98\x80"),
            "caf\xc3\xa9 \xe2\x82\xac \xe4\xb8\xad \xf0\x9f\x98\x80");
  // Next to the escaped ranges: U+00A0, U+202F, U+2065, U+206A.
  EXPECT_EQ(Escaped("\xc2\xa0\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa"),
            "\xc2\xa0\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
  EXPECT_EQ(Escaped("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");  // U+10FFFF, the last code point
}

TEST(ScanTextEscaped, EscapesC1ControlsAndBidirectionalOverrides) {
  EXPECT_EQ(Escaped("\xc2\x80\xc2\x85\xc2\x9b\xc2\x9f"),
            "\\xc2\\x80\\xc2\\x85\\xc2\\x9b\\xc2\\x9f");
  // U+202A..U+202E (embeddings, overrides; U+202E shows "abc" as "cba") and U+2066..U+2069
  // (isolates).
  EXPECT_EQ(Escaped("a\xe2\x80\xaa\xe2\x80\xae"
                    "b"),
            "a\\xe2\\x80\\xaa\\xe2\\x80\\xaeb");
  EXPECT_EQ(Escaped("\xe2\x81\xa6\xe2\x81\xa9"), "\\xe2\\x81\\xa6\\xe2\\x81\\xa9");
}

TEST(ScanTextEscaped, EscapesBytesNotInWellFormedUtf8OneByOne) {
  EXPECT_EQ(Escaped("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(Escaped("\x80"
                    "a"),
            "\\x80a");  // a lone continuation byte
  EXPECT_EQ(Escaped("\xc0\xaf\xe0\x80\xaf"), "\\xc0\\xaf\\xe0\\x80\\xaf");  // overlong '/'
  EXPECT_EQ(Escaped("\xed\xa0\x80"), "\\xed\\xa0\\x80");                    // a surrogate, U+D800
  EXPECT_EQ(Escaped("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");           // above U+10FFFF
  // A sequence cut short, by the field's end or by a byte that does not continue it; what
  // follows is shown as what it is.
  EXPECT_EQ(Escaped("\xe2\x82"), "\\xe2\\x82");
  EXPECT_EQ(Escaped("\xe2\x82"
                    "a\xc3\xa9"),
            "\\xe2\\x82a\xc3\xa9");
  EXPECT_EQ(Escaped("\xc3\xc3\xa9"), "\\xc3\xc3\xa9");
}

TEST(ScanTextEscaped, EscapesTimestampAndValueAndLeavesHexAsIs) {
  EXPECT_EQ(Line("k", std::string("a\0b", 3), ShownBytes::kEscaped, std::string("\0\x02", 2)),
            "'k\\x00\\x02' seq:7, type:1 => a\\x00b\n");
  EXPECT_EQ(Line("\\\n", "\xe2\x80\xae", ShownBytes::kHex), "'5C0A' seq:7, type:1 => E280AE\n");
  // Raw stays sst_dump's: the key half's %s ends at the timestamp's NUL.
  EXPECT_EQ(Line("k", "v", ShownBytes::kRaw, std::string("\0\x02", 2)), "'k => v\n");
}

TEST(ScanTextEscaped, DeprecatedHexFlagStillShowsHex) {
  Bytes out, errors;
  ScanTextOptions options;
  options.hex = true;
  AppendScanLine(Of("\n"), {}, (uint64_t{7} << 8) | 1, Of("v"), options, &out, &errors);
  EXPECT_EQ(std::string(out.begin(), out.end()), "'0A' seq:7, type:1 => 76\n");
}

}  // namespace
}  // namespace sstfilter
