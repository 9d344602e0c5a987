// Blob files (sstfilter/db.h CheckBlobFile, docs/FORMATS.md 6.7), built by
// tests/fuzz/blob_builder.h after rocksdb db/blob/blob_log_format.cc: a sound file reads back with
// its counts; a flipped bit in any record or in the footer, every truncation, a record that
// overruns the footer and a footer that miscounts are typed errors at the right offset. The real
// files RocksDB 7.8.3 writes are checked in tests/ts/db-verify.test.ts. ReadBlobValue reads one
// blob back as a Get does (the values of RocksDB's own blob files: tests/ts/db-get-values.test.ts).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../fuzz/blob_builder.h"
#include "sstfilter/db.h"
#include "table/codecs/codecs.h"

namespace sstfilter {
namespace {

using fuzz::BlobFileBuilder;

struct Blob {
  std::string key;
  std::string value;
};

ByteView View(const std::string& s) {
  return ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// Column family 3, Snappy; the blobs; a footer counting `footer_count` (default: them).
Bytes BlobFile(const std::vector<Blob>& blobs, int64_t footer_count = -1) {
  BlobFileBuilder b(3, 1);
  for (const Blob& blob : blobs) b.Add(View(blob.key), View(blob.value));
  return b.Finish(footer_count);
}

const std::vector<Blob> kBlobs = {{"key1", "a value"}, {"key22", std::string(300, 'v')}, {"", ""}};
// Record offsets: after the 30-byte header, each 32 bytes of header plus key and value.
constexpr size_t kRecord0 = 30, kRecord1 = kRecord0 + 32 + 4 + 7,
                 kRecord2 = kRecord1 + 32 + 5 + 300;
constexpr size_t kFooter = kRecord2 + 32;

TEST(BlobFileTest, SoundFileReadsBack) {
  const Bytes file = BlobFile(kBlobs);
  ASSERT_EQ(file.size(), kFooter + 32);
  BlobFileCheck check;
  ASSERT_TRUE(CheckBlobFile(file, &check).ok());
  EXPECT_EQ(check.column_family_id, 3u);
  EXPECT_EQ(check.compression, 1);
  EXPECT_FALSE(check.has_ttl);
  EXPECT_EQ(check.blob_count, 3u);
  EXPECT_EQ(check.blob_bytes, kFooter - kRecord0);
  // No blobs at all: header and footer only.
  ASSERT_TRUE(CheckBlobFile(BlobFile({}), &check).ok());
  EXPECT_EQ(check.blob_count, 0u);
}

// The record (or the footer) holding byte `at`: where a flip there is reported.
size_t PartAt(size_t at) {
  if (at >= kFooter) return kFooter;
  if (at >= kRecord2) return kRecord2;
  return at >= kRecord1 ? kRecord1 : kRecord0;
}

TEST(BlobFileTest, EveryFlippedBitInRecordsAndFooterIsReportedThere) {
  const Bytes sound = BlobFile(kBlobs);
  for (size_t at = kRecord0; at < sound.size(); at++) {
    for (int bit = 0; bit < 8; bit++) {
      Bytes file = sound;
      file[at] ^= static_cast<uint8_t>(1 << bit);
      BlobFileCheck check;
      const Status s = CheckBlobFile(file, &check);
      ASSERT_FALSE(s.ok()) << "byte " << at << " bit " << bit;
      // A flip in the footer's magic is "no footer"; any other flip fails a CRC.
      const bool magic = at < kFooter + 4 && at >= kFooter;
      EXPECT_EQ(s.code(), magic ? ErrorCode::kCorrupt : ErrorCode::kChecksumMismatch)
          << "byte " << at << " bit " << bit << ": " << s.message();
      EXPECT_EQ(s.offset(), static_cast<int64_t>(PartAt(at))) << "byte " << at << " bit " << bit;
    }
  }
}

TEST(BlobFileTest, HeaderMagicAndVersion) {
  Bytes file = BlobFile(kBlobs);
  file[0] ^= 1;
  BlobFileCheck check;
  Status s = CheckBlobFile(file, &check);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), 0);
  file = BlobFile(kBlobs);
  file[4] = 2;
  s = CheckBlobFile(file, &check);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), 4);
}

TEST(BlobFileTest, EveryTruncationIsAnError) {
  const Bytes sound = BlobFile(kBlobs);
  for (size_t size = 0; size < sound.size(); size++) {
    BlobFileCheck check;
    const Status s = CheckBlobFile(ByteView(sound.data(), size), &check);
    ASSERT_FALSE(s.ok()) << size;
    if (size < 62) {
      EXPECT_EQ(s.code(), ErrorCode::kTruncated) << size;
    }
    EXPECT_LE(s.offset(), static_cast<int64_t>(size)) << size;
  }
}

TEST(BlobFileTest, RecordOverrunningTheFooterAndMiscountingFooter) {
  // A record header (with a good CRC) announcing more than lies before the footer.
  BlobFileBuilder overrun;
  overrun.Record(1, uint64_t{1} << 62, ByteView());
  BlobFileCheck check;
  Status s = CheckBlobFile(overrun.Finish(1), &check);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), 30);
  // Fewer than 32 bytes between the last record and the footer.
  BlobFileBuilder gap;
  gap.Raw(Bytes(5, 0));
  s = CheckBlobFile(gap.Finish(), &check);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), 30);
  // A footer counting one blob more than the file holds.
  s = CheckBlobFile(BlobFile(kBlobs, 4), &check);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), static_cast<int64_t>(kFooter));
}

// ReadBlobValue's arguments for blob `i` of kBlobs in BlobFile(kBlobs) (column family 3, Snappy).
struct BlobRead {
  ByteView header;
  ByteView record;
  BlobPointer pointer;
};
BlobRead ReadOf(const Bytes& file, size_t record_offset, const Blob& blob, uint8_t compression) {
  const size_t record_size = 32 + blob.key.size() + blob.value.size();
  BlobPointer pointer{record_offset + 32 + blob.key.size(), blob.value.size(), compression};
  return {ByteView(file).first(30), ByteView(file).subspan(record_offset, record_size), pointer};
}

TEST(BlobFileTest, ReadBlobValueReadsEachBlobAndRefusesWhatGetBlobRefuses) {
  BlobFileBuilder plain(0, 0);
  for (const Blob& blob : kBlobs) plain.Add(View(blob.key), View(blob.value));
  const Bytes file = plain.Finish();
  const size_t offsets[] = {kRecord0, kRecord1, kRecord2};
  for (size_t i = 0; i < kBlobs.size(); ++i) {
    const BlobRead r = ReadOf(file, offsets[i], kBlobs[i], 0);
    Bytes value;
    ASSERT_TRUE(
        ReadBlobValue(r.header, file.size(), r.record, View(kBlobs[i].key), r.pointer, &value).ok())
        << i;
    EXPECT_EQ(std::string(value.begin(), value.end()), kBlobs[i].value) << i;
  }
  const BlobRead r = ReadOf(file, kRecord1, kBlobs[1], 0);
  Bytes value;
  // Another key of the same size, another codec than the file's, an offset inside the header or
  // past the footer, a record read short.
  Status s = ReadBlobValue(r.header, file.size(), r.record, View("key23"), r.pointer, &value);
  EXPECT_EQ(std::make_pair(s.code(), s.offset()),
            std::make_pair(ErrorCode::kCorrupt, int64_t{kRecord1}));
  BlobPointer other = r.pointer;
  other.compression = 1;
  s = ReadBlobValue(r.header, file.size(), r.record, View(kBlobs[1].key), other, &value);
  EXPECT_EQ(std::make_pair(s.code(), s.offset()), std::make_pair(ErrorCode::kCorrupt, int64_t{13}));
  // A key of another column family than the file's (BlobFileReader: "Column family ID mismatch").
  BlobPointer family = r.pointer;
  family.column_family = 1;
  s = ReadBlobValue(r.header, file.size(), r.record, View(kBlobs[1].key), family, &value);
  EXPECT_EQ(std::make_pair(s.code(), s.offset()), std::make_pair(ErrorCode::kCorrupt, int64_t{8}));
  for (const uint64_t at : {uint64_t{40}, uint64_t{file.size()}, uint64_t{1} << 63}) {
    BlobPointer bad = r.pointer;
    bad.value_offset = at;
    s = ReadBlobValue(r.header, file.size(), r.record, View(kBlobs[1].key), bad, &value);
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << at << ": " << s.message();
  }
  s = ReadBlobValue(r.header, file.size(), r.record.first(40), View(kBlobs[1].key), r.pointer,
                    &value);
  EXPECT_EQ(s.code(), ErrorCode::kTruncated);
  // A flipped bit in the blob, then in the record header: the CRCs.
  for (const size_t at : {kRecord1 + 32 + 5 + 10, kRecord1 + 3}) {
    Bytes flipped = file;
    flipped[at] ^= 0x10;
    const BlobRead f = ReadOf(flipped, kRecord1, kBlobs[1], 0);
    s = ReadBlobValue(f.header, file.size(), f.record, View(kBlobs[1].key), f.pointer, &value);
    EXPECT_EQ(std::make_pair(s.code(), s.offset()),
              std::make_pair(ErrorCode::kChecksumMismatch, int64_t{kRecord1}))
        << at;
  }
}

TEST(BlobFileTest, ReadBlobValueDecompressesSnappyBlobs) {
  const std::string text(1000, 'x');
  Bytes compressed;
  SnappyCompress(View(text), &compressed);  // Snappy blobs carry no size prefix
  BlobFileBuilder b(0, 1);
  b.Add(View("k"), compressed);
  const Bytes file = b.Finish();
  const std::string stored(compressed.begin(), compressed.end());
  const BlobRead r = ReadOf(file, kRecord0, Blob{"k", stored}, 1);
  Bytes value;
  ASSERT_TRUE(ReadBlobValue(r.header, file.size(), r.record, View("k"), r.pointer, &value).ok());
  EXPECT_EQ(std::string(value.begin(), value.end()), text);
}

}  // namespace
}  // namespace sstfilter
