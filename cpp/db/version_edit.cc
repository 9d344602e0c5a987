// VersionEdit records (docs/FORMATS.md 6.2): a sequence of (varint32 tag, fields) pairs. LevelDB's
// tags are 1 to 9; RocksDB adds its own (100 and up), a class of tags from 1 << 13 on that readers
// may skip when they do not know them (all but four carry a length), and in kNewFile4 a list of
// custom fields whose bit 1 << 6 says whether a reader must understand them. Facts from leveldb
// db/version_edit.cc (1.23), rocksdb db/version_edit.{h,cc}, db/blob/blob_file_addition.cc,
// db/blob/blob_file_garbage.cc, db/wal_edit.cc and table/unique_id.cc (7.8.3 and main).
#include <string_view>

#include "db/version_edit_tags.h"
#include "sstfilter/manifest.h"
#include "table/internal_key.h"

namespace sstfilter {
namespace {

using namespace version_edit;  // the tags by their names in RocksDB's source

// Blob file addition / garbage custom fields end with 0 and must be understood with bit 1 << 6
// (rocksdb db/blob/blob_file_addition.cc CustomFieldTags); WAL additions know 1 (end) and 2
// (synced size) only (db/wal_edit.h WalAdditionTag).
constexpr uint32_t kBlobCustomFieldEnd = 0;
constexpr uint32_t kBlobCustomFieldMustUnderstand = 1 << 6;
constexpr uint32_t kWalAdditionTerminate = 1;
constexpr uint32_t kWalAdditionSyncedSize = 2;

constexpr int kLevelDbLevels = 7;  // leveldb db/dbformat.h config::kNumLevels

// Reads fields from a record, remembering where the field being read started so that an error
// names it.
class FieldReader {
 public:
  explicit FieldReader(ByteView in) : in_(in) {}
  bool empty() const { return pos_ >= in_.size(); }
  size_t pos() const { return pos_; }

  std::optional<uint32_t> Varint32() { return GetVarint32(in_, &pos_); }
  std::optional<uint64_t> Varint64() { return GetVarint64(in_, &pos_); }
  std::optional<ByteView> LengthPrefixed() {
    size_t p = pos_;
    const auto n = GetVarint32(in_, &p);
    if (!n || *n > in_.size() - p) return std::nullopt;
    pos_ = p + *n;
    return in_.subspan(p, *n);
  }

 private:
  ByteView in_;
  size_t pos_ = 0;
};

Bytes ToBytes(ByteView v) { return Bytes(v.begin(), v.end()); }
std::string ToString(ByteView v) { return std::string(v.begin(), v.end()); }

// A field that holds exactly one varint64 (kNewFile4's numeric custom fields).
std::optional<uint64_t> WholeVarint64(ByteView field) {
  FieldReader r(field);
  // RocksDB's GetVarint64 on the field: the bytes after the varint are not checked.
  return r.Varint64();
}

class EditDecoder {
 public:
  EditDecoder(ByteView record, DbFormat format, VersionEdit* out)
      : in_(record), format_(format), out_(out) {}

  Status Decode() {
    while (!in_.empty()) {
      field_start_ = in_.pos();
      const auto tag = in_.Varint32();
      if (!tag) return Corrupt("tag");
      if (Status s = Field(*tag); !s.ok()) return s;
    }
    return Status::Ok();
  }

 private:
  Status Corrupt(const std::string& what) const {
    return Status::Error(ErrorCode::kCorrupt,
                         "VersionEdit: bad " + what + " at byte " + std::to_string(field_start_),
                         static_cast<int64_t>(field_start_));
  }

  bool RocksDb() const { return format_ == DbFormat::kRocksDb; }

  // A level: LevelDB's are 0 to 6 (a deeper one is corrupt there); RocksDB's are bounded by
  // kMaxDbLevel here (num_levels is an option, but no database has that many).
  Status Level(int* level, const char* what) {
    const auto v = in_.Varint32();
    if (!v || (!RocksDb() && *v >= kLevelDbLevels)) return Corrupt(what);
    if (*v > static_cast<uint32_t>(kMaxDbLevel)) {
      return Status::Error(ErrorCode::kUnsupported,
                           "VersionEdit: level " + std::to_string(*v) + " at byte " +
                               std::to_string(field_start_) + " is beyond level " +
                               std::to_string(kMaxDbLevel),
                           static_cast<int64_t>(field_start_));
    }
    *level = static_cast<int>(*v);
    return Status::Ok();
  }

  // An internal key: a user key and its 8-byte trailer; LevelDB's value types are 0 and 1.
  std::optional<Bytes> InternalKey() {
    const auto key = in_.LengthPrefixed();
    if (!key || key->size() < kInternalKeyTagSize) return std::nullopt;
    if (!RocksDb() && (*key)[key->size() - kInternalKeyTagSize] > 1) return std::nullopt;
    return ToBytes(*key);
  }

  Status Field(uint32_t tag) {
    // LevelDB knows the tags up to kPrevLogNumber; everything else is an unknown tag there.
    if (!RocksDb() && tag > kPrevLogNumber) return Corrupt("tag " + std::to_string(tag));
    switch (tag) {
      case kComparator:
      case kDbId: {
        const auto name = in_.LengthPrefixed();
        if (!name) return Corrupt(tag == kDbId ? "db id" : "comparator name");
        (tag == kDbId ? out_->db_id : out_->comparator) = ToString(*name);
        return Status::Ok();
      }
      case kLogNumber:
        return Number(&out_->log_number, "log number");
      case kPrevLogNumber:
        return Number(&out_->prev_log_number, "previous log number");
      case kNextFileNumber:
        return Number(&out_->next_file_number, "next file number");
      case kLastSequence:
        return Number(&out_->last_sequence, "last sequence number");
      case kMinLogNumberToKeep:
        return Number(&out_->min_log_number_to_keep, "min log number to keep");
      case kMaxColumnFamily: {
        const auto v = in_.Varint32();
        if (!v) return Corrupt("max column family");
        out_->max_column_family = *v;
        return Status::Ok();
      }
      case kCompactCursor: {
        int level = 0;
        if (Status s = Level(&level, "compaction cursor"); !s.ok()) return s;
        const auto key = InternalKey();
        if (!key) return Corrupt("compaction cursor");
        out_->compact_cursors.push_back({level, *key});
        return Status::Ok();
      }
      case kDeletedFile: {
        int level = 0;
        if (Status s = Level(&level, "deleted file"); !s.ok()) return s;
        const auto number = in_.Varint64();
        if (!number) return Corrupt("deleted file");
        out_->deleted_files.push_back({level, *number});
        return Status::Ok();
      }
      case kNewFile:
      case kNewFile2:
      case kNewFile3:
      case kNewFile4:
        return NewFile(tag);
      case kColumnFamily: {
        const auto id = in_.Varint32();
        if (!id) return Corrupt("column family id");
        out_->column_family = *id;
        return Status::Ok();
      }
      case kColumnFamilyAdd: {
        const auto name = in_.LengthPrefixed();
        if (!name) return Corrupt("column family add");
        out_->column_family_add = ToString(*name);
        return Status::Ok();
      }
      case kColumnFamilyDrop:
        out_->column_family_drop = true;
        return Status::Ok();
      case kInAtomicGroup: {
        const auto remaining = in_.Varint32();
        if (!remaining) return Corrupt("atomic group remaining entries");
        out_->atomic_group_remaining = *remaining;
        return Status::Ok();
      }
      case kBlobFileAddition:
      case kBlobFileAdditionDeprecated:
        return BlobAddition();
      case kBlobFileGarbage:
      case kBlobFileGarbageDeprecated:
        return BlobGarbage();
      case kWalAddition:
        return WalAdditionFields(in_);
      case kWalDeletion:
        return WalDeletionFields(in_);
      case kWalAddition2:
      case kWalDeletion2: {
        const auto encoded = in_.LengthPrefixed();
        if (!encoded) return Corrupt("WAL edit length");
        FieldReader inner(*encoded);
        return tag == kWalAddition2 ? WalAdditionFields(inner) : WalDeletionFields(inner);
      }
      case kFullHistoryTsLow: {
        const auto ts = in_.LengthPrefixed();
        if (!ts || ts->empty()) return Corrupt("full_history_ts_low");
        out_->full_history_ts_low = ToBytes(*ts);
        return Status::Ok();
      }
      case kPersistUserDefinedTimestamps: {
        const auto flag = in_.LengthPrefixed();
        if (!flag || flag->size() != 1) return Corrupt("persist_user_defined_timestamps");
        out_->persist_user_defined_timestamps = (*flag)[0] == 1;
        return Status::Ok();
      }
      case kLastCompactedManifestFileSize: {
        const auto encoded = in_.LengthPrefixed();
        const auto size = encoded ? WholeVarint64(*encoded) : std::nullopt;
        if (!size) return Corrupt("last compacted manifest file size");
        out_->last_compacted_manifest_file_size = *size;
        return Status::Ok();
      }
      default:
        // kSubcompactionProgress (a remote compaction's resumable state, written to its own
        // progress file, never to a MANIFEST: docs/FORMATS.md 6.2) is skipped like any unknown
        // tag that is safe to ignore: its length comes first.
        if ((tag & kTagSafeIgnoreMask) != 0) {
          if (!in_.LengthPrefixed())
            return Corrupt("length of ignorable tag " + std::to_string(tag));
          out_->ignored_tags.push_back(tag);
          return Status::Ok();
        }
        return Corrupt("tag " + std::to_string(tag));
    }
  }

  Status Number(std::optional<uint64_t>* field, const char* what) {
    const auto v = in_.Varint64();
    if (!v) return Corrupt(what);
    *field = *v;
    return Status::Ok();
  }

  // kNewFile: level, number, size, smallest, largest. kNewFile2 adds the smallest and largest
  // sequence numbers, kNewFile3 a path id after the number, kNewFile4 custom fields after them.
  Status NewFile(uint32_t tag) {
    const char* what = tag == kNewFile    ? "new-file entry"
                       : tag == kNewFile2 ? "new-file2 entry"
                       : tag == kNewFile3 ? "new-file3 entry"
                                          : "new-file4 entry";
    VersionEdit::NewFile file;
    TableFileMeta& m = file.meta;
    if (Status s = Level(&file.level, what); !s.ok()) return s;
    const auto number = in_.Varint64();
    if (!number) return Corrupt(what);
    m.number = *number;
    if (tag == kNewFile3) {
      const auto path_id = in_.Varint32();
      if (!path_id) return Corrupt(what);
      m.path_id = *path_id;
    }
    const auto size = in_.Varint64();
    auto smallest = size ? InternalKey() : std::nullopt;
    auto largest = smallest ? InternalKey() : std::nullopt;
    if (!largest) return Corrupt(what);
    m.size = *size;
    m.smallest = std::move(*smallest);
    m.largest = std::move(*largest);
    if (tag != kNewFile) {
      const auto smallest_seqno = in_.Varint64();
      const auto largest_seqno = smallest_seqno ? in_.Varint64() : std::nullopt;
      if (!largest_seqno) return Corrupt(what);
      m.has_seqnos = true;
      m.smallest_seqno = *smallest_seqno;
      m.largest_seqno = *largest_seqno;
    }
    if (tag == kNewFile4) {
      if (Status s = CustomFields(&m); !s.ok()) return s;
    }
    out_->new_files.push_back(std::move(file));
    return Status::Ok();
  }

  Status CustomFields(TableFileMeta* m) {
    while (true) {
      const auto custom_tag = in_.Varint32();
      if (!custom_tag) return Corrupt("new-file4 custom field");
      if (*custom_tag == kTerminate) return Status::Ok();
      const auto field = in_.LengthPrefixed();
      if (!field) return Corrupt("new-file4 custom field length");
      const auto number = [&](uint64_t* to, const char* name) {
        const auto v = WholeVarint64(*field);
        if (v) *to = *v;
        return v ? Status::Ok() : Corrupt(name);
      };
      switch (*custom_tag) {
        case kPathId:
          if (field->size() != 1 || (*field)[0] > 3) return Corrupt("path id");
          m->path_id = (*field)[0];
          break;
        case kNeedCompaction:
          if (field->size() != 1) return Corrupt("need-compaction field");
          m->marked_for_compaction = (*field)[0] == 1;
          break;
        case kMinLogNumberToKeepHack:
          if (field->size() < 8) return Corrupt("min log number to keep field");
          out_->min_log_number_to_keep = DecodeFixed64(field->data());
          break;
        case kOldestBlobFileNumber:
          if (Status s = number(&m->oldest_blob_file_number, "oldest blob file number"); !s.ok())
            return s;
          break;
        case kOldestAncesterTime:
          if (Status s = number(&m->oldest_ancester_time, "oldest ancester time"); !s.ok())
            return s;
          break;
        case kFileCreationTime:
          if (Status s = number(&m->file_creation_time, "file creation time"); !s.ok()) return s;
          break;
        case kEpochNumber:
          if (Status s = number(&m->epoch_number, "epoch number"); !s.ok()) return s;
          break;
        case kCompensatedRangeDeletionSize:
          if (Status s =
                  number(&m->compensated_range_deletion_size, "compensated range deletion size");
              !s.ok())
            return s;
          break;
        case kTailSize:
          if (Status s = number(&m->tail_size, "tail size"); !s.ok()) return s;
          break;
        case kFileChecksum:
          m->file_checksum = ToBytes(*field);
          break;
        case kFileChecksumFuncName:
          m->file_checksum_func_name = ToString(*field);
          break;
        case kTemperature:
          if (field->size() != 1) return Corrupt("temperature field");
          m->temperature = (*field)[0];
          break;
        case kMinTimestamp:
          m->min_timestamp = ToBytes(*field);
          break;
        case kMaxTimestamp:
          m->max_timestamp = ToBytes(*field);
          break;
        case kUniqueId:
          // table/unique_id.cc DecodeUniqueIdBytes: two fixed64s.
          if (field->size() != 16) return Corrupt("unique id");
          m->unique_id = std::array<uint64_t, 2>{DecodeFixed64(field->data()),
                                                 DecodeFixed64(field->data() + 8)};
          break;
        case kUserDefinedTimestampsPersisted:
          if (field->size() != 1) return Corrupt("user-defined timestamps persisted field");
          m->user_defined_timestamps_persisted = (*field)[0] == 1;
          break;
        case kFileOpenMetadata:  // opaque to readers of the files' contents
          break;
        default:
          if ((*custom_tag & kCustomTagNonSafeIgnoreMask) != 0) {
            return Corrupt("new-file4 custom field " + std::to_string(*custom_tag) +
                           " (must be understood)");
          }
          m->ignored_custom_tags.push_back(*custom_tag);
          break;
      }
    }
  }

  // The custom fields blob file edits end with: skipped unless they must be understood.
  Status BlobCustomFields(const char* what) {
    while (true) {
      const auto custom_tag = in_.Varint32();
      if (!custom_tag) return Corrupt(std::string(what) + " custom field");
      if (*custom_tag == kBlobCustomFieldEnd) return Status::Ok();
      if ((*custom_tag & kBlobCustomFieldMustUnderstand) != 0 || !in_.LengthPrefixed()) {
        return Corrupt(std::string(what) + " custom field " + std::to_string(*custom_tag));
      }
    }
  }

  Status BlobAddition() {
    BlobFileAddition a;
    const auto number = in_.Varint64();
    const auto count = number ? in_.Varint64() : std::nullopt;
    const auto bytes = count ? in_.Varint64() : std::nullopt;
    const auto method = bytes ? in_.LengthPrefixed() : std::nullopt;
    const auto value = method ? in_.LengthPrefixed() : std::nullopt;
    if (!value) return Corrupt("blob file addition");
    a.number = *number;
    a.total_blob_count = *count;
    a.total_blob_bytes = *bytes;
    a.checksum_method = ToString(*method);
    a.checksum_value = ToBytes(*value);
    if (Status s = BlobCustomFields("blob file addition"); !s.ok()) return s;
    out_->blob_file_additions.push_back(std::move(a));
    return Status::Ok();
  }

  Status BlobGarbage() {
    const auto number = in_.Varint64();
    const auto count = number ? in_.Varint64() : std::nullopt;
    const auto bytes = count ? in_.Varint64() : std::nullopt;
    if (!bytes) return Corrupt("blob file garbage");
    if (Status s = BlobCustomFields("blob file garbage"); !s.ok()) return s;
    out_->blob_file_garbage.push_back({*number, *count, *bytes});
    return Status::Ok();
  }

  Status WalAdditionFields(FieldReader& in) {
    WalAddition a;
    const auto number = in.Varint64();
    if (!number) return Corrupt("WAL addition");
    a.number = *number;
    while (true) {
      const auto tag = in.Varint32();
      if (!tag) return Corrupt("WAL addition tag");
      if (*tag == kWalAdditionTerminate) break;
      const auto size = *tag == kWalAdditionSyncedSize ? in.Varint64() : std::nullopt;
      if (!size) return Corrupt("WAL addition tag " + std::to_string(*tag));
      a.synced_size = *size;
    }
    out_->wal_additions.push_back(a);
    return Status::Ok();
  }

  Status WalDeletionFields(FieldReader& in) {
    const auto number = in.Varint64();
    if (!number) return Corrupt("WAL deletion");
    out_->wal_deletion = *number;
    return Status::Ok();
  }

  FieldReader in_;
  DbFormat format_;
  VersionEdit* out_;
  size_t field_start_ = 0;
};

}  // namespace

ByteView TableFileMeta::smallest_user_key() const {
  return StripInternalKeyTag(smallest).value_or(ByteView());
}

ByteView TableFileMeta::largest_user_key() const {
  return StripInternalKeyTag(largest).value_or(ByteView());
}

Status DecodeVersionEdit(ByteView record, DbFormat format, VersionEdit* out) {
  *out = VersionEdit();
  return EditDecoder(record, format, out).Decode();
}

}  // namespace sstfilter
