// Table containers beyond what the golden corpus holds: format_version 0 and 1 footers, unknown
// versions and table types, hostile handles, sizes and varints, compression framing, the
// properties checksum quirk of ingested files, and data blocks whose codec is unsupported or
// fails.
#include <gtest/gtest.h>

#include "golden.h"
#include "sstfilter/table.h"
#include "table/block.h"
#include "table/block_checksum.h"
#include "table/compression.h"
#include "table/footer.h"
#include "table/table_reader.h"

namespace sstfilter {
namespace {

// An uncompressed CRC32C format_version 2 table: fv 0 and 1 differ from it only in the footer.
Bytes Fv2Table() {
  return golden::ReadFileBytes(
      golden::Generated().Path("rocksdb-sst/fv2_bloom10_crc32c/table.sst"));
}
std::vector<std::vector<uint8_t>> Fv2Probes() {
  return golden::ReadKeysFile(
      golden::Generated().Path("rocksdb-sst/fv2_bloom10_crc32c/probes.keys"));
}

Bytes Handles(BlockHandle a, BlockHandle b) {
  Bytes out;
  PutVarint64(&out, a.offset);
  PutVarint64(&out, a.size);
  PutVarint64(&out, b.offset);
  PutVarint64(&out, b.size);
  return out;
}

// Replaces the 53-byte footer of `file` by a format_version `fv` footer with these handles
// (fv 0: the 48-byte LevelDB-compatible footer).
Bytes WithFooter(Bytes file, uint32_t fv, BlockHandle metaindex, BlockHandle index,
                 uint8_t checksum = 1, uint64_t magic = kBlockBasedTableMagic) {
  // erase, not resize: GCC 12's -Wstringop-overflow misreads a shrinking resize in the ASan build.
  file.erase(file.end() - kFooterSize, file.end());
  Bytes footer;
  if (fv != 0) footer.push_back(checksum);
  const Bytes handles = Handles(metaindex, index);
  footer.insert(footer.end(), handles.begin(), handles.end());
  footer.resize(fv == 0 ? 40 : 41, 0);
  if (fv != 0) PutFixed32(&footer, fv);
  PutFixed64(&footer, fv == 0 ? kLegacyTableMagic : magic);
  file.insert(file.end(), footer.begin(), footer.end());
  return file;
}

TEST(TableFormat, FormatVersionZeroAndOneFootersOpenTheSameTable) {
  const Bytes fv2 = Fv2Table();
  std::unique_ptr<TableReader> reference;
  ASSERT_TRUE(OpenTableFromMemory(fv2, {}, &reference).ok());
  const Footer& f = reference->table().footer;
  for (uint32_t fv : {0u, 1u}) {
    const Bytes file = WithFooter(fv2, fv, f.metaindex, *f.index);
    std::unique_ptr<TableReader> reader;
    const Status s = OpenTableFromMemory(file, {}, &reader);
    ASSERT_TRUE(s.ok()) << "fv " << fv << ": " << s.message();
    EXPECT_EQ(reader->table().family, TableFamily::kRocksDb) << "fv " << fv;
    EXPECT_EQ(reader->table().footer.format_version, fv);
    EXPECT_EQ(reader->table().footer.legacy_magic, fv == 0);
    for (const auto& probe : Fv2Probes()) {
      bool a = false, b = false;
      ASSERT_TRUE(reference->MayContain(probe, &a).ok());
      ASSERT_TRUE(reader->MayContain(probe, &b).ok());
      ASSERT_EQ(a, b) << "fv " << fv;
    }
  }
}

TEST(TableFormat, UnknownVersionsTablesAndChecksumsAreUnsupported) {
  const Bytes fv2 = Fv2Table();
  std::unique_ptr<TableReader> reference;
  ASSERT_TRUE(OpenTableFromMemory(fv2, {}, &reference).ok());
  const Footer& f = reference->table().footer;
  const uint64_t footer_at = fv2.size() - kFooterSize;
  std::unique_ptr<TableReader> reader;

  Status s = OpenTableFromMemory(WithFooter(fv2, 8, f.metaindex, *f.index), {}, &reader);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(s.offset(), static_cast<int64_t>(footer_at + 41));

  s = OpenTableFromMemory(WithFooter(fv2, 2, f.metaindex, *f.index, /*checksum=*/9), {}, &reader);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);

  s = OpenTableFromMemory(WithFooter(fv2, 2, f.metaindex, *f.index, 1, 0x8242229663bf9564), {},
                          &reader);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << "plain table";

  s = OpenTableFromMemory(WithFooter(fv2, 2, f.metaindex, *f.index, 1, 0x1234), {}, &reader);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), static_cast<int64_t>(fv2.size() - 8));
}

TEST(TableFormat, HostileHandlesAndVarintsFailBeforeAllocating) {
  const Bytes fv2 = Fv2Table();
  std::unique_ptr<TableReader> reference;
  ASSERT_TRUE(OpenTableFromMemory(fv2, {}, &reference).ok());
  const Footer& f = reference->table().footer;
  std::unique_ptr<TableReader> reader;

  // A metaindex past the end of the file, and one of 2^62 bytes.
  Status s = OpenTableFromMemory(WithFooter(fv2, 2, {fv2.size() + 10, 100}, *f.index), {}, &reader);
  EXPECT_EQ(s.code(), ErrorCode::kTruncated);
  s = OpenTableFromMemory(WithFooter(fv2, 2, {f.metaindex.offset, uint64_t{1} << 62}, *f.index), {},
                          &reader);
  EXPECT_EQ(s.code(), ErrorCode::kResourceLimit);
  EXPECT_EQ(s.offset(), static_cast<int64_t>(f.metaindex.offset));
  // A block overlapping the footer.
  s = OpenTableFromMemory(WithFooter(fv2, 2, {fv2.size() - 60, 10}, *f.index), {}, &reader);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);

  // An 11-byte varint where the metaindex handle should be.
  Bytes overflow = fv2;
  std::fill(overflow.end() - kFooterSize + 1, overflow.end() - kFooterSize + 12, uint8_t{0xff});
  s = OpenTableFromMemory(overflow, {}, &reader);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);

  // Too short to be a table.
  s = OpenTableFromMemory(Bytes(fv2.end() - 40, fv2.end()), {}, &reader);
  EXPECT_EQ(s.code(), ErrorCode::kTruncated);

  // A restart count no block could hold.
  BlockLayout layout;
  const Bytes block = {0, 0, 0, 0, 0xff, 0xff, 0xff, 0x0f};
  EXPECT_EQ(ParseBlockLayout(block, BlockFlavor::kLevelDb, &layout).code(), ErrorCode::kCorrupt);
  EXPECT_EQ(ParseBlockLayout(block, BlockFlavor::kRocksDb, &layout).code(), ErrorCode::kCorrupt);
  // RocksDB flags of a newer version.
  const Bytes reserved = {0, 0, 0, 0x40};
  EXPECT_EQ(ParseBlockLayout(reserved, BlockFlavor::kRocksDb, &layout).code(),
            ErrorCode::kUnsupported);
}

TEST(TableFormat, CompressionFramingPerCodecAndFamily) {
  FramingContext rocks;
  rocks.format_version = 5;
  rocks.block_offset = 4096;
  CompressedFrame frame;
  // Snappy: its own varint length preamble.
  ASSERT_TRUE(UnframeCompressedBlock(rocks, 1, Bytes{0x90, 0x03, 0x00}, &frame).ok());
  EXPECT_EQ(frame.codec, Codec::kSnappy);
  EXPECT_EQ(frame.uncompressed_size, 400u);
  EXPECT_EQ(frame.payload_offset, 0u);
  // Zlib, format_version >= 2: varint32 size, then raw deflate.
  ASSERT_TRUE(UnframeCompressedBlock(rocks, 2, Bytes{0x05, 0xaa}, &frame).ok());
  EXPECT_EQ(frame.codec, Codec::kDeflateRaw);
  EXPECT_EQ(frame.uncompressed_size, 5u);
  EXPECT_EQ(frame.payload_offset, 1u);
  // LZ4, format_version 1: an 8-byte header carrying the size.
  FramingContext fv1 = rocks;
  fv1.format_version = 1;
  ASSERT_TRUE(UnframeCompressedBlock(fv1, 4, Bytes{7, 0, 0, 0, 0, 0, 0, 0, 0x70}, &frame).ok());
  EXPECT_EQ(frame.codec, Codec::kLz4Block);
  EXPECT_EQ(frame.uncompressed_size, 7u);
  EXPECT_EQ(frame.payload_offset, 8u);
  ASSERT_TRUE(UnframeCompressedBlock(fv1, 3, Bytes{0x42, 0x5a}, &frame).ok());
  EXPECT_EQ(frame.uncompressed_size, std::nullopt) << "bzip2 before format_version 2";
  // ZSTD: size prefix, then a frame, which may name a dictionary (its 1-byte id is skipped).
  const Bytes zstd = {0x0a, 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x0a, 0x00};
  ASSERT_TRUE(UnframeCompressedBlock(rocks, 7, zstd, &frame).ok());
  EXPECT_EQ(frame.codec, Codec::kZstd);
  const Bytes zstd_dict = {0x0a, 0x28, 0xb5, 0x2f, 0xfd, 0x21, 0x05, 0x0a, 0x00};
  ASSERT_TRUE(UnframeCompressedBlock(rocks, 7, zstd_dict, &frame).ok());
  EXPECT_EQ(frame.uncompressed_size, 10u);
  // BZip2: a size prefix from format_version 2 on, none before.
  ASSERT_TRUE(UnframeCompressedBlock(rocks, 3, Bytes{0x05, 0x42, 0x5a}, &frame).ok());
  EXPECT_EQ(frame.codec, Codec::kBZip2);
  EXPECT_EQ(frame.uncompressed_size, 5u);
  EXPECT_EQ(frame.payload_offset, 1u);
  // XPRESS, custom codecs, unknown bytes.
  Status s;
  for (int type : {6, 0x80, 0x20}) {
    s = UnframeCompressedBlock(rocks, static_cast<uint8_t>(type), Bytes{1, 2, 3}, &frame);
    EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << type;
    EXPECT_EQ(s.offset(), 4096);
  }
  // A size above the limit.
  Bytes huge;
  PutVarint64(&huge, uint64_t{1} << 40);
  EXPECT_EQ(UnframeCompressedBlock(rocks, 2, huge, &frame).code(), ErrorCode::kResourceLimit);
  // Type 2 in a LevelDB table is zstd without a size prefix; the frame header records it.
  FramingContext leveldb;
  leveldb.family = TableFamily::kLevelDb;
  ASSERT_TRUE(UnframeCompressedBlock(leveldb, 2, Bytes(zstd.begin() + 1, zstd.end()), &frame).ok());
  EXPECT_EQ(frame.codec, Codec::kZstd);
  EXPECT_EQ(frame.uncompressed_size, 10u);
  EXPECT_EQ(frame.payload_offset, 0u);
}

// Re-labels the block at `h` with compression type `type` and a matching crc32c.
void Relabel(Bytes& file, BlockHandle h, uint8_t type) {
  file[h.offset + h.size] = type;
  const uint32_t crc =
      ComputeBlockChecksum(ChecksumType::kCrc32c, ByteView(file).subspan(h.offset, h.size + 1));
  for (int i = 0; i < 4; ++i) {
    file[h.offset + h.size + 1 + i] = static_cast<uint8_t>(crc >> (8 * i));
  }
}

TEST(TableFormat, DataBlockCodecErrorsNameTheBlock) {
  // Opening is lazy and succeeds; walking the keys reaches the re-labelled first data block.
  Bytes file = Fv2Table();
  std::unique_ptr<TableReader> reader;
  ASSERT_TRUE(OpenTableFromMemory(file, {}, &reader).ok());
  std::optional<IndexEntry> first;
  ASSERT_TRUE(reader->table().index.Seek({}, &first).ok());
  const BlockHandle h = first->handle;
  // XPRESS (type 6) cannot be read anywhere: unsupported, not corrupt.
  Relabel(file, h, 6);
  ASSERT_TRUE(OpenTableFromMemory(file, {}, &reader).ok());
  TableCursor cursor(*reader);
  const Status s = DriveFromMemory(cursor, file);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(s.offset(), static_cast<int64_t>(h.offset));
  // Uncompressed contents labelled with each codec: the codec's own error gets the block's offset.
  for (int type : {1, 2, 3, 4, 5, 7, 0x40}) {
    Relabel(file, h, static_cast<uint8_t>(type));
    ASSERT_TRUE(OpenTableFromMemory(file, {}, &reader).ok());
    TableCursor failing(*reader);
    const Status f = DriveFromMemory(failing, file);
    EXPECT_EQ(f.code(), ErrorCode::kCorrupt) << type << ": " << f.message();
    EXPECT_EQ(f.offset(), static_cast<int64_t>(h.offset)) << type;
  }
}

TEST(TableFormat, WalkReadsFollowEachOtherAndAnnounceTheNext) {
  // A sequential walk reads each byte once: a block running past the window keeps its head, the
  // next read starts where the last ended, and its length is the one the last read announced.
  const Bytes file = golden::ReadFileBytes(
      golden::Generated().Path("rocksdb-sst/big_dec_n200000_snappy/table.sst"));
  std::unique_ptr<TableReader> reader;
  ASSERT_TRUE(OpenTableFromMemory(file, {}, &reader).ok());
  TableCursor cursor(*reader);
  uint64_t reads = 0;
  uint64_t bytes = 0;
  uint64_t expected_offset = 0;
  uint64_t expected_length = 0;
  size_t keys = 0;
  while (!cursor.at_end()) {
    ASSERT_TRUE(cursor.Advance().ok());
    if (cursor.need() == IoNeed::kNothing) {
      keys += cursor.key_offsets().size() - 1;
      cursor.ClearBatch();
      continue;
    }
    const uint64_t offset = cursor.need_offset();
    const uint64_t length = cursor.need_length();
    if (reads == 0) {
      EXPECT_EQ(offset, 0u) << "the walk starts at the first data block";
    } else {
      EXPECT_EQ(offset, expected_offset) << "read " << reads;
      EXPECT_EQ(length, expected_length) << "read " << reads;
    }
    expected_offset = offset + length;
    expected_length = cursor.need_ahead_length();
    ++reads;
    bytes += length;
    ASSERT_TRUE(cursor.Supply(ByteView(file).subspan(offset, length)).ok());
  }
  EXPECT_EQ(expected_length, 0u) << "the last read announces none after it";
  EXPECT_GT(reads, 3u);
  // Contiguous reads from the first data block on: each byte once, none past the blocks.
  EXPECT_LE(bytes, file.size() - kFooterSize);
  EXPECT_EQ(keys, 200000u);
}

TEST(TableFormat, IngestedFilesMayCarryARewrittenGlobalSeqno) {
  // SstFileWriter files hold rocksdb.external_sst_file.global_seqno; RocksDB may rewrite its 8
  // bytes in place without updating the properties block's checksum (meta_blocks.cc).
  Bytes file = Fv2Table();
  std::unique_ptr<TableReader> reader;
  ASSERT_TRUE(OpenTableFromMemory(file, {}, &reader).ok());
  const OpenedTable& t = reader->table();
  const TableProperty* seqno = t.properties.Find("rocksdb.external_sst_file.global_seqno");
  ASSERT_NE(seqno, nullptr);
  const uint64_t props_at = t.FindMeta("rocksdb.properties")->handle.offset;
  Bytes rewritten = file;
  rewritten[props_at + seqno->value_offset] = 42;
  std::unique_ptr<TableReader> ingested;
  ASSERT_TRUE(OpenTableFromMemory(rewritten, {}, &ingested).ok());
  EXPECT_EQ(ingested->table().properties.Find("rocksdb.external_sst_file.global_seqno")->bytes[0],
            42);
  Bytes corrupt = file;
  corrupt[props_at + 1] ^= 1;
  const Status s = OpenTableFromMemory(corrupt, {}, &ingested);
  EXPECT_EQ(s.code(), ErrorCode::kChecksumMismatch);
  EXPECT_EQ(s.offset(), static_cast<int64_t>(props_at));
}

TEST(TableFormat, ContextChecksumModifier) {
  EXPECT_EQ(ChecksumModifierForContext(0, 12345), 0u);
  EXPECT_EQ(ChecksumModifierForContext(0x1000, (uint64_t{3} << 32) | 5), 0x1000u ^ 8u);
}

}  // namespace
}  // namespace sstfilter
