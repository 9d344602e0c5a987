// Writing logs and MANIFESTs (sstfilter/db.h LogWriter, EncodeVersionEdit, BuildManifest): what
// is written reads back through LogReader, DecodeVersionEdit and ReadManifest field for field;
// the framing equals the tests' own log builder (after leveldb/rocksdb db/log_writer.cc); misuse
// is a typed error. RocksDB and rocksdb-native opening such a MANIFEST is
// tests/ts/table-writer-readback.test.ts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../fuzz/log_builder.h"
#include "sstfilter/db.h"

namespace sstfilter {
namespace {

Bytes InternalKey(const std::string& user_key, uint64_t seq, uint8_t type) {
  Bytes key(user_key.begin(), user_key.end());
  PutFixed64(&key, (seq << 8) | type);
  return key;
}

std::vector<Bytes> ReadRecords(ByteView log, DbFormat format) {
  LogReader reader(log, format);
  std::vector<Bytes> out;
  LogRecord r;
  while (reader.Next(&r)) out.push_back(r.payload);
  EXPECT_TRUE(reader.status().ok()) << reader.status().message();
  EXPECT_EQ(reader.end().kind, LogEnd::Kind::kClean);
  return out;
}

TEST(LogWriter, FramesAsTheLibrariesDoAcrossBlocks) {
  // Empty records, records spanning blocks, and one leaving exactly a header's room and less.
  const std::vector<std::string> payloads = {"",
                                             "a",
                                             std::string(kLogBlockSize * 2 + 5, 'x'),
                                             std::string(kLogBlockSize - 30, 'y'),
                                             std::string(kLogBlockSize - 7 - 3, 'z'),
                                             "tail",
                                             std::string(kLogBlockSize - 7 * 2 - 4, 'w'),
                                             "after a zero-length FIRST"};
  LogWriter writer;
  fuzz::LogBuilder builder;
  Bytes written;
  for (const std::string& p : payloads) {
    writer.AddRecord(BytesOf(p));
    builder.Add(BytesOf(p));
    const Bytes chunk = writer.TakeOutput();  // taken in pieces: the block position carries on
    written.insert(written.end(), chunk.begin(), chunk.end());
  }
  EXPECT_EQ(written, builder.bytes());
  for (DbFormat format : {DbFormat::kRocksDb, DbFormat::kLevelDb}) {
    const std::vector<Bytes> read = ReadRecords(written, format);
    ASSERT_EQ(read.size(), payloads.size());
    for (size_t i = 0; i < read.size(); ++i)
      EXPECT_EQ(read[i], Bytes(BytesOf(payloads[i]).begin(), BytesOf(payloads[i]).end())) << i;
  }
}

TEST(VersionEdit, EncodesWhatItDecodesBack) {
  VersionEdit edit;
  edit.db_id = "b3f0c9a2-db";
  edit.comparator = "leveldb.BytewiseComparator";
  edit.log_number = 9;
  edit.prev_log_number = 0;
  edit.next_file_number = 12;
  edit.last_sequence = 4242;
  edit.max_column_family = 1;
  edit.min_log_number_to_keep = 8;
  edit.deleted_files.push_back({1, 5});
  VersionEdit::NewFile f;
  f.level = 6;
  f.meta.number = 11;
  f.meta.path_id = 2;
  f.meta.size = 123456;
  f.meta.smallest = InternalKey("apple", 7, 1);
  f.meta.largest = InternalKey("zebra", 4000, 0);
  f.meta.smallest_seqno = 7;
  f.meta.largest_seqno = 4000;
  f.meta.marked_for_compaction = true;
  f.meta.oldest_ancester_time = 1700000000;
  f.meta.file_creation_time = 1700000123;
  f.meta.file_checksum = {1, 2, 3, 4};
  f.meta.file_checksum_func_name = "FileChecksumCrc32c";
  f.meta.epoch_number = 3;
  f.meta.tail_size = 999;
  edit.new_files.push_back(f);
  edit.column_family = 1;
  Bytes record;
  ASSERT_TRUE(EncodeVersionEdit(edit, DbFormat::kRocksDb, &record).ok());
  VersionEdit back;
  const Status s = DecodeVersionEdit(record, DbFormat::kRocksDb, &back);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(back.db_id, edit.db_id);
  EXPECT_EQ(back.comparator, edit.comparator);
  EXPECT_EQ(back.log_number, edit.log_number);
  EXPECT_EQ(back.prev_log_number, edit.prev_log_number);
  EXPECT_EQ(back.next_file_number, edit.next_file_number);
  EXPECT_EQ(back.last_sequence, edit.last_sequence);
  EXPECT_EQ(back.max_column_family, edit.max_column_family);
  EXPECT_EQ(back.min_log_number_to_keep, edit.min_log_number_to_keep);
  EXPECT_EQ(back.column_family, 1u);
  ASSERT_EQ(back.deleted_files.size(), 1u);
  EXPECT_EQ(back.deleted_files[0].level, 1);
  EXPECT_EQ(back.deleted_files[0].number, 5u);
  ASSERT_EQ(back.new_files.size(), 1u);
  const TableFileMeta& m = back.new_files[0].meta;
  EXPECT_EQ(back.new_files[0].level, 6);
  EXPECT_EQ(m.number, 11u);
  EXPECT_EQ(m.path_id, 2u);
  EXPECT_EQ(m.size, 123456u);
  EXPECT_EQ(m.smallest, f.meta.smallest);
  EXPECT_EQ(m.largest, f.meta.largest);
  EXPECT_TRUE(m.has_seqnos);
  EXPECT_EQ(m.smallest_seqno, 7u);
  EXPECT_EQ(m.largest_seqno, 4000u);
  EXPECT_TRUE(m.marked_for_compaction);
  EXPECT_EQ(m.oldest_ancester_time, f.meta.oldest_ancester_time);
  EXPECT_EQ(m.file_creation_time, f.meta.file_creation_time);
  EXPECT_EQ(m.file_checksum, f.meta.file_checksum);
  EXPECT_EQ(m.file_checksum_func_name, f.meta.file_checksum_func_name);
  EXPECT_EQ(m.epoch_number, 3u);
  EXPECT_EQ(m.tail_size, 999u);

  // LevelDB: kNewFile without sequence numbers; what LevelDB cannot hold is refused.
  VersionEdit leveldb;
  leveldb.comparator = "leveldb.BytewiseComparator";
  leveldb.next_file_number = 3;
  leveldb.last_sequence = 10;
  leveldb.compact_cursors.push_back({2, InternalKey("m", 3, 1)});
  VersionEdit::NewFile lf;
  lf.level = 6;
  lf.meta.number = 2;
  lf.meta.size = 100;
  lf.meta.smallest = InternalKey("a", 1, 1);
  lf.meta.largest = InternalKey("b", 2, 1);
  leveldb.new_files.push_back(lf);
  ASSERT_TRUE(EncodeVersionEdit(leveldb, DbFormat::kLevelDb, &record).ok());
  ASSERT_TRUE(DecodeVersionEdit(record, DbFormat::kLevelDb, &back).ok());
  ASSERT_EQ(back.new_files.size(), 1u);
  EXPECT_FALSE(back.new_files[0].meta.has_seqnos);
  EXPECT_EQ(back.new_files[0].meta.largest, lf.meta.largest);
  ASSERT_EQ(back.compact_cursors.size(), 1u);
  EXPECT_EQ(back.compact_cursors[0].key, leveldb.compact_cursors[0].key);
  leveldb.column_family = 1;
  EXPECT_EQ(EncodeVersionEdit(leveldb, DbFormat::kLevelDb, &record).code(), ErrorCode::kBadOptions);
}

TEST(VersionEdit, RefusesWhatItDoesNotWrite) {
  Bytes record;
  VersionEdit wal;
  wal.wal_additions.push_back({5, std::nullopt});
  EXPECT_EQ(EncodeVersionEdit(wal, DbFormat::kRocksDb, &record).code(), ErrorCode::kUnsupported);
  VersionEdit unique_id;
  VersionEdit::NewFile f;
  f.meta.smallest = InternalKey("a", 0, 1);
  f.meta.largest = InternalKey("b", 0, 1);
  f.meta.unique_id = std::array<uint64_t, 2>{1, 2};
  unique_id.new_files.push_back(f);
  EXPECT_EQ(EncodeVersionEdit(unique_id, DbFormat::kRocksDb, &record).code(),
            ErrorCode::kUnsupported);
  VersionEdit user_keys;
  f.meta.unique_id.reset();
  f.meta.smallest = {'a'};
  user_keys.new_files.push_back(f);
  EXPECT_EQ(EncodeVersionEdit(user_keys, DbFormat::kRocksDb, &record).code(),
            ErrorCode::kBadOptions);
  VersionEdit deep;
  f.meta.smallest = InternalKey("a", 0, 1);
  f.level = 7;
  deep.new_files.push_back(f);
  EXPECT_EQ(EncodeVersionEdit(deep, DbFormat::kLevelDb, &record).code(), ErrorCode::kBadOptions);
}

TEST(Manifest, BuildsADatabaseOfItsFilesThatReadsBack) {
  for (DbFormat format : {DbFormat::kRocksDb, DbFormat::kLevelDb}) {
    SCOPED_TRACE(DbFormatName(format));
    std::vector<VersionEdit::NewFile> files(2);
    files[0].level = 6;
    files[0].meta.number = 7;
    files[0].meta.size = 4096;
    files[0].meta.smallest = InternalKey("k000", 0, 1);
    files[0].meta.largest = InternalKey("k499", 0, 1);
    files[1].level = 5;
    files[1].meta.number = 9;
    files[1].meta.size = 2048;
    files[1].meta.smallest = InternalKey("a", 20, 1);
    files[1].meta.largest = InternalKey("b", 30, 1);
    files[1].meta.smallest_seqno = 20;
    files[1].meta.largest_seqno = 30;
    Bytes manifest;
    ASSERT_TRUE(BuildManifest(format, "leveldb.BytewiseComparator", files, 30, &manifest).ok());
    ManifestState state;
    const Status s = ReadManifest(manifest, format, &state);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(state.next_file_number, 10u);
    EXPECT_EQ(state.last_sequence, 30u);
    EXPECT_EQ(state.edit_count, 1u);
    const ColumnFamilyState* cf = state.ColumnFamily(0);
    ASSERT_NE(cf, nullptr);
    EXPECT_EQ(cf->comparator, "leveldb.BytewiseComparator");
    ASSERT_GE(cf->files.size(), 7u);
    ASSERT_EQ(cf->files[6].size(), 1u);
    EXPECT_EQ(cf->files[6][0].number, 7u);
    EXPECT_EQ(cf->files[6][0].size, 4096u);
    EXPECT_EQ(cf->files[6][0].largest, files[0].meta.largest);
    ASSERT_EQ(cf->files[5].size(), 1u);
    EXPECT_EQ(cf->files[5][0].number, 9u);
    if (format == DbFormat::kRocksDb) {
      EXPECT_EQ(cf->files[5][0].largest_seqno, 30u);
    }
  }
}

}  // namespace
}  // namespace sstfilter
