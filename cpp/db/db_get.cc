// DbGet (sstfilter/db_get.h): the memtable's versions log by log, then the candidate tables one
// TableGet each, every source's answer taken by a Resolution as GetContext takes entries.
#include "sstfilter/db_get.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "sstfilter/table_get.h"
#include "sstfilter/values.h"
#include "table/block_fetcher.h"

namespace sstfilter {
namespace {

using Entry = DbGetStep::Entry;
using Outcome = DbGetResult::Outcome;

// A version of the key as a source (a memtable log, a table) holds it.
struct Version {
  Entry entry = Entry::kValue;  // kValue, kDeletion, kSingleDeletion or kMerge
  uint64_t sequence = 0;
  ByteView value;
  bool in_blob_file = false;
  std::optional<ByteView> entity;  // a wide-column entity's bytes; `value` its default column
};

// What one source (a log's records, a table) holds for the key.
struct SourceAnswer {
  std::vector<Version> versions;    // newest first
  uint64_t covering_tombstone = 0;  // the largest covering range deletion's sequence; 0: none
};

// What a step found, and the index of the version that decided (none: no version did).
struct StepFinding {
  Entry entry = Entry::kNone;
  std::optional<uint64_t> sequence;
  std::optional<size_t> decided_at;
};

std::string FileText(DbGetStep::Where where, uint64_t number) {
  std::string digits = std::to_string(number);
  if (digits.size() < 6) digits.insert(0, 6 - digits.size(), '0');
  return (where == DbGetStep::Where::kMemTable ? "log " : "table ") + digits;
}

Status InFile(const Status& s, const std::string& file) {
  return Status::Error(s.code(), file + ": " + s.message(), s.offset());
}

// The default column's value of a wide-column entity, empty when it has none: what Get answers for
// one (rocksdb db/wide/wide_column_serialization.cc GetValueOfDefaultColumn, taken by
// GetContext::SaveValue for kTypeWideColumnEntity). A default column kept in a blob file (entity
// version 2) is answered as its blob index, read as a blob index entry's is.
Status DefaultColumn(ByteView entity, Version* out) {
  std::vector<WideColumn> columns;
  if (Status s = DecodeWideColumns(entity, &columns); !s.ok()) return s;
  out->entity = entity;
  out->value = ByteView();
  if (columns.empty() || !columns.front().name.empty()) return Status::Ok();
  out->value = columns.front().value;
  out->in_blob_file = columns.front().blob_index.has_value();
  return Status::Ok();
}

// The version a memtable record stands for: a TimedPut's value comes
// without its write time already (the WAL reader's), a blob index is answered as the index.
Status MemTableVersionOf(const MemTableVersion& v, Version* out) {
  out->sequence = v.sequence;
  out->value = v.value;
  switch (v.kind) {
    case WalRecordKind::kPut:
    case WalRecordKind::kTimedPut:
      out->entry = Entry::kValue;
      return Status::Ok();
    case WalRecordKind::kBlobIndex:
      out->entry = Entry::kValue;
      out->in_blob_file = true;
      return Status::Ok();
    case WalRecordKind::kWideColumns:
      out->entry = Entry::kValue;
      return DefaultColumn(v.value, out);
    case WalRecordKind::kDelete:
      out->entry = Entry::kDeletion;
      return Status::Ok();
    case WalRecordKind::kSingleDelete:
      out->entry = Entry::kSingleDeletion;
      return Status::Ok();
    case WalRecordKind::kMerge:
      out->entry = Entry::kMerge;
      return Status::Ok();
    case WalRecordKind::kRangeDelete:
      break;  // the memtable keeps these apart (CoveringTombstone)
  }
  return Status::Error(ErrorCode::kUnsupported, "get: a range deletion among the key's versions");
}

// The version a table entry stands for. A TimedPut's stored value ("value-preferred-seqno") ends
// with its 8-byte preferred sequence number, which GetContext::SaveValue cuts off (rocksdb
// table/get_context.cc, ParsePackedValueForValue in db/dbformat.h).
Status TableVersionOf(uint64_t tag, ByteView value, Version* out) {
  out->sequence = tag >> 8;
  out->value = value;
  switch (static_cast<EntryType>(tag & 0xff)) {
    case EntryType::kPut:
      out->entry = Entry::kValue;
      return Status::Ok();
    case EntryType::kValuePreferredSeqno:
      if (value.size() < 8) {
        return Status::Error(ErrorCode::kCorrupt,
                             "get: the TimedPut value at sequence " +
                                 std::to_string(out->sequence) + " is " +
                                 std::to_string(value.size()) +
                                 " bytes, too short for its preferred sequence number");
      }
      out->entry = Entry::kValue;
      out->value = value.first(value.size() - 8);
      return Status::Ok();
    case EntryType::kBlobIndex:
      out->entry = Entry::kValue;
      out->in_blob_file = true;
      return Status::Ok();
    case EntryType::kWideColumnEntity:
      out->entry = Entry::kValue;
      return DefaultColumn(value, out);
    case EntryType::kDelete:
    case EntryType::kDeleteWithTimestamp:
      out->entry = Entry::kDeletion;
      return Status::Ok();
    case EntryType::kSingleDelete:
      out->entry = Entry::kSingleDeletion;
      return Status::Ok();
    case EntryType::kMerge:
      out->entry = Entry::kMerge;
      return Status::Ok();
    case EntryType::kRangeDelete:
      break;
  }
  return Status::Error(ErrorCode::kUnsupported, "get: the key's entry at sequence " +
                                                    std::to_string(out->sequence) + " is of type " +
                                                    std::to_string(tag & 0xff) +
                                                    ", which get does not resolve");
}

// GetContext: takes the sources newest first and decides at a value or a deletion, or at a range
// deletion newer than what is left (a version older than the largest covering range deletion seen
// so far counts as deleted by it).
class Resolution {
 public:
  bool decided() const { return decided_; }
  const DbGetResult& result() const { return result_; }

  StepFinding Take(const SourceAnswer& answer) {
    covering_ = std::max(covering_, answer.covering_tombstone);
    StepFinding last;
    for (size_t i = 0; i < answer.versions.size(); ++i) {
      const Version& v = answer.versions[i];
      if (v.sequence < covering_) {
        Decide(nullptr, covering_);
        return {Entry::kRangeDeletion, covering_, i};
      }
      if (v.entry == Entry::kMerge) {
        result_.operands.emplace_back(v.value.begin(), v.value.end());
        if (!newest_operand_) newest_operand_ = v.sequence;
        last = {Entry::kMerge, v.sequence, std::nullopt};
        continue;
      }
      Decide(v.entry == Entry::kValue ? &v.value : nullptr, v.sequence);
      result_.value_is_blob_index = v.in_blob_file;
      if (v.entity) result_.entity.emplace(v.entity->begin(), v.entity->end());
      return {v.entry, v.sequence, i};
    }
    // Version::Get stops at the first source after a covering range deletion: every older entry
    // is covered.
    if (covering_ > 0) {
      Decide(nullptr, covering_);
      return {Entry::kRangeDeletion, covering_, std::nullopt};
    }
    return last;
  }

  // No source decided: the operands without a base, or nothing.
  void End() {
    if (decided_) return;
    decided_ = true;
    if (!result_.operands.empty()) {
      result_.outcome = Outcome::kMergeOperands;
      result_.sequence = newest_operand_;
    }
  }

 private:
  void Decide(const ByteView* value, uint64_t sequence) {
    decided_ = true;
    if (value != nullptr) {
      result_.has_value = true;
      result_.value.assign(value->begin(), value->end());
    }
    if (!result_.operands.empty()) {
      result_.outcome = Outcome::kMergeOperands;
      result_.sequence = newest_operand_;
    } else {
      result_.outcome = value == nullptr ? Outcome::kDeleted : Outcome::kFound;
      result_.sequence = sequence;
    }
  }

  DbGetResult result_;
  std::optional<uint64_t> newest_operand_;
  uint64_t covering_ = 0;
  bool decided_ = false;
};

// The data blocks BlockBasedTable::Get reads of those the table's lookup read: it goes on to the
// next block until an entry after the key or one that decides is seen, so a merge chain running
// past a block's end costs a block more, and so does a key between a block's last key and the
// index separator above it.
uint64_t BlocksUntilDecided(const std::vector<TableGet::BlockRead>& blocks,
                            std::optional<size_t> decided_at) {
  if (!decided_at) return blocks.size();
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].entries_end > *decided_at) return i + 1;
  }
  return blocks.size();
}

// A table file's smallest or largest user key as a Get at the largest timestamp compares it with
// the key (FilePicker compares without timestamps: rocksdb db/version_set.cc): the MANIFEST keeps
// the timestamp of a family with `ts`-byte timestamps, unless the file was written without them
// (NewFile4 field 16 false: rocksdb db/version_edit.cc EncodeFileBoundaries strips it there too).
ByteView BoundaryWithoutTimestamp(ByteView boundary, const TableFileMeta& file, size_t ts) {
  if (ts == 0 || file.user_defined_timestamps_persisted == false || boundary.size() < ts) {
    return boundary;
  }
  return boundary.first(boundary.size() - ts);
}

}  // namespace

const char* DbGetOutcomeName(DbGetResult::Outcome outcome) {
  switch (outcome) {
    case Outcome::kFound:
      return "found";
    case Outcome::kDeleted:
      return "deleted";
    case Outcome::kNotFound:
      return "not-found";
    case Outcome::kMergeOperands:
      return "merge-operands";
  }
  return "";
}

const char* DbGetFilterName(DbGetStep::Filter filter) {
  switch (filter) {
    case DbGetStep::Filter::kNo:
      return "no";
    case DbGetStep::Filter::kMaybe:
      return "maybe";
    case DbGetStep::Filter::kNone:
      return "none";
    case DbGetStep::Filter::kNotConsulted:
      break;
  }
  return "";
}

const char* DbGetEntryName(DbGetStep::Entry entry) {
  switch (entry) {
    case Entry::kValue:
      return "value";
    case Entry::kDeletion:
      return "deletion";
    case Entry::kSingleDeletion:
      return "single-deletion";
    case Entry::kMerge:
      return "merge";
    case Entry::kRangeDeletion:
      return "range-deletion";
    case Entry::kNone:
      return "none";
    case Entry::kNotRead:
      break;
  }
  return "";
}

struct DbGet::State {
  struct Candidate {
    int level = 0;
    const TableFileMeta* file = nullptr;
  };

  DbGetOptions options;
  Bytes key;
  Resolution resolution;
  std::vector<DbGetStep> steps;
  Status error;  // the lookup's failure, kept
  bool started = false;
  bool done = false;
  // The tables in the order a Get consults them; `next` the one to take up.
  std::vector<Candidate> candidates;
  size_t next = 0;
  // The table being read: wanted (open_wanted) until SetTable, then read by `get`.
  bool open_wanted = false;
  std::unique_ptr<TableGet> get;
  // What the current table's lookup needs while nothing is being read.
  TableFileFormat idle_format;
  BlockFetcher idle{&idle_format};

  Status Fail(Status s) {
    error = std::move(s);
    return error;
  }
  Status Start();
  Status MemTableSteps();
  void ListCandidates();
  Status FinishTable();
};

DbGet::DbGet(DbGetOptions options, ByteView user_key) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
  state_->key.assign(user_key.begin(), user_key.end());
}

DbGet::~DbGet() = default;

bool DbGet::done() const { return state_->done; }
const DbGetResult& DbGet::result() const { return state_->resolution.result(); }
const std::vector<DbGetStep>& DbGet::steps() const { return state_->steps; }

BlockFetcher& DbGet::fetcher() const { return state_->get ? state_->get->fetcher() : state_->idle; }

const TableFileMeta* DbGet::table_needed() const {
  const State& s = *state_;
  return s.open_wanted || s.get ? s.candidates[s.next].file : nullptr;
}

int DbGet::table_level() const {
  const State& s = *state_;
  return s.open_wanted || s.get ? s.candidates[s.next].level : -1;
}

Status DbGet::SetTable(const TableReader& table) {
  State& s = *state_;
  if (!s.open_wanted) {
    return Status::Error(ErrorCode::kBadOptions, "get: no table is wanted (table_needed)");
  }
  if (!table.is_open()) {
    return Status::Error(ErrorCode::kBadOptions, "get: the table handed over is not open");
  }
  s.open_wanted = false;
  TableReadOptions read = s.options.read;
  if (read.cache_table.owner != 0) read.cache_table.file = s.candidates[s.next].file->number;
  s.get = std::make_unique<TableGet>(table, s.key, read);
  return Status::Ok();
}

Status DbGet::State::Start() {
  if (options.family == nullptr) {
    return Status::Error(ErrorCode::kBadOptions, "get: no column family given");
  }
  if (!options.comparator) {
    options.comparator = BuiltinComparator(options.family->comparator);
    if (!options.comparator) {
      return Status::Error(ErrorCode::kUnsupported, "get: the column family's comparator " +
                                                        options.family->comparator +
                                                        " is not built in; supply it");
    }
  }
  if (options.read_timestamp && options.comparator->timestamp_size() == 0) {
    return Status::Error(ErrorCode::kBadOptions,
                         "get: a read timestamp, but the column family's keys have none");
  }
  if (Status s = MemTableSteps(); !s.ok()) return s;
  ListCandidates();
  return Status::Ok();
}

// The memtable: the logs the family's records may still be in (logs below its log number were
// flushed for it), newest first, each a step (MemTable::Get over the memtables recovery fills).
Status DbGet::State::MemTableSteps() {
  if (options.memtable == nullptr) return Status::Ok();
  const ColumnFamilyState& family = *options.family;
  std::vector<uint64_t> logs;
  for (uint64_t n : options.log_numbers) {
    if (n >= family.log_number) logs.push_back(n);
  }
  std::sort(logs.begin(), logs.end(), std::greater<>());
  logs.erase(std::unique(logs.begin(), logs.end()), logs.end());
  // A family with timestamps stores each key with its timestamp: a Get reads at the read
  // timestamp (the largest unless asked otherwise), so every version of the key up to it counts,
  // newest timestamp first.
  const Comparator& order = *options.comparator;
  if (order.timestamp_size() != 0 && !OrdersByKeyThenTimestamp(order)) {
    return Status::Error(ErrorCode::kUnsupported,
                         "get: the memtable does not keep versions of one key together under the "
                         "timestamp comparator " +
                             std::string(order.Name()));
  }
  const uint64_t read_timestamp = options.read_timestamp.value_or(MemTable::kNewestTimestamp);
  const std::vector<MemTableVersion> all =
      order.timestamp_size() != 0
          ? options.memtable->VersionsAtEveryTimestamp(family.id, key, read_timestamp)
          : options.memtable->Versions(family.id, key);
  for (uint64_t log : logs) {
    if (resolution.decided()) break;
    SourceAnswer answer;
    answer.covering_tombstone =
        options.memtable->CoveringTombstone(family.id, key, log, read_timestamp);
    for (const MemTableVersion& v : all) {
      if (v.log_number != log) continue;
      Version version;
      if (Status s = MemTableVersionOf(v, &version); !s.ok()) {
        return InFile(s, FileText(DbGetStep::Where::kMemTable, log));
      }
      answer.versions.push_back(version);
    }
    const StepFinding found = resolution.Take(answer);
    DbGetStep step;
    step.where = DbGetStep::Where::kMemTable;
    step.file_number = log;
    step.entry = found.entry;
    step.sequence = found.sequence;
    steps.push_back(step);
  }
  return Status::Ok();
}

// The files a Get consults, level by level: all of level 0 newest first (RocksDB lists it so;
// LevelDB lists it by smallest key and Version::Get takes it by file number, newest first), on a
// deeper level the first file whose largest key is at or after the key (FindFile: deeper levels
// do not overlap).
void DbGet::State::ListCandidates() {
  const Comparator& order = *options.comparator;
  const size_t ts = order.timestamp_size();
  const auto& levels = options.family->files;
  for (size_t level = 0; level < levels.size(); ++level) {
    const std::vector<TableFileMeta>& files = levels[level];
    if (level == 0) {
      std::vector<const TableFileMeta*> newest_first;
      for (const TableFileMeta& f : files) newest_first.push_back(&f);
      if (options.format == DbFormat::kLevelDb) {
        std::stable_sort(
            newest_first.begin(), newest_first.end(),
            [](const TableFileMeta* a, const TableFileMeta* b) { return a->number > b->number; });
      }
      for (const TableFileMeta* f : newest_first) candidates.push_back({0, f});
      continue;
    }
    const auto it = std::partition_point(files.begin(), files.end(), [&](const TableFileMeta& f) {
      return order.Compare(BoundaryWithoutTimestamp(f.largest_user_key(), f, ts), key) < 0;
    });
    if (it != files.end()) candidates.push_back({static_cast<int>(level), &*it});
  }
}

// Takes the finished lookup of the current table into the resolution and the route.
Status DbGet::State::FinishTable() {
  const Candidate& c = candidates[next];
  const std::string file = FileText(DbGetStep::Where::kTable, c.file->number);
  const LookupTrace& trace = get->trace();
  DbGetStep& step = steps.back();
  const bool may_contain = !get->filtered_out();
  // LevelDB's index, not a filter, rules out a key after the file's last.
  const bool filtered = trace.filter_in_use || trace.route == LookupRoute::kAfterLastKey;
  step.filter = !filtered     ? DbGetStep::Filter::kNone
                : may_contain ? DbGetStep::Filter::kMaybe
                              : DbGetStep::Filter::kNo;
  step.blocks_read = trace.route == LookupRoute::kPartition ? 1 : 0;
  // A read at an older timestamp sees the versions and range deletions at or below it, as its seek
  // key (user key, read timestamp) and the fragmenter's timestamp bound do (rocksdb
  // db/range_tombstone_fragmenter.cc); a table written without timestamps has none to compare, and
  // the MemTable's versions are sorted out alike (MemTable::VersionsAtEveryTimestamp).
  const uint64_t read_timestamp = options.read_timestamp.value_or(MemTable::kNewestTimestamp);
  const size_t ts = get->timestamp_size();
  SourceAnswer answer;
  for (const RangeDeletion& d : get->covering()) {
    // The deletion's timestamp ends its begin key, as in a WAL's DeleteRange.
    if (NewerThanRead(d.start, ts, read_timestamp)) continue;
    answer.covering_tombstone = std::max(answer.covering_tombstone, d.sequence);
  }
  if (!may_contain && answer.covering_tombstone == 0) return Status::Ok();
  const bool has_tags = get->tags().size() == get->entry_count();
  std::vector<size_t> entry_of;  // the table entry each version of `answer` is
  for (size_t i = 0; i < get->entry_count(); ++i) {
    if (ts != 0 &&
        NewerThanRead(ByteView(get->timestamps()).subspan(i * ts, ts), ts, read_timestamp)) {
      continue;
    }
    const ByteView value(get->value_data().data() + get->value_offsets()[i],
                         get->value_offsets()[i + 1] - get->value_offsets()[i]);
    // A table of bare user keys (no tags) holds values only, at sequence 0.
    const uint64_t tag = has_tags ? get->tags()[i] : static_cast<uint64_t>(EntryType::kPut);
    Version version;
    if (Status s = TableVersionOf(tag, value, &version); !s.ok()) return InFile(s, file);
    answer.versions.push_back(version);
    entry_of.push_back(i);
  }
  StepFinding found = resolution.Take(answer);
  if (found.decided_at) found.decided_at = entry_of[*found.decided_at];
  step.entry = found.entry;
  step.sequence = found.sequence;
  if (may_contain) {
    const std::vector<TableGet::BlockRead>& blocks = get->blocks_read();
    const uint64_t counted =
        options.format == DbFormat::kLevelDb ? 1 : BlocksUntilDecided(blocks, found.decided_at);
    for (size_t i = 0; i < counted && i < blocks.size(); ++i) {
      step.block_cache_hits += blocks[i].from_cache ? 1 : 0;
    }
    step.blocks_read += counted - step.block_cache_hits;
  }
  return Status::Ok();
}

Status DbGet::Advance() {
  State& s = *state_;
  if (!s.error.ok()) return s.error;
  if (s.done) return Status::Ok();
  if (!s.started) {
    s.started = true;
    if (Status st = s.Start(); !st.ok()) return s.Fail(std::move(st));
  }
  for (;;) {
    if (s.open_wanted) return Status::Ok();  // the driver opens table_needed()
    if (s.get) {
      if (Status st = s.get->Advance(); !st.ok()) {
        return s.Fail(
            InFile(st, FileText(DbGetStep::Where::kTable, s.candidates[s.next].file->number)));
      }
      if (!s.get->done()) return Status::Ok();  // need() bytes
      if (Status st = s.FinishTable(); !st.ok()) return s.Fail(std::move(st));
      s.get.reset();
      ++s.next;
    }
    if (s.next >= s.candidates.size() || s.resolution.decided()) break;
    const State::Candidate& c = s.candidates[s.next];
    const Comparator& order = *s.options.comparator;
    const size_t ts = order.timestamp_size();
    DbGetStep step;
    step.where = DbGetStep::Where::kTable;
    step.file_number = c.file->number;
    step.level = c.level;
    const ByteView smallest = BoundaryWithoutTimestamp(c.file->smallest_user_key(), *c.file, ts);
    const ByteView largest = BoundaryWithoutTimestamp(c.file->largest_user_key(), *c.file, ts);
    step.in_range = order.Compare(smallest, s.key) <= 0 && order.Compare(s.key, largest) <= 0;
    s.steps.push_back(step);
    if (!step.in_range) {
      ++s.next;
      continue;
    }
    s.open_wanted = true;
  }
  s.resolution.End();
  s.done = true;
  return Status::Ok();
}

Status DbGetFromMemory(DbGet& get, const TableFileSource& table_file,
                       const TableOptions& table_options) {
  for (;;) {
    if (Status s = get.Advance(); !s.ok()) return s;
    if (get.done()) return Status::Ok();
    const TableFileMeta* meta = get.table_needed();
    if (meta == nullptr) {
      return Status::Error(ErrorCode::kBadOptions, "get: stopped without a table to read");
    }
    ByteView bytes;
    if (Status s = table_file(*meta, &bytes); !s.ok()) return s;
    std::unique_ptr<TableReader> table;
    if (Status s = OpenTableFromMemory(bytes, table_options, &table); !s.ok()) {
      return InFile(s, FileText(DbGetStep::Where::kTable, meta->number));
    }
    if (Status s = get.SetTable(*table); !s.ok()) return s;
    // The table's lookup reads from the same bytes, until the next table is wanted or the answer
    // is complete.
    if (Status s = DriveFromMemory(get, bytes); !s.ok()) return s;
  }
}

}  // namespace sstfilter
