// The replay of write-ahead logs into the memtable (sstfilter/wal_recovery.h), with the decisions
// and messages the TypeScript replay it replaced had. Sources: rocksdb db/write_batch.cc
// (MemTableInserter: MarkBeginPrepare, MarkEndPrepare, MarkCommit, MarkCommitWithTimestamp,
// MarkRollback, MaybeAdvanceSeq; WriteBatchInternal::Iterate's checks of the begin markers against
// the write policy), db/db_impl/db_impl_open.cc (RecoverLogFiles: each batch starts at its
// header's sequence, stop_replay_for_corruption, "SST file is ahead of WALs"),
// db/db_impl/db_impl.h (InsertRecoveredTransaction) (7.8.3); leveldb db/db_impl.cc
// (RecoverLogFile); predecessor records: rocksdb 11.8.1 db/log_reader.cc
// (MaybeVerifyPredecessorWALInfo), db/db_impl/db_impl_open.cc (UpdatePredecessorWALInfo). Ground
// truth: the corpus sections db_twopc, db_wal_damage and v11_db.
#include "sstfilter/wal_recovery.h"

#include <algorithm>
#include <utility>

namespace sstfilter {
namespace {

std::string IdOf(const Bytes& xid) { return std::string(xid.begin(), xid.end()); }

Status Refusal(ErrorCode code, const std::string& what, uint64_t offset) {
  return Status::Error(code, "write batch at offset " + std::to_string(offset) + ": " + what,
                       static_cast<int64_t>(offset));
}

}  // namespace

const char* WalRecoveryModeName(WalRecoveryMode mode) {
  switch (mode) {
    case WalRecoveryMode::kTolerateCorruptedTailRecords:
      return "kTolerateCorruptedTailRecords";
    case WalRecoveryMode::kAbsoluteConsistency:
      return "kAbsoluteConsistency";
    case WalRecoveryMode::kPointInTimeRecovery:
      return "kPointInTimeRecovery";
    case WalRecoveryMode::kSkipAnyCorruptedRecords:
      return "kSkipAnyCorruptedRecords";
  }
  return "kPointInTimeRecovery";
}

const char* ReplayStopReasonName(ReplayStop::Reason reason) {
  return reason == ReplayStop::Reason::kDamage ? "damage" : "sequence-gap";
}

std::string XidText(ByteView xid) {
  const bool printable =
      std::all_of(xid.begin(), xid.end(), [](uint8_t b) { return b >= 0x20 && b < 0x7f; });
  if (printable) return std::string(xid.begin(), xid.end());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "0x";
  for (const uint8_t b : xid) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

WalReplay::WalReplay(WalReplayOptions options) : options_(std::move(options)) {
  if (options_.format == DbFormat::kRocksDb) {
    // paranoid_checks=false ignores what the reader reports, as kSkipAnyCorruptedRecords does
    // (the logs are read past damage: rocksdb db/db_impl/db_impl_open.cc RecoverLogFiles).
    const bool read_past =
        options_.mode == WalRecoveryMode::kSkipAnyCorruptedRecords || !options_.paranoid_checks;
    mode_ = read_past ? WalRecoveryMode::kSkipAnyCorruptedRecords : options_.mode;
    damage_ = read_past ? LogDamage::kSkip : LogDamage::kStop;
  } else {
    damage_ = LogDamage::kSkip;  // leveldb RecoverLogFile: paranoid_checks false by default
  }
  for (const ReplayColumnFamily& family : options_.column_families) {
    families_[family.id] = &family;
    memtable_.SetComparator(family.id, family.comparator);
  }
}

size_t WalReplay::TimestampSize(uint32_t column_family) const {
  const auto it = families_.find(column_family);
  return it == families_.end() || it->second->comparator == nullptr
             ? 0
             : it->second->comparator->timestamp_size();
}

void WalReplay::BeginLog(std::string name, uint64_t number) {
  RecoveredLog log;
  log.name = std::move(name);
  log.number = number;
  logs_.push_back(std::move(log));
  batch_error_ = Status::Ok();
  feeding_ = PredecessorWal{number, 0, 0};
  blamed_log_.reset();
  PredecessorCheck check;
  if (options_.format == DbFormat::kRocksDb && options_.track_and_verify_wals) {
    check = [this](const PredecessorWal& recorded, uint64_t offset) {
      return CheckPredecessor(recorded, offset);
    };
  }
  reader_.emplace(options_.format, number, damage_, std::move(check));
}

void WalReplay::Append(ByteView chunk) {
  if (reader_ && error_.ok()) {
    feeding_.size_bytes += chunk.size();
    reader_->Append(chunk, BatchSink());
  }
}

Status WalReplay::CheckPredecessor(const PredecessorWal& recorded, uint64_t offset) {
  // rocksdb db/log_reader.cc MaybeVerifyPredecessorWALInfo: not while the replay is stopped at
  // earlier damage (stop_replay_for_corruption); the reader's mode was checked by the caller.
  if (unresumed_damage_) return Status::Ok();
  std::string why;
  if (!observed_) {
    // The first log replayed: its predecessor must be one recovery had no need of, older than
    // every family's log number (MinLogNumberWithUnflushedData; a TransactionDB's
    // MinLogNumberToKeep can be lower, which this does not know).
    uint64_t min_wal_number = UINT64_MAX;
    for (const ReplayColumnFamily& family : options_.column_families) {
      min_wal_number = std::min(min_wal_number, family.log_number);
    }
    if (recorded.log_number >= min_wal_number) {
      why = "missing WAL of log number " + std::to_string(recorded.log_number);
    }
  } else if (recorded.log_number != observed_->log_number) {
    why = "mismatched predecessor log number: recorded " + std::to_string(recorded.log_number) +
          ", the log replayed before is " + std::to_string(observed_->log_number);
  } else if (recorded.last_sequence != observed_->last_sequence) {
    why = "mismatched last sequence number of log " + std::to_string(recorded.log_number) +
          ": recorded " + std::to_string(recorded.last_sequence) + ", replayed " +
          std::to_string(observed_->last_sequence);
  } else if (recorded.size_bytes != observed_->size_bytes) {
    why = "mismatched size of log " + std::to_string(recorded.log_number) + ": recorded " +
          std::to_string(recorded.size_bytes) + " bytes, read " +
          std::to_string(observed_->size_bytes);
  }
  if (why.empty()) return Status::Ok();
  // ReportCorruption names the recorded predecessor as the corrupted WAL.
  blamed_log_ = recorded.log_number;
  return Status::Error(ErrorCode::kCorrupt,
                       "predecessor WAL record at offset " + std::to_string(offset) + ": " + why +
                           " (track_and_verify_wals)",
                       static_cast<int64_t>(offset));
}

Status WalReplay::ReplayLog(std::string name, uint64_t number, ByteView file) {
  BeginLog(std::move(name), number);
  Append(file);
  return EndLog();
}

Status WalReplay::EndLog() {
  if (!error_.ok()) return error_;
  if (!reader_) {
    error_ = Status::Error(ErrorCode::kBadOptions, "EndLog without BeginLog");
    return error_;
  }
  WalContents contents = reader_->Finish(BatchSink());
  reader_.reset();
  RecoveredLog& log = logs_.back();
  log.end = std::move(contents.end);
  log.status = std::move(contents.status);
  log.malformed_batch = contents.malformed_batch;
  log.drops = std::move(contents.drops);
  log.unlisted_drops = contents.unlisted_drops;
  // A log this reader cannot decode (a compressed WAL) would read as empty: RocksDB reads it, so
  // the memtable cannot be told. This is checked before the log's markers.
  if (log.status.code() == ErrorCode::kUnsupported) {
    error_ = log.status;
  } else if (!batch_error_.ok()) {
    error_ = batch_error_;
  } else if (mode_ && !log.stopped) {
    error_ = CheckEnd(&log);
  }
  // RecoverLogFile: the log just read is the next one's predecessor (UpdatePredecessorWALInfo).
  if (error_.ok()) observed_ = feeding_;
  return error_;
}

// Bound per call, not kept: a WalReplay may move between calls.
WriteBatchSink WalReplay::BatchSink() {
  return [this](WriteBatch&& batch) { return OnBatch(std::move(batch)); };
}

bool WalReplay::OnBatch(WriteBatch&& batch) {
  // After a marker's refusal the log is only read on for a compressed record, which EndLog reports
  // first: the log's error is reported before what its replay refused.
  if (!batch_error_.ok()) return true;
  RecoveredLog& log = logs_.back();
  if (mode_ == WalRecoveryMode::kPointInTimeRecovery && unresumed_damage_) {
    if (next_ && batch.sequence == *next_) {
      unresumed_damage_.reset();
    } else {
      const std::string reached = next_ ? "the replay reached " + std::to_string(*next_)
                                        : std::string("no batch was replayed");
      log.stopped =
          ReplayStop{ReplayStop::Reason::kSequenceGap, batch.offset,
                     "its batch of sequence " + std::to_string(batch.sequence) +
                         " does not continue the replay (" + reached +
                         " and stopped at the damage in " + unresumed_damage_->first + ")"};
      return false;
    }
  }
  // RecoverLogFiles: every batch starts at its header's sequence number.
  sequence_ = batch.sequence;
  feeding_.last_sequence = batch.sequence;
  size_t next_marker = 0;
  for (size_t i = 0; i <= batch.records.size(); ++i) {
    // Markers at position i come before the batch's record i.
    while (next_marker < batch.markers.size() && batch.markers[next_marker].position == i) {
      batch_error_ = OnMarker(batch.markers[next_marker], batch.offset);
      if (!batch_error_.ok()) return true;
      ++next_marker;
    }
    if (i < batch.records.size()) OnRecord(std::move(batch.records[i]));
  }
  // A prepared section the batch does not end belongs to no transaction: the batch's
  // MemTableInserter drops it.
  section_.reset();
  next_ = sequence_;
  return true;
}

void WalReplay::OnRecord(WalRecord&& record) {
  if (section_) {
    section_->records.push_back(std::move(record));
    return;
  }
  // Without seq_per_batch (WRITE_COMMITTED) every record inserted takes the next number.
  record.sequence = sequence_++;
  Insert(record, record.key);
}

void WalReplay::Insert(const WalRecord& record, ByteView key) {
  ++logs_.back().records;
  if (options_.on_record) options_.on_record(record);
  const auto family = families_.find(record.column_family);
  if (family == families_.end() || logs_.back().number < family->second->log_number) return;
  if (options_.only_key) {
    if (record.column_family != options_.only_column_family) return;
    const ByteView wanted = *options_.only_key;
    const Comparator& comparator =
        family->second->comparator == nullptr ? BytewiseComparator() : *family->second->comparator;
    // Under a timestamp comparator the key wanted comes without a timestamp (a Get at the largest
    // reads every version): its records at every timestamp are kept.
    const size_t ts = comparator.timestamp_size();
    if (record.kind == WalRecordKind::kRangeDelete) {
      if (!RangeDeletionCovers(comparator, key, record.value, wanted)) return;
    } else if (key.size() < ts ||
               !std::equal(key.begin(), key.end() - static_cast<std::ptrdiff_t>(ts), wanted.begin(),
                           wanted.end())) {
      return;
    }
  }
  memtable_.Add(logs_.back().number, record.column_family, record.kind, record.sequence, key,
                record.value);
}

Status WalReplay::OnMarker(const WalMarker& marker, uint64_t batch_offset) {
  const RecoveredLog& log = logs_.back();
  const char* policy = marker.kind == WalMarkerKind::kBeginPersistedPrepare ? "WRITE_PREPARED"
                       : marker.kind == WalMarkerKind::kBeginUnprepare      ? "WRITE_UNPREPARED"
                                                                            : nullptr;
  if (policy != nullptr) {
    return Refusal(ErrorCode::kUnsupported,
                   std::string("a ") + WalMarkerKindName(marker.kind) + " marker: a " + policy +
                       " TransactionDB wrote this WAL; sstfilter replays WALs as the default "
                       "WRITE_COMMITTED recovery does, which refuses it (RocksDB: NotSupported)",
                   batch_offset);
  }
  switch (marker.kind) {
    case WalMarkerKind::kBeginPrepare:
      if (section_) {
        return Refusal(ErrorCode::kCorrupt, "begin-prepare inside a prepared section",
                       batch_offset);
      }
      section_ = PreparedTransaction{{}, log.name, batch_offset, {}};
      return Status::Ok();
    case WalMarkerKind::kEndPrepare: {
      if (!section_) {
        return Refusal(ErrorCode::kCorrupt, "end-prepare without begin-prepare", batch_offset);
      }
      if (prepared_by_xid_.count(IdOf(marker.data)) != 0) {
        return Refusal(ErrorCode::kUnsupported,
                       "transaction " + XidText(marker.data) + " prepared twice", batch_offset);
      }
      section_->xid = marker.data;
      prepared_.push_back(std::move(*section_));
      prepared_by_xid_[IdOf(marker.data)] = std::prev(prepared_.end());
      section_.reset();
      return Status::Ok();
    }
    case WalMarkerKind::kCommit:
    case WalMarkerKind::kCommitWithTimestamp: {
      const auto found = prepared_by_xid_.find(IdOf(marker.data));
      // Not prepared in the logs read: its section was flushed before (or rolled back).
      if (found == prepared_by_xid_.end()) return Status::Ok();
      PreparedTransaction transaction = std::move(*found->second);
      prepared_.erase(found->second);
      prepared_by_xid_.erase(found);
      for (WalRecord& r : transaction.records) {
        // WriteBatch::UpdateTimestamps: the commit timestamp over the key's own, where it has one.
        const size_t size =
            marker.kind == WalMarkerKind::kCommitWithTimestamp ? TimestampSize(r.column_family) : 0;
        if (size != 0) {
          if (marker.timestamp.size() != size || r.key.size() < size) {
            return Status::Error(ErrorCode::kCorrupt,
                                 "commit of " + XidText(marker.data) + ": a " +
                                     std::to_string(marker.timestamp.size()) +
                                     "-byte timestamp for a column family of " +
                                     std::to_string(size) + "-byte timestamps");
          }
          std::copy(marker.timestamp.begin(), marker.timestamp.end(), r.key.end() - size);
        }
        r.sequence = sequence_++;
        Insert(r, r.key);
      }
      return Status::Ok();
    }
    case WalMarkerKind::kRollback: {
      const auto found = prepared_by_xid_.find(IdOf(marker.data));
      if (found != prepared_by_xid_.end()) {
        prepared_.erase(found->second);
        prepared_by_xid_.erase(found);
      }
      return Status::Ok();
    }
    default:
      return Status::Ok();  // noop, log-data: nothing to insert, no sequence number
  }
}

Status WalReplay::CheckEnd(RecoveredLog* log) {
  // How the log ended, as ts/api/wal.ts names it: a bad record ("corrupt"), a malformed batch,
  // or the reader's end (clean, torn, a recycled file's old record).
  const bool failed = !log->status.ok();
  const uint64_t offset =
      failed ? static_cast<uint64_t>(std::max<int64_t>(log->status.offset(), 0)) : log->end.offset;
  const std::string what = failed ? log->status.message() : log->end.what;
  const auto refuse = [&](const std::string& why) {
    return Status::Error(ErrorCode::kCorrupt,
                         "the database does not open: RocksDB's recovery " + why + ": " + what,
                         static_cast<int64_t>(offset));
  };
  // UpdateProtectionInfo's WriteBatch::Iterate refuses it, and RecoverLogFiles returns that.
  if (failed && log->malformed_batch) return refuse("refuses a malformed write batch");
  const bool torn = !failed && log->end.kind == LogEnd::Kind::kTorn;
  if (!failed && !torn) return Status::Ok();
  switch (*mode_) {
    case WalRecoveryMode::kPointInTimeRecovery:
      // A torn tail is damage too: the log reader reports it in this mode.
      unresumed_damage_ = std::make_pair(log->name, blamed_log_.value_or(log->number));
      log->stopped = ReplayStop{ReplayStop::Reason::kDamage, offset, what};
      return Status::Ok();
    case WalRecoveryMode::kTolerateCorruptedTailRecords:
      // The reader reports no torn tail in this mode; other damage fails the open.
      if (torn) return Status::Ok();
      return refuse("(kTolerateCorruptedTailRecords) stops at damage other than a torn tail");
    case WalRecoveryMode::kAbsoluteConsistency:
      return refuse("(kAbsoluteConsistency) stops at any damage, a torn tail included");
    case WalRecoveryMode::kSkipAnyCorruptedRecords:
      return Status::Ok();  // read past by the reader; a torn tail ends the log
  }
  return Status::Ok();
}

Status WalReplay::Finish(const std::vector<FamilyWithTables>& families_with_tables) {
  if (!error_.ok()) return error_;
  memtable_.Finish();
  if (!unresumed_damage_) return Status::Ok();
  // RecoverLogFiles after a point-in-time stop that never resumed: a family flushed past the
  // damaged log holds writes the lost records came before, and DB::Open refuses the database.
  for (const FamilyWithTables& family : families_with_tables) {
    if (family.log_number <= unresumed_damage_->second) continue;
    return Status::Error(ErrorCode::kCorrupt,
                         "the database does not open: RocksDB's recovery stops at the damage in " +
                             unresumed_damage_->first + ", and column family " + family.name +
                             " has tables of later writes (log number " +
                             std::to_string(family.log_number) +
                             "): \"SST file is ahead of WALs in CF " + family.name + "\"");
  }
  return Status::Ok();
}

std::vector<PreparedTransaction> WalReplay::PreparedUncommitted() const {
  return {prepared_.begin(), prepared_.end()};
}

std::optional<std::pair<std::string, uint64_t>> WalReplay::UnresumedDamage() const {
  return unresumed_damage_;
}

}  // namespace sstfilter
