// A MANIFEST's VersionEdits applied in order (docs/FORMATS.md 6.3), as leveldb db/version_set.cc
// (VersionSet::Builder, VersionSet::Recover) and rocksdb db/version_builder.cc,
// db/version_edit_handler.cc (7.8.3 and main) do: within an edit, deletions before additions;
// RocksDB's column families are created and dropped by edits, and the edits of an atomic group
// apply together or, cut off at the end of the file, not at all. CURRENT names the MANIFEST.
#include "sstfilter/manifest.h"

#include <algorithm>
#include <map>
#include <set>

#include "table/internal_key.h"

namespace sstfilter {
namespace {

constexpr size_t kDefaultLevels = 7;  // both libraries' default number of levels
constexpr const char* kDefaultColumnFamilyName = "default";

struct FileOrder {
  DbFormat format;
  const Comparator* order;  // nullptr: not built in, files stay in file-number order

  // Smallest internal key first: user keys by the comparator, then the trailer descending; ties by
  // file number (leveldb BySmallestKey, rocksdb BySmallestKey).
  bool BySmallestKey(const TableFileMeta& a, const TableFileMeta& b) const {
    if (order) {
      const int c = order->Compare(a.smallest_user_key(), b.smallest_user_key());
      if (c != 0) return c < 0;
      const uint64_t ta = DecodeFixed64(a.smallest.data() + a.smallest.size() - 8);
      const uint64_t tb = DecodeFixed64(b.smallest.data() + b.smallest.size() - 8);
      if (ta != tb) return ta > tb;
    }
    return a.number < b.number;
  }

  // rocksdb db/version_set.h NewestFirstByEpochNumber, then NewestFirstBySeqNo.
  static bool NewestFirst(const TableFileMeta& a, const TableFileMeta& b) {
    if (a.epoch_number != b.epoch_number) return a.epoch_number > b.epoch_number;
    if (a.largest_seqno != b.largest_seqno) return a.largest_seqno > b.largest_seqno;
    if (a.smallest_seqno != b.smallest_seqno) return a.smallest_seqno > b.smallest_seqno;
    return a.number > b.number;
  }

  void Sort(size_t level, std::vector<TableFileMeta>* files) const {
    if (format == DbFormat::kRocksDb && level == 0) {
      std::stable_sort(files->begin(), files->end(), NewestFirst);
    } else if (order || format == DbFormat::kLevelDb) {
      std::stable_sort(files->begin(), files->end(),
                       [this](const auto& a, const auto& b) { return BySmallestKey(a, b); });
    }
  }
};

class ManifestBuilder {
 public:
  ManifestBuilder(DbFormat format, ManifestState* out) : format_(format), out_(out) {
    out_->format = format;
    Family& d = families_[0];
    d.name = kDefaultColumnFamilyName;
  }

  // Applies one edit; `offset` is the record's, for errors.
  Status Apply(const VersionEdit& edit, uint64_t offset) {
    offset_ = offset;
    if (edit.column_family_add) {
      if (families_.count(edit.column_family) != 0) {
        return Corrupt("column family " + std::to_string(edit.column_family) + " added twice");
      }
      families_[edit.column_family].name = *edit.column_family_add;
    }
    const auto family = families_.find(edit.column_family);
    if (family == families_.end()) {
      return Corrupt("edit for column family " + std::to_string(edit.column_family) +
                     ", which does not exist");
    }
    Family& cf = family->second;
    if (edit.column_family_drop) {
      families_.erase(family);
      return Status::Ok();
    }
    if (edit.comparator) {
      if (!cf.comparator.empty() && cf.comparator != *edit.comparator) {
        return Corrupt("comparator changes from " + cf.comparator + " to " + *edit.comparator);
      }
      cf.comparator = *edit.comparator;
    }
    if (edit.log_number) cf.log_number = *edit.log_number;
    if (edit.db_id) out_->db_id = edit.db_id;
    if (edit.next_file_number) {
      out_->next_file_number = *edit.next_file_number;
      has_next_file_ = true;
    }
    if (edit.last_sequence) out_->last_sequence = *edit.last_sequence;
    if (edit.prev_log_number) out_->prev_log_number = *edit.prev_log_number;
    if (edit.min_log_number_to_keep) {
      out_->min_log_number_to_keep =
          std::max(out_->min_log_number_to_keep, *edit.min_log_number_to_keep);
    }
    if (edit.max_column_family) {
      out_->max_column_family = std::max(out_->max_column_family, *edit.max_column_family);
    }
    for (const VersionEdit::DeletedFile& d : edit.deleted_files) {
      if (Status s = Delete(cf, d); !s.ok()) return s;
    }
    for (const VersionEdit::NewFile& n : edit.new_files) {
      if (Status s = Add(cf, n); !s.ok()) return s;
    }
    for (const BlobFileAddition& a : edit.blob_file_additions) {
      if (cf.blob_files_by_number.count(a.number) != 0) {
        return Corrupt("blob file " + std::to_string(a.number) + " added twice");
      }
      cf.blob_files_by_number[a.number].addition = a;
    }
    for (const BlobFileGarbage& g : edit.blob_file_garbage) {
      const auto blob = cf.blob_files_by_number.find(g.number);
      if (blob == cf.blob_files_by_number.end()) {
        return Corrupt("garbage for blob file " + std::to_string(g.number) + ", which is not live");
      }
      blob->second.garbage_blob_count += g.garbage_blob_count;
      blob->second.garbage_blob_bytes += g.garbage_blob_bytes;
    }
    return Status::Ok();
  }

  // `end`: where the records read end, the offset errors about what the MANIFEST lacks name.
  Status Finish(uint64_t end) {
    const auto lacks = [end](const char* what) {
      return Status::Error(ErrorCode::kCorrupt,
                           "MANIFEST ends at offset " + std::to_string(end) + " without " + what,
                           static_cast<int64_t>(end));
    };
    const auto& d = families_.find(0);
    if (d == families_.end() || d->second.comparator.empty()) return lacks("a comparator");
    if (!has_next_file_) return lacks("a next file number");
    out_->column_families.clear();
    for (auto& [id, building] : families_) {
      ColumnFamilyState cf;
      cf.id = id;
      cf.name = building.name;
      cf.comparator = building.comparator.empty() ? d->second.comparator : building.comparator;
      cf.log_number = building.log_number;
      const FileOrder order{format_, FindBuiltinComparator(cf.comparator)};
      cf.files.resize(std::max(kDefaultLevels, building.levels.size()));
      for (size_t level = 0; level < building.levels.size(); ++level) {
        for (auto& [number, meta] : building.levels[level]) cf.files[level].push_back(meta);
        order.Sort(level, &cf.files[level]);
      }
      // A blob file all of whose blobs are garbage and that no live table refers to as its
      // oldest leaves the version (rocksdb db/version_builder.cc AddBlobFileIfNeeded).
      std::set<uint64_t> linked;
      for (const auto& level : cf.files) {
        for (const TableFileMeta& f : level) linked.insert(f.oldest_blob_file_number);
      }
      for (auto& [number, blob] : building.blob_files_by_number) {
        if (blob.garbage_blob_count < blob.addition.total_blob_count || linked.count(number)) {
          cf.blob_files.push_back(blob);
        }
      }
      out_->column_families.push_back(std::move(cf));
    }
    return Status::Ok();
  }

 private:
  struct Family {
    std::string name;
    std::string comparator;
    uint64_t log_number = 0;
    std::vector<std::map<uint64_t, TableFileMeta>> levels;  // by file number
    std::map<uint64_t, BlobFileState> blob_files_by_number;
  };
  // Where each live table file is: column family, level.
  using Location = std::pair<uint32_t, int>;

  Status Corrupt(const std::string& what) const {
    return Status::Error(ErrorCode::kCorrupt,
                         "MANIFEST record at offset " + std::to_string(offset_) + ": " + what,
                         static_cast<int64_t>(offset_));
  }

  uint32_t IdOf(const Family& cf) const {
    for (const auto& [id, f] : families_) {
      if (&f == &cf) return id;
    }
    return 0;
  }

  Status Delete(Family& cf, const VersionEdit::DeletedFile& d) {
    const size_t level = static_cast<size_t>(d.level);
    const bool present = level < cf.levels.size() && cf.levels[level].erase(d.number) != 0;
    // LevelDB's Builder removes whatever is there; RocksDB's VersionBuilder refuses to delete a
    // file that is not on that level.
    if (!present && format_ == DbFormat::kRocksDb) {
      return Corrupt("deletes table file " + std::to_string(d.number) + " from level " +
                     std::to_string(d.level) + ", where it is not");
    }
    if (present) where_.erase(d.number);
    return Status::Ok();
  }

  Status Add(Family& cf, const VersionEdit::NewFile& n) {
    const size_t level = static_cast<size_t>(n.level);
    if (cf.levels.size() <= level) cf.levels.resize(level + 1);
    const auto known = where_.find(n.meta.number);
    if (known != where_.end()) {
      if (format_ == DbFormat::kRocksDb) {
        return Corrupt("adds table file " + std::to_string(n.meta.number) + " to level " +
                       std::to_string(n.level) + ", but it is live on level " +
                       std::to_string(known->second.second));
      }
      // LevelDB keys files by level and number: the newer record replaces the one there.
      if (known->second.second != n.level) {
        families_[known->second.first].levels[static_cast<size_t>(known->second.second)].erase(
            n.meta.number);
      }
    }
    cf.levels[level][n.meta.number] = n.meta;
    where_[n.meta.number] = {IdOf(cf), n.level};
    return Status::Ok();
  }

  DbFormat format_;
  ManifestState* out_;
  std::map<uint32_t, Family> families_;
  std::map<uint64_t, Location> where_;
  bool has_next_file_ = false;
  uint64_t offset_ = 0;
};

}  // namespace

const ColumnFamilyState* ManifestState::ColumnFamily(uint32_t id) const {
  for (const ColumnFamilyState& cf : column_families) {
    if (cf.id == id) return &cf;
  }
  return nullptr;
}

Status ReadManifest(ByteView manifest, DbFormat format, ManifestState* out) {
  *out = ManifestState();
  ManifestBuilder builder(format, out);
  LogReader reader(manifest, format);
  LogRecord record;
  // The edits of an atomic group wait here until its last one has been read.
  std::vector<std::pair<VersionEdit, uint64_t>> group;
  while (reader.Next(&record)) {
    if (record.kind != LogRecordKind::kData) continue;  // metadata records are for WALs
    VersionEdit edit;
    if (Status s = DecodeVersionEdit(record.payload, format, &edit); !s.ok()) {
      const uint64_t at = record.FileOffset(static_cast<size_t>(s.offset()));
      return Status::Error(s.code(),
                           "MANIFEST record at offset " + std::to_string(record.offset) + ": " +
                               s.message() + " (file offset " + std::to_string(at) + ")",
                           static_cast<int64_t>(at));
    }
    ++out->edit_count;
    const bool in_group = edit.atomic_group_remaining.has_value();
    const bool closes_group = in_group && *edit.atomic_group_remaining == 0;
    if (in_group) group.emplace_back(std::move(edit), record.offset);
    if (in_group && !closes_group) continue;
    if (!in_group) {
      if (!group.empty()) {
        return Status::Error(ErrorCode::kCorrupt,
                             "MANIFEST record at offset " + std::to_string(record.offset) +
                                 ": an edit outside the atomic group before it ended",
                             static_cast<int64_t>(record.offset));
      }
      group.emplace_back(std::move(edit), record.offset);
    }
    for (const auto& [e, offset] : group) {
      if (Status s = builder.Apply(e, offset); !s.ok()) return s;
    }
    group.clear();
  }
  if (!reader.status().ok()) return reader.status();
  out->end = reader.end();
  out->unfinished_atomic_group = group.size();
  return builder.Finish(out->end.kind == LogEnd::Kind::kClean ? manifest.size() : out->end.offset);
}

Status ParseCurrentFile(ByteView current, std::string* manifest_name) {
  constexpr std::string_view kPrefix = "MANIFEST-";
  const std::string text(current.begin(), current.end());
  if (text.empty() || text.back() != '\n') {
    return Status::Error(ErrorCode::kCorrupt, "CURRENT does not end with a newline",
                         static_cast<int64_t>(text.size()));
  }
  const std::string name = text.substr(0, text.size() - 1);
  if (name.compare(0, kPrefix.size(), kPrefix) != 0 || name.size() == kPrefix.size()) {
    return Status::Error(ErrorCode::kCorrupt, "CURRENT does not name a MANIFEST-<number> file", 0);
  }
  for (size_t i = kPrefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') {
      return Status::Error(ErrorCode::kCorrupt, "CURRENT names a MANIFEST with a bad number",
                           static_cast<int64_t>(i));
    }
  }
  *manifest_name = name;
  return Status::Ok();
}

}  // namespace sstfilter
