// Write batches, the payload of a write-ahead log's data records (docs/FORMATS.md 6.4): a fixed64
// sequence number, a fixed32 count, then records, each a tag byte, a varint32 column family for
// the column-family tags, and length-prefixed fields. Tags from rocksdb db/dbformat.h ValueType
// and db/write_batch.cc ReadRecordFromWriteBatch (7.8.3 and main), leveldb db/write_batch.cc
// (1.23: put and delete only).
#include "sstfilter/write_batch.h"

#include <algorithm>
#include <utility>

namespace sstfilter {
namespace {

constexpr size_t kBatchHeaderSize = 12;

// rocksdb db/dbformat.h ValueType, the tags a write batch may hold.
enum Tag : uint8_t {
  kTypeDeletion = 0x0,
  kTypeValue = 0x1,
  kTypeMerge = 0x2,
  kTypeLogData = 0x3,
  kTypeColumnFamilyDeletion = 0x4,
  kTypeColumnFamilyValue = 0x5,
  kTypeColumnFamilyMerge = 0x6,
  kTypeSingleDeletion = 0x7,
  kTypeColumnFamilySingleDeletion = 0x8,
  kTypeBeginPrepareXID = 0x9,
  kTypeEndPrepareXID = 0xA,
  kTypeCommitXID = 0xB,
  kTypeRollbackXID = 0xC,
  kTypeNoop = 0xD,
  kTypeColumnFamilyRangeDeletion = 0xE,
  kTypeRangeDeletion = 0xF,
  kTypeColumnFamilyBlobIndex = 0x10,
  kTypeBlobIndex = 0x11,
  kTypeBeginPersistedPrepareXID = 0x12,
  kTypeBeginUnprepareXID = 0x13,
  kTypeCommitXIDAndTimestamp = 0x15,
  kTypeWideColumnEntity = 0x16,
  kTypeColumnFamilyWideColumnEntity = 0x17,
  kTypeValuePreferredSeqno = 0x18,
  kTypeColumnFamilyValuePreferredSeqno = 0x19,
};

// What a tag is: a data record of some kind (with or without a column family id), or a marker,
// and which length-prefixed fields follow.
struct TagInfo {
  bool known = false;
  bool is_record = false;
  WalRecordKind record = WalRecordKind::kPut;
  WalMarkerKind marker = WalMarkerKind::kNoop;
  bool column_family = false;
  int fields = 0;  // length-prefixed fields after the column family id
};

TagInfo Record(WalRecordKind kind, bool column_family, int fields) {
  return TagInfo{true, true, kind, WalMarkerKind::kNoop, column_family, fields};
}

TagInfo Marker(WalMarkerKind kind, int fields) {
  return TagInfo{true, false, WalRecordKind::kPut, kind, false, fields};
}

TagInfo Describe(uint8_t tag, DbFormat format) {
  if (format == DbFormat::kLevelDb) {
    // leveldb db/dbformat.h ValueType: only these two.
    if (tag == kTypeValue) return Record(WalRecordKind::kPut, false, 2);
    if (tag == kTypeDeletion) return Record(WalRecordKind::kDelete, false, 1);
    return TagInfo{};
  }
  switch (tag) {
    case kTypeValue:
    case kTypeColumnFamilyValue:
      return Record(WalRecordKind::kPut, tag == kTypeColumnFamilyValue, 2);
    case kTypeDeletion:
    case kTypeColumnFamilyDeletion:
      return Record(WalRecordKind::kDelete, tag == kTypeColumnFamilyDeletion, 1);
    case kTypeSingleDeletion:
    case kTypeColumnFamilySingleDeletion:
      return Record(WalRecordKind::kSingleDelete, tag == kTypeColumnFamilySingleDeletion, 1);
    case kTypeMerge:
    case kTypeColumnFamilyMerge:
      return Record(WalRecordKind::kMerge, tag == kTypeColumnFamilyMerge, 2);
    case kTypeRangeDeletion:
    case kTypeColumnFamilyRangeDeletion:
      return Record(WalRecordKind::kRangeDelete, tag == kTypeColumnFamilyRangeDeletion, 2);
    case kTypeBlobIndex:
    case kTypeColumnFamilyBlobIndex:
      return Record(WalRecordKind::kBlobIndex, tag == kTypeColumnFamilyBlobIndex, 2);
    case kTypeWideColumnEntity:
    case kTypeColumnFamilyWideColumnEntity:
      return Record(WalRecordKind::kWideColumns, tag == kTypeColumnFamilyWideColumnEntity, 2);
    case kTypeValuePreferredSeqno:
    case kTypeColumnFamilyValuePreferredSeqno:
      return Record(WalRecordKind::kTimedPut, tag == kTypeColumnFamilyValuePreferredSeqno, 2);
    case kTypeLogData:
      return Marker(WalMarkerKind::kLogData, 1);
    case kTypeBeginPrepareXID:
      return Marker(WalMarkerKind::kBeginPrepare, 0);
    case kTypeBeginPersistedPrepareXID:
      return Marker(WalMarkerKind::kBeginPersistedPrepare, 0);
    case kTypeBeginUnprepareXID:
      return Marker(WalMarkerKind::kBeginUnprepare, 0);
    case kTypeEndPrepareXID:
      return Marker(WalMarkerKind::kEndPrepare, 1);
    case kTypeCommitXID:
      return Marker(WalMarkerKind::kCommit, 1);
    case kTypeCommitXIDAndTimestamp:  // the timestamp, then the transaction id
      return Marker(WalMarkerKind::kCommitWithTimestamp, 2);
    case kTypeRollbackXID:
      return Marker(WalMarkerKind::kRollback, 1);
    case kTypeNoop:
      return Marker(WalMarkerKind::kNoop, 0);
    default:
      return TagInfo{};
  }
}

// A length-prefixed field (varint32 length, then the bytes) at in[*pos].
bool GetLengthPrefixed(ByteView in, size_t* pos, Bytes* out) {
  const auto length = GetVarint32(in, pos);
  if (!length || *length > in.size() - *pos) return false;
  const auto field = in.subspan(*pos, *length);
  out->assign(field.begin(), field.end());
  *pos += *length;
  return true;
}

Status Corrupt(const std::string& what, size_t offset) {
  return Status::Error(ErrorCode::kCorrupt,
                       "write batch at offset " + std::to_string(offset) + ": " + what,
                       static_cast<int64_t>(offset));
}

// TimedPut's packed value ends in the fixed64 write time (rocksdb db/dbformat.h
// PackValueAndWriteTime).
constexpr size_t kWriteTimeSize = 8;

}  // namespace

const char* WalRecordKindName(WalRecordKind kind) {
  switch (kind) {
    case WalRecordKind::kPut:
      return "put";
    case WalRecordKind::kDelete:
      return "delete";
    case WalRecordKind::kSingleDelete:
      return "single-delete";
    case WalRecordKind::kMerge:
      return "merge";
    case WalRecordKind::kRangeDelete:
      return "range-delete";
    case WalRecordKind::kBlobIndex:
      return "blob-index";
    case WalRecordKind::kWideColumns:
      return "wide-columns";
    case WalRecordKind::kTimedPut:
      return "timed-put";
  }
  return "put";
}

const char* WalMarkerKindName(WalMarkerKind kind) {
  switch (kind) {
    case WalMarkerKind::kLogData:
      return "log-data";
    case WalMarkerKind::kBeginPrepare:
      return "begin-prepare";
    case WalMarkerKind::kBeginPersistedPrepare:
      return "begin-persisted-prepare";
    case WalMarkerKind::kBeginUnprepare:
      return "begin-unprepare";
    case WalMarkerKind::kEndPrepare:
      return "end-prepare";
    case WalMarkerKind::kCommit:
      return "commit";
    case WalMarkerKind::kCommitWithTimestamp:
      return "commit-with-timestamp";
    case WalMarkerKind::kRollback:
      return "rollback";
    case WalMarkerKind::kNoop:
      return "noop";
  }
  return "noop";
}

Status DecodeWriteBatch(ByteView batch, DbFormat format, WriteBatch* out) {
  *out = WriteBatch{};
  if (batch.size() < kBatchHeaderSize) {
    return Corrupt("batch of " + std::to_string(batch.size()) + " bytes, shorter than its header",
                   0);
  }
  out->sequence = DecodeFixed64(batch.data());
  out->count = DecodeFixed32(batch.data() + 8);
  size_t pos = kBatchHeaderSize;
  while (pos < batch.size()) {
    const size_t start = pos;
    const uint8_t tag = batch[pos++];
    const TagInfo info = Describe(tag, format);
    if (!info.known) return Corrupt("unknown tag " + std::to_string(tag), start);
    uint32_t column_family = 0;
    if (info.column_family) {
      const auto id = GetVarint32(batch, &pos);
      if (!id) return Corrupt("column family id cut short", start);
      column_family = *id;
    }
    Bytes fields[2];
    for (int i = 0; i < info.fields; ++i) {
      if (!GetLengthPrefixed(batch, &pos, &fields[i])) {
        return Corrupt("record with tag " + std::to_string(tag) + " cut short", start);
      }
    }
    if (!info.is_record) {
      WalMarker m{info.marker, start, out->records.size(), {}, {}};
      if (info.marker == WalMarkerKind::kCommitWithTimestamp) {
        m.timestamp = std::move(fields[0]);
        m.data = std::move(fields[1]);
      } else {
        m.data = std::move(fields[0]);
      }
      out->markers.push_back(std::move(m));
      continue;
    }
    if (info.record == WalRecordKind::kTimedPut) {
      if (fields[1].size() < kWriteTimeSize) {
        return Corrupt("TimedPut value without its write time", start);
      }
      fields[1].resize(fields[1].size() - kWriteTimeSize);
    }
    const uint64_t sequence = out->sequence + out->records.size();
    out->records.push_back(WalRecord{info.record, column_family, sequence, start,
                                     std::move(fields[0]), std::move(fields[1])});
  }
  if (out->records.size() != out->count) {
    return Corrupt("count " + std::to_string(out->count) + " in the header, " +
                       std::to_string(out->records.size()) + " records",
                   8);
  }
  return Status::Ok();
}

WalContents ReadWriteAheadLog(ByteView file, DbFormat format, uint64_t log_number) {
  // LevelDB's recovery reads past damage (paranoid_checks=false, its default: leveldb
  // db/db_impl.cc RecoverLogFile); RocksDB's kPointInTimeRecovery stops at it.
  return ReadWriteAheadLog(file, format, log_number,
                           format == DbFormat::kLevelDb ? LogDamage::kSkip : LogDamage::kStop);
}

WalContents ReadWriteAheadLog(ByteView file, DbFormat format, uint64_t log_number,
                              LogDamage damage) {
  std::vector<WriteBatch> batches;
  WalContents out = ForEachWriteBatch(file, format, log_number, damage, [&](WriteBatch&& batch) {
    batches.push_back(std::move(batch));
    return true;
  });
  out.batches = std::move(batches);
  return out;
}

WalContents ForEachWriteBatch(ByteView file, DbFormat format, uint64_t log_number, LogDamage damage,
                              const WriteBatchSink& on_batch) {
  WriteAheadLogReader reader(format, log_number, damage);
  reader.Append(file, on_batch);
  return reader.Finish(on_batch);
}

WriteAheadLogReader::WriteAheadLogReader(DbFormat format, uint64_t log_number, LogDamage damage,
                                         PredecessorCheck check_predecessor)
    : format_(format),
      skip_(damage == LogDamage::kSkip),
      check_predecessor_(std::move(check_predecessor)),
      reader_(format, log_number, damage) {}

Status WriteAheadLogReader::OnPredecessor(const LogRecord& record) {
  // rocksdb db/log_reader.cc ReadRecord: three fixed64s (PredecessorWALInfo::DecodeFrom, bytes
  // beyond them ignored); one it cannot decode is reported as corruption, checked or not.
  constexpr size_t kSize = 24;
  const uint64_t end = record.FileOffset(record.payload.size());
  if (record.payload.size() < kSize) {
    Status error = Status::Error(
        ErrorCode::kCorrupt,
        "predecessor WAL record of " + std::to_string(record.payload.size()) + " bytes, not 24",
        static_cast<int64_t>(record.offset));
    if (!skip_) return error;
    AddDrop(LogDrop{record.offset, end - record.offset, std::move(error)});
    return Status::Ok();
  }
  const uint8_t* p = record.payload.data();
  const PredecessorWal recorded{DecodeFixed64(p), DecodeFixed64(p + 8), DecodeFixed64(p + 16)};
  if (!out_.predecessor) out_.predecessor = PredecessorRecord{record.offset, recorded};
  // kSkipAnyCorruptedRecords never checks it; paranoid_checks=false ignores what a check reports.
  if (skip_ || !check_predecessor_) return Status::Ok();
  return check_predecessor_(recorded, record.offset);
}

void WriteAheadLogReader::AddDrop(LogDrop drop) {
  if (out_.drops.size() < kMaxLogDrops) {
    out_.drops.push_back(std::move(drop));
  } else {
    ++out_.unlisted_drops;
  }
}

void WriteAheadLogReader::Append(ByteView chunk, const WriteBatchSink& on_batch) {
  if (state_ != State::kReading) return;
  reader_.Feed(chunk);
  ReadRecords(on_batch);
}

WalContents WriteAheadLogReader::Finish(const WriteBatchSink& on_batch) {
  if (state_ == State::kReading) {
    reader_.EndOfFile();
    ReadRecords(on_batch);
  }
  if (state_ == State::kRefused) return std::move(out_);
  for (const LogDrop& d : reader_.drops()) AddDrop(d);
  out_.unlisted_drops += reader_.unlisted_drops();
  std::stable_sort(out_.drops.begin(), out_.drops.end(),
                   [](const LogDrop& a, const LogDrop& b) { return a.offset < b.offset; });
  out_.status = reader_.status();
  out_.end = reader_.end();
  return std::move(out_);
}

void WriteAheadLogReader::ReadRecords(const WriteBatchSink& on_batch) {
  LogRecord& record = record_;
  while (true) {
    const LogReader::ReadResult read = reader_.Read(&record);
    if (read == LogReader::ReadResult::kNeedInput) return;
    if (read == LogReader::ReadResult::kDone) {
      state_ = State::kEnd;
      return;
    }
    if (record.kind == LogRecordKind::kPredecessorWalInfo) {
      if (Status s = OnPredecessor(record); !s.ok()) {
        out_.status = std::move(s);
        state_ = State::kRefused;
        return;
      }
      continue;
    }
    if (record.kind != LogRecordKind::kData) continue;
    WriteBatch batch;
    const Status s = DecodeWriteBatch(record.payload, format_, &batch);
    // Offsets within the batch become file offsets through the record's fragments.
    for (WalRecord& r : batch.records) r.offset = record.FileOffset(static_cast<size_t>(r.offset));
    for (WalMarker& m : batch.markers) m.offset = record.FileOffset(static_cast<size_t>(m.offset));
    batch.offset = record.offset;
    if (s.ok()) {
      if (!on_batch(std::move(batch))) {
        state_ = State::kEnd;
        return;
      }
      continue;
    }
    const uint64_t at = record.FileOffset(static_cast<size_t>(s.offset()));
    // The status's offset is the file's; the message keeps the record's and the batch's own.
    Status error = Status::Error(
        s.code(), "log record at offset " + std::to_string(record.offset) + ": " + s.message(),
        static_cast<int64_t>(at));
    const bool has_header = record.payload.size() >= kBatchHeaderSize;
    // RocksDB iterates a batch before replaying it (UpdateProtectionInfo) and fails the open on a
    // malformed one, whatever the mode.
    if (!skip_ || (has_header && format_ == DbFormat::kRocksDb)) {
      out_.status = std::move(error);
      out_.malformed_batch = has_header;
      state_ = State::kRefused;
      return;
    }
    // A skipping recovery passes over a record too short for a batch header ("log record too
    // small"); LevelDB's inserts a malformed batch's records up to the bad one
    // (WriteBatch::Iterate stops there).
    const uint64_t record_end = record.FileOffset(record.payload.size());
    if (has_header) {
      AddDrop(LogDrop{at, record_end - at, std::move(error)});
      if (!on_batch(std::move(batch))) {
        state_ = State::kEnd;
        return;
      }
    } else {
      AddDrop(LogDrop{record.offset, record_end - record.offset, std::move(error)});
    }
  }
}

}  // namespace sstfilter
