// MANIFEST files (docs/FORMATS.md 6.2, 6.3, 6.8): the VersionEdit records a MANIFEST's log holds,
// the state they add up to (the live table and blob files per level per column family), the CURRENT
// file that names the MANIFEST, and VersionEdits encoded for writing one. Bytes only.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/db_format.h"
#include "sstfilter/log.h"
#include "sstfilter/status.h"

namespace sstfilter {

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

// ---- Writing MANIFESTs (docs/FORMATS.md 6.8) ----

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
