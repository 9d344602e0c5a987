// Whole databases, first layer: the log record format shared by MANIFEST and write-ahead log files
// (docs/FORMATS.md 6.1), the VersionEdit records a MANIFEST holds (6.2), and the state they add up
// to: the live table files per level per column family (6.3). Everything reads bytes the caller
// holds; nothing here touches a file system.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

// Which library wrote a database: it decides the log record types and VersionEdit tags accepted.
enum class DbFormat : uint8_t { kLevelDb, kRocksDb };

// "leveldb" | "rocksdb".
const char* DbFormatName(DbFormat format);

// ---- Log files (docs/FORMATS.md 6.1) ----

inline constexpr size_t kLogBlockSize = 32768;

// What a logical record is. Data records carry a MANIFEST's VersionEdit or a WAL's write batch;
// the others are RocksDB's metadata records, returned as they are.
enum class LogRecordKind : uint8_t {
  kData,                      // FULL, or FIRST, MIDDLE..., LAST reassembled
  kSetCompressionType,        // type 9: the compression of the records after it (WAL only)
  kUserDefinedTimestampSize,  // types 10 and 11: timestamp sizes per column family (WAL only)
  kPredecessorWalInfo,        // types 130 and 131: the previous WAL's number, size, last seqno
  kIgnorable,                 // any other type with bit 7 set: RocksDB skips it
};

// One fragment as it lies in the file: where its payload starts and how long it is.
struct LogFragment {
  uint64_t payload_offset = 0;
  uint32_t size = 0;
};

struct LogRecord {
  LogRecordKind kind = LogRecordKind::kData;
  uint8_t type = 0;     // the record type byte of its first fragment
  uint64_t offset = 0;  // of its first fragment's header
  bool recyclable = false;
  Bytes payload;
  std::vector<LogFragment> fragments;

  // The file offset of byte `pos` of the payload (pos == payload.size(): just past its end).
  uint64_t FileOffset(size_t pos) const;
};

// How a log ended. A torn tail is what a writer that stopped mid-record leaves: a header or a
// payload cut short by the end of the file, or fragments without their LAST; RocksDB's MANIFEST
// recovery and WAL recovery (kTolerateCorruptedTailRecords) read the records before it and stop.
struct LogEnd {
  enum class Kind : uint8_t {
    kClean,  // the last record ends the data (trailing zero padding allowed)
    kTorn,   // see above; `offset` is where the unfinished record starts
    // A recycled file's leftovers: a recyclable record of an earlier log or, in a file whose
    // first record is recyclable, a bad length or checksum after the records of this log.
    kOldRecord,
  };
  Kind kind = Kind::kClean;
  uint64_t offset = 0;
  std::string what;  // for kTorn / kOldRecord: what was found there
};

// "clean", "torn" or "old-record": the names the TypeScript API gives LogEnd kinds.
const char* LogEndKindName(LogEnd::Kind kind);

// What a reader does at damage (docs/FORMATS.md 6.4.2). kStop: the log ends there with an error
// (MANIFESTs; RocksDB's recovery in its default modes). kSkip: a recovery that ignores what its
// reader reports: LevelDB's with paranoid_checks=false, RocksDB's with kSkipAnyCorruptedRecords or
// paranoid_checks=false (leveldb and rocksdb db/log_reader.cc ReadPhysicalRecord, ReadRecord): a
// bad checksum or length drops the rest of its 32 KiB block, a record that lost a fragment is
// dropped, a stray fragment or unknown type is dropped, and reading goes on.
enum class LogDamage : uint8_t { kStop, kSkip };

// A stretch of a log that a kSkip reader dropped, and why: the bytes [offset, offset + size).
struct LogDrop {
  uint64_t offset = 0;  // of the damaged fragment's header, or of the dropped record's first
  uint64_t size = 0;    // bytes dropped from `offset` on, headers included
  Status status;        // the damage, with `offset`
};

// How many drops a reader lists; past that they are only counted (a hostile file can hold one
// every few bytes).
inline constexpr size_t kMaxLogDrops = 1000;

// Reads the logical records of a log file in order. `log_number` is the file's number (from its
// name): recyclable records carry its low 32 bits, and one with other bits is a recycled file's
// old record, which ends the log, as does a bad length or checksum in a file whose first record is
// recyclable (what the file's previous log left). Errors (Next returns false and status() is not
// ok): kChecksumMismatch for a fragment whose masked CRC32C over type (and log number) and payload
// disagrees, kCorrupt for a fragment that overruns its block before the last block, fragments out
// of order and unknown record types, kUnsupported for compressed WAL records. Each names the file
// offset of the fragment's header. With LogDamage::kSkip those damages but kUnsupported are
// dropped instead (drops(), in the order found) and reading goes on.
//
// Incremental: the file may come in chunks of any size (Feed, then EndOfFile), and Read hands out
// each record as soon as its last fragment has arrived; chunked or whole, the records, ends,
// drops and errors are the same. What decides a fragment's fate but the end of the file (a short
// header or an overlong length is a torn tail only in the block the file ends inside) waits for
// the rest of its block or for EndOfFile. Memory: the reader holds the unread bytes of the current
// block when they straddle two chunks (at most kLogBlockSize) and the fragments of the record
// being reassembled, never the file (held_bytes()).
class LogReader {
 public:
  // An incremental reader: Feed it the file's bytes, then EndOfFile.
  LogReader(DbFormat format, uint64_t log_number = 0, LogDamage damage = LogDamage::kStop);
  // The whole file at once, which must outlive the reader: Feed(file) and EndOfFile().
  LogReader(ByteView file, DbFormat format, uint64_t log_number = 0,
            LogDamage damage = LogDamage::kStop);

  // The next bytes of the file. The reader views them in place: they must stay valid until Read
  // returns kNeedInput (after EndOfFile, until the reader is done). Feed only after kNeedInput
  // (or before the first Read).
  void Feed(ByteView chunk);
  // No bytes follow those fed.
  void EndOfFile();

  enum class ReadResult : uint8_t {
    kRecord,     // *record is the next record
    kNeedInput,  // every byte fed is consumed or held: Feed more, or EndOfFile
    kDone,       // the end of the log (end() says how it ended) or an error (status())
  };
  ReadResult Read(LogRecord* record);
  // Read for a whole file: false at the end of the log or on an error (or when input is needed).
  bool Next(LogRecord* record) { return Read(record) == ReadResult::kRecord; }

  const Status& status() const { return status_; }
  const LogEnd& end() const { return end_; }
  const std::vector<LogDrop>& drops() const { return drops_; }
  uint64_t unlisted_drops() const { return unlisted_drops_; }  // past kMaxLogDrops
  // The file bytes the reader holds copies of: the current block's, when they straddle chunks,
  // and the payload of the record being reassembled.
  size_t held_bytes() const;

 private:
  struct Fragment;
  // kDropped: a kSkip reader dropped the rest of a block.
  enum class Step : uint8_t { kFragment, kDropped, kNeedInput, kEnd, kError };
  Step NextFragment(Fragment* fragment);
  // Moves fed bytes into the current block: viewed in place when the chunk holds the block's
  // rest, else copied into block_.
  void FillBlock();
  void Start(const Fragment& fragment, LogRecordKind kind);
  // Drops the record being assembled (see Read).
  bool DropAssembled(uint64_t at, const char* why);
  Step EndInLeftovers(const char* what);
  bool Fail(ErrorCode code, const std::string& what, uint64_t offset);
  // Damage at `offset`: Fail (false) under kStop, else a drop of `size` bytes (true).
  bool Damage(ErrorCode code, const std::string& what, uint64_t offset, uint64_t size);
  // Damage from pos_ on: kError under kStop, else the block's rest dropped (kDropped).
  Step DropRestOfBlock(ErrorCode code, const std::string& what, uint64_t block_end);
  void EndTorn(uint64_t offset, const std::string& what);
  // Ends the log: nothing more is read.
  void Stop();

  DbFormat format_;
  uint64_t log_number_;
  LogDamage damage_;
  std::vector<LogDrop> drops_;
  uint64_t unlisted_drops_ = 0;
  ByteView input_;            // fed and not yet in the block
  uint64_t fed_ = 0;          // the bytes fed: the file's size at EndOfFile
  bool eof_ = false;          // EndOfFile was called
  bool stopped_ = false;      // an end or an error: no more fragments are read
  bool done_ = false;         // Read returned kDone
  uint64_t block_start_ = 0;  // the file offset of the current block
  ByteView block_;            // its bytes received so far: in the chunk fed, or in block_copy_
  Bytes block_copy_;          // the block's bytes when they straddle chunks
  uint64_t pos_ = 0;          // the file offset of the next unread byte
  bool assembling_ = false;   // partial_ is a record whose LAST fragment is still to come
  LogRecord partial_;         // the record being read
  bool recycled_ = false;     // the first record is recyclable
  bool data_record_seen_ = false;
  bool compression_seen_ = false;
  Status status_;
  LogEnd end_;
};

// ---- VersionEdit (docs/FORMATS.md 6.2) ----

// A table file as a VersionEdit adds it (rocksdb db/version_edit.h FileMetaData; LevelDB's has the
// number, size and keys only).
struct TableFileMeta {
  uint64_t number = 0;
  uint32_t path_id = 0;  // index into RocksDB's db_paths
  uint64_t size = 0;
  Bytes smallest;  // internal keys as stored: user key, then the 8-byte sequence/type trailer
  Bytes largest;
  bool has_seqnos = false;  // kNewFile (LevelDB's tag) carries none
  uint64_t smallest_seqno = 0;
  uint64_t largest_seqno = 0;
  // RocksDB's custom fields of kNewFile4 (0 / empty when absent).
  bool marked_for_compaction = false;
  uint64_t oldest_blob_file_number = 0;
  uint64_t oldest_ancester_time = 0;
  uint64_t file_creation_time = 0;
  uint64_t epoch_number = 0;
  Bytes file_checksum;
  std::string file_checksum_func_name;
  uint8_t temperature = 0;
  Bytes min_timestamp;
  Bytes max_timestamp;
  std::optional<std::array<uint64_t, 2>> unique_id;
  uint64_t compensated_range_deletion_size = 0;
  uint64_t tail_size = 0;
  std::optional<bool> user_defined_timestamps_persisted;
  std::vector<uint32_t> ignored_custom_tags;  // unknown tags without the "must understand" bit

  // The user keys of `smallest` and `largest` (the keys without their 8-byte trailer).
  ByteView smallest_user_key() const;
  ByteView largest_user_key() const;
};

struct BlobFileAddition {
  uint64_t number = 0;
  uint64_t total_blob_count = 0;
  uint64_t total_blob_bytes = 0;
  std::string checksum_method;
  Bytes checksum_value;
};

struct BlobFileGarbage {
  uint64_t number = 0;
  uint64_t garbage_blob_count = 0;
  uint64_t garbage_blob_bytes = 0;
};

struct WalAddition {
  uint64_t number = 0;
  std::optional<uint64_t> synced_size;
};

struct VersionEdit {
  struct NewFile {
    int level = 0;
    TableFileMeta meta;
  };
  struct DeletedFile {
    int level = 0;
    uint64_t number = 0;
  };
  struct CompactCursor {  // LevelDB's compaction pointer; RocksDB's compact cursor
    int level = 0;
    Bytes key;
  };

  std::optional<std::string> db_id;
  std::optional<std::string> comparator;
  std::optional<uint64_t> log_number;
  std::optional<uint64_t> prev_log_number;
  std::optional<uint64_t> next_file_number;
  std::optional<uint64_t> last_sequence;
  std::optional<uint32_t> max_column_family;
  std::optional<uint64_t> min_log_number_to_keep;  // kMinLogNumberToKeep or NewFile4's hack field
  uint32_t column_family = 0;                      // the edit applies to this column family
  std::optional<std::string> column_family_add;    // creates column_family with this name
  bool column_family_drop = false;
  std::optional<uint32_t> atomic_group_remaining;  // edits of the group still to come
  std::vector<DeletedFile> deleted_files;
  std::vector<NewFile> new_files;
  std::vector<CompactCursor> compact_cursors;
  std::vector<BlobFileAddition> blob_file_additions;
  std::vector<BlobFileGarbage> blob_file_garbage;
  std::vector<WalAddition> wal_additions;
  std::optional<uint64_t> wal_deletion;  // WALs below this number are gone
  std::optional<Bytes> full_history_ts_low;
  std::optional<bool> persist_user_defined_timestamps;
  std::optional<uint64_t> last_compacted_manifest_file_size;
  std::vector<uint32_t> ignored_tags;  // unknown tags with the "safe to ignore" bit, skipped
};

// Decodes one VersionEdit record (a log record's payload). kCorrupt with the offset within
// `record` for a truncated field, an unknown tag (RocksDB: one without the safe-to-ignore bit
// 1 << 13) or an unknown NewFile4 custom field with the "must understand" bit 1 << 6, and for
// fields RocksDB rejects (a path id above 3, a unique id of other than 16 bytes...); LevelDB's
// levels are 0 to 6. kUnsupported for a RocksDB level above kMaxDbLevel.
inline constexpr int kMaxDbLevel = 127;
Status DecodeVersionEdit(ByteView record, DbFormat format, VersionEdit* out);

// ---- The state a MANIFEST adds up to (docs/FORMATS.md 6.3) ----

struct BlobFileState {
  BlobFileAddition addition;
  uint64_t garbage_blob_count = 0;
  uint64_t garbage_blob_bytes = 0;
};

struct ColumnFamilyState {
  uint32_t id = 0;
  std::string name;  // "default" for id 0
  std::string comparator;
  uint64_t log_number = 0;  // WALs below this hold nothing of this column family
  // files[level]: LevelDB's order: every level by smallest key. RocksDB's: level 0 newest first
  // (epoch number, then largest and smallest sequence number, then file number, all descending),
  // deeper levels by smallest key. Keys compare by the column family's comparator where it is
  // bytewise or reverse bytewise (with the trailer descending after equal user keys); under any
  // other comparator deeper levels keep the order the files were added in.
  std::vector<std::vector<TableFileMeta>> files;
  std::vector<BlobFileState> blob_files;  // by number; fully garbage files leave
};

struct ManifestState {
  DbFormat format = DbFormat::kRocksDb;
  std::optional<std::string> db_id;
  uint64_t next_file_number = 0;
  uint64_t last_sequence = 0;
  uint64_t prev_log_number = 0;
  uint64_t min_log_number_to_keep = 0;
  uint32_t max_column_family = 0;
  std::vector<ColumnFamilyState> column_families;  // live ones, by id
  size_t edit_count = 0;                           // records decoded and applied
  LogEnd end;                                      // how the MANIFEST's log ended
  size_t unfinished_atomic_group = 0;  // edits of a group cut off at the end, not applied

  const ColumnFamilyState* ColumnFamily(uint32_t id) const;
};

// Reads a MANIFEST file: every record decoded and applied in order, as RocksDB's VersionSet and
// LevelDB's VersionSet::Recover do. Errors carry the file offset: those of LogReader and
// DecodeVersionEdit (mapped through the record's fragments), and kCorrupt for edits that do not
// apply (a deleted file not on that level and, for RocksDB, a file added twice, an edit for a
// column family that does not exist, a column family added twice), for a manifest without a
// comparator or next file number, and for a comparator that changes.
Status ReadManifest(ByteView manifest, DbFormat format, ManifestState* out);

// The MANIFEST a CURRENT file names: its one line, "MANIFEST-<number>" and a newline. kCorrupt
// (offset 0 or of the bad byte) for anything else, as both libraries refuse.
Status ParseCurrentFile(ByteView current, std::string* manifest_name);

// ---- Write batches and write-ahead logs (docs/FORMATS.md 6.4) ----

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

// ForEachWriteBatch over a file that comes in chunks: each batch goes to `on_batch` as soon as its
// record's last fragment has arrived, and Finish says how the log was read, as ForEachWriteBatch
// over the whole file does, whatever the chunks. Memory: what LogReader holds (a block's bytes
// and the record being reassembled) and the batch being handed over, never the file.
class WriteAheadLogReader {
 public:
  WriteAheadLogReader(DbFormat format, uint64_t log_number, LogDamage damage);

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

  DbFormat format_;
  bool skip_;
  LogReader reader_;
  LogRecord record_;
  WalContents out_;
  // kEnd: the reader's end or error, or on_batch said stop: the reader's state is the log's.
  // kMalformed: a bad batch ended the log and out_ is complete.
  enum class State : uint8_t { kReading, kEnd, kMalformed } state_ = State::kReading;
};

// ---- Blob files (docs/FORMATS.md 6.7) ----

inline constexpr size_t kBlobFileHeaderSize = 30;
inline constexpr size_t kBlobRecordHeaderSize = 32;
inline constexpr size_t kBlobFileFooterSize = 32;

// What CheckBlobFile read from a whole blob file (rocksdb db/blob/blob_log_format.h).
struct BlobFileCheck {
  uint32_t column_family_id = 0;
  uint8_t compression = 0;  // the blobs' CompressionType; the CRCs cover the stored bytes
  // A TTL file (stacked BlobDB's): the header's TTL flag, or a non-zero expiration range.
  // BlobFileReader refuses one in a database (rocksdb db/blob/blob_file_reader.cc ReadHeader).
  bool has_ttl = false;
  uint64_t blob_count = 0;  // records read; the footer's count agrees
  uint64_t blob_bytes = 0;  // the records with their headers and keys: what the MANIFEST records
};

// Checks a blob file as RocksDB's BlobFileReader reads one: the header (magic, version 1), the
// footer (magic, masked CRC32C), and every record between them (its header's masked CRC32C and the
// blob CRC over key and value), the records filling the space exactly and as many as the footer
// counts. kTruncated for a file too short for header and footer, kChecksumMismatch for a CRC that
// disagrees, kCorrupt for anything else; the offset is the header's, the record's or the footer's.
Status CheckBlobFile(ByteView file, BlobFileCheck* out);

// Where a blob index (kBlob) points: its blob's offset and size in the file, and the codec.
struct BlobPointer {
  uint64_t value_offset = 0;
  uint64_t value_size = 0;
  uint8_t compression = 0;     // CompressionType
  uint32_t column_family = 0;  // of the key whose index this is: the file's header must name it
};

// The value `pointer` names for `user_key`, as BlobFileReader::GetBlob reads it with
// verify_checksums (rocksdb db/blob/blob_file_reader.cc): `header` is the file's first
// kBlobFileHeaderSize bytes, `file_size` its size, and `record` the kBlobRecordHeaderSize + key +
// value bytes ending at value_offset + value_size. kCorrupt for a TTL file, a codec other than the
// file's, an offset no record can have ("invalid blob offset"), a key or size that disagrees with
// the record's, or a blob that does not decompress; kChecksumMismatch for either CRC; kTruncated
// when `record` or `header` is short. Offsets are the file's.
Status ReadBlobValue(ByteView header, uint64_t file_size, ByteView record, ByteView user_key,
                     const BlobPointer& pointer, Bytes* value);

// ---- Writing logs and MANIFESTs (docs/FORMATS.md 6.8) ----

// Frames records as a log file holds them (leveldb db/log_writer.cc, rocksdb db/log_writer.cc
// without recycling): 32 KiB blocks; each fragment a 7-byte header (masked CRC-32C of the type
// byte and the payload, u16 length, type FULL, FIRST, MIDDLE or LAST) and its payload; a block's
// tail too short for a header is zero-filled. LogReader reads it back.
class LogWriter {
 public:
  LogWriter() = default;
  // Appends to a log that already holds `file_length` bytes (leveldb log::Writer's dest_length):
  // the first fragment goes where that file's last block leaves off.
  explicit LogWriter(uint64_t file_length) : block_offset_(file_length % kLogBlockSize) {}

  void AddRecord(ByteView payload);
  // The bytes written since the last call; the file is all of them in order.
  Bytes TakeOutput();

 private:
  Bytes out_;
  size_t block_offset_ = 0;
};

// Encodes `edit` in VersionEdit's format, fields in EncodeTo's order (RocksDB: new files as
// kNewFile4; LevelDB: kNewFile). Not always EncodeTo's bytes: RocksDB writes some of a new file's
// custom fields (such as its oldest ancester time and creation time) even at their defaults and in
// its own order, this encoder only those that differ from their defaults; both decode to the same
// edit (rocksdb db/version_edit.cc). kUnsupported for fields this
// encoder does not write (blob files, WAL edits, timestamps, atomic groups, unique ids...);
// kBadOptions for what the format cannot hold (a LevelDB column family, a level out of range,
// keys without their 8-byte trailer).
Status EncodeVersionEdit(const VersionEdit& edit, DbFormat format, Bytes* manifest_record);

// The MANIFEST of a database that holds `files` and nothing else (one column family, no WAL):
// one record with the comparator, log number 0, the next file number past the files' numbers
// (and past 1, the MANIFEST's), `last_sequence`, and the files. With CURRENT naming it
// ("MANIFEST-000001\n"), the directory opens in RocksDB and LevelDB.
Status BuildManifest(DbFormat format, const std::string& comparator,
                     const std::vector<VersionEdit::NewFile>& files, uint64_t last_sequence,
                     Bytes* manifest);

}  // namespace sstfilter
