// format_version 7 compression managers (docs/FORMATS.md 3.2): the manager rocksdb.compression
// names, and a table whose blocks use a codec of a manager this reader does not have
// (fixtures/v11-meta/custom-codec-0x81.sst, RocksDB 11.8.1): UNSUPPORTED naming both, never a
// misread. The v11-meta tables of builtin codecs are table_golden_test.cc's.
#include <gtest/gtest.h>

#include <string>

#include "golden.h"
#include "sstfilter/table.h"
#include "table/compression.h"
#include "table/table_reader.h"

namespace sstfilter {
namespace {

TEST(CompressionManager, NameIsTheFieldBeforeTheFirstSemicolonFromFormatVersion7) {
  EXPECT_EQ(CompressionManagerName(7, "BuiltinV2;07;"), "BuiltinV2");
  EXPECT_EQ(CompressionManagerName(7, "SstfilterFixtureCodecs;81;"), "SstfilterFixtureCodecs");
  EXPECT_EQ(CompressionManagerName(7, ";;"), "");
  EXPECT_EQ(CompressionManagerName(7, "ZSTD"), "");  // no field: no manager named
  EXPECT_EQ(CompressionManagerName(6, "Snap;py"), "");
}

// A builtin codec id under another manager is that manager's to interpret: not decoded as ours.
TEST(CompressionManager, ForeignManagerOwnsEveryCodecId) {
  const Bytes block = {0x05, 'h', 'e', 'l', 'l', 'o'};
  FramingContext context;
  context.format_version = 7;
  context.block_offset = 4096;
  context.compression_manager = "Elsewhere";
  CompressedFrame frame;
  Status s = UnframeCompressedBlock(context, 0x04, block, &frame);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << s.message();
  EXPECT_EQ(s.message(), "compression manager Elsewhere, codec 0x04: not a codec of this reader");
  EXPECT_EQ(s.offset(), 4096);

  context.compression_manager = "";
  s = UnframeCompressedBlock(context, 0xfe, block, &frame);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << s.message();
  EXPECT_EQ(s.message(), "no compression manager named, codec 0xfe: not a codec of this reader");

  context.compression_manager = kBuiltinCompressionManager;
  EXPECT_TRUE(UnframeCompressedBlock(context, 0x04, block, &frame).ok());
}

// RocksDB stored this table's index and filter raw (they did not shrink enough; filters never
// are compressed), so it opens and its filter answers as RocksDB's did; the first data block, at
// offset 0, is of codec 0x81: a walk stops there, naming the manager and the codec.
TEST(CompressionManager, CustomCodecTableIsUnsupportedNamingManagerAndCodec) {
  size_t checked = 0;
  for (const auto& [corpus, manifest] : golden::Sections("v11_meta")) {
    for (const auto& c : manifest.at("cases")) {
      if (c.at("compression") != "custom:0x81") continue;
      const std::string id = c.at("id").get<std::string>();
      const Bytes file =
          golden::ReadFileBytes(corpus->Path("v11-meta/" + c.at("file").get<std::string>()));
      std::unique_ptr<TableReader> reader;
      Status s = OpenTableFromMemory(file, TableOptions(), &reader);
      ASSERT_TRUE(s.ok()) << id << ": " << s.message() << " at " << s.offset();
      size_t answered = 0;
      for (const auto& p : c.at("probes")) {
        if (p.at("answer").is_null()) continue;
        bool maybe = false;
        const Bytes key = golden::HexDecode(p.at("key").get<std::string>());
        ASSERT_TRUE(reader->MayContain(key, &maybe).ok()) << id;
        EXPECT_EQ(maybe, p.at("answer") == "maybe") << id << " probe " << p.at("key");
        ++answered;
      }
      EXPECT_GT(answered, 0u) << id;
      TableCursor cursor(*reader, TableCursor::Content::kEntries);
      s = DriveFromMemory(cursor, file);
      EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << id << ": " << s.message();
      EXPECT_EQ(s.message(),
                "compression manager SstfilterFixtureCodecs, codec 0x81: not a codec of this "
                "reader")
          << id;
      EXPECT_EQ(s.offset(), 0) << id << ": the first data block";
      ++checked;
    }
  }
  ASSERT_GT(checked, 0u) << "no custom-codec table in " << golden::CorporaSummary();
}

}  // namespace
}  // namespace sstfilter
