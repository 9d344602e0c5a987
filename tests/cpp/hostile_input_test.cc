// Bounded resources on hostile tables (found by review while fuzzing, issue 8): structures whose
// stored size is small but whose decoded form is not. Prefix compression lets n bytes of block
// entries rebuild O(n^2) bytes of keys; a partition index can name one block many times; a zstd
// frame can claim another size than its block. Each is built here from scratch, block by block.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sstfilter/filter.h"
#include "sstfilter/table.h"
#include "table/block.h"
#include "table/block_checksum.h"
#include "table/compression.h"
#include "table/footer.h"
#include "table/table_reader.h"

namespace sstfilter {
namespace {

// One block entry: shared prefix length, the key bytes after it, the value.
void PutEntry(Bytes* block, uint32_t shared, std::string_view delta, std::string_view value) {
  PutVarint64(block, shared);
  PutVarint64(block, delta.size());
  PutVarint64(block, value.size());
  block->insert(block->end(), delta.begin(), delta.end());
  block->insert(block->end(), value.begin(), value.end());
}

// Entries followed by a restart array with one restart point, at 0 (none for no entries).
Bytes FinishBlock(Bytes entries) {
  const bool empty = entries.empty();
  if (!empty) PutFixed32(&entries, 0);
  PutFixed32(&entries, empty ? 0 : 1);
  return entries;
}

std::string HandleValue(BlockHandle h) {
  Bytes v;
  PutVarint64(&v, h.offset);
  PutVarint64(&v, h.size);
  return std::string(v.begin(), v.end());
}

// A table file written block by block: uncompressed blocks with CRC32C trailers, then a LevelDB
// footer or a RocksDB format_version 2 footer.
class TableWriter {
 public:
  // `type`: the compression-type byte (the contents are stored as given).
  BlockHandle Add(const Bytes& contents, uint8_t type = 0) {
    const BlockHandle h{bytes_.size(), contents.size()};
    bytes_.insert(bytes_.end(), contents.begin(), contents.end());
    bytes_.push_back(type);
    const uint32_t crc = ComputeBlockChecksum(
        ChecksumType::kCrc32c, ByteView(bytes_).subspan(static_cast<size_t>(h.offset)));
    PutFixed32(&bytes_, crc);
    return h;
  }

  Bytes Finish(bool rocksdb, BlockHandle metaindex, BlockHandle index) {
    Bytes footer;
    if (rocksdb) footer.push_back(static_cast<uint8_t>(ChecksumType::kCrc32c));
    const std::string handles = HandleValue(metaindex) + HandleValue(index);
    footer.insert(footer.end(), handles.begin(), handles.end());
    footer.resize(rocksdb ? 41 : 40, 0);
    if (rocksdb) PutFixed32(&footer, 2);
    PutFixed64(&footer, rocksdb ? kBlockBasedTableMagic : kLegacyTableMagic);
    Bytes out = bytes_;
    out.insert(out.end(), footer.begin(), footer.end());
    return out;
  }

 private:
  Bytes bytes_;
};

// Entries sharing all of a first key of `key_bytes` bytes: `count` entries of 4 bytes each that
// rebuild key_bytes each.
Bytes QuadraticEntries(size_t key_bytes, size_t count) {
  Bytes entries;
  PutEntry(&entries, 0, std::string(key_bytes, 'k'), "");
  for (size_t i = 0; i < count; ++i) PutEntry(&entries, static_cast<uint32_t>(key_bytes), "", "");
  return entries;
}

// 70,000 entries of 4,096 rebuilt bytes each: 287 MB of keys from a 285 kB block.
constexpr size_t kQuadraticKeyBytes = 4096;
constexpr size_t kQuadraticCount = 70000;

TEST(HostileInput, KeyExpansionOfADataBlockIsBounded) {
  TableWriter w;
  const BlockHandle data =
      w.Add(FinishBlock(QuadraticEntries(kQuadraticKeyBytes, kQuadraticCount)));
  const BlockHandle metaindex = w.Add(FinishBlock({}));
  Bytes index;
  PutEntry(&index, 0, "z", HandleValue(data));
  const Bytes file = w.Finish(false, metaindex, w.Add(FinishBlock(index)));

  TableOptions bare;
  bare.internal_keys = false;
  std::unique_ptr<TableReader> reader;
  ASSERT_TRUE(OpenTableFromMemory(file, bare, &reader).ok());
  TableCursor cursor(*reader);
  const Status s = DriveFromMemory(cursor, file);
  EXPECT_EQ(s.code(), ErrorCode::kResourceLimit) << s.message();
  EXPECT_GT(s.offset(), static_cast<int64_t>(data.offset));
  EXPECT_LT(s.offset(), static_cast<int64_t>(data.offset + data.size));
  // A block that failed yields no keys.
  EXPECT_EQ(cursor.key_offsets().size(), 1u);
}

TEST(HostileInput, KeyExpansionOfPropertiesAndMetaindexIsBounded) {
  // Properties: every entry a property named by the same 4 KiB.
  {
    TableWriter w;
    const BlockHandle props =
        w.Add(FinishBlock(QuadraticEntries(kQuadraticKeyBytes, kQuadraticCount)));
    Bytes meta;
    PutEntry(&meta, 0, "rocksdb.properties", HandleValue(props));
    const BlockHandle metaindex = w.Add(FinishBlock(meta));
    const Bytes file = w.Finish(true, metaindex, w.Add(FinishBlock({})));
    std::unique_ptr<TableReader> reader;
    const Status s = OpenTableFromMemory(file, TableOptions(), &reader);
    EXPECT_EQ(s.code(), ErrorCode::kResourceLimit) << s.message();
    EXPECT_GT(s.offset(), static_cast<int64_t>(props.offset));
    EXPECT_LT(s.offset(), static_cast<int64_t>(props.offset + props.size));
  }
  // Metaindex: every entry a block named by the same 4 KiB.
  {
    TableWriter w;
    const BlockHandle index = w.Add(FinishBlock({}));
    Bytes meta;
    PutEntry(&meta, 0, std::string(kQuadraticKeyBytes, 'm'), HandleValue(index));
    for (size_t i = 0; i < kQuadraticCount; ++i) {
      PutEntry(&meta, static_cast<uint32_t>(kQuadraticKeyBytes), "", HandleValue(index));
    }
    const BlockHandle metaindex = w.Add(FinishBlock(meta));
    const Bytes file = w.Finish(false, metaindex, index);
    std::unique_ptr<TableReader> reader;
    const Status s = OpenTableFromMemory(file, TableOptions(), &reader);
    EXPECT_EQ(s.code(), ErrorCode::kResourceLimit) << s.message();
    EXPECT_GT(s.offset(), static_cast<int64_t>(metaindex.offset));
    EXPECT_LT(s.offset(), static_cast<int64_t>(metaindex.offset + metaindex.size));
  }
}

TEST(HostileInput, FilterPartitionsNamingOneBlockAgainAndAgainAreCorrupt) {
  const std::string key = "k";
  const uint32_t offsets[] = {0, 1};
  Bytes filter;
  ASSERT_TRUE(BuildFilter(KeyBatchView(reinterpret_cast<const uint8_t*>(key.data()), 1, offsets, 1),
                          BuildOptions(), &filter)
                  .ok());
  // Partitions of an honest file are distinct blocks. The first file names the filter once per
  // partition (ok); the second names it more often than the file could hold distinct blocks.
  for (const bool hostile : {false, true}) {
    TableWriter w;
    const BlockHandle partition = w.Add(filter);
    const size_t count = hostile ? 10000 : 1;
    Bytes partition_index;
    const std::string separator = key + std::string(kInternalKeyTagSize, '\0');
    for (size_t i = 0; i < count; ++i)
      PutEntry(&partition_index, 0, separator, HandleValue(partition));
    const BlockHandle partitions = w.Add(FinishBlock(partition_index));
    const BlockHandle props = w.Add(FinishBlock({}));
    Bytes meta;
    PutEntry(&meta, 0, "partitionedfilter.rocksdb.BuiltinBloomFilter", HandleValue(partitions));
    PutEntry(&meta, 0, "rocksdb.properties", HandleValue(props));
    const BlockHandle metaindex = w.Add(FinishBlock(meta));
    const Bytes file = w.Finish(true, metaindex, w.Add(FinishBlock({})));
    std::unique_ptr<TableReader> reader;
    const Status s = OpenTableFromMemory(file, TableOptions(), &reader);
    if (!hostile) {
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(reader->table().filter.partitions_count(), 1u);
      bool may_match = false;
      ASSERT_TRUE(
          reader->MayContain(ByteView(reinterpret_cast<const uint8_t*>(key.data()), 1), &may_match)
              .ok());
      EXPECT_TRUE(may_match);
      continue;
    }
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << s.message();
    EXPECT_EQ(s.offset(), static_cast<int64_t>(partitions.offset));
  }
}

// Found by the corruption sweep (tests/ts/corruption.test.ts): the properties block is read
// without the usual verification (its checksum may be stale in ingested files), and a damaged
// compression-type byte sent it to the decompressor before its checksum was checked.
TEST(HostileInput, PropertiesTrailerIsCheckedBeforeItsTypeIsActedOn) {
  for (const bool damaged : {true, false}) {
    TableWriter w;
    Bytes props;
    PutEntry(&props, 0, "rocksdb.comparator", "leveldb.BytewiseComparator");
    // Snappy-typed contents with a valid checksum unless damaged: the type byte is flipped after
    // the checksum was computed.
    const BlockHandle handle = w.Add(FinishBlock(props), damaged ? 0 : 1);
    Bytes meta;
    PutEntry(&meta, 0, "rocksdb.properties", HandleValue(handle));
    const BlockHandle metaindex = w.Add(FinishBlock(meta));
    Bytes file = w.Finish(true, metaindex, w.Add(FinishBlock({})));
    if (damaged) file[handle.offset + handle.size] ^= 1;
    std::unique_ptr<TableReader> reader;
    const Status s = OpenTableFromMemory(file, TableOptions(), &reader);
    EXPECT_EQ(s.code(), damaged ? ErrorCode::kChecksumMismatch : ErrorCode::kCorrupt)
        << s.message();
    EXPECT_EQ(s.offset(), static_cast<int64_t>(handle.offset));
  }
}

TEST(HostileInput, ZstdFrameSizeMustAgreeWithTheBlockPrefix) {
  FramingContext rocks;
  rocks.format_version = 5;
  rocks.block_offset = 4096;
  CompressedFrame frame;
  // Prefix 10, then a single-segment frame recording 10 bytes (1-byte content size field).
  Bytes zstd = {0x0a, 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x0a, 0x00};
  ASSERT_TRUE(UnframeCompressedBlock(rocks, 7, zstd, &frame).ok());
  EXPECT_EQ(frame.uncompressed_size, 10u);
  // The same frame claiming 4 GiB (8-byte content size field): a decompressor sized by the frame
  // would allocate that much for a 17-byte block.
  zstd = {0x0a, 0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 1, 0, 0, 0, 0x00};
  Status s = UnframeCompressedBlock(rocks, 7, zstd, &frame);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << s.message();
  EXPECT_EQ(s.offset(), 4096);
  // LevelDB's bare frame must record its size: the decompressor writes into a buffer of it.
  FramingContext leveldb = rocks;
  leveldb.family = TableFamily::kLevelDb;
  const Bytes unsized = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58, 0x01, 0x00, 0x00};
  s = UnframeCompressedBlock(leveldb, 2, unsized, &frame);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << s.message();
  EXPECT_EQ(s.offset(), 4096);
}

}  // namespace
}  // namespace sstfilter
