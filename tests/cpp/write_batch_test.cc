// Write batches and write-ahead logs (sstfilter/db.h, docs/FORMATS.md 6.4): every WAL of the
// corpus's db_wal section (RocksDB 7.8.3 and LevelDB 1.23, tests/corpus/README.md) read back to
// the batches the library itself reads from it; those WALs cut short and bit-flipped; and batches
// built here after rocksdb db/write_batch.cc for the tags the libraries were not made to write.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../fuzz/log_builder.h"
#include "golden.h"
#include "log_chunks.h"
#include "sstfilter/db.h"

namespace sstfilter {
namespace {

struct WalCase {
  std::string id;
  DbFormat format;
  uint64_t number;
  Bytes file;
  std::vector<nlohmann::json> batches;  // the library's, of this log
};

std::vector<WalCase> Cases() {
  std::vector<WalCase> out;
  for (const auto& [corpus, manifest] : golden::Sections("db_wal")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      const DbFormat format = c.at("format") == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb;
      for (const nlohmann::json& wal : c.at("wal")) {
        WalCase w{c.at("id").get<std::string>() + "/" + wal.at("name").get<std::string>(),
                  format,
                  wal.at("number").get<uint64_t>(),
                  corpus->ReadBytes(c.at("copied").at(wal.at("name").get<std::string>())),
                  {}};
        for (const nlohmann::json& b : c.at("batches")) {
          if (b.at("log") == wal.at("number")) w.batches.push_back(b);
        }
        out.push_back(std::move(w));
      }
    }
  }
  if (out.empty()) throw std::runtime_error("no db_wal cases in any corpus");
  return out;
}

std::string Hex(ByteView bytes) { return golden::HexEncode(bytes); }

// RocksDB's handler is told "begin prepare" for both WriteCommitted's and WritePrepared's tag.
std::string HandlerName(WalMarkerKind kind) {
  return kind == WalMarkerKind::kBeginPersistedPrepare ? "begin-prepare" : WalMarkerKindName(kind);
}

void ExpectBatch(const WriteBatch& got, const nlohmann::json& want, const std::string& where) {
  EXPECT_EQ(got.sequence, want.at("sequence").get<uint64_t>()) << where;
  EXPECT_EQ(got.count, want.at("count").get<uint32_t>()) << where;
  const nlohmann::json& records = want.at("records");
  ASSERT_EQ(got.records.size(), records.size()) << where;
  for (size_t i = 0; i < records.size(); ++i) {
    const WalRecord& r = got.records[i];
    const std::string at = where + " record " + std::to_string(i);
    EXPECT_EQ(WalRecordKindName(r.kind), records[i].at("kind").get<std::string>()) << at;
    EXPECT_EQ(r.column_family, records[i].at("cf").get<uint32_t>()) << at;
    EXPECT_EQ(Hex(r.key), records[i].at("key").get<std::string>()) << at;
    EXPECT_EQ(Hex(r.value), records[i].at("value").get<std::string>()) << at;
    EXPECT_EQ(r.sequence, got.sequence + i) << at;
  }
  const nlohmann::json markers = want.value("markers", nlohmann::json::array());
  ASSERT_EQ(got.markers.size(), markers.size()) << where;
  for (size_t i = 0; i < markers.size(); ++i) {
    const WalMarker& m = got.markers[i];
    const std::string at = where + " marker " + std::to_string(i);
    EXPECT_EQ(HandlerName(m.kind), markers[i].at("kind").get<std::string>()) << at;
    EXPECT_EQ(Hex(m.data), markers[i].at("data").get<std::string>()) << at;
    EXPECT_EQ(m.position, markers[i].at("position").get<size_t>()) << at;
  }
}

TEST(WriteAheadLog, EveryBatchAsTheLibraryReadsIt) {
  size_t batches = 0, records = 0;
  for (const WalCase& c : Cases()) {
    const WalContents wal = ReadWriteAheadLog(c.file, c.format, c.number);
    ASSERT_TRUE(wal.status.ok()) << c.id << ": " << wal.status.message();
    EXPECT_EQ(wal.end.kind, LogEnd::Kind::kClean) << c.id << ": " << wal.end.what;
    ASSERT_EQ(wal.batches.size(), c.batches.size()) << c.id;
    for (size_t i = 0; i < c.batches.size(); ++i) {
      ExpectBatch(wal.batches[i], c.batches[i], c.id + " batch " + std::to_string(i));
      EXPECT_LT(wal.batches[i].offset, c.file.size()) << c.id;
      for (const WalRecord& r : wal.batches[i].records) {
        EXPECT_GT(r.offset, wal.batches[i].offset) << c.id;
        EXPECT_LT(r.offset, c.file.size()) << c.id;
      }
      records += wal.batches[i].records.size();
    }
    batches += wal.batches.size();
  }
  EXPECT_GT(batches, 300u);
  EXPECT_GT(records, 300u);
}

// Cut anywhere, a WAL reads as the batches wholly before the cut, then a torn tail (or a clean
// end where the cut falls between records): what kPointInTimeRecovery replays.
TEST(WriteAheadLog, TruncatedLogsEndTornAfterTheBatchesBeforeTheCut) {
  for (const WalCase& c : Cases()) {
    const WalContents whole = ReadWriteAheadLog(c.file, c.format, c.number);
    const size_t step = std::max<size_t>(1, c.file.size() / 97);
    for (size_t cut = 0; cut < c.file.size(); cut += step) {
      const ByteView part = ByteView(c.file).first(cut);
      const WalContents wal = ReadWriteAheadLog(part, c.format, c.number);
      const std::string at = c.id + " cut at " + std::to_string(cut);
      ASSERT_TRUE(wal.status.ok()) << at << ": " << wal.status.message();
      ASSERT_LE(wal.batches.size(), whole.batches.size()) << at;
      for (size_t i = 0; i < wal.batches.size(); ++i) {
        EXPECT_EQ(wal.batches[i].offset, whole.batches[i].offset) << at;
        EXPECT_EQ(wal.batches[i].records.size(), whole.batches[i].records.size()) << at;
      }
      if (wal.batches.size() < whole.batches.size() && wal.end.kind == LogEnd::Kind::kTorn) {
        EXPECT_EQ(wal.end.offset, whole.batches[wal.batches.size()].offset) << at;
      }
      if (wal.end.kind == LogEnd::Kind::kClean) {
        // Only a cut between records ends clean: the next batch starts at or past the cut.
        if (wal.batches.size() < whole.batches.size()) {
          EXPECT_GE(whole.batches[wal.batches.size()].offset, cut) << at;
        }
      }
    }
  }
}

// A flipped payload byte fails its record's checksum. RocksDB: the batches before it, and the
// error. LevelDB: the rest of that 32 KiB block is dropped (one drop, the checksum mismatch) and
// every batch starting in a later block is read.
TEST(WriteAheadLog, BitFlipsStopAtTheRecordWithTheChecksumError) {
  size_t leveldb_flips = 0;
  for (const WalCase& c : Cases()) {
    const WalContents whole = ReadWriteAheadLog(c.file, c.format, c.number);
    for (size_t b = 0; b < whole.batches.size(); b += 17) {
      const WriteBatch& batch = whole.batches[b];
      if (batch.records.empty()) continue;
      Bytes flipped = c.file;
      flipped[batch.records[0].offset] ^= 0x40;
      const WalContents wal = ReadWriteAheadLog(flipped, c.format, c.number);
      const std::string at = c.id + " batch " + std::to_string(b);
      if (c.format == DbFormat::kRocksDb) {
        ASSERT_FALSE(wal.status.ok()) << at;
        EXPECT_EQ(wal.status.code(), ErrorCode::kChecksumMismatch) << at;
        EXPECT_FALSE(wal.malformed_batch) << at;
        EXPECT_EQ(wal.batches.size(), b) << at;
        EXPECT_LE(static_cast<uint64_t>(wal.status.offset()), batch.records[0].offset) << at;
        EXPECT_TRUE(wal.drops.empty()) << at;
        continue;
      }
      ++leveldb_flips;
      ASSERT_TRUE(wal.status.ok()) << at << ": " << wal.status.message();
      ASSERT_FALSE(wal.drops.empty()) << at;
      EXPECT_EQ(wal.drops[0].status.code(), ErrorCode::kChecksumMismatch) << at;
      EXPECT_LE(wal.drops[0].offset, batch.records[0].offset) << at;
      // The block holding the damaged fragment is dropped from it on; later blocks are read.
      const uint64_t block_end = (wal.drops[0].offset / kLogBlockSize + 1) * kLogBlockSize;
      std::vector<uint64_t> expected;
      for (size_t i = 0; i < whole.batches.size(); ++i) {
        if (i < b || whole.batches[i].offset >= block_end)
          expected.push_back(whole.batches[i].offset);
      }
      std::vector<uint64_t> read;
      for (const WriteBatch& w : wal.batches) read.push_back(w.offset);
      EXPECT_EQ(read, expected) << at;
    }
  }
  EXPECT_GT(leveldb_flips, 0u);
}

// ---- Batches built here ----

Bytes Header(uint64_t sequence, uint32_t count) {
  Bytes b;
  PutFixed64(&b, sequence);
  PutFixed32(&b, count);
  return b;
}

void Field(Bytes* b, std::string_view s) {
  PutVarint64(b, s.size());
  b->insert(b->end(), s.begin(), s.end());
}

TEST(WriteBatch, ColumnFamilyTagsTimedPutAndMarkers) {
  Bytes b = Header(100, 3);
  b.push_back(0x13);  // begin unprepare
  b.push_back(0x19);  // column-family TimedPut: value, then the fixed64 write time
  PutVarint64(&b, 300);
  Field(&b, "tk");
  Field(&b, std::string("tv") + std::string(8, '\x07'));
  b.push_back(0x10);  // column-family blob index
  PutVarint64(&b, 2);
  Field(&b, "bk");
  Field(&b, "blob-index-bytes");
  b.push_back(0x15);  // commit with timestamp: timestamp, then xid
  Field(&b, "ts");
  Field(&b, "xid");
  b.push_back(0x11);  // blob index
  Field(&b, "k");
  Field(&b, "v");
  WriteBatch batch;
  const Status s = DecodeWriteBatch(b, DbFormat::kRocksDb, &batch);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(batch.records.size(), 3u);
  EXPECT_EQ(batch.records[0].kind, WalRecordKind::kTimedPut);
  EXPECT_EQ(batch.records[0].column_family, 300u);
  EXPECT_EQ(std::string(batch.records[0].value.begin(), batch.records[0].value.end()), "tv");
  EXPECT_EQ(batch.records[1].kind, WalRecordKind::kBlobIndex);
  EXPECT_EQ(batch.records[1].column_family, 2u);
  EXPECT_EQ(batch.records[2].sequence, 102u);
  ASSERT_EQ(batch.markers.size(), 2u);
  EXPECT_EQ(batch.markers[0].kind, WalMarkerKind::kBeginUnprepare);
  EXPECT_EQ(batch.markers[1].kind, WalMarkerKind::kCommitWithTimestamp);
  EXPECT_EQ(batch.markers[1].position, 2u);
  EXPECT_EQ(std::string(batch.markers[1].timestamp.begin(), batch.markers[1].timestamp.end()),
            "ts");
  EXPECT_EQ(std::string(batch.markers[1].data.begin(), batch.markers[1].data.end()), "xid");
}

TEST(WriteBatch, BadBatchesAreCorruptWithTheOffset) {
  struct Bad {
    const char* what;
    DbFormat format;
    Bytes batch;
    int64_t offset;
  };
  std::vector<Bad> bad;
  bad.push_back({"shorter than its header", DbFormat::kRocksDb, Bytes(11, 0), 0});
  Bytes unknown = Header(1, 1);
  unknown.push_back(0x14);  // kTypeDeletionWithTimestamp: a table entry type, never in a batch
  Field(&unknown, "k");
  bad.push_back({"unknown tag", DbFormat::kRocksDb, unknown, 12});
  Bytes merge = Header(1, 1);
  merge.push_back(0x02);
  Field(&merge, "k");
  Field(&merge, "v");
  bad.push_back({"merge in LevelDB", DbFormat::kLevelDb, merge, 12});
  Bytes count = Header(1, 2);
  count.push_back(0x01);
  Field(&count, "k");
  Field(&count, "v");
  bad.push_back({"count of 2, one record", DbFormat::kLevelDb, count, 8});
  Bytes cut = Header(1, 1);
  cut.push_back(0x01);
  Field(&cut, "key");
  PutVarint64(&cut, 10);
  cut.push_back('v');
  bad.push_back({"value cut short", DbFormat::kRocksDb, cut, 12});
  Bytes timed = Header(1, 1);
  timed.push_back(0x18);
  Field(&timed, "k");
  Field(&timed, "short");
  bad.push_back({"TimedPut without its write time", DbFormat::kRocksDb, timed, 12});
  for (const Bad& b : bad) {
    WriteBatch batch;
    const Status s = DecodeWriteBatch(b.batch, b.format, &batch);
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << b.what;
    EXPECT_EQ(s.offset(), b.offset) << b.what << ": " << s.message();
  }
}

// In a log, a bad batch stops the batches with the error at its file offset.
TEST(WriteAheadLog, BadBatchInALogStopsWithItsFileOffset) {
  fuzz::LogBuilder log;
  Bytes good = Header(5, 1);
  good.push_back(0x01);
  Field(&good, "k");
  Field(&good, "v");
  log.Add(good);
  const size_t second = log.bytes().size();
  Bytes bad = Header(6, 1);
  bad.push_back(0x33);
  log.Add(bad);
  log.Add(good);
  for (const LogDamage damage : {LogDamage::kStop, LogDamage::kSkip}) {
    log_chunks::ExpectChunkingsAgree(log.bytes(), DbFormat::kRocksDb, 0, damage, "bad batch");
  }
  const WalContents wal = ReadWriteAheadLog(log.bytes(), DbFormat::kRocksDb, 0);
  EXPECT_EQ(wal.status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(wal.status.offset(), static_cast<int64_t>(second + 7 + 12)) << wal.status.message();
  ASSERT_EQ(wal.batches.size(), 1u);
  EXPECT_EQ(wal.batches[0].records[0].offset, 7u + 12u);
  // Its checksum holds, so RocksDB's recovery refuses the batch outright (DB::Open fails).
  EXPECT_TRUE(wal.malformed_batch);
}

// LevelDB's recovery inserts a malformed batch's records up to the bad one, skips a record too
// short for a batch header, and reads on (leveldb db/db_impl.cc RecoverLogFile, MaybeIgnoreError).
TEST(WriteAheadLog, LevelDbReadsPastMalformedBatchesAndShortRecords) {
  fuzz::LogBuilder log;
  Bytes partial = Header(5, 3);
  for (const char* k : {"a", "b"}) {
    partial.push_back(0x01);
    Field(&partial, k);
    Field(&partial, "v");
  }
  partial.push_back(0x07);  // not a LevelDB tag
  Field(&partial, "c");
  log.Add(partial);
  const size_t short_record = log.bytes().size();
  log.Add(Bytes(11, 0));
  Bytes good = Header(8, 1);
  good.push_back(0x00);  // a delete
  Field(&good, "d");
  log.Add(good);
  for (const DbFormat format : {DbFormat::kLevelDb, DbFormat::kRocksDb}) {
    log_chunks::ExpectChunkingsAgree(log.bytes(), format, 0, LogDamage::kSkip, "malformed batch");
    log_chunks::ExpectChunkingsAgree(log.bytes(), format, 0, LogDamage::kStop, "malformed batch");
  }
  const WalContents wal = ReadWriteAheadLog(log.bytes(), DbFormat::kLevelDb, 0);
  EXPECT_TRUE(wal.status.ok()) << wal.status.message();
  ASSERT_EQ(wal.batches.size(), 2u);
  EXPECT_EQ(wal.batches[0].count, 3u);
  ASSERT_EQ(wal.batches[0].records.size(), 2u);
  EXPECT_EQ(wal.batches[0].records[1].sequence, 6u);
  EXPECT_EQ(wal.batches[1].sequence, 8u);
  // Drops are byte ranges: the malformed batch from its bad record on, the short record whole.
  ASSERT_EQ(wal.drops.size(), 2u);
  const uint64_t bad_record = 7 + 12 + 2 * 5;  // after the log header, the batch header, two puts
  EXPECT_EQ(wal.drops[0].offset, bad_record);
  EXPECT_EQ(wal.drops[0].offset + wal.drops[0].size, short_record);
  EXPECT_EQ(wal.drops[0].status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(wal.drops[1].offset, short_record);
  EXPECT_EQ(wal.drops[1].size, 7u + 11u);
  // RocksDB (where 0x07 is a single delete) stops at the short record: damage, not a refused batch.
  const WalContents rocks = ReadWriteAheadLog(log.bytes(), DbFormat::kRocksDb, 0);
  EXPECT_EQ(rocks.batches.size(), 1u);
  EXPECT_EQ(rocks.status.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(rocks.status.offset(), static_cast<int64_t>(short_record + 7));
  EXPECT_FALSE(rocks.malformed_batch);
}

// RocksDB 11.8.1's WALs (fixtures v11_db) under track_and_verify_wals: each starts with a
// predecessor record, kept as the log's `predecessor`; where the WAL it names is in the folder,
// the record holds that file's size and its last batch's sequence, as RocksDB's writer saw them.
TEST(WriteAheadLog, PredecessorRecordNamesTheWalBeforeIt) {
  size_t logs = 0, pairs = 0;
  for (const auto& [corpus, manifest] : golden::Sections("v11_db")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      const std::string dir = c.at("dir");
      const bool recycled = c.at("options").contains("recycle_log_file_num");
      std::map<uint64_t, std::pair<Bytes, WalContents>> read;
      for (const std::string name : c.at("files")) {
        if (!name.ends_with(".log")) continue;
        Bytes file = corpus->ReadBytes(dir + "/" + name);
        WalContents wal = ReadWriteAheadLog(file, DbFormat::kRocksDb, std::stoull(name));
        read.emplace(std::stoull(name), std::make_pair(std::move(file), std::move(wal)));
      }
      for (const auto& [number, log] : read) {
        const std::string where = dir + "/" + std::to_string(number);
        const WalContents& wal = log.second;
        ASSERT_TRUE(wal.status.ok()) << where << ": " << wal.status.message();
        ASSERT_TRUE(wal.predecessor.has_value()) << where;
        EXPECT_EQ(wal.predecessor->offset, 0u) << where;
        const PredecessorWal& p = wal.predecessor->wal;
        EXPECT_LT(p.log_number, number) << where;
        ++logs;
        const auto before = read.find(p.log_number);
        if (before == read.end()) continue;  // flushed and deleted, or the chain's missing WAL
        const Bytes& file = before->second.first;
        const std::vector<WriteBatch>& batches = before->second.second.batches;
        ASSERT_FALSE(batches.empty()) << where;
        // A recycled file may hold an earlier log's bytes past the ones its log wrote.
        if (recycled) {
          EXPECT_LE(p.size_bytes, file.size()) << where;
        } else {
          EXPECT_EQ(p.size_bytes, file.size()) << where;
        }
        EXPECT_EQ(p.last_sequence, batches.back().sequence) << where;
        ++pairs;
      }
    }
  }
  EXPECT_GE(logs, 6u) << golden::CorporaSummary();
  EXPECT_GE(pairs, 3u) << golden::CorporaSummary();
}

// A predecessor record too short to decode is no predecessor: RocksDB's reader reports it as
// corruption, which ends a stopping read there and is dropped by a skipping one.
TEST(WriteAheadLog, ShortPredecessorRecordIsNoPredecessor) {
  const auto predecessor = [](uint64_t number, uint64_t size, uint64_t last_sequence) {
    Bytes b;
    PutFixed64(&b, number);
    PutFixed64(&b, size);
    PutFixed64(&b, last_sequence);
    return b;
  };
  Bytes batch = Header(43, 1);
  batch.push_back(0x01);
  Field(&batch, "k");
  Field(&batch, "v");
  fuzz::LogBuilder log;
  log.Physical(130, predecessor(7, 100, 42));
  log.Add(batch);
  // A second one (RocksDB writes one per log): recovery checks it, the listing keeps the first.
  log.Physical(130, predecessor(8, 200, 43));
  for (const LogDamage damage : {LogDamage::kStop, LogDamage::kSkip}) {
    log_chunks::ExpectChunkingsAgree(log.bytes(), DbFormat::kRocksDb, 9, damage, "predecessors");
    const WalContents wal = ReadWriteAheadLog(log.bytes(), DbFormat::kRocksDb, 9, damage);
    ASSERT_TRUE(wal.status.ok()) << wal.status.message();
    ASSERT_TRUE(wal.predecessor.has_value());
    EXPECT_EQ(wal.predecessor->offset, 0u);
    EXPECT_EQ(wal.predecessor->wal.log_number, 7u);
    EXPECT_EQ(wal.predecessor->wal.size_bytes, 100u);
    EXPECT_EQ(wal.predecessor->wal.last_sequence, 42u);
    EXPECT_EQ(wal.batches.size(), 1u);
  }

  fuzz::LogBuilder short_log;
  short_log.Physical(130, Bytes(16, 1));
  short_log.Add(batch);
  for (const LogDamage damage : {LogDamage::kStop, LogDamage::kSkip}) {
    log_chunks::ExpectChunkingsAgree(short_log.bytes(), DbFormat::kRocksDb, 9, damage, "short");
    const WalContents wal = ReadWriteAheadLog(short_log.bytes(), DbFormat::kRocksDb, 9, damage);
    EXPECT_FALSE(wal.predecessor.has_value());
    if (damage == LogDamage::kStop) {
      EXPECT_EQ(wal.status.code(), ErrorCode::kCorrupt);
      EXPECT_EQ(wal.status.offset(), 0);
      EXPECT_TRUE(wal.batches.empty());
    } else {
      EXPECT_TRUE(wal.status.ok()) << wal.status.message();
      ASSERT_EQ(wal.drops.size(), 1u);
      EXPECT_EQ(wal.batches.size(), 1u);
    }
  }
}

}  // namespace
}  // namespace sstfilter
