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
class LogReader {
 public:
  LogReader(ByteView file, DbFormat format, uint64_t log_number = 0,
            LogDamage damage = LogDamage::kStop);

  // The next record; false at the end of the log (end() says how it ended) or on an error.
  bool Next(LogRecord* record);
  const Status& status() const { return status_; }
  const LogEnd& end() const { return end_; }
  const std::vector<LogDrop>& drops() const { return drops_; }
  uint64_t unlisted_drops() const { return unlisted_drops_; }  // past kMaxLogDrops

 private:
  struct Fragment;
  // kDropped: a kSkip reader dropped the rest of a block.
  enum class Step : uint8_t { kFragment, kDropped, kEnd, kError };
  Step NextFragment(Fragment* fragment);
  Step EndInLeftovers(const char* what);
  bool Fail(ErrorCode code, const std::string& what, uint64_t offset);
  // Damage at `offset`: Fail (false) under kStop, else a drop of `size` bytes (true).
  bool Damage(ErrorCode code, const std::string& what, uint64_t offset, uint64_t size);
  // Damage from pos_ on: kError under kStop, else the block's rest dropped (kDropped).
  Step DropRestOfBlock(ErrorCode code, const std::string& what, size_t block_end);
  void EndTorn(uint64_t offset, const std::string& what);

  ByteView file_;
  DbFormat format_;
  uint64_t log_number_;
  LogDamage damage_;
  std::vector<LogDrop> drops_;
  uint64_t unlisted_drops_ = 0;
  size_t pos_ = 0;
  bool recycled_ = false;  // the first record is recyclable
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
