// Blob indexes and wide-column entities (sstfilter/values.h), from byte vectors built here after
// rocksdb db/blob/blob_index.h and db/wide/wide_column_serialization.h, and sst_dump's
// --decode_blob_index text. The corpus (tests/ts/values.test.ts) checks the same against values
// RocksDB 7.8.3 wrote.
#include "sstfilter/values.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sstfilter/table.h"

namespace sstfilter {
namespace {

Bytes Of(std::initializer_list<int> bytes) {
  Bytes out;
  for (int b : bytes) out.push_back(static_cast<uint8_t>(b));
  return out;
}

Bytes Text(const std::string& s) { return Bytes(s.begin(), s.end()); }

std::string AsString(ByteView bytes) { return std::string(bytes.begin(), bytes.end()); }

void ExpectCorrupt(const Status& s, int64_t offset, const std::string& what) {
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << what << ": " << s.message();
  EXPECT_EQ(s.offset(), offset) << what << ": " << s.message();
}

TEST(BlobIndex, DecodesEachKind) {
  BlobIndex index;
  // kBlob: file 5, offset 300, size 10, Snappy.
  ASSERT_TRUE(DecodeBlobIndex(Of({1, 5, 0xac, 0x02, 10, 1}), &index).ok());
  EXPECT_EQ(index.type, BlobIndex::Type::kBlob);
  EXPECT_EQ(index.file_number, 5u);
  EXPECT_EQ(index.offset, 300u);
  EXPECT_EQ(index.size, 10u);
  EXPECT_EQ(index.compression, 1);
  EXPECT_STREQ(CompressionTypeName(index.compression), "Snappy");
  // kBlobTtl: expiration 1000, file 7, offset 0, size 3, ZSTD.
  ASSERT_TRUE(DecodeBlobIndex(Of({2, 0xe8, 0x07, 7, 0, 3, 7}), &index).ok());
  EXPECT_EQ(index.type, BlobIndex::Type::kBlobTtl);
  EXPECT_EQ(index.expiration, 1000u);
  EXPECT_EQ(index.file_number, 7u);
  EXPECT_EQ(index.size, 3u);
  EXPECT_STREQ(CompressionTypeName(index.compression), "ZSTD");
  // kInlinedTtl: expiration 5, the rest is the value (possibly empty).
  const Bytes inlined = Of({0, 5, 'a', 'b', 'c'});
  ASSERT_TRUE(DecodeBlobIndex(inlined, &index).ok());
  EXPECT_EQ(index.type, BlobIndex::Type::kInlinedTtl);
  EXPECT_EQ(index.expiration, 5u);
  EXPECT_EQ(AsString(index.value), "abc");
  ASSERT_TRUE(DecodeBlobIndex(Of({0, 0}), &index).ok());
  EXPECT_TRUE(index.value.empty());
  EXPECT_STREQ(BlobIndexTypeName(BlobIndex::Type::kBlobTtl), "blob-ttl");
}

TEST(BlobIndex, RejectsBadBytesWithTheirOffset) {
  BlobIndex index;
  ExpectCorrupt(DecodeBlobIndex({}, &index), 0, "empty");
  ExpectCorrupt(DecodeBlobIndex(Of({3, 1, 1, 1, 0}), &index), 0, "unknown kind");
  ExpectCorrupt(DecodeBlobIndex(Of({0x81}), &index), 0, "kind with the high bit");
  ExpectCorrupt(DecodeBlobIndex(Of({1, 5, 0x80}), &index), 2, "truncated offset");
  ExpectCorrupt(DecodeBlobIndex(Of({1, 5, 1, 2}), &index), 4, "no compression byte");
  ExpectCorrupt(DecodeBlobIndex(Of({1, 5, 1, 2, 0, 0}), &index), 5, "trailing byte");
  ExpectCorrupt(DecodeBlobIndex(Of({0}), &index), 1, "inlined without expiration");
  Bytes overlong = {2};
  overlong.insert(overlong.end(), 11, 0x80);
  ExpectCorrupt(DecodeBlobIndex(overlong, &index), 1, "11-byte varint");
}

TEST(CompressionTypeName, NamesAsRocksDb) {
  const std::vector<std::pair<int, const char*>> names = {{0, "NoCompression"},
                                                          {1, "Snappy"},
                                                          {2, "Zlib"},
                                                          {3, "BZip2"},
                                                          {4, "LZ4"},
                                                          {5, "LZ4HC"},
                                                          {6, "Xpress"},
                                                          {7, "ZSTD"},
                                                          {0x40, "ZSTDNotFinal"},
                                                          {0xff, "DisableOption"},
                                                          {8, ""},
                                                          {0x80, ""}};
  for (const auto& [type, name] : names) {
    EXPECT_STREQ(CompressionTypeName(static_cast<uint8_t>(type)), name) << type;
  }
}

// A version 1 entity as WideColumnSerialization::Serialize writes it.
Bytes EntityV1(const std::vector<std::pair<std::string, std::string>>& columns,
               uint8_t version = 1) {
  Bytes out = {version};
  PutVarint64(&out, columns.size());
  for (const auto& [name, value] : columns) {
    PutVarint64(&out, name.size());
    out.insert(out.end(), name.begin(), name.end());
    PutVarint64(&out, value.size());
  }
  for (const auto& column : columns)
    out.insert(out.end(), column.second.begin(), column.second.end());
  return out;
}

struct V2Column {
  std::string name;
  Bytes value;
  uint8_t type = 0x01;
};

// A version 2 entity as RocksDB main's SerializeV2 lays it out.
Bytes EntityV2(const std::vector<V2Column>& columns) {
  Bytes name_sizes, value_sizes, names, values;
  for (const V2Column& c : columns) {
    PutVarint64(&name_sizes, c.name.size());
    PutVarint64(&value_sizes, c.value.size());
    names.insert(names.end(), c.name.begin(), c.name.end());
    values.insert(values.end(), c.value.begin(), c.value.end());
  }
  Bytes out = {2};
  PutVarint64(&out, columns.size());
  PutVarint64(&out, name_sizes.size());
  PutVarint64(&out, value_sizes.size());
  PutVarint64(&out, names.size());
  for (const V2Column& c : columns) out.push_back(c.type);
  for (const Bytes* part : {&name_sizes, &value_sizes, &names, &values}) {
    out.insert(out.end(), part->begin(), part->end());
  }
  return out;
}

TEST(WideColumns, DecodesVersion1AndVersion0) {
  std::vector<WideColumn> columns;
  for (const uint8_t version : {uint8_t{1}, uint8_t{0}}) {
    const Bytes entity =
        EntityV1({{"", "default"}, {"a", ""}, {"b", std::string(200, 'x')}}, version);
    ASSERT_TRUE(DecodeWideColumns(entity, &columns).ok()) << int(version);
    ASSERT_EQ(columns.size(), 3u);
    EXPECT_EQ(AsString(columns[0].name), "");
    EXPECT_EQ(AsString(columns[0].value), "default");
    EXPECT_EQ(AsString(columns[1].name), "a");
    EXPECT_TRUE(columns[1].value.empty());
    EXPECT_EQ(columns[2].value.size(), 200u);
    EXPECT_FALSE(columns[2].blob_index.has_value());
  }
  ASSERT_TRUE(DecodeWideColumns(Of({1, 0}), &columns).ok());
  EXPECT_TRUE(columns.empty());
}

TEST(WideColumns, RejectsBadVersion1WithTheirOffset) {
  std::vector<WideColumn> columns;
  ExpectCorrupt(DecodeWideColumns({}, &columns), 0, "empty");
  ExpectCorrupt(DecodeWideColumns(Of({3, 0}), &columns), 0, "version 3");
  ExpectCorrupt(DecodeWideColumns(Of({1}), &columns), 1, "no count");
  // b then a, and a twice: names must ascend strictly.
  ExpectCorrupt(DecodeWideColumns(EntityV1({{"b", "1"}, {"a", "2"}}), &columns), 5, "order");
  ExpectCorrupt(DecodeWideColumns(EntityV1({{"a", "1"}, {"a", "2"}}), &columns), 5, "duplicate");
  // Bytes after the last value (RocksDB main rejects them; 7.8.3 ignored them).
  Bytes trailing = EntityV1({{"a", "1"}});
  trailing.push_back('!');
  ExpectCorrupt(DecodeWideColumns(trailing, &columns), 6, "trailing");
  Bytes short_value = EntityV1({{"a", "12"}});
  short_value.pop_back();
  ExpectCorrupt(DecodeWideColumns(short_value, &columns), 5, "short value");
  // A name longer than the bytes left.
  ExpectCorrupt(DecodeWideColumns(Of({1, 1, 9, 'a'}), &columns), 2, "long name");
  // 2^32 - 1 columns announced in a few bytes: rejected before anything is reserved.
  ExpectCorrupt(DecodeWideColumns(Of({1, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0}), &columns), 6,
                "hostile count");
  EXPECT_TRUE(columns.empty());
}

TEST(WideColumns, DecodesVersion2WithBlobReferences) {
  const Bytes blob = Of({1, 12, 0x90, 0x03, 40, 4});  // file 12, offset 400, size 40, LZ4
  std::vector<WideColumn> columns;
  const Bytes entity = EntityV2({{"", Text("dflt")}, {"big", blob, 0x11}, {"c", Text("v")}});
  ASSERT_TRUE(DecodeWideColumns(entity, &columns).ok());
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_EQ(AsString(columns[0].value), "dflt");
  EXPECT_FALSE(columns[0].blob_index.has_value());
  EXPECT_EQ(AsString(columns[1].name), "big");
  ASSERT_TRUE(columns[1].blob_index.has_value());
  EXPECT_EQ(columns[1].blob_index->file_number, 12u);
  EXPECT_EQ(columns[1].blob_index->offset, 400u);
  EXPECT_EQ(AsString(columns[2].value), "v");
  ASSERT_TRUE(DecodeWideColumns(EntityV2({}), &columns).ok());
  EXPECT_TRUE(columns.empty());
}

// Encoding what was decoded gives the same bytes, in version 1 without blob columns and in
// version 2 with them; a column that leaves its blob file (the embedded blob reads of
// TableCursor) turns a version 2 entity into version 1.
TEST(WideColumns, EncodesAsRocksDbSerializes) {
  const Bytes blob = Of({1, 12, 0x90, 0x03, 40, 4});
  const std::string long_value(200, 'x');  // a two-byte value size
  const Bytes v1 = EntityV1({{"", "default"}, {"a", ""}, {"b", long_value}});
  const Bytes v2 = EntityV2({{"", Text("dflt")}, {"big", blob, 0x11}, {"c", Text(long_value)}});
  for (const Bytes* entity : {&v1, &v2}) {
    std::vector<WideColumn> columns;
    ASSERT_TRUE(DecodeWideColumns(*entity, &columns).ok());
    Bytes encoded = {0xee};  // appended to what is there
    EncodeWideColumns(columns, &encoded);
    EXPECT_EQ(Bytes(encoded.begin() + 1, encoded.end()), *entity)
        << "version " << int((*entity)[0]);
  }
  std::vector<WideColumn> columns;
  ASSERT_TRUE(DecodeWideColumns(v2, &columns).ok());
  const Bytes payload = Text("resolved");
  columns[1].value = ByteView(payload);
  columns[1].blob_index.reset();
  Bytes encoded;
  EncodeWideColumns(columns, &encoded);
  EXPECT_EQ(encoded, EntityV1({{"", "dflt"}, {"big", "resolved"}, {"c", long_value}}));
}

TEST(WideColumns, RejectsBadVersion2WithTheirOffset) {
  std::vector<WideColumn> columns;
  // Header: version, count, three section sizes (5 bytes); then the types.
  ExpectCorrupt(DecodeWideColumns(EntityV2({{"a", Text("1"), 0x16}}), &columns), 5, "entity type");
  ExpectCorrupt(DecodeWideColumns(EntityV2({{"b", Text("1")}, {"a", Text("2")}}), &columns), 12,
                "order");
  // A blob reference that does not decode: the offset is the bad byte's within the entity.
  const Bytes bad_blob = EntityV2({{"a", Of({1, 2, 3}), 0x11}});
  ExpectCorrupt(DecodeWideColumns(bad_blob, &columns), static_cast<int64_t>(bad_blob.size()),
                "blob index without compression");
  Bytes trailing = EntityV2({{"a", Text("1")}});
  trailing.push_back(0);
  ExpectCorrupt(DecodeWideColumns(trailing, &columns), 10, "trailing");
  // Section sizes larger than the bytes present, and sizes the columns do not use up.
  ExpectCorrupt(DecodeWideColumns(Of({2, 1, 100, 1, 1, 1}), &columns), 6, "long sections");
  ExpectCorrupt(DecodeWideColumns(Of({2, 1, 2, 1, 1, 1, 1, 0, 1, 'a', '1'}), &columns), 6,
                "unused name size bytes");
  ExpectCorrupt(DecodeWideColumns(Of({2, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0, 1}), &columns), 9,
                "hostile count");
}

std::pair<std::string, std::string> ScanLine(ByteView value, uint8_t type, ShownBytes shown) {
  Bytes out, errors;
  AppendScanLine(Text("k"), {}, (uint64_t{9} << 8) | type, value,
                 ScanTextOptions{.bytes = shown, .decode_blob_index = true}, &out, &errors);
  return {AsString(out), AsString(errors)};
}

TEST(ScanText, DecodesBlobIndexesAsSstDump) {
  EXPECT_EQ(ScanLine(Of({1, 5, 0xac, 0x02, 10, 1}), 0x11, ShownBytes::kRaw).first,
            "'k' seq:9, type:17 => [blob ref] file:5 offset:300 size:10 compression: Snappy\n");
  EXPECT_EQ(ScanLine(Of({2, 0xe8, 0x07, 7, 0, 3, 0x20}), 0x11, ShownBytes::kRaw).first,
            "'k' seq:9, type:17 => [blob ref] file:7 offset:0 size:3 compression:  exp:1000\n");
  EXPECT_EQ(ScanLine(Of({0, 5, 'a', 0, 'c'}), 0x11, ShownBytes::kRaw).first,
            "'k' seq:9, type:17 => [inlined blob] value:a\n");
  EXPECT_EQ(ScanLine(Of({0, 5, 'a', 0, 'c'}), 0x11, ShownBytes::kHex).first,
            "'6B' seq:9, type:17 => [inlined blob] value:610063 exp:5\n");
  EXPECT_EQ(ScanLine(Of({4}), 0x11, ShownBytes::kRaw),
            std::make_pair(std::string(),
                           std::string("'k' seq:9, type:17 => error decoding blob index\n")));
  // Other types print their value as stored.
  EXPECT_EQ(ScanLine(Of({1, 5, 1, 1, 0}), 0x01, ShownBytes::kHex).first,
            "'6B' seq:9, type:1 => 0105010100\n");
}

// RocksDB 9.x and later write kTypeValuePreferredSeqno (0x18); the newest sst_dump prints the value
// without the fixed64 it packs at the end, then ", " and that sequence number
// (table/sst_file_dumper.cc). No sst_dump here writes or prints one: the lines follow that source.
TEST(ScanText, ShowsPreferredSequenceNumbersAsNewestSstDump) {
  const Bytes packed = Of({'a', 'b', 0x2c, 0x01, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(ScanLine(packed, 0x18, ShownBytes::kRaw).first, "'k' seq:9, type:24 => ab, 300\n");
  EXPECT_EQ(ScanLine(packed, 0x18, ShownBytes::kHex).first, "'6B' seq:9, type:24 => 6162, 300\n");
  // Too short to hold the number (RocksDB asserts): the stored bytes, as for any other type.
  EXPECT_EQ(ScanLine(Of({'a', 'b'}), 0x18, ShownBytes::kRaw).first, "'k' seq:9, type:24 => ab\n");
}

}  // namespace
}  // namespace sstfilter
