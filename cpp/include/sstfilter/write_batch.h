// Write batches and the write-ahead logs that hold them (docs/FORMATS.md 6.4): a batch's records
// and markers decoded, and a log's batches read as recovery reads them, stopping at damage or
// reading past it. Bytes only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/db_format.h"
#include "sstfilter/log.h"
#include "sstfilter/status.h"

namespace sstfilter {

// The records of a write batch that write data. Each takes one sequence number, in batch order,
// from the batch's sequence (rocksdb db/write_batch.cc MemTableInserter, without seq_per_batch;
// leveldb db/write_batch.cc MemTableInserter), and the batch's count says how many there are.
enum class WalRecordKind : uint8_t {
  kPut,
  kDelete,
  kSingleDelete,
  kMerge,
  kRangeDelete,  // key: the begin key, value: the end key (exclusive)
  kBlobIndex,    // value: a blob index (values.h)
  kWideColumns,  // PutEntity: value is a wide-column entity (values.h)
  kTimedPut,     // RocksDB 9.x TimedPut: value without its trailing write time
};

// "put", "delete", "single-delete", "merge", "range-delete", "blob-index", "wide-columns",
// "timed-put".
const char* WalRecordKindName(WalRecordKind kind);

// The records of a write batch that write nothing and take no sequence number: a blob for WAL
// readers (PutLogData) and the markers of two-phase commit and of WritePrepared transactions.
enum class WalMarkerKind : uint8_t {
  kLogData,                // data: the blob
  kBeginPrepare,           // WriteCommitted transactions
  kBeginPersistedPrepare,  // WritePrepared
  kBeginUnprepare,         // WriteUnprepared
  kEndPrepare,             // data: the transaction id
  kCommit,                 // data: the transaction id
  kCommitWithTimestamp,    // data: the transaction id, timestamp: the commit timestamp
  kRollback,               // data: the transaction id
  kNoop,                   // a sub-batch boundary (WritePrepared), or a space holder
};

// "log-data", "begin-prepare", "begin-persisted-prepare", "begin-unprepare", "end-prepare",
// "commit", "commit-with-timestamp", "rollback", "noop".
const char* WalMarkerKindName(WalMarkerKind kind);

struct WalRecord {
  WalRecordKind kind = WalRecordKind::kPut;
  uint32_t column_family = 0;
  uint64_t sequence = 0;
  uint64_t offset = 0;  // of its tag byte (within the batch, or the file when read from a log)
  Bytes key;            // with the timestamp where the column family has one
  Bytes value;          // empty for deletions
};

struct WalMarker {
  WalMarkerKind kind = WalMarkerKind::kNoop;
  uint64_t offset = 0;  // of its tag byte, as WalRecord::offset
  size_t position = 0;  // how many of the batch's records come before it
  Bytes data;           // see WalMarkerKind
  Bytes timestamp;
};

struct WriteBatch {
  uint64_t sequence = 0;  // of its first record
  uint32_t count = 0;     // records (markers not counted)
  uint64_t offset = 0;    // of the log record holding it (0 when decoded alone)
  std::vector<WalRecord> records;
  std::vector<WalMarker> markers;
};

// Decodes a write batch: a 12-byte header (fixed64 sequence, fixed32 count) and its records.
// kCorrupt, with the offset within `batch`, for a batch shorter than its header, a record cut
// short, a tag the format does not have (LevelDB: put and delete only; RocksDB:
// ReadRecordFromWriteBatch's) and a count that disagrees with the records, as
// WriteBatch::Iterate refuses; `out` then holds the batch up to the bad record.
Status DecodeWriteBatch(ByteView batch, DbFormat format, WriteBatch* out);

// A predecessor record (types 130 and 131, rocksdb db/dbformat.h PredecessorWALInfo): the WAL
// written before this one, as its writer saw it when it switched logs.
struct PredecessorWal {
  uint64_t log_number = 0;
  uint64_t size_bytes = 0;
  uint64_t last_sequence = 0;  // the sequence number of its last write batch (0: none)
};

// A log's predecessor record and the file offset of its first fragment's header.
struct PredecessorRecord {
  uint64_t offset = 0;
  PredecessorWal wal;
};

// A write-ahead log read as recovery reads it.
struct WalContents {
  std::vector<WriteBatch> batches;  // offsets in the file
  // How the log ended when it read to its end (status ok): clean, torn (the records before a
  // record cut short by a crash) or a recycled file's old record.
  LogEnd end;
  // Not ok: the log stops at a bad record (LogReader's errors, DecodeWriteBatch's with file
  // offsets); `batches` holds the ones before it, as kPointInTimeRecovery replays them.
  Status status;
  // `status` is a write batch whose record's checksum holds but which WriteBatch::Iterate refuses
  // (not one too short for its header): RocksDB's recovery then fails DB::Open.
  bool malformed_batch = false;
  // What a kSkip read passed over, by offset: the reader's drops, records too short for a batch
  // header and (LevelDB) malformed batches from their bad record on, whose records before it are
  // in `batches`, as WriteBatchInternal::InsertInto inserts them. Empty for kStop. At most
  // kMaxLogDrops; `unlisted_drops` counts the rest.
  std::vector<LogDrop> drops;
  uint64_t unlisted_drops = 0;
  // The log's first predecessor record that decodes (RocksDB 9.11 and later with
  // track_and_verify_wals write one, first in each log: rocksdb db/log_writer.cc
  // MaybeAddPredecessorWALInfo); none without one. Recovery checks every one it meets.
  std::optional<PredecessorRecord> predecessor;
};

// Reads every write batch of a WAL (`log_number` from its name, for recyclable records) as a
// recovery does: kStop ends at a bad record (`status` set); kSkip reads past damage (`drops`) but,
// for RocksDB, ends at a malformed batch, which its recovery refuses. Metadata records
// (compression, timestamp sizes, predecessor WAL) are skipped. Never fails as a whole.
WalContents ReadWriteAheadLog(ByteView file, DbFormat format, uint64_t log_number,
                              LogDamage damage);
// The format's default recovery: RocksDB's stops at damage, LevelDB's reads past it.
WalContents ReadWriteAheadLog(ByteView file, DbFormat format, uint64_t log_number);
// As ReadWriteAheadLog, handing each batch to `on_batch` as it is read instead of keeping it (the
// result's `batches` stays empty), so that a replay holds one batch at a time. Reading stops after
// a batch for which `on_batch` returns false; the result then says how far the log was read.
using WriteBatchSink = std::function<bool(WriteBatch&& batch)>;
WalContents ForEachWriteBatch(ByteView file, DbFormat format, uint64_t log_number, LogDamage damage,
                              const WriteBatchSink& on_batch);

// Checks a predecessor record found at `offset` against the replay so far (track_and_verify_wals):
// not ok ends the log there, as damage.
using PredecessorCheck = std::function<Status(const PredecessorWal& recorded, uint64_t offset)>;

// ForEachWriteBatch over a file that comes in chunks: each batch goes to `on_batch` as soon as its
// record's last fragment has arrived, and Finish says how the log was read, as ForEachWriteBatch
// over the whole file does, whatever the chunks. Memory: what LogReader holds (a block's bytes
// and the record being reassembled) and the batch being handed over, never the file.
class WriteAheadLogReader {
 public:
  // `check_predecessor` (optional, used with kStop only) sees each predecessor record.
  WriteAheadLogReader(DbFormat format, uint64_t log_number, LogDamage damage,
                      PredecessorCheck check_predecessor = {});

  // The file's next bytes: every batch they complete goes to `on_batch` before Append returns, so
  // the chunk need not outlive the call. Ignored once reading has stopped (at the log's end, an
  // error, or a batch for which `on_batch` returned false).
  void Append(ByteView chunk, const WriteBatchSink& on_batch);
  // No more bytes: reads what is left and says how the log was read (`batches` stays empty).
  WalContents Finish(const WriteBatchSink& on_batch);
  // LogReader::held_bytes.
  size_t held_bytes() const { return reader_.held_bytes(); }

 private:
  // Reads the records of the bytes fed, handing over their batches, until more input is needed
  // or reading has stopped.
  void ReadRecords(const WriteBatchSink& on_batch);
  void AddDrop(LogDrop drop);
  // A predecessor record: decoded and checked; not ok when it ends the log.
  Status OnPredecessor(const LogRecord& record);

  DbFormat format_;
  bool skip_;
  PredecessorCheck check_predecessor_;
  LogReader reader_;
  LogRecord record_;
  WalContents out_;
  // kEnd: the reader's end or error, or on_batch said stop: the reader's state is the log's.
  // kRefused: a bad batch or predecessor record ended the log and out_ is complete.
  enum class State : uint8_t { kReading, kEnd, kRefused } state_ = State::kReading;
};

}  // namespace sstfilter
