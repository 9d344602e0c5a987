// What the fuzz targets (tests/fuzz) found: every input one of them failed on is committed under
// tests/fuzz/regressions/<target>/ and replayed here through the same harness, and each fix has a
// test of the behaviour it established, built from golden files where possible.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "../fuzz/blob_file_harness.h"
#include "../fuzz/block_harness.h"
#include "../fuzz/db_get_harness.h"
#include "../fuzz/embedded_blobs_harness.h"
#include "../fuzz/filter_harness.h"
#include "../fuzz/indexeddb_key_harness.h"
#include "../fuzz/leveldb_filter_block_harness.h"
#include "../fuzz/local_storage_harness.h"
#include "../fuzz/log_reader_harness.h"
#include "../fuzz/roundtrip_harness.h"
#include "../fuzz/table_get_harness.h"
#include "../fuzz/table_harness.h"
#include "../fuzz/v8_value_harness.h"
#include "../fuzz/values_harness.h"
#include "../fuzz/version_edit_harness.h"
#include "../fuzz/wal_replay_harness.h"
#include "../fuzz/write_batch_harness.h"
#include "../fuzz/writer_harness.h"
#include "golden.h"
#include "sstfilter/table.h"

namespace sstfilter {
namespace {

namespace fs = std::filesystem;

const fs::path kRegressionDir =
    fs::path(__FILE__).parent_path().parent_path() / "fuzz" / "regressions";

using Harness = void (*)(const uint8_t*, size_t);
const std::map<std::string, Harness> kHarnesses = {
    {"filter", fuzz::FuzzFilter},
    {"leveldb_filter_block", fuzz::FuzzLevelDbFilterBlock},
    {"table", fuzz::FuzzTable},
    {"table_get", fuzz::FuzzTableGet},
    {"block", fuzz::FuzzBlock},
    {"roundtrip", fuzz::FuzzRoundTrip},
    {"values", fuzz::FuzzValues},
    {"writer", fuzz::FuzzTableWriter},
    {"log_reader", fuzz::FuzzLogReader},
    {"version_edit", fuzz::FuzzVersionEdit},
    {"write_batch", fuzz::FuzzWriteBatch},
    {"wal_replay", fuzz::FuzzWalReplay},
    {"db_get", fuzz::FuzzDbGet},
    {"blob_file", fuzz::FuzzBlobFile},
    {"embedded_blobs", fuzz::FuzzEmbeddedBlobs},
    {"indexeddb_key", fuzz::FuzzIndexedDbKey},
    {"v8_value", fuzz::FuzzV8Value},
    {"local_storage", fuzz::FuzzLocalStorage},
};

TEST(FuzzRegressions, EveryCommittedInputPassesItsHarness) {
  ASSERT_TRUE(fs::is_directory(kRegressionDir)) << kRegressionDir;
  size_t replayed = 0;
  for (const fs::directory_entry& dir : fs::directory_iterator(kRegressionDir)) {
    const auto harness = kHarnesses.find(dir.path().filename().string());
    ASSERT_NE(harness, kHarnesses.end()) << "no fuzz target named " << dir.path().filename();
    for (const fs::directory_entry& input : fs::directory_iterator(dir.path())) {
      SCOPED_TRACE(input.path().string());
      const Bytes bytes = golden::ReadFileBytes(input.path());
      harness->second(bytes.data(), bytes.size());  // aborts on a broken invariant
      ++replayed;
    }
  }
  EXPECT_GT(replayed, 0u);
}

// A golden table with the value of one property replaced (same length) and the properties block's
// checksum recomputed, opened from memory.
Status OpenWithProperty(const std::string& table, const std::string& name, const Bytes& value,
                        std::unique_ptr<TableReader>* out, int64_t* value_offset) {
  Bytes file = golden::ReadFileBytes(golden::Generated().Path(table));
  TableReader original(file.size(), TableOptions());
  if (Status s = DriveFromMemory(original, file); !s.ok()) return s;
  const OpenedTable& t = original.table();
  const TableProperty* p = t.properties.Find(name);
  if (p == nullptr || p->bytes.size() != value.size()) {
    return Status::Error(ErrorCode::kBadOptions, "no property " + name + " of that size");
  }
  const BlockHandle block = t.PropertiesEntry()->handle;
  *value_offset = t.PropertyOffset(name);
  std::copy(value.begin(), value.end(), file.begin() + *value_offset);
  const size_t covered = static_cast<size_t>(block.size + 1);  // contents + compression type
  const uint32_t checksum = ComputeBlockChecksum(
      t.file.checksum, ByteView(file).subspan(static_cast<size_t>(block.offset), covered));
  for (int i = 0; i < 4; ++i) {
    file[block.offset + covered + i] = static_cast<uint8_t>(checksum >> (8 * i));
  }
  return OpenTableFromMemory(file, TableOptions(), out);
}

// table_fuzz: an index type this reader does not know was reported without an offset. Errors
// about a property now name where its value lies.
TEST(FuzzRegressions, UnsupportedIndexTypeNamesItsProperty) {
  std::unique_ptr<TableReader> reader;
  int64_t value_offset = -1;
  const Status s = OpenWithProperty("rocksdb-sst/fv5_ribbon9p9_n10/table.sst",
                                    "rocksdb.block.based.table.index.type", {0, 0, 8, 0}, &reader,
                                    &value_offset);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << s.message();
  EXPECT_GT(value_offset, 0);
  EXPECT_EQ(s.offset(), value_offset);
}

// Found by review while fixing the above: probes of a table that cannot be probed (a custom
// prefix extractor) failed without an offset too. A custom comparator no longer stops probes (its
// full filter needs no order): its name is kept, and a comparator of another name is refused at
// the property.
TEST(FuzzRegressions, UnprobeableTablesNameTheProperty) {
  std::unique_ptr<TableReader> reader;
  int64_t value_offset = -1;
  const Bytes comparator = {'l', 'e', 'v', 'e', 'l', 'd', 'b', '.', 'B', 'y', 't', 'e', 'w',
                            'i', 's', 'e', 'C', 'o', 'm', 'p', 'a', 'r', 'a', 't', 'o', 'X'};
  ASSERT_TRUE(OpenWithProperty("rocksdb-sst/fv5_ribbon9p9_n10/table.sst", "rocksdb.comparator",
                               comparator, &reader, &value_offset)
                  .ok());
  EXPECT_EQ(reader->key_order().source, KeyOrderSource::kUnknown);
  EXPECT_EQ(reader->key_order().comparator, std::string(comparator.begin(), comparator.end()));
  bool may_match = false;
  Status s = reader->MayContain(ByteView(), &may_match);
  EXPECT_TRUE(s.ok()) << s.message();

  const std::string custom = "rocksdb.FixedPrefix.X";  // same length as rocksdb.FixedPrefix.3
  ASSERT_TRUE(OpenWithProperty("rocksdb-sst/prefix_fixed3_wkf0/table.sst",
                               "rocksdb.prefix.extractor.name", Bytes(custom.begin(), custom.end()),
                               &reader, &value_offset)
                  .ok());
  s = reader->MayContain(ByteView(), &may_match);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(s.offset(), value_offset);
  s = reader->PrefixMayMatch(ByteView(), &may_match);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
  EXPECT_EQ(s.offset(), value_offset);
  EXPECT_TRUE(may_match);
}

// table_fuzz (twice): a block handle past the end of the file gave its own offset as the error's,
// outside the file, for a block too large as well as for one that does not fit; one of 2^63 or
// more came out negative (and JavaScript turned it into "no offset"). Now such errors name where
// the file ends, and the message says where the block would have been.
TEST(FuzzRegressions, BlockPastTheEndOfTheFileNamesTheEnd) {
  for (const uint64_t size : {uint64_t{10}, uint64_t{1} << 60}) {
    for (const uint64_t offset : {uint64_t{5000}, uint64_t{1} << 63, ~uint64_t{0} - 100}) {
      // A LevelDB footer alone: metaindex handle, an empty index handle, padding, magic.
      Bytes file;
      PutVarint64(&file, offset);
      PutVarint64(&file, size);
      PutVarint64(&file, 0);
      PutVarint64(&file, 0);
      file.resize(40, 0);
      PutFixed64(&file, kLegacyTableMagic);
      TableReader reader(file.size(), TableOptions());
      const Status s = DriveFromMemory(reader, file);
      EXPECT_EQ(s.code(),
                size > kMaxBlockBytes ? ErrorCode::kResourceLimit : ErrorCode::kTruncated);
      EXPECT_EQ(s.offset(), static_cast<int64_t>(file.size())) << offset;
      EXPECT_NE(s.message().find(std::to_string(offset)), std::string::npos) << s.message();
    }
  }
}

}  // namespace
}  // namespace sstfilter
