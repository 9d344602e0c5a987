// The log file format shared by MANIFESTs and write-ahead logs (docs/FORMATS.md 6.1): records
// framed in 32 KiB blocks, each fragment checksummed; LogReader reads them back as recovery does,
// LogWriter frames them as both libraries' log::Writer does. Bytes only: no file system.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/db_format.h"
#include "sstfilter/status.h"

namespace sstfilter {

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

// ---- Writing logs (docs/FORMATS.md 6.8) ----

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

}  // namespace sstfilter
