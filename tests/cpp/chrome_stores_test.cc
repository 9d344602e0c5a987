// The Chrome store decoders (sstfilter/chrome_stores.h): V8 values built here byte by byte after
// v8 src/objects/value-serializer.cc for every type the tagged JSON of docs/FORMATS.md 7.5 names,
// hostile payloads (typed errors, never a crash), and the Chromium 156 profile sample: every live
// record of its IndexedDB, localStorage and sessionStorage folders decoded and compared with the
// page's own reading (expected.json).
#include "sstfilter/chrome_stores.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "chrome_sample.h"
#include "sstfilter/comparator.h"

namespace sstfilter {
namespace {

using Json = nlohmann::ordered_json;

Bytes Of(std::initializer_list<int> bytes) {
  Bytes out;
  for (int b : bytes) out.push_back(static_cast<uint8_t>(b));
  return out;
}

Bytes Cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes Str(const std::string& s) {
  Bytes out = {'"', static_cast<uint8_t>(s.size())};
  for (char c : s) out.push_back(static_cast<uint8_t>(c));
  return out;
}

Bytes Dbl(double d, uint8_t tag = 'N') {
  Bytes out = {tag};
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  PutFixed64(&out, bits);
  return out;
}

std::string V8(const Bytes& payload, uint32_t version = 15) {
  std::string json;
  Status s = DecodeV8Value(payload, version, &json);
  EXPECT_TRUE(s.ok()) << s.message() << " at " << s.offset();
  return json;
}

Status V8Error(const Bytes& payload, uint32_t version = 15) {
  std::string json;
  Status s = DecodeV8Value(payload, version, &json);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(json.empty());
  return s;
}

TEST(V8Value, Primitives) {
  EXPECT_EQ(V8(Of({'_'})), R"({"$undefined":true})");
  EXPECT_EQ(V8(Of({'0'})), "null");
  EXPECT_EQ(V8(Of({'T'})), "true");
  EXPECT_EQ(V8(Of({'F'})), "false");
  EXPECT_EQ(V8(Of({'I', 0x0d})), "-7");
  EXPECT_EQ(V8(Of({'I', 0xfe, 0xff, 0xff, 0xff, 0x0f})), "2147483647");
  EXPECT_EQ(V8(Of({'U', 0x80, 0x80, 0x80, 0x80, 0x08})), "2147483648");
  EXPECT_EQ(V8(Dbl(1.5)), "1.5");
  EXPECT_EQ(V8(Dbl(-1e300)), "-1e+300");
  EXPECT_EQ(V8(Dbl(5e-324)), "5e-324");
  EXPECT_EQ(V8(Dbl(1e21)), "1e+21");
  EXPECT_EQ(V8(Dbl(123456789012345680000.0)), "123456789012345680000");
  EXPECT_EQ(V8(Dbl(0.000001)), "0.000001");
  EXPECT_EQ(V8(Dbl(1e-7)), "1e-7");
  EXPECT_EQ(V8(Dbl(std::nan(""))), R"({"$number":"NaN"})");
  EXPECT_EQ(V8(Dbl(-0.0)), R"({"$number":"-0"})");
  EXPECT_EQ(V8(Dbl(-INFINITY)), R"({"$number":"-Infinity"})");
  // BigInt: bitfield (byte length << 1 | sign), little-endian digits.
  EXPECT_EQ(V8(Of({'Z', 0})), R"({"$bigint":"0"})");
  EXPECT_EQ(V8(Of({'Z', 0x11, 1, 0, 0, 0, 0, 0, 0x20, 0})), R"({"$bigint":"-9007199254740993"})");
  EXPECT_EQ(V8(Of({'Z', 0x20, 0xd2, 0x0a, 0x3f, 0x4e, 0xee, 0xe0, 0x73, 0xc3, 0xf6, 0x0f, 0xe9,
                   0x8e, 0x01, 0, 0, 0})),
            R"({"$bigint":"123456789012345678901234567890"})");
}

TEST(V8Value, Strings) {
  EXPECT_EQ(V8(Str("")), R"("")");
  EXPECT_EQ(V8(Of({'"', 3, 'h', 0xe9, '"'})), "\"h\xc3\xa9\\\"\"");
  EXPECT_EQ(V8(Of({'"', 3, '\n', 0x01, '\\'})), R"("\n\u0001\\")");
  // Two-byte: padding before the tag, UTF-16LE, a pair and a lone surrogate.
  EXPECT_EQ(V8(Of({0, 'c', 8, 0x3d, 0xd8, 0x00, 0xde, 'a', 0, 0x00, 0xd8})),
            "\"\xf0\x9f\x98\x80"
            "a\\ud800\"");
  EXPECT_EQ(V8(Of({'S', 3, 0xe2, 0x9c, 0x93})), "\"\xe2\x9c\x93\"");
  EXPECT_EQ(V8(Of({'S', 2, 0xff, 'a'})),
            "\"\xef\xbf\xbd"
            "a\"");
  EXPECT_EQ(V8Error(Of({'c', 3, 1, 2, 3})).code(), ErrorCode::kCorrupt);
}

TEST(V8Value, ObjectsAndArrays) {
  // {name: "x", n: 1} with its property count.
  EXPECT_EQ(V8(Cat({Of({'o'}), Str("name"), Str("x"), Str("n"), Of({'I', 2, '{', 2})})),
            R"({"name":"x","n":1})");
  // Integer keys as numbers; a one-member object whose key starts with '$' is wrapped.
  EXPECT_EQ(V8(Cat({Of({'o', 'I', 2}), Str("one"), Of({'N', 0, 0, 0, 0, 0, 0, 0xf0, 0x41}),
                    Str("big"), Of({'{', 2})})),
            R"({"1":"one","4294967296":"big"})");
  EXPECT_EQ(V8(Cat({Of({'o'}), Str("$date"), Of({'I', 10, '{', 1})})),
            R"({"$object":{"$date":5}})");
  EXPECT_EQ(V8(Cat({Of({'o'}), Str("$a"), Of({'I', 2}), Str("$b"), Of({'I', 4, '{', 2})})),
            R"({"$a":1,"$b":2})");
  EXPECT_EQ(V8Error(Cat({Of({'o'}), Str("a"), Of({'I', 2, '{', 2})})).code(), ErrorCode::kCorrupt);
  // Dense array with a hole and an extra property (left out), then a sparse one.
  EXPECT_EQ(V8(Cat({Of({'A', 3, 'I', 2, '-', 'I', 6}), Str("extra"), Str("x"), Of({'$', 1, 3})})),
            R"([1,{"$hole":true},3])");
  EXPECT_EQ(V8(Cat({Of({'a', 4, 'I', 0, 'I', 2, 'I', 4}), Str("ten"), Of({'@', 2, 4})})),
            R"([1,{"$hole":true},"ten",{"$hole":true}])");
  EXPECT_EQ(V8(Of({'A', 0, '$', 0, 0})), "[]");
}

TEST(V8Value, ObjectTypes) {
  EXPECT_EQ(V8(Dbl(157784760000.0, 'D')), R"({"$date":157784760000})");
  EXPECT_EQ(V8(Dbl(std::nan(""), 'D')), R"({"$date":{"$number":"NaN"}})");
  EXPECT_EQ(V8(Cat({Of({'R'}), Str("ab+c"), Of({3})})),
            R"({"$regexp":{"source":"ab+c","flags":"gi"}})");
  EXPECT_EQ(V8(Cat({Of({'R'}), Str("x"), Of({0xb0, 0x01})})),
            R"({"$regexp":{"source":"x","flags":"dsu"}})");
  EXPECT_EQ(V8(Cat({Of({';'}), Str("a"), Of({'I', 2, '0', '_', ':', 4})})),
            R"({"$map":[["a",1],[null,{"$undefined":true}]]})");
  EXPECT_EQ(V8(Cat({Of({'\'', 'I', 2}), Str("one"), Of({',', 2})})), R"({"$set":[1,"one"]})");
  EXPECT_EQ(V8(Of({'B', 3, 0, 1, 0xff})), R"({"$arraybuffer":"0001ff"})");
  EXPECT_EQ(V8(Of({'~', 2, 8, 7, 9})), R"({"$arraybuffer":"0709"})");
  // Views (version 15: with flags), on part of their buffer.
  EXPECT_EQ(V8(Of({'B', 6, 0, 1, 2, 3, 4, 5, 'V', 'W', 2, 4, 0})),
            R"({"$view":{"type":"Uint16Array","hex":"02030405"}})");
  EXPECT_EQ(V8(Of({'B', 2, 7, 8, 'V', '?', 1, 1, 0})),
            R"({"$view":{"type":"DataView","hex":"08"}})");
  EXPECT_EQ(V8(Of({'B', 8, 1, 2, 3, 4, 5, 6, 7, 8, 'V', 'F', 0, 8, 0})),
            R"({"$view":{"type":"Float64Array","hex":"0102030405060708"}})");
  EXPECT_EQ(V8Error(Of({'B', 3, 1, 2, 3, 'V', 'W', 1, 2, 0})).code(), ErrorCode::kCorrupt);
  EXPECT_EQ(V8Error(Of({'B', 3, 1, 2, 3, 'V', 'B', 2, 2, 0})).code(), ErrorCode::kCorrupt);
  // Version 16: 64-bit lengths.
  EXPECT_EQ(V8(Of({'B', 2, 7, 8, 'V', 'B', 1, 1, 0}), 16),
            R"({"$view":{"type":"Uint8Array","hex":"08"}})");
  EXPECT_EQ(V8(Of({'y'})), R"({"$boxed":true})");
  EXPECT_EQ(V8(Of({'x'})), R"({"$boxed":false})");
  EXPECT_EQ(V8(Dbl(3.5, 'n')), R"({"$boxed":3.5})");
  EXPECT_EQ(V8(Of({'z', 2, 10})), R"({"$boxed":{"$bigint":"10"}})");
  EXPECT_EQ(V8(Cat({Of({'s'}), Str("b")})), R"({"$boxed":"b"})");
  // Blink host objects: Blob and File indexes.
  EXPECT_EQ(V8(Of({'\\', 'i', 0})), R"({"$blob":{"kind":"blob","index":0}})");
  EXPECT_EQ(V8(Of({'\\', 'e', 2})), R"({"$blob":{"kind":"file","index":2}})");
  Status s = V8Error(Of({'\\', 'K', 1}));
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(s.offset(), 1);
}

TEST(V8Value, BackReferences) {
  // [o, ^1, {o: ^1}] (the array is object 0, the first object 1).
  EXPECT_EQ(V8(Cat({Of({'A', 3, 'o'}), Str("r"), Of({'I', 2, '{', 1, '^', 1, 'o'}), Str("o"),
                    Of({'^', 1, '{', 1, '$', 0, 3})})),
            R"([{"r":1},{"r":1},{"o":{"r":1}}])");
  // Two views sharing a buffer: the second refers to the buffer (object 1) and views it again.
  EXPECT_EQ(
      V8(Cat({Of({'o'}), Str("a"), Of({'B', 2, 5, 6, 'V', 'B', 0, 1, 0}), Str("b"),
              Of({'^', 1, 'V', 'B', 1, 1, 0, '{', 2})})),
      R"({"a":{"$view":{"type":"Uint8Array","hex":"05"}},"b":{"$view":{"type":"Uint8Array","hex":"06"}}})");
  // A cycle, a reference past the objects read, a reference into a left-out property.
  EXPECT_EQ(V8Error(Cat({Of({'o'}), Str("self"), Of({'^', 0, '{', 1})})).code(),
            ErrorCode::kUnsupported);
  EXPECT_EQ(V8Error(Of({'A', 1, '^', 5, '$', 0, 1})).code(), ErrorCode::kCorrupt);
  EXPECT_EQ(V8(Cat({Of({'A', 1, 'I', 2}), Str("p"), Of({'o', '{', 0, '$', 1, 1})})), "[1]");
  EXPECT_EQ(V8Error(Cat({Of({'o'}), Str("a"), Of({'A', 1, 'I', 2}), Str("p"),
                         Of({'o', '{', 0, '$', 1, 1}), Str("b"), Of({'^', 2, '{', 2})}))
                .code(),
            ErrorCode::kUnsupported);
}

TEST(V8Value, Hostile) {
  // Every cut of a payload using most types is a typed error with an offset inside it.
  const Bytes whole = Cat({Of({'o'}), Str("m"), Of({';', 'I', 2}), Str("v"), Of({':', 2}), Str("a"),
                           Of({'A', 2, 'B', 2, 1, 2, 'V', 'B', 0, 2, 0, 'Z', 2, 7, '$', 0, 2}),
                           Str("d"), Of({'D', 0, 0, 0, 0, 0, 0, 0, 0, '{', 3})});
  EXPECT_FALSE(V8(whole).empty());
  for (size_t n = 0; n < whole.size(); ++n) {
    std::string json;
    Status s = DecodeV8Value(ByteView(whole).first(n), 15, &json);
    ASSERT_FALSE(s.ok()) << n;
    EXPECT_TRUE(s.code() == ErrorCode::kTruncated || s.code() == ErrorCode::kCorrupt) << n;
    EXPECT_GE(s.offset(), 0);
    EXPECT_LE(s.offset(), static_cast<int64_t>(n));
  }
  // Deep nesting stops at the depth limit.
  Bytes deep;
  for (int i = 0; i < 100000; ++i) deep.insert(deep.end(), {'o', '"', 1, 'k'});
  EXPECT_EQ(V8Error(deep).code(), ErrorCode::kResourceLimit);
  Bytes deep_arrays;
  for (int i = 0; i < 100000; ++i) deep_arrays.insert(deep_arrays.end(), {'A', 1});
  EXPECT_EQ(V8Error(deep_arrays).code(), ErrorCode::kResourceLimit);
  // Object counts before a value, any number of them, cost no recursion.
  Bytes counts;
  for (int i = 0; i < 500000; ++i) counts.insert(counts.end(), {'?', 0});
  counts.push_back('T');
  EXPECT_EQ(V8(counts), "true");
  counts.pop_back();
  EXPECT_EQ(V8Error(counts).code(), ErrorCode::kTruncated);
  // Huge lengths.
  EXPECT_EQ(V8Error(Of({'"', 0xff, 0xff, 0xff, 0xff, 0x0f, 'a'})).code(), ErrorCode::kTruncated);
  EXPECT_EQ(V8Error(Of({'A', 0xff, 0xff, 0xff, 0xff, 0x0f})).code(), ErrorCode::kCorrupt);
  EXPECT_EQ(V8Error(Of({'a', 0xff, 0xff, 0xff, 0xff, 0x0f, '@', 0, 0})).code(),
            ErrorCode::kResourceLimit);
  EXPECT_EQ(V8Error(Of({'B', 0xff, 0xff, 0xff, 0xff, 0x0f})).code(), ErrorCode::kTruncated);
  EXPECT_EQ(
      V8Error(Of({'B', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), 16).code(),
      ErrorCode::kTruncated);
  EXPECT_EQ(V8Error(Of({'Z', 0xff, 0xff, 0xff, 0xff, 0x0f})).code(), ErrorCode::kResourceLimit);
  // Bad varints: continuation bits to the end.
  EXPECT_EQ(V8Error(Of({'I', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})).code(), ErrorCode::kTruncated);
  // Unknown and unsupported tags name the tag's offset.
  Status s = V8Error(Of({0, 0, 'Q'}));
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(s.offset(), 2);
  EXPECT_EQ(V8Error(Of({'r', 0})).code(), ErrorCode::kUnsupported);
  EXPECT_EQ(V8Error(Of({'T'}), 12).code(), ErrorCode::kUnsupported);
  EXPECT_EQ(V8Error(Of({'T'}), 17).code(), ErrorCode::kUnsupported);
  // Back-references multiplying text stop at the output limit.
  ChromeDecodeLimits limits;
  limits.max_output_bytes = 1 << 16;
  Bytes bomb = {'A', 20, '"', 100};
  bomb.insert(bomb.end(), 100, 'x');
  for (int i = 0; i < 19; ++i)
    bomb.insert(bomb.end(), {'A', 2, '^', static_cast<uint8_t>(i + 0), '^',
                             static_cast<uint8_t>(i + 0), '$', 0, 2});
  std::string json;
  Status bomb_status = DecodeV8Value(bomb, 15, &json, limits);
  EXPECT_FALSE(bomb_status.ok());
}

TEST(SerializedScriptValue, Envelope) {
  std::string json;
  // Blink 21 with an empty trailer, V8 16.
  Bytes v21 = Of({0xff, 0x15, 0xfe, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x10, 'T'});
  ASSERT_TRUE(DecodeSerializedScriptValue(v21, &json).ok());
  EXPECT_EQ(json, "true");
  // A trailer ends the value (what follows it is not read).
  Bytes trailer = Of({0xff, 0x15, 0xfe, 0,    0,    0,   0, 0,    0, 0, 20, 0, 0,
                      0,    6,    0xff, 0x10, '\\', 'i', 0, 0xa0, 0, 0, 0,  1, 'i'});
  ASSERT_TRUE(DecodeSerializedScriptValue(trailer, &json).ok());
  EXPECT_EQ(json, R"({"$blob":{"kind":"blob","index":0}})");
  // Blink 19 (no trailer offset), and version 15 and older (one envelope for both).
  ASSERT_TRUE(DecodeSerializedScriptValue(Of({0xff, 0x13, 0xff, 0x0d, 'F'}), &json).ok());
  EXPECT_EQ(json, "false");
  ASSERT_TRUE(DecodeSerializedScriptValue(Of({0xff, 0x0d, '0'}), &json).ok());
  EXPECT_EQ(json, "null");
  Status s = DecodeSerializedScriptValue(
      Of({0xff, 0x15, 0xfe, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x10, 'o', '"', 9}), &json);
  EXPECT_EQ(s.code(), ErrorCode::kTruncated);
  EXPECT_EQ(s.offset(), 20);
  EXPECT_EQ(DecodeSerializedScriptValue(Of({'T'}), &json).code(), ErrorCode::kUnsupported);
  EXPECT_EQ(DecodeSerializedScriptValue(Of({0xff, 0x15, 0xfd}), &json).code(),
            ErrorCode::kTruncated);
}

TEST(IndexedDbRecord, KeysAndMetadata) {
  std::string json;
  // Schema version, a database name, object store metadata, an object store record.
  ASSERT_TRUE(DecodeIndexedDbRecord(Of({0, 0, 0, 0, 0}), Of({5}), &json).ok());
  EXPECT_EQ(json, R"({"kind":"schemaVersion","value":5})");
  ASSERT_TRUE(
      DecodeIndexedDbRecord(Of({0, 0, 0, 0, 201, 1, 0, 'o', 1, 0, 'd'}), Of({2}), &json).ok());
  EXPECT_EQ(json, R"({"kind":"databaseName","origin":"o","name":"d","databaseId":2})");
  ASSERT_TRUE(DecodeIndexedDbRecord(Of({0, 2, 0, 0, 50, 3, 1}),
                                    Of({0, 0, 2, 2, 1, 0, 'a', 1, 0, 'b'}), &json)
                  .ok());
  EXPECT_EQ(
      json,
      R"({"kind":"objectStoreMetadata","databaseId":2,"objectStoreId":3,"metadata":"keyPath","value":["a","b"]})");
  ASSERT_TRUE(DecodeIndexedDbRecord(Of({0, 2, 1, 1, 3, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}),
                                    Of({1, 0xff, 0x0d, 'I', 4}), &json)
                  .ok());
  EXPECT_EQ(
      json,
      R"({"kind":"objectStoreData","databaseId":2,"objectStoreId":1,"key":1,"version":1,"value":2})");
  // Index data: index key, sequence number, primary key; the value's primary key.
  ASSERT_TRUE(DecodeIndexedDbRecord(Of({0, 2, 1, 30, 1, 1, 0, 'x', 7, 1, 1, 0, 'p'}),
                                    Of({3, 1, 1, 0, 'p'}), &json)
                  .ok());
  EXPECT_EQ(
      json,
      R"({"kind":"indexData","databaseId":2,"objectStoreId":1,"indexId":30,"key":"x","sequenceNumber":7,"version":3,"primaryKey":"p"})");
  Status s = DecodeIndexedDbRecord(Of({0, 2, 1, 1, 1, 5}), Of({1}), &json);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(DecodeIndexedDbRecord(Of({0x20}), Of({1}), &json).code(), ErrorCode::kCorrupt);
  EXPECT_EQ(DecodeIndexedDbKey(Of({4, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 6, 1, 0xab}), &json).code(),
            ErrorCode::kOk);
  EXPECT_EQ(json, R"([0,{"$binary":"ab"}])");
}

TEST(StorageRecords, LocalAndSession) {
  std::string json;
  ASSERT_TRUE(DecodeLocalStorageRecord(BytesOf("VERSION"), BytesOf("1"), &json).ok());
  EXPECT_EQ(json, R"({"kind":"version","value":"1"})");
  ASSERT_TRUE(
      DecodeLocalStorageRecord(BytesOf("META:http://a"), Of({0x08, 0x96, 0x01, 0x10, 3}), &json)
          .ok());
  EXPECT_EQ(json, R"({"kind":"meta","origin":"http://a","lastModified":150,"sizeBytes":3})");
  Bytes item = Cat({Bytes{'_', 'h', 0}, Of({0, 'k', 0}), Bytes{}});
  ASSERT_TRUE(DecodeLocalStorageRecord(item, Of({1, 0xe9}), &json).ok());
  EXPECT_EQ(json, "{\"kind\":\"item\",\"origin\":\"h\",\"key\":\"k\",\"value\":\"\xc3\xa9\"}");
  EXPECT_EQ(DecodeLocalStorageRecord(item, Of({0, 1}), &json).code(), ErrorCode::kCorrupt);
  EXPECT_EQ(DecodeLocalStorageRecord(item, Of({2}), &json).code(), ErrorCode::kCorrupt);
  EXPECT_EQ(DecodeLocalStorageRecord(BytesOf("_nonul"), Of({1}), &json).code(),
            ErrorCode::kCorrupt);
  ASSERT_TRUE(DecodeSessionStorageRecord(BytesOf("map-12-k\xc3\x9f"), Of({'v', 0}), &json).ok());
  EXPECT_EQ(json, "{\"kind\":\"item\",\"mapId\":12,\"key\":\"k\xc3\x9f\",\"value\":\"v\"}");
  ASSERT_TRUE(
      DecodeSessionStorageRecord(
          BytesOf("namespace-ab209ce1_e600_45e2_9620_2dce34d90789-http://a/"), BytesOf("0"), &json)
          .ok());
  EXPECT_EQ(
      json,
      R"({"kind":"namespace","namespace":"ab209ce1_e600_45e2_9620_2dce34d90789","origin":"http://a/","mapId":0})");
  EXPECT_EQ(DecodeSessionStorageRecord(BytesOf("map-x"), Of({}), &json).code(),
            ErrorCode::kCorrupt);
}

// ---- the Chromium sample ----

// JSON text with escaped surrogates made parseable: pairs become the character, lone ones the
// text "\\uXXXX" (both our text and Python's expected.json write lone surrogates as escapes).
std::string NormalizeSurrogates(const std::string& text) {
  std::string out;
  auto hex4 = [&](size_t at, uint32_t* v) {
    if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u') return false;
    *v = static_cast<uint32_t>(std::stoul(text.substr(at + 2, 4), nullptr, 16));
    return true;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] != 'u') {
      out.append(text, i, 2);
      ++i;
      continue;
    }
    uint32_t u = 0;
    if (text[i] == '\\' && hex4(i, &u) && u >= 0xd800 && u <= 0xdfff) {
      uint32_t low = 0;
      if (u <= 0xdbff && hex4(i + 6, &low) && low >= 0xdc00 && low <= 0xdfff) {
        const uint32_t cp = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
        out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
        i += 11;
      } else {
        out += "\\\\";
        out.append(text, i + 1, 5);
        i += 5;
      }
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

Json ParseJson(const std::string& text) { return Json::parse(NormalizeSurrogates(text)); }

class ChromiumSample : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::ChromiumSampleReady()) GTEST_SKIP() << "no Chromium sample";
  }
};

// The key of the blob entry of an object store record: index id 1 replaced by 3.
Bytes BlobEntryKeyOf(const Bytes& key) {
  Bytes out = key;
  const size_t db_bytes = ((key[0] >> 5) & 7) + 1;
  const size_t os_bytes = ((key[0] >> 2) & 7) + 1;
  out[1 + db_bytes + os_bytes] = 3;
  return out;
}

TEST_F(ChromiumSample, IndexedDbRecordsMatchThePage) {
  const auto dir = testing::ChromiumSampleDir();
  const Json expected = ParseJson([&] {
    Bytes b = testing::ReadWholeFile(dir / "expected.json");
    return std::string(b.begin(), b.end());
  }());
  const testing::SampleFolder folder = testing::ReadLevelDbFolder(dir / "indexeddb");
  ASSERT_TRUE(folder.error.empty()) << folder.error;
  // Every live record decodes.
  std::vector<std::pair<Bytes, Json>> records;
  size_t live = 0;
  size_t wrapped = 0;
  for (const auto& [key, entry] : folder.latest) {
    if (entry.deleted) continue;
    ++live;
    Bytes blob_entry;
    if (key.size() > 4 && key[0] == 0 && key[3] == 1) {
      auto it = folder.latest.find(BlobEntryKeyOf(key));
      if (it != folder.latest.end() && !it->second.deleted) blob_entry = it->second.value;
    }
    std::string json;
    Status s = DecodeIndexedDbRecord(key, entry.value, blob_entry, &json);
    ASSERT_TRUE(s.ok()) << s.message() << " at " << s.offset() << " key "
                        << ::testing::PrintToString(key) << " value "
                        << ::testing::PrintToString(entry.value);
    ASSERT_NO_THROW(ParseJson(json)) << json;
    Json record = ParseJson(json);
    // A value wrapped in a blob: read the blob file and decode it in its place.
    if (record.contains("wrapping") && record["wrapping"] == "blob") {
      ++wrapped;
      std::string blobs_json;
      ASSERT_TRUE(DecodeIndexedDbRecord(BlobEntryKeyOf(key), blob_entry, &blobs_json).ok());
      const Json blobs = ParseJson(blobs_json)["blobs"];
      const int64_t number = blobs[record["value"]["$blob"]["index"].get<size_t>()]["blobNumber"];
      char sub[8];
      std::snprintf(sub, sizeof(sub), "%02x", static_cast<int>((number >> 8) & 0xff));
      char name[24];
      std::snprintf(name, sizeof(name), "%llx", static_cast<unsigned long long>(number));
      const Bytes file = testing::ReadWholeFile(
          dir / "indexeddb-blob" / std::to_string(record["databaseId"].get<int>()) / sub / name);
      std::string value_json;
      Status v = DecodeSerializedScriptValue(file, &value_json);
      ASSERT_TRUE(v.ok()) << v.message();
      record["value"] = ParseJson(value_json);
    }
    records.emplace_back(key, std::move(record));
  }
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
    return IndexedDbComparator().Compare(a.first, b.first) < 0;
  });
  // Names: databases, object stores, indexes.
  std::map<std::string, int64_t> database_ids;
  std::map<std::pair<int64_t, std::string>, int64_t> store_ids;
  std::map<std::tuple<int64_t, int64_t, std::string>, int64_t> index_ids;
  for (const auto& [key, r] : records) {
    if (r["kind"] == "databaseName") database_ids[r["name"]] = r["databaseId"];
    if (r["kind"] == "objectStoreNames")
      store_ids[{r["databaseId"], r["name"]}] = r["objectStoreId"];
    if (r["kind"] == "indexMetadata" && r["metadata"] == "name") {
      index_ids[{r["databaseId"], r["objectStoreId"], r["value"]}] = r["indexId"];
    }
  }
  // What the page sees that the records do not hold, done here as Chromium does on reads:
  // - an index entry is live only while its version is the record's (the exists entry's): entries
  //   of overwritten or deleted records stay until cleaned (backing_store.cc IndexCursorImpl
  //   checks the version);
  // - a store with a key generator and a key path gets the generated key injected into the value
  //   at that path (Blink's IDBRequest, InjectV8KeyIntoV8Value).
  std::map<std::tuple<int64_t, int64_t, std::string>, int64_t> exists_versions;
  std::map<std::pair<int64_t, int64_t>, Json> auto_key_paths;
  std::map<std::pair<int64_t, int64_t>, bool> auto_increment;
  for (const auto& [key, r] : records) {
    if (r["kind"] == "existsEntry") {
      exists_versions[{r["databaseId"], r["objectStoreId"], r["key"].dump()}] = r["version"];
    }
    if (r["kind"] == "objectStoreMetadata" && r["metadata"] == "keyPath") {
      auto_key_paths[{r["databaseId"], r["objectStoreId"]}] = r["value"];
    }
    if (r["kind"] == "objectStoreMetadata" && r["metadata"] == "autoIncrement") {
      auto_increment[{r["databaseId"], r["objectStoreId"]}] = r["value"];
    }
  }
  size_t injected = 0;
  size_t stale = 0;
  for (auto& [key, r] : records) {
    if (r["kind"] != "objectStoreData") continue;
    const std::pair<int64_t, int64_t> store{r["databaseId"], r["objectStoreId"]};
    const Json& path = auto_key_paths[store];
    if (!auto_increment[store] || !path.is_string() || !r["value"].is_object()) continue;
    Json* at = &r["value"];
    std::string rest = path;
    while (rest.find('.') != std::string::npos) {
      at = &(*at)[rest.substr(0, rest.find('.'))];
      rest = rest.substr(rest.find('.') + 1);
    }
    if (!at->contains(rest)) {
      (*at)[rest] = r["key"];
      ++injected;
    }
  }
  size_t compared_records = 0;
  size_t compared_entries = 0;
  for (const Json& db : expected["indexeddb"]) {
    ASSERT_TRUE(database_ids.count(db["name"])) << db["name"];
    const int64_t db_id = database_ids[db["name"]];
    for (const Json& store : db["object_stores"]) {
      ASSERT_TRUE(store_ids.count({db_id, store["name"]})) << store["name"];
      const int64_t os_id = store_ids[{db_id, store["name"]}];
      std::vector<const Json*> ours;
      for (const auto& [key, r] : records) {
        if (r["kind"] == "objectStoreData" && r["databaseId"] == db_id &&
            r["objectStoreId"] == os_id) {
          ours.push_back(&r);
        }
      }
      ASSERT_EQ(ours.size(), store["records"].size()) << store["name"];
      for (size_t i = 0; i < ours.size(); ++i) {
        EXPECT_EQ((*ours[i])["key"], store["records"][i]["key"]) << store["name"] << " " << i;
        EXPECT_EQ((*ours[i])["value"], store["records"][i]["value"])
            << store["name"] << " " << store["records"][i]["key"].dump();
        ++compared_records;
      }
      for (const Json& index : store["indexes"]) {
        ASSERT_TRUE(index_ids.count({db_id, os_id, index["name"]})) << index["name"];
        const int64_t index_id = index_ids[{db_id, os_id, index["name"]}];
        std::vector<const Json*> entries;
        for (const auto& [key, r] : records) {
          if (r["kind"] == "indexData" && r["databaseId"] == db_id && r["objectStoreId"] == os_id &&
              r["indexId"] == index_id) {
            auto it = exists_versions.find({db_id, os_id, r["primaryKey"].dump()});
            if (it == exists_versions.end() || it->second != r["version"]) {
              ++stale;
              continue;
            }
            entries.push_back(&r);
          }
        }
        ASSERT_EQ(entries.size(), index["entries"].size()) << index["name"];
        for (size_t i = 0; i < entries.size(); ++i) {
          EXPECT_EQ((*entries[i])["key"], index["entries"][i]["key"]) << index["name"] << i;
          EXPECT_EQ((*entries[i])["primaryKey"], index["entries"][i]["primary_key"])
              << index["name"] << i;
          ++compared_entries;
        }
      }
    }
  }
  size_t expected_records = 0;
  size_t expected_entries = 0;
  for (const Json& db : expected["indexeddb"]) {
    for (const Json& store : db["object_stores"]) {
      expected_records += store["records"].size();
      for (const Json& index : store["indexes"]) expected_entries += index["entries"].size();
    }
  }
  EXPECT_EQ(compared_records, expected_records);
  EXPECT_EQ(compared_entries, expected_entries);
  EXPECT_GT(wrapped, 0u);
  std::printf(
      "[ sample   ] %zu live IndexedDB records decoded; %zu records and %zu index entries "
      "equal to the page's; %zu blob-wrapped, %zu keys injected, %zu stale index entries\n",
      live, compared_records, compared_entries, wrapped, injected, stale);
}

std::vector<std::pair<Json, Json>> SortedPairs(const Json& list) {
  std::vector<std::pair<Json, Json>> out;
  for (const Json& p : list) out.emplace_back(p[0], p[1]);
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.first.dump() < b.first.dump(); });
  return out;
}

TEST_F(ChromiumSample, StorageRecordsMatchThePage) {
  const auto dir = testing::ChromiumSampleDir();
  const Json expected = ParseJson([&] {
    Bytes b = testing::ReadWholeFile(dir / "expected.json");
    return std::string(b.begin(), b.end());
  }());
  for (const bool local : {true, false}) {
    const testing::SampleFolder folder =
        testing::ReadLevelDbFolder(dir / (local ? "local-storage" : "session-storage"));
    ASSERT_TRUE(folder.error.empty()) << folder.error;
    Json items = Json::array();
    for (const auto& [key, entry] : folder.latest) {
      if (entry.deleted) continue;
      std::string json;
      Status s = local ? DecodeLocalStorageRecord(key, entry.value, &json)
                       : DecodeSessionStorageRecord(key, entry.value, &json);
      ASSERT_TRUE(s.ok()) << s.message() << " at " << s.offset();
      const Json r = ParseJson(json);
      if (r["kind"] == "item") items.push_back(Json::array({r["key"], r["value"]}));
    }
    const auto ours = SortedPairs(items);
    const auto theirs = SortedPairs(expected[local ? "local_storage" : "session_storage"]);
    ASSERT_EQ(ours.size(), theirs.size()) << (local ? "local" : "session");
    for (size_t i = 0; i < ours.size(); ++i) {
      EXPECT_EQ(ours[i].first, theirs[i].first);
      EXPECT_EQ(ours[i].second, theirs[i].second) << theirs[i].first.dump();
    }
    std::printf("[ sample   ] %s: %zu items equal to the page's\n",
                local ? "localStorage" : "sessionStorage", ours.size());
  }
}

}  // namespace
}  // namespace sstfilter
