// Log records, VersionEdits and MANIFEST state (sstfilter/db.h): every database of the corpus's
// db_manifest section (RocksDB 7.8.3 and LevelDB 1.23, tests/corpus/README.md) read back to the
// live files the library itself reports; those MANIFESTs truncated and bit-flipped; and logs and
// edits built here after leveldb/rocksdb db/log_writer.cc and db/version_edit.cc for what the
// libraries did not write (recyclable records, metadata records, future tags).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../fuzz/log_builder.h"
#include "golden.h"
#include "log_chunks.h"
#include "sstfilter/db.h"
#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

std::string Hex(ByteView bytes) { return golden::HexEncode(bytes); }

struct ManifestCase {
  const golden::Corpus* corpus;
  nlohmann::json json;
  DbFormat format;
  Bytes manifest;
};

std::vector<ManifestCase> Cases() {
  std::vector<ManifestCase> out;
  for (const auto& [corpus, manifest] : golden::Sections("db_manifest")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      const DbFormat format = c.at("format") == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb;
      out.push_back({corpus, c, format, corpus->ReadBytes(c.at("manifest"))});
    }
  }
  if (out.empty()) throw std::runtime_error("no db_manifest cases in any corpus");
  return out;
}

// leveldb db/version_set.cc Version::DebugString, the text of the "leveldb.sstables" property:
// per level a heading, then " number:size[smallest .. largest]" with keys as
// InternalKey::DebugString prints them ('escaped user key' @ sequence : type).
std::string LevelDbSstables(const ColumnFamilyState& cf) {
  const auto key = [](const Bytes& internal) {
    std::string out(1, '\'');
    for (size_t i = 0; i + 8 < internal.size(); ++i) {
      const uint8_t c = internal[i];
      if (c >= ' ' && c <= '~') {
        out.push_back(static_cast<char>(c));
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      }
    }
    const uint64_t tag = DecodeFixed64(internal.data() + internal.size() - 8);
    out += "' @ ";
    out += std::to_string(tag >> 8);
    out += " : ";
    out += std::to_string(tag & 0xff);
    return out;
  };
  std::string text;
  for (size_t level = 0; level < cf.files.size(); ++level) {
    text += "--- level " + std::to_string(level) + " ---\n";
    for (const TableFileMeta& f : cf.files[level]) {
      text += ' ';
      text += std::to_string(f.number);
      text += ':';
      text += std::to_string(f.size);
      text += '[';
      text += key(f.smallest);
      text += " .. ";
      text += key(f.largest);
      text += "]\n";
    }
  }
  return text;
}

// Our live files in GetLiveFilesMetaData's order (column families as created, levels up, each
// level in its version order), as the corpus records them.
nlohmann::json RocksDbLiveFiles(const ManifestState& state) {
  nlohmann::json files = nlohmann::json::array();
  for (const ColumnFamilyState& cf : state.column_families) {
    for (size_t level = 0; level < cf.files.size(); ++level) {
      for (const TableFileMeta& f : cf.files[level]) {
        files.push_back({{"column_family", cf.name},
                         {"level", level},
                         {"file_number", f.number},
                         {"size", f.size},
                         {"smallest_key", Hex(f.smallest_user_key())},
                         {"largest_key", Hex(f.largest_user_key())},
                         {"smallest_seqno", f.smallest_seqno},
                         {"largest_seqno", f.largest_seqno},
                         {"oldest_blob_file_number", f.oldest_blob_file_number},
                         {"oldest_ancester_time", f.oldest_ancester_time},
                         {"file_creation_time", f.file_creation_time},
                         {"file_checksum", Hex(f.file_checksum)},
                         {"file_checksum_func_name", f.file_checksum_func_name},
                         {"temperature", f.temperature}});
      }
    }
  }
  return files;
}

TEST(Manifest, EveryCorpusDatabaseHasTheLibrarysLiveFiles) {
  size_t files_compared = 0;
  for (const ManifestCase& c : Cases()) {
    const std::string id = c.corpus->name + "/" + c.json.at("id").get<std::string>();
    SCOPED_TRACE(id);
    std::string name;
    ASSERT_TRUE(ParseCurrentFile(c.corpus->ReadBytes(c.json.at("current")), &name).ok());
    EXPECT_EQ(name, c.json.at("manifest_name"));
    ManifestState state;
    const Status s = ReadManifest(c.manifest, c.format, &state);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(state.end.kind, LogEnd::Kind::kClean) << state.end.what;
    EXPECT_GT(state.edit_count, 0u);
    if (c.format == DbFormat::kLevelDb) {
      ASSERT_EQ(state.column_families.size(), 1u);
      EXPECT_EQ(state.column_families[0].comparator, "leveldb.BytewiseComparator");
      EXPECT_EQ(LevelDbSstables(state.column_families[0]), c.json.at("sstables"));
      for (const auto& level : state.column_families[0].files) files_compared += level.size();
      continue;
    }
    const nlohmann::json& live = c.json.at("live");
    const nlohmann::json ours = RocksDbLiveFiles(state);
    ASSERT_EQ(ours.size(), live.at("files").size());
    for (size_t i = 0; i < ours.size(); ++i) {
      EXPECT_EQ(ours[i], live.at("files")[i]) << "file " << i;
    }
    files_compared += ours.size();
    // With writes left in the WAL, the library's last sequence number is that of the WAL's last
    // batch; the MANIFEST's is the one before the WAL's first.
    if (c.json.contains("wal")) {
      const nlohmann::json& batches = c.json.at("wal").at("batches");
      EXPECT_EQ(state.last_sequence + 1, batches.front().at(0).get<uint64_t>());
      EXPECT_EQ(batches.back().at(0).get<uint64_t>() + batches.back().at(1).get<uint64_t>() - 1,
                live.at("last_sequence").get<uint64_t>());
    } else {
      EXPECT_EQ(state.last_sequence, live.at("last_sequence").get<uint64_t>());
    }
    const nlohmann::json& families = live.at("column_families");
    ASSERT_EQ(state.column_families.size(), families.size());
    for (size_t i = 0; i < families.size(); ++i) {
      const ColumnFamilyState& cf = state.column_families[i];
      const nlohmann::json& expected = families[i];
      SCOPED_TRACE(cf.name);
      EXPECT_EQ(cf.id, expected.at("id").get<uint32_t>());
      EXPECT_EQ(cf.name, expected.at("name"));
      EXPECT_EQ(cf.comparator, expected.at("comparator"));
      nlohmann::json blobs = nlohmann::json::array();
      for (const BlobFileState& b : cf.blob_files) {
        blobs.push_back({{"number", b.addition.number},
                         {"total_blob_count", b.addition.total_blob_count},
                         {"total_blob_bytes", b.addition.total_blob_bytes},
                         {"garbage_blob_count", b.garbage_blob_count},
                         {"garbage_blob_bytes", b.garbage_blob_bytes},
                         {"checksum_method", b.addition.checksum_method},
                         {"checksum_value", Hex(b.addition.checksum_value)}});
      }
      EXPECT_EQ(blobs, expected.at("blob_files"));
    }
  }
  std::cout << "[ golden   ] db_manifest: " << files_compared << " live files compared ("
            << golden::CorporaSummary() << ")\n";
  EXPECT_GT(files_compared, 0u);
}

// The WALs the corpus databases were writing when they closed: their records are the write
// batches written after the last flush (a batch starts with its fixed64 sequence number and
// fixed32 count), in order, numbered on from the MANIFEST's last sequence number; RocksDB's
// recycled WAL ends at the first record of the older log that used the file before.
TEST(LogReader, CorpusWalsHoldTheBatchesWrittenAfterTheLastFlush) {
  size_t batches_checked = 0;
  for (const ManifestCase& c : Cases()) {
    if (!c.json.contains("wal")) continue;
    SCOPED_TRACE(c.json.at("id").get<std::string>());
    const nlohmann::json& wal = c.json.at("wal");
    const Bytes log = c.corpus->ReadBytes(wal.at("path"));
    ManifestState state;
    ASSERT_TRUE(ReadManifest(c.manifest, c.format, &state).ok());
    LogReader reader(log, c.format, wal.at("number").get<uint64_t>());
    LogRecord r;
    uint64_t next_seq = state.last_sequence + 1;
    size_t i = 0;
    while (reader.Next(&r)) {
      ASSERT_EQ(r.kind, LogRecordKind::kData);
      ASSERT_LT(i, wal.at("batches").size());
      ASSERT_GE(r.payload.size(), 12u);
      const nlohmann::json& batch = wal.at("batches")[i];
      if (!batch.at(0).is_null()) {
        EXPECT_EQ(next_seq, batch.at(0).get<uint64_t>()) << i;
      }
      EXPECT_EQ(DecodeFixed64(r.payload.data()), next_seq) << i;
      EXPECT_EQ(DecodeFixed32(r.payload.data() + 8), batch.at(1).get<uint32_t>()) << i;
      EXPECT_EQ(r.recyclable, c.format == DbFormat::kRocksDb) << i;
      next_seq += batch.at(1).get<uint64_t>();
      ++i;
    }
    ASSERT_TRUE(reader.status().ok()) << reader.status().message();
    EXPECT_EQ(i, wal.at("batches").size());
    EXPECT_EQ(reader.end().kind,
              c.format == DbFormat::kRocksDb ? LogEnd::Kind::kOldRecord : LogEnd::Kind::kClean)
        << reader.end().what;
    batches_checked += i;
  }
  EXPECT_GT(batches_checked, 0u);
}

// Where each physical record of a log lies: header offset, payload start and end.
struct PhysicalRecord {
  uint64_t header;
  uint64_t payload;
  uint64_t end;
  uint64_t record;  // the header of the logical record's first fragment
};

std::vector<PhysicalRecord> PhysicalRecords(const ManifestCase& c,
                                            std::vector<uint64_t>* record_ends) {
  std::vector<PhysicalRecord> out;
  LogReader reader(c.manifest, c.format);
  LogRecord r;
  while (reader.Next(&r)) {
    for (const LogFragment& f : r.fragments) {
      out.push_back({f.payload_offset - 7, f.payload_offset, f.payload_offset + f.size, r.offset});
    }
    record_ends->push_back(out.back().end);
  }
  EXPECT_TRUE(reader.status().ok());
  return out;
}

TEST(Manifest, TruncatedManifestsReadTheRecordsBeforeTheTornTail) {
  size_t checked = 0;
  for (const ManifestCase& c : Cases()) {
    SCOPED_TRACE(c.json.at("id").get<std::string>());
    std::vector<uint64_t> record_ends;
    PhysicalRecords(c, &record_ends);
    std::vector<size_t> lengths;
    for (uint64_t end : record_ends) {
      for (int d : {-1, 0, 1})
        lengths.push_back(static_cast<size_t>(static_cast<int64_t>(end) + d));
    }
    for (size_t i = 0; i < 64; ++i) lengths.push_back(c.manifest.size() * i / 64);
    for (size_t len : lengths) {
      if (len > c.manifest.size()) continue;
      SCOPED_TRACE("length " + std::to_string(len));
      ManifestState state;
      const Status s = ReadManifest(ByteView(c.manifest).first(len), c.format, &state);
      // Records that ended before the cut were all read.
      size_t complete = 0;
      while (complete < record_ends.size() && record_ends[complete] <= len) ++complete;
      const size_t kept = complete == 0 ? 0 : record_ends[complete - 1];
      ManifestState before;
      const Status whole_records =
          ReadManifest(ByteView(c.manifest).first(kept), c.format, &before);
      if (!whole_records.ok()) {
        // The records before the cut do not make a database yet (no comparator or next file
        // number): the same error either way.
        EXPECT_EQ(s.code(), whole_records.code()) << s.message();
        EXPECT_EQ(s.offset(), whole_records.offset()) << s.message();
      } else {
        ASSERT_TRUE(s.ok()) << s.message();
        EXPECT_EQ(state.edit_count, complete);
        // Bytes after the last whole record are a torn tail unless they are zeros (padding), but
        // for RocksDB's reader fewer zeros than a header where the file ends inside a block are a
        // truncated header.
        const bool zeros = std::all_of(c.manifest.begin() + static_cast<ptrdiff_t>(kept),
                                       c.manifest.begin() + static_cast<ptrdiff_t>(len),
                                       [](uint8_t b) { return b == 0; });
        const bool short_rocksdb_tail = c.format == DbFormat::kRocksDb && len > kept &&
                                        len - kept < 7 && len % kLogBlockSize != 0;
        EXPECT_EQ(state.end.kind,
                  zeros && !short_rocksdb_tail ? LogEnd::Kind::kClean : LogEnd::Kind::kTorn);
        if (state.end.kind == LogEnd::Kind::kTorn) {
          EXPECT_EQ(state.end.offset, kept);
        }
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 0u);
}

TEST(Manifest, BitFlipsInARecordAreChecksumMismatchesAtItsHeader) {
  size_t flips = 0;
  for (const ManifestCase& c : Cases()) {
    SCOPED_TRACE(c.json.at("id").get<std::string>());
    std::vector<uint64_t> record_ends;
    const std::vector<PhysicalRecord> records = PhysicalRecords(c, &record_ends);
    for (size_t i = 0; i < records.size(); i += 1 + records.size() / 40) {
      const PhysicalRecord& r = records[i];
      // A flip in the stored CRC, the type byte and the payload's first and last bytes.
      for (uint64_t at : {r.header, r.header + 6, r.payload, r.end - 1}) {
        if (at >= r.end) continue;
        Bytes flipped = c.manifest;
        flipped[at] ^= 0x10;
        ManifestState state;
        const Status s = ReadManifest(flipped, c.format, &state);
        if (at == r.header + 6) {
          // A flipped type byte names an unknown type or another fragment kind.
          EXPECT_FALSE(s.ok() && state.end.kind == LogEnd::Kind::kClean &&
                       state.edit_count == record_ends.size())
              << "flip at " << at;
        } else {
          EXPECT_EQ(s.code(), ErrorCode::kChecksumMismatch)
              << "flip at " << at << ": " << s.message();
          EXPECT_EQ(s.offset(), static_cast<int64_t>(r.header)) << "flip at " << at;
        }
        ++flips;
      }
    }
    // Length bytes: the record overruns its block (corrupt), or, in the file's last block, runs
    // past its end: a torn tail there, as RocksDB reads it.
    for (size_t i = 0; i < records.size(); i += 1 + records.size() / 10) {
      SCOPED_TRACE("length flip in the record at " + std::to_string(records[i].header));
      Bytes flipped = c.manifest;
      flipped[records[i].header + 5] ^= 0x80;
      ManifestState state;
      const Status s = ReadManifest(flipped, c.format, &state);
      const bool last_block =
          records[i].header / kLogBlockSize == (flipped.size() - 1) / kLogBlockSize;
      if (!last_block) {
        EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << s.message();
        EXPECT_EQ(s.offset(), static_cast<int64_t>(records[i].header)) << s.message();
      } else if (s.ok()) {
        EXPECT_EQ(state.end.kind, LogEnd::Kind::kTorn);
        EXPECT_EQ(state.end.offset, records[i].record);
      } else {
        // The records before it lack the comparator or the next file number.
        EXPECT_EQ(s.offset(), static_cast<int64_t>(records[i].record)) << s.message();
      }
      ++flips;
    }
  }
  EXPECT_GT(flips, 0u);
}

// ---- Logs built here (leveldb / rocksdb db/log_writer.cc) ----

using fuzz::LogBuilder;

// Read whole; read in chunks, each log built here must read the same (log_chunks.h).
std::vector<std::string> ReadAll(ByteView log, DbFormat format, uint64_t number, Status* status,
                                 LogEnd* end) {
  log_chunks::ExpectChunkingsAgree(log, format, number, LogDamage::kStop, "built log");
  LogReader reader(log, format, number);
  std::vector<std::string> out;
  LogRecord r;
  while (reader.Next(&r)) out.emplace_back(r.payload.begin(), r.payload.end());
  *status = reader.status();
  *end = reader.end();
  return out;
}

TEST(LogReader, ReassemblesFragmentsAcrossBlocksInBothHeaderFormats) {
  for (bool recyclable : {false, true}) {
    SCOPED_TRACE(recyclable ? "recyclable" : "legacy");
    LogBuilder w(recyclable, 77);
    std::vector<std::string> payloads = {"", "a", std::string(kLogBlockSize * 2 + 5, 'x'),
                                         std::string(kLogBlockSize - 30, 'y'), "tail"};
    for (const std::string& p : payloads) w.Add(BytesOf(p));
    Status s;
    LogEnd end;
    EXPECT_EQ(ReadAll(w.bytes(), DbFormat::kRocksDb, 77, &s, &end), payloads);
    EXPECT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(end.kind, LogEnd::Kind::kClean);
    if (!recyclable) {
      EXPECT_EQ(ReadAll(w.bytes(), DbFormat::kLevelDb, 0, &s, &end), payloads);
    } else {
      // A recycled file: records of another log number end the log.
      EXPECT_TRUE(ReadAll(w.bytes(), DbFormat::kRocksDb, 78, &s, &end).empty());
      EXPECT_EQ(end.kind, LogEnd::Kind::kOldRecord);
      // LevelDB knows no recyclable types: it reads a 7-byte header, whose checksum fails.
      ReadAll(w.bytes(), DbFormat::kLevelDb, 77, &s, &end);
      EXPECT_EQ(s.code(), ErrorCode::kChecksumMismatch);
      EXPECT_EQ(s.offset(), 0);
    }
  }
}

TEST(LogReader, TornTailsAndZeroPaddingEndTheLog) {
  LogBuilder w;
  w.Add(BytesOf("first"));
  w.Add(Bytes(40000, 'z'));  // FIRST in block 0, LAST in block 1
  const size_t whole = w.bytes().size();
  Status s;
  LogEnd end;
  // Cut inside the second record's LAST fragment, then inside its FIRST fragment's header.
  for (size_t cut : {whole - 10, size_t{12 + 3}}) {
    const auto got = ReadAll(ByteView(w.bytes()).first(cut), DbFormat::kRocksDb, 0, &s, &end);
    EXPECT_TRUE(s.ok());
    EXPECT_EQ(got, std::vector<std::string>{"first"});
    EXPECT_EQ(end.kind, LogEnd::Kind::kTorn);
    EXPECT_EQ(end.offset, 12u) << end.what;
  }
  // Preallocated zeros after the last record are not a torn tail.
  Bytes padded = w.bytes();
  padded.resize(padded.size() + 100, 0);
  EXPECT_EQ(ReadAll(padded, DbFormat::kLevelDb, 0, &s, &end).size(), 2u);
  EXPECT_EQ(end.kind, LogEnd::Kind::kClean);
}

TEST(LogReader, FragmentsOutOfOrderAndUnknownTypesAreCorrupt) {
  Status s;
  LogEnd end;
  for (uint8_t type : {uint8_t{3}, uint8_t{4}, uint8_t{12}, uint8_t{99}}) {
    LogBuilder w;
    w.Add(BytesOf("ok"));
    w.Physical(type, BytesOf("bad"));
    ReadAll(w.bytes(), DbFormat::kRocksDb, 0, &s, &end);
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << int{type};
    EXPECT_EQ(s.offset(), 9) << int{type};
  }
  // FIRST then FULL: the fragmented record never ended.
  LogBuilder w;
  w.Physical(2, BytesOf("start"));
  w.Physical(1, BytesOf("full"));
  ReadAll(w.bytes(), DbFormat::kLevelDb, 0, &s, &end);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), 12);
  // An empty FIRST fragment then a FULL one: both readers read on silently (an old writer's bug).
  LogBuilder empty_first;
  empty_first.Physical(2, Bytes{});
  empty_first.Physical(1, BytesOf("full"));
  EXPECT_EQ(ReadAll(empty_first.bytes(), DbFormat::kRocksDb, 0, &s, &end),
            std::vector<std::string>{"full"});
  EXPECT_TRUE(s.ok()) << s.message();
}

// LevelDB's WAL recovery (paranoid_checks=false) reads past damage: each drop is recorded and the
// records after it are read (leveldb db/log_reader.cc ReadRecord, ReadPhysicalRecord).
TEST(LogReader, SkipModeDropsWhatLevelDbDropsAndReadsOn) {
  const auto read = [](ByteView log, std::vector<std::string>* drops) {
    log_chunks::ExpectChunkingsAgree(log, DbFormat::kLevelDb, 0, LogDamage::kSkip, "built log");
    LogReader reader(log, DbFormat::kLevelDb, 0, LogDamage::kSkip);
    std::vector<std::string> out;
    LogRecord r;
    while (reader.Next(&r)) out.emplace_back(r.payload.begin(), r.payload.end());
    EXPECT_TRUE(reader.status().ok()) << reader.status().message();
    drops->clear();
    for (const LogDrop& d : reader.drops()) {
      drops->push_back(std::string(ErrorCodeName(d.status.code())) + "@" +
                       std::to_string(d.offset) + "+" + std::to_string(d.size));
    }
    return out;
  };
  std::vector<std::string> drops;
  // A record without its last fragment, a stray fragment, an unknown type: each dropped alone.
  LogBuilder w;
  w.Add(BytesOf("one"));            // 0..10
  w.Physical(2, BytesOf("start"));  // 10..22
  w.Physical(1, BytesOf("full"));   // 22..33
  w.Physical(3, BytesOf("stray"));  // 33..45
  w.Physical(99, BytesOf("what"));  // 45..56
  w.Add(BytesOf("two"));
  EXPECT_EQ(read(w.bytes(), &drops), (std::vector<std::string>{"one", "full", "two"}));
  // Each drop is a byte range, headers included: the unfinished record, the stray, the unknown.
  EXPECT_EQ(drops, (std::vector<std::string>{"CORRUPT@10+12", "CORRUPT@33+12", "CORRUPT@45+11"}));

  // A checksum mismatch drops the rest of its block, and with it the first fragment of a record
  // spanning into the next block, whose later fragments are then strays; the next record is read.
  LogBuilder b;
  b.Add(BytesOf("a"));               // 0..8
  b.Add(BytesOf("bad"));             // 8..18, flipped below
  b.Add(Bytes(kLogBlockSize, 'x'));  // FIRST in block 0, LAST in block 1
  b.Add(BytesOf("c"));
  b.bytes()[8 + 7] ^= 1;
  const uint64_t rest = kLogBlockSize - 8;
  const uint64_t last = kLogBlockSize;  // the LAST fragment's header
  const uint64_t last_size = 7 + kLogBlockSize - (kLogBlockSize - 18 - 7);
  EXPECT_EQ(read(b.bytes(), &drops), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(drops, (std::vector<std::string>{
                       "CHECKSUM_MISMATCH@8+" + std::to_string(rest),
                       "CORRUPT@" + std::to_string(last) + "+" + std::to_string(last_size)}));

  // A length that overruns its block (not the last) drops the block's rest too.
  LogBuilder len;
  len.Add(BytesOf("a"));
  len.Add(BytesOf("long"));
  len.Add(Bytes(kLogBlockSize, 'y'));
  len.Add(BytesOf("d"));
  len.bytes()[8 + 4] = 0xff;
  len.bytes()[8 + 5] = 0xff;
  EXPECT_EQ(read(len.bytes(), &drops), (std::vector<std::string>{"a", "d"}));
  ASSERT_EQ(drops.size(), 2u);
  EXPECT_EQ(drops[0], "CORRUPT@8+" + std::to_string(rest));
}

// Where a file ends decides what a short or overlong record is (both readers' eof_: a read that
// returned less than a block): in a block the file ends inside, the end of a torn write; in a
// whole last block, a trailer to skip or a bad length.
TEST(LogReader, AWholeLastBlockIsNotATornTail) {
  Status s;
  LogEnd end;
  for (DbFormat format : {DbFormat::kLevelDb, DbFormat::kRocksDb}) {
    const std::string f = DbFormatName(format);
    // A record that fills the block exactly, its length then made to overrun it by one byte.
    LogBuilder full;
    full.Add(Bytes(kLogBlockSize - 7, 'f'));
    ASSERT_EQ(full.bytes().size(), kLogBlockSize);
    full.bytes()[4] = static_cast<uint8_t>((kLogBlockSize - 6) & 0xff);
    full.bytes()[5] = static_cast<uint8_t>((kLogBlockSize - 6) >> 8);
    EXPECT_TRUE(ReadAll(full.bytes(), format, 0, &s, &end).empty()) << f;
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << f << ": " << s.message();
    // Three stray bytes ending a whole block: a trailer, skipped.
    LogBuilder trailer;
    trailer.Add(Bytes(kLogBlockSize - 10, 't'));
    trailer.bytes().insert(trailer.bytes().end(), {0xab, 0xcd, 0xef});
    EXPECT_EQ(ReadAll(trailer.bytes(), format, 0, &s, &end).size(), 1u) << f;
    EXPECT_TRUE(s.ok()) << f;
    EXPECT_EQ(end.kind, LogEnd::Kind::kClean) << f;
  }
  // Zero bytes too few for a header where the file ends inside a block: RocksDB's reader calls
  // them a truncated header; LevelDB's, preallocated space.
  LogBuilder zeros;
  zeros.Add(BytesOf("x"));
  zeros.bytes().insert(zeros.bytes().end(), 3, 0);
  EXPECT_EQ(ReadAll(zeros.bytes(), DbFormat::kRocksDb, 0, &s, &end).size(), 1u);
  EXPECT_EQ(end.kind, LogEnd::Kind::kTorn);
  EXPECT_EQ(end.offset, 8u);
  ReadAll(zeros.bytes(), DbFormat::kLevelDb, 0, &s, &end);
  EXPECT_EQ(end.kind, LogEnd::Kind::kClean);
}

// A type 0 record with a payload (and a good checksum) is an unknown type to both readers, unlike
// the zero-length type 0 of preallocated space.
TEST(LogReader, TypeZeroWithAPayloadIsAnUnknownType) {
  LogBuilder w;
  w.Add(BytesOf("ok"));
  w.Physical(0, BytesOf("zero"));
  w.Add(BytesOf("after"));
  Status s;
  LogEnd end;
  EXPECT_EQ(ReadAll(w.bytes(), DbFormat::kRocksDb, 0, &s, &end), std::vector<std::string>{"ok"});
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), 9);
  log_chunks::ExpectChunkingsAgree(w.bytes(), DbFormat::kRocksDb, 0, LogDamage::kSkip,
                                   "type 0 with a payload");
  LogReader skipping(w.bytes(), DbFormat::kRocksDb, 0, LogDamage::kSkip);
  std::vector<std::string> read;
  LogRecord r;
  while (skipping.Next(&r)) read.emplace_back(r.payload.begin(), r.payload.end());
  EXPECT_EQ(read, (std::vector<std::string>{"ok", "after"}));
  ASSERT_EQ(skipping.drops().size(), 1u);
  EXPECT_EQ(skipping.drops()[0].offset, 9u);
  EXPECT_EQ(skipping.drops()[0].size, 11u);
}

// A hostile file of stray fragments: the drops listed stop at kMaxLogDrops, the rest are counted.
TEST(LogReader, DropsBeyondTheLimitAreCounted) {
  LogBuilder w;
  for (size_t i = 0; i < kMaxLogDrops + 10; ++i) w.Physical(3, Bytes{});
  w.Add(BytesOf("end"));
  log_chunks::ExpectChunkingsAgree(w.bytes(), DbFormat::kLevelDb, 0, LogDamage::kSkip,
                                   "drops beyond the limit");
  LogReader reader(w.bytes(), DbFormat::kLevelDb, 0, LogDamage::kSkip);
  LogRecord r;
  ASSERT_TRUE(reader.Next(&r));
  EXPECT_EQ(std::string(r.payload.begin(), r.payload.end()), "end");
  EXPECT_EQ(reader.drops().size(), kMaxLogDrops);
  EXPECT_EQ(reader.unlisted_drops(), 10u);
}

TEST(LogReader, RocksDbMetadataRecordsAreReturnedOrRefused) {
  LogBuilder w;
  w.Physical(9, Bytes(4, 0));  // SetCompressionType: none
  w.Physical(10, BytesOf("ts sizes"));
  w.Physical(0x85, BytesOf("future, ignorable"));
  w.Add(BytesOf("data"));
  log_chunks::ExpectChunkingsAgree(w.bytes(), DbFormat::kRocksDb, 0, LogDamage::kStop,
                                   "metadata records");
  LogReader reader(w.bytes(), DbFormat::kRocksDb);
  std::vector<LogRecordKind> kinds;
  LogRecord r;
  while (reader.Next(&r)) kinds.push_back(r.kind);
  EXPECT_TRUE(reader.status().ok()) << reader.status().message();
  EXPECT_EQ(kinds, (std::vector<LogRecordKind>{LogRecordKind::kSetCompressionType,
                                               LogRecordKind::kUserDefinedTimestampSize,
                                               LogRecordKind::kIgnorable, LogRecordKind::kData}));
  LogBuilder zstd;
  zstd.Physical(9, Bytes{7, 0, 0, 0});
  Status s;
  LogEnd end;
  ReadAll(zstd.bytes(), DbFormat::kRocksDb, 0, &s, &end);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported);
}

// ---- VersionEdits built here (rocksdb db/version_edit.cc EncodeTo) ----

Bytes Varint(uint64_t v) {
  Bytes out;
  PutVarint64(&out, v);
  return out;
}

Bytes Cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes Prefixed(const Bytes& b) { return Cat({Varint(b.size()), b}); }
Bytes Text(const std::string& s) { return Bytes(s.begin(), s.end()); }
Bytes InternalKey(const std::string& user, uint64_t seq, uint8_t type) {
  Bytes k = Text(user);
  PutFixed64(&k, seq << 8 | type);
  return k;
}

Bytes NewFile4(const Bytes& custom_fields) {
  return Cat({Varint(103), Varint(2), Varint(12), Varint(4096), Prefixed(InternalKey("a", 5, 1)),
              Prefixed(InternalKey("m", 9, 1)), Varint(5), Varint(9), custom_fields, Varint(1)});
}

TEST(VersionEdit, DecodesNewFile4CustomFieldsAndSkipsWhatIsSafeToIgnore) {
  Bytes unique_id;
  PutFixed64(&unique_id, 0x1111);
  PutFixed64(&unique_id, 0x2222);
  const Bytes edit =
      Cat({Varint(1), Prefixed(Text("leveldb.BytewiseComparator")),
           NewFile4(Cat({Varint(13), Prefixed(Varint(42)),  // epoch number
                         Varint(12), Prefixed(unique_id),   // unique id
                         Varint(8), Prefixed(Text("FileChecksumCrc32c")), Varint(33),
                         Prefixed(Text("future")),           // ignorable
                         Varint(65), Prefixed(Bytes{2})})),  // path id 2
           Varint((1 << 13) + 99), Prefixed(Text("future tag")), Varint(3), Varint(13)});
  VersionEdit e;
  const Status s = DecodeVersionEdit(edit, DbFormat::kRocksDb, &e);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(e.new_files.size(), 1u);
  const TableFileMeta& f = e.new_files[0].meta;
  EXPECT_EQ(e.new_files[0].level, 2);
  EXPECT_EQ(f.number, 12u);
  EXPECT_EQ(f.epoch_number, 42u);
  EXPECT_EQ(f.path_id, 2u);
  EXPECT_EQ(f.file_checksum_func_name, "FileChecksumCrc32c");
  ASSERT_TRUE(f.unique_id.has_value());
  EXPECT_EQ((*f.unique_id)[1], 0x2222u);
  EXPECT_EQ(f.ignored_custom_tags, std::vector<uint32_t>{33});
  EXPECT_EQ(e.ignored_tags, std::vector<uint32_t>{(1 << 13) + 99});
  EXPECT_EQ(e.next_file_number, 13u);
  // The same under LevelDB: tag 103 is unknown there, at the byte it starts.
  const Status leveldb = DecodeVersionEdit(edit, DbFormat::kLevelDb, &e);
  EXPECT_EQ(leveldb.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(leveldb.offset(), 28);
}

TEST(VersionEdit, RefusesWhatMustBeUnderstoodWithTheOffsetOfTheField) {
  VersionEdit e;
  // A custom field with bit 6 set that RocksDB does not know.
  const Bytes must = NewFile4(Cat({Varint(64 + 30), Prefixed(Text("x"))}));
  Status s = DecodeVersionEdit(must, DbFormat::kRocksDb, &e);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  // An unknown tag without the safe-to-ignore bit, after a valid field.
  const Bytes unknown = Cat({Varint(3), Varint(7), Varint(555), Varint(1)});
  s = DecodeVersionEdit(unknown, DbFormat::kRocksDb, &e);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), 2);
  // Every truncation of a valid edit is an error inside it, or a shorter valid edit.
  for (size_t n = 0; n < must.size(); ++n) {
    s = DecodeVersionEdit(ByteView(must).first(n), DbFormat::kRocksDb, &e);
    if (n > 0) {
      EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << n;
      EXPECT_LE(s.offset(), static_cast<int64_t>(n)) << n;
    }
  }
  // A level beyond kMaxDbLevel, up to one that does not fit an int (fuzz regression
  // new-file3-level-above-int-max): unsupported, at the field.
  for (uint64_t level : {uint64_t{kMaxDbLevel} + 1, uint64_t{0xfffffff0}}) {
    s = DecodeVersionEdit(Cat({Varint(3), Varint(7), Varint(6), Varint(level), Varint(5)}),
                          DbFormat::kRocksDb, &e);
    EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << level;
    EXPECT_EQ(s.offset(), 2) << level;
  }
  // LevelDB's levels end at 6.
  const Bytes deep = Cat({Varint(6), Varint(7), Varint(5)});
  EXPECT_EQ(DecodeVersionEdit(deep, DbFormat::kLevelDb, &e).code(), ErrorCode::kCorrupt);
  ASSERT_TRUE(DecodeVersionEdit(deep, DbFormat::kRocksDb, &e).ok());
  EXPECT_EQ(e.deleted_files[0].level, 7);
}

TEST(CurrentFile, NamesTheManifestOrIsCorrupt) {
  std::string name;
  ASSERT_TRUE(ParseCurrentFile(BytesOf("MANIFEST-000005\n"), &name).ok());
  EXPECT_EQ(name, "MANIFEST-000005");
  EXPECT_EQ(ParseCurrentFile(BytesOf("MANIFEST-000005"), &name).code(), ErrorCode::kCorrupt);
  EXPECT_EQ(ParseCurrentFile(BytesOf("MANIFEST-00x5\n"), &name).offset(), 11);
  EXPECT_EQ(ParseCurrentFile(BytesOf("OPTIONS-1\n"), &name).code(), ErrorCode::kCorrupt);
}

// RocksDB 11.8.1's databases (fixtures v11_db, tests/corpus/rocksdb11/databases.cc): each MANIFEST
// snapshot records persist_user_defined_timestamps beside the comparator and ends with the
// compacted MANIFEST size; the tables' NewFile4 records carry the file open metadata (field 17,
// read past); every WAL, opened on a switch of logs with track_and_verify_wals, starts with its
// predecessor record (type 130, or 131 in a recycled file).
TEST(VersionEdit, RocksDb11ManifestsAndWalsCarryTheirNewerRecords) {
  size_t manifests = 0, wals = 0;
  for (const auto& [corpus, manifest] : golden::Sections("v11_db")) {
    for (const nlohmann::json& c : manifest.at("cases")) {
      const std::string id = c.at("id");
      const std::string dir = c.at("dir");
      const bool persisted = c.at("options").value("persist_user_defined_timestamps", true);
      std::vector<VersionEdit> edits;
      for (const std::string name : c.at("files")) {
        if (!name.starts_with("MANIFEST-")) continue;
        const Bytes file = corpus->ReadBytes(dir + "/" + name);
        LogReader reader(file, DbFormat::kRocksDb);
        LogRecord r;
        while (reader.Next(&r)) {
          VersionEdit e;
          ASSERT_TRUE(DecodeVersionEdit(r.payload, DbFormat::kRocksDb, &e).ok()) << id;
          EXPECT_TRUE(e.ignored_tags.empty()) << id;
          edits.push_back(std::move(e));
        }
        ASSERT_TRUE(reader.status().ok()) << id << ": " << reader.status().message();
      }
      ASSERT_GE(edits.size(), 2u) << id;
      // Every edit naming a comparator names the flag with it.
      size_t with_comparator = 0;
      for (const VersionEdit& e : edits) {
        if (!e.comparator) continue;
        EXPECT_EQ(e.persist_user_defined_timestamps, std::optional<bool>(persisted)) << id;
        ++with_comparator;
      }
      EXPECT_GE(with_comparator, 1u) << id;
      const auto compacted = std::find_if(edits.begin(), edits.end(), [](const VersionEdit& e) {
        return e.last_compacted_manifest_file_size.has_value();
      });
      ASSERT_NE(compacted, edits.end()) << id;
      EXPECT_GT(*compacted->last_compacted_manifest_file_size, 0u) << id;
      EXPECT_TRUE(std::any_of(edits.begin(), edits.end(), [](const VersionEdit& e) {
        return !e.new_files.empty();
      })) << id;
      ++manifests;
      for (const std::string name : c.at("files")) {
        if (!name.ends_with(".log")) continue;
        const Bytes file = corpus->ReadBytes(dir + "/" + name);
        LogReader reader(file, DbFormat::kRocksDb, std::stoull(name));
        LogRecord r;
        ASSERT_TRUE(reader.Next(&r)) << id << " " << name;
        EXPECT_EQ(r.kind, LogRecordKind::kPredecessorWalInfo) << id << " " << name;
        EXPECT_EQ(r.payload.size(), 24u) << id << " " << name;
        // It names an older WAL.
        EXPECT_LT(DecodeFixed64(r.payload.data()), std::stoull(name)) << id << " " << name;
        ++wals;
      }
    }
  }
  EXPECT_GE(manifests, 4u) << golden::CorporaSummary();
  EXPECT_GE(wals, 6u) << golden::CorporaSummary();
}

}  // namespace
}  // namespace sstfilter
