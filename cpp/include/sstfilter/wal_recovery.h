// The replay of a database's write-ahead logs into its memtable, as DB::Open recovers them
// (docs/FORMATS.md 6.4): each log's write batches in order, each record given its sequence number
// and inserted into the memtable of its column family. Nothing here touches a file system: the
// caller feeds each log's bytes, logs in ascending order of number.
//
// Two-phase commit is replayed as a TransactionDB of the default WRITE_COMMITTED policy replays it:
// a prepared section's records are held back and take sequence numbers only where the commit
// marker of their transaction id is read; rolled-back sections and sections never committed do not
// reach the memtable (they are reported as prepared transactions). The markers of the other write
// policies fail the replay (kUnsupported), as that recovery refuses them.
//
// Damage (docs/FORMATS.md 6.4.2), by RocksDB's wal_recovery_mode: point-in-time recovery (the
// default) replays a log up to its damage (a torn tail counts) and then drops each later log from
// its first batch whose sequence number does not continue the replay; one that does resumes it.
// kTolerateCorruptedTailRecords reads to a torn tail and fails at other damage,
// kAbsoluteConsistency fails at both, kSkipAnyCorruptedRecords and paranoid_checks=false read past
// damage. A batch whose checksum holds but which WriteBatch::Iterate refuses fails the replay in
// every mode. LevelDB's recovery reads past damage and replays every log whole.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/comparator.h"
#include "sstfilter/memtable.h"
#include "sstfilter/status.h"
#include "sstfilter/write_batch.h"

namespace sstfilter {

// RocksDB's WALRecoveryMode (include/rocksdb/options.h), with its values.
enum class WalRecoveryMode : uint8_t {
  kTolerateCorruptedTailRecords = 0,
  kAbsoluteConsistency = 1,
  kPointInTimeRecovery = 2,
  kSkipAnyCorruptedRecords = 3,
};

// "kTolerateCorruptedTailRecords", ...: the names an OPTIONS file gives them.
const char* WalRecoveryModeName(WalRecoveryMode mode);

// A column family whose records the replay keeps.
struct ReplayColumnFamily {
  uint32_t id = 0;
  // Logs numbered below it hold nothing of this family that its tables lack: their records of it
  // are not kept (a Get skips them).
  uint64_t log_number = 0;
  // Its key order; its timestamp_size() is the size of the timestamp a commit with timestamp
  // writes over the end of its keys. Null: bytewise, no timestamp.
  ComparatorRef comparator;
};

struct WalReplayOptions {
  DbFormat format = DbFormat::kRocksDb;
  // RocksDB's wal_recovery_mode and paranoid_checks (false reads past damage, as
  // kSkipAnyCorruptedRecords does). LevelDB's recovery ignores both and reads past damage.
  WalRecoveryMode mode = WalRecoveryMode::kPointInTimeRecovery;
  bool paranoid_checks = true;
  // RocksDB's track_and_verify_wals (OPTIONS): each predecessor record is checked against the log
  // replayed before it, a mismatch being damage at that record (docs/FORMATS.md 6.4.2).
  bool track_and_verify_wals = false;
  // The families whose records the memtable keeps; others' records are replayed (they take their
  // sequence numbers) but not kept, as recovery ignores writes to a family it does not have.
  std::vector<ReplayColumnFamily> column_families;
  // Keep only the versions of this one stored key of `only_column_family` (under a timestamp
  // comparator: of this key without its timestamp, at every timestamp), and the range
  // deletions of that family covering it: a single Get over logs of any size in memory bounded by
  // that key's versions. Everything else (sequence numbers, stops, prepared transactions) is
  // replayed the same.
  std::optional<Bytes> only_key;
  uint32_t only_column_family = 0;
  // Called with each record given a sequence number, in replay order, of every column family and
  // kept or not (a committed transaction's at its commit marker, its key carrying the commit's
  // timestamp): what a caller listing the replay (ts/api db.recoverLogs) sees. May be empty.
  std::function<void(const WalRecord& record)> on_record;
};

// Where point-in-time recovery left a log before its end.
struct ReplayStop {
  enum class Reason : uint8_t {
    kDamage,       // at the log's damage or torn tail: the records after it are lost
    kSequenceGap,  // at a batch that does not continue the replay after an earlier log's damage
  };
  Reason reason = Reason::kDamage;
  uint64_t offset = 0;  // the file offset of the damage, or of the batch
  std::string what;
};

// "damage" | "sequence-gap".
const char* ReplayStopReasonName(ReplayStop::Reason reason);

// One log's part of the replay.
struct RecoveredLog {
  std::string name;  // "000012.log"
  uint64_t number = 0;
  // The records given sequence numbers while this log was replayed (of every column family, a
  // committed transaction's at its commit marker), kept or not.
  uint64_t records = 0;
  std::optional<ReplayStop> stopped;  // none: the replay read all of it
  // How the log reader ended the log, and what it read past (sstfilter/db.h WalContents).
  LogEnd end;
  Status status;
  bool malformed_batch = false;
  std::vector<LogDrop> drops;
  uint64_t unlisted_drops = 0;
};

// A transaction prepared in the logs and neither committed nor rolled back in them.
struct PreparedTransaction {
  Bytes xid;            // its id, as its end-prepare marker holds it
  std::string log;      // the log holding its prepared section
  uint64_t offset = 0;  // the file offset of that section's batch
  // Its records, numbered as the log lists them (they take sequence numbers only at a commit).
  std::vector<WalRecord> records;
};

// A transaction id as a message shows it: the text where every byte is printable, else 0x and hex.
std::string XidText(ByteView xid);

class WalReplay {
 public:
  explicit WalReplay(WalReplayOptions options);

  // Feeds one log: BeginLog, its bytes in chunks of any size, then EndLog. Logs in ascending
  // number. Append replays each write batch whose record the chunk completes before it returns
  // (the chunk need not outlive the call); EndLog reads the log's last block and says how the log
  // ended (a torn tail, its damage...), exactly as a replay of the whole file would. An error is
  // where DB::Open would refuse the database (kCorrupt, the log's offset), or what cannot be
  // replayed (kUnsupported: a compressed log, another write policy's markers); it is the log's
  // that was fed, and every later call returns it.
  //
  // Memory: no log is ever held whole. Besides the memtable (with only_key, that key's versions),
  // the replay holds the unread bytes of the log's current 32 KiB block when they straddle two
  // chunks, the record being reassembled from its fragments, the batch being replayed, and the
  // prepared transactions not yet committed (held_bytes() counts the first two).
  void BeginLog(std::string name, uint64_t number);
  void Append(ByteView chunk);
  Status EndLog();
  // BeginLog, Append, EndLog.
  Status ReplayLog(std::string name, uint64_t number, ByteView file);

  // Ends the replay: indexes the memtable. Then, for RocksDB, the refusal DB::Open makes after a
  // point-in-time stop that never resumed when a family (`families_with_tables`: the ids of those
  // holding table files, with their MANIFEST log numbers) was flushed past the damaged log: its
  // tables hold writes the lost records came before ("SST file is ahead of WALs").
  struct FamilyWithTables {
    uint32_t id = 0;
    std::string name;
    uint64_t log_number = 0;
  };
  Status Finish(const std::vector<FamilyWithTables>& families_with_tables = {});

  const std::vector<RecoveredLog>& logs() const { return logs_; }
  // In the order they were prepared.
  std::vector<PreparedTransaction> PreparedUncommitted() const;
  // RocksDB: the damaged log (name, number) after which the replay never resumed.
  std::optional<std::pair<std::string, uint64_t>> UnresumedDamage() const;
  const MemTable& memtable() const { return memtable_; }
  // The sequence number after the last batch replayed; none before the first.
  std::optional<uint64_t> next_sequence() const { return next_; }
  // The log bytes held between Appends: the current block's, when they straddle chunks, and the
  // record being reassembled (WriteAheadLogReader::held_bytes); 0 outside a log.
  size_t held_bytes() const { return reader_ ? reader_->held_bytes() : 0; }

 private:
  WriteBatchSink BatchSink();
  bool OnBatch(WriteBatch&& batch);
  Status OnMarker(const WalMarker& marker, uint64_t batch_offset);
  void OnRecord(WalRecord&& record);
  void Insert(const WalRecord& record, ByteView key);
  Status CheckEnd(RecoveredLog* log);
  Status CheckPredecessor(const PredecessorWal& recorded, uint64_t offset);
  size_t TimestampSize(uint32_t column_family) const;

  WalReplayOptions options_;
  // RocksDB's mode as it acts on damage; none for LevelDB.
  std::optional<WalRecoveryMode> mode_;
  LogDamage damage_;
  MemTable memtable_;
  std::map<uint32_t, const ReplayColumnFamily*> families_;
  std::vector<RecoveredLog> logs_;
  // Prepared and not yet committed or rolled back, in the order prepared, and by id (its bytes).
  std::list<PreparedTransaction> prepared_;
  std::map<std::string, std::list<PreparedTransaction>::iterator> prepared_by_xid_;
  std::optional<std::pair<std::string, uint64_t>> unresumed_damage_;
  uint64_t sequence_ = 0;
  std::optional<uint64_t> next_;
  std::optional<PreparedTransaction> section_;
  std::optional<WriteAheadLogReader> reader_;  // the log being fed, between BeginLog and EndLog
  Status error_;                               // the replay's failure, kept
  Status batch_error_;                         // a marker's refusal in the log being replayed
  // track_and_verify_wals: the last log replayed, as a predecessor record would describe it (its
  // size counts the bytes fed, its last sequence is its last batch's); none before the first.
  std::optional<PredecessorWal> observed_;
  PredecessorWal feeding_;  // the log being fed, so far
  // The log number a failed predecessor check blames: RocksDB's corrupted WAL number.
  std::optional<uint64_t> blamed_log_;
};

}  // namespace sstfilter
