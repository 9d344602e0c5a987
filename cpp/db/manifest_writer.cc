// Writing VersionEdit records and whole MANIFEST files (docs/FORMATS.md 6.2, 6.8; rocksdb
// db/version_edit.cc VersionEdit::EncodeTo, leveldb db/version_edit.cc EncodeTo): what
// DecodeVersionEdit and ReadManifest read back, and what both libraries open.
#include <algorithm>
#include <string>

#include "db/version_edit_tags.h"
#include "sstfilter/manifest.h"

namespace sstfilter {
namespace {

using namespace version_edit;  // the tags by their names in RocksDB's source

void PutVarint32(Bytes* out, uint32_t v) { PutVarint64(out, v); }

void PutLengthPrefixed(Bytes* out, ByteView bytes) {
  PutVarint32(out, static_cast<uint32_t>(bytes.size()));
  out->insert(out->end(), bytes.begin(), bytes.end());
}

void PutLengthPrefixed(Bytes* out, const std::string& text) {
  PutLengthPrefixed(out, BytesOf(text));
}

// A kNewFile4 custom field holding one varint64.
void PutNumberField(Bytes* out, uint32_t tag, uint64_t value) {
  Bytes field;
  PutVarint64(&field, value);
  PutVarint32(out, tag);
  PutLengthPrefixed(out, field);
}

Status Unsupported(const std::string& what) {
  return Status::Error(ErrorCode::kUnsupported,
                       "VersionEdit: writing " + what + " is not supported");
}

bool IsInternalKey(const Bytes& key) { return key.size() >= 8; }

Status PutNewFile(const VersionEdit::NewFile& file, DbFormat format, Bytes* out) {
  const TableFileMeta& m = file.meta;
  if (file.level < 0 || file.level > (format == DbFormat::kLevelDb ? 6 : kMaxDbLevel)) {
    return Status::Error(ErrorCode::kBadOptions,
                         "VersionEdit: level " + std::to_string(file.level) + " out of range");
  }
  if (!IsInternalKey(m.smallest) || !IsInternalKey(m.largest)) {
    return Status::Error(ErrorCode::kBadOptions,
                         "VersionEdit: a file's smallest and largest keys are internal keys "
                         "(user key and 8-byte trailer)");
  }
  if (format == DbFormat::kLevelDb) {
    // LevelDB's kNewFile: level, number, size, smallest, largest.
    PutVarint32(out, kNewFile);
    PutVarint32(out, static_cast<uint32_t>(file.level));
    PutVarint64(out, m.number);
    PutVarint64(out, m.size);
    PutLengthPrefixed(out, m.smallest);
    PutLengthPrefixed(out, m.largest);
    return Status::Ok();
  }
  if (!m.min_timestamp.empty() || !m.max_timestamp.empty() || m.unique_id || m.temperature != 0 ||
      m.compensated_range_deletion_size != 0 || m.user_defined_timestamps_persisted ||
      !m.ignored_custom_tags.empty()) {
    return Unsupported("these new-file fields");
  }
  PutVarint32(out, kNewFile4);
  PutVarint32(out, static_cast<uint32_t>(file.level));
  PutVarint64(out, m.number);
  PutVarint64(out, m.size);
  PutLengthPrefixed(out, m.smallest);
  PutLengthPrefixed(out, m.largest);
  PutVarint64(out, m.smallest_seqno);
  PutVarint64(out, m.largest_seqno);
  // The custom fields that differ from their defaults, then the terminator. RocksDB's EncodeTo
  // writes some of them at their defaults too, in its own order; a decoder takes custom fields in
  // any order, so the edit read back is the same (see db.h).
  if (m.path_id != 0) {
    if (m.path_id > 3) return Status::Error(ErrorCode::kBadOptions, "VersionEdit: path id above 3");
    PutVarint32(out, kPathId);
    const uint8_t path_id[1] = {static_cast<uint8_t>(m.path_id)};
    PutLengthPrefixed(out, ByteView(path_id));
  }
  if (m.marked_for_compaction) {
    PutVarint32(out, kNeedCompaction);
    const uint8_t one[1] = {1};
    PutLengthPrefixed(out, ByteView(one));
  }
  if (m.oldest_blob_file_number != 0) {
    PutNumberField(out, kOldestBlobFileNumber, m.oldest_blob_file_number);
  }
  if (m.oldest_ancester_time != 0) PutNumberField(out, kOldestAncesterTime, m.oldest_ancester_time);
  if (m.file_creation_time != 0) PutNumberField(out, kFileCreationTime, m.file_creation_time);
  if (!m.file_checksum.empty() || !m.file_checksum_func_name.empty()) {
    PutVarint32(out, kFileChecksum);
    PutLengthPrefixed(out, m.file_checksum);
    PutVarint32(out, kFileChecksumFuncName);
    PutLengthPrefixed(out, m.file_checksum_func_name);
  }
  if (m.epoch_number != 0) PutNumberField(out, kEpochNumber, m.epoch_number);
  if (m.tail_size != 0) PutNumberField(out, kTailSize, m.tail_size);
  PutVarint32(out, kTerminate);
  return Status::Ok();
}

}  // namespace

Status EncodeVersionEdit(const VersionEdit& edit, DbFormat format, Bytes* out) {
  out->clear();
  const bool rocksdb = format == DbFormat::kRocksDb;
  if (!edit.blob_file_additions.empty() || !edit.blob_file_garbage.empty() ||
      !edit.wal_additions.empty() || edit.wal_deletion || edit.full_history_ts_low ||
      edit.persist_user_defined_timestamps || edit.last_compacted_manifest_file_size ||
      edit.atomic_group_remaining || !edit.ignored_tags.empty()) {
    return Unsupported("blob file, WAL, timestamp or atomic-group fields");
  }
  if (!rocksdb && (edit.db_id || edit.max_column_family || edit.min_log_number_to_keep ||
                   edit.column_family != 0 || edit.column_family_add || edit.column_family_drop)) {
    return Status::Error(ErrorCode::kBadOptions,
                         "VersionEdit: LevelDB has no db id, column families or min log number");
  }
  // In VersionEdit::EncodeTo's order.
  if (edit.db_id) {
    PutVarint32(out, kDbId);
    PutLengthPrefixed(out, *edit.db_id);
  }
  if (edit.comparator) {
    PutVarint32(out, kComparator);
    PutLengthPrefixed(out, *edit.comparator);
  }
  const auto number = [&](uint32_t tag, const std::optional<uint64_t>& value) {
    if (!value) return;
    PutVarint32(out, tag);
    PutVarint64(out, *value);
  };
  number(kLogNumber, edit.log_number);
  number(kPrevLogNumber, edit.prev_log_number);
  number(kNextFileNumber, edit.next_file_number);
  if (edit.max_column_family) {
    PutVarint32(out, kMaxColumnFamily);
    PutVarint32(out, *edit.max_column_family);
  }
  number(kMinLogNumberToKeep, edit.min_log_number_to_keep);
  number(kLastSequence, edit.last_sequence);
  for (const VersionEdit::CompactCursor& c : edit.compact_cursors) {
    PutVarint32(out, kCompactCursor);
    PutVarint32(out, static_cast<uint32_t>(c.level));
    PutLengthPrefixed(out, c.key);
  }
  for (const VersionEdit::DeletedFile& d : edit.deleted_files) {
    PutVarint32(out, kDeletedFile);
    PutVarint32(out, static_cast<uint32_t>(d.level));
    PutVarint64(out, d.number);
  }
  for (const VersionEdit::NewFile& f : edit.new_files) {
    if (Status s = PutNewFile(f, format, out); !s.ok()) return s;
  }
  if (edit.column_family != 0) {
    PutVarint32(out, kColumnFamily);
    PutVarint32(out, edit.column_family);
  }
  if (edit.column_family_add) {
    PutVarint32(out, kColumnFamilyAdd);
    PutLengthPrefixed(out, *edit.column_family_add);
  }
  if (edit.column_family_drop) PutVarint32(out, kColumnFamilyDrop);
  return Status::Ok();
}

Status BuildManifest(DbFormat format, const std::string& comparator,
                     const std::vector<VersionEdit::NewFile>& files, uint64_t last_sequence,
                     Bytes* manifest) {
  manifest->clear();
  VersionEdit edit;
  edit.comparator = comparator;
  edit.log_number = 0;
  edit.prev_log_number = 0;
  uint64_t next_file_number = 2;  // past the MANIFEST's own number, 1
  for (const VersionEdit::NewFile& f : files) {
    next_file_number = std::max(next_file_number, f.meta.number + 1);
  }
  edit.next_file_number = next_file_number;
  edit.last_sequence = last_sequence;
  edit.new_files = files;
  Bytes record;
  if (Status s = EncodeVersionEdit(edit, format, &record); !s.ok()) return s;
  LogWriter log;
  log.AddRecord(record);
  *manifest = log.TakeOutput();
  return Status::Ok();
}

}  // namespace sstfilter
