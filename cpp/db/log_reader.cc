// The log record format of MANIFEST and write-ahead log files (docs/FORMATS.md 6.1): 32 KiB blocks
// of physical records, each a header (masked CRC32C, u16 length, type byte, and for RocksDB's
// recyclable types the low 32 bits of the log number) and a payload; records longer than a block's
// room are split into FIRST, MIDDLE..., LAST fragments; a block's last bytes too few for a header
// are zero padding. Facts from leveldb db/log_format.h and db/log_reader.cc (1.23), rocksdb
// db/log_format.h, db/log_reader.cc and db/log_writer.cc (7.8.3 and main).
#include <algorithm>

#include "sstfilter/hash.h"
#include "sstfilter/log.h"

namespace sstfilter {
namespace {

constexpr size_t kLegacyHeaderSize = 4 + 2 + 1;
constexpr size_t kRecyclableHeaderSize = kLegacyHeaderSize + 4;

// Record types (rocksdb db/log_format.h RecordType; LevelDB knows 0 to 4).
constexpr uint8_t kZeroType = 0;  // preallocated space: the rest of the block is skipped
constexpr uint8_t kFullType = 1;
constexpr uint8_t kFirstType = 2;
constexpr uint8_t kMiddleType = 3;
constexpr uint8_t kLastType = 4;
constexpr uint8_t kRecyclableFullType = 5;  // 5 to 8: FULL to LAST with the log number
constexpr uint8_t kRecyclableLastType = 8;
constexpr uint8_t kSetCompressionType = 9;
constexpr uint8_t kUserDefinedTimestampSizeType = 10;
constexpr uint8_t kRecyclableUserDefinedTimestampSizeType = 11;
constexpr uint8_t kPredecessorWalInfoType = 130;
constexpr uint8_t kRecyclePredecessorWalInfoType = 131;
// Types with this bit set that a reader does not know are skipped (RocksDB main).
constexpr uint8_t kRecordTypeSafeIgnoreMask = 1 << 7;

// The types with the 11-byte header (rocksdb main db/log_reader.cc is_recyclable_type): FULL to
// LAST with the log number, and the recyclable forms of the timestamp-size and predecessor records.
// Unknown types, ignorable or not, have the legacy header.
bool IsRecyclable(DbFormat format, uint8_t type) {
  if (format != DbFormat::kRocksDb) return false;
  return (type >= kRecyclableFullType && type <= kRecyclableLastType) ||
         type == kRecyclableUserDefinedTimestampSizeType || type == kRecyclePredecessorWalInfoType;
}

bool AllZero(ByteView bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; });
}

// The error of a record at `offset`, as Fail and Damage report it.
Status RecordError(ErrorCode code, const std::string& what, uint64_t offset) {
  return Status::Error(code, "log record at offset " + std::to_string(offset) + ": " + what,
                       static_cast<int64_t>(offset));
}

}  // namespace

const char* DbFormatName(DbFormat format) {
  return format == DbFormat::kLevelDb ? "leveldb" : "rocksdb";
}

uint64_t LogRecord::FileOffset(size_t pos) const {
  for (const LogFragment& f : fragments) {
    if (pos < f.size) return f.payload_offset + pos;
    pos -= f.size;
  }
  return fragments.empty() ? offset : fragments.back().payload_offset + fragments.back().size;
}

struct LogReader::Fragment {
  uint8_t type = 0;  // recyclable FULL..LAST normalized to 1..4
  bool recyclable = false;
  size_t header_offset = 0;  // positions in the file, which is in memory
  size_t payload_offset = 0;
  uint32_t size = 0;
};

const char* LogEndKindName(LogEnd::Kind kind) {
  switch (kind) {
    case LogEnd::Kind::kClean:
      return "clean";
    case LogEnd::Kind::kTorn:
      return "torn";
    case LogEnd::Kind::kOldRecord:
      return "old-record";
  }
  return "clean";
}

LogReader::LogReader(ByteView file, DbFormat format, uint64_t log_number, LogDamage damage)
    : file_(file), format_(format), log_number_(log_number), damage_(damage) {}

bool LogReader::Fail(ErrorCode code, const std::string& what, uint64_t offset) {
  status_ = RecordError(code, what, offset);
  pos_ = file_.size();
  return false;
}

bool LogReader::Damage(ErrorCode code, const std::string& what, uint64_t offset, uint64_t size) {
  if (damage_ == LogDamage::kStop) return Fail(code, what, offset);
  // A hostile file can hold a drop every few bytes: past the list's limit they are only counted.
  if (drops_.size() >= kMaxLogDrops) {
    ++unlisted_drops_;
    return true;
  }
  drops_.push_back(LogDrop{offset, size, RecordError(code, what, offset)});
  return true;
}

// Damage in a fragment's header or payload: nothing more of its block is trusted (the length
// itself may be the damage), so a skipping reader goes on at the next block.
LogReader::Step LogReader::DropRestOfBlock(ErrorCode code, const std::string& what,
                                           size_t block_end) {
  if (!Damage(code, what, pos_, block_end - pos_)) return Step::kError;
  pos_ = block_end;
  return Step::kDropped;
}

// In a file whose first record is recyclable, the bytes after the last record written are
// usually what the file's previous log left, cut at a random place: a bad length or checksum there
// ends the log (rocksdb db/log_reader.cc ReadRecord: kBadRecordLen / kBadRecordChecksum with
// recycled_ under kTolerateCorruptedTailRecords; kPointInTimeRecovery stops there too).
LogReader::Step LogReader::EndInLeftovers(const char* what) {
  end_ = LogEnd{LogEnd::Kind::kOldRecord, pos_,
                std::string(what) + " after the records of this log: a recycled file's leftovers"};
  pos_ = file_.size();
  return Step::kEnd;
}

// `what` begins with the words RocksDB's reader reports for the same tail under
// kPointInTimeRecovery and kAbsoluteConsistency, which count it as damage (6.4.2).
void LogReader::EndTorn(uint64_t offset, const std::string& what) {
  end_ = LogEnd{LogEnd::Kind::kTorn, offset, what};
  pos_ = file_.size();
}

LogReader::Step LogReader::NextFragment(Fragment* fragment) {
  while (pos_ < file_.size()) {
    const size_t full_block_end = pos_ - pos_ % kLogBlockSize + kLogBlockSize;
    const size_t block_end = std::min(full_block_end, file_.size());
    // The file ends inside this block (both readers' eof_: a read returned less than a block): a
    // record that does not fit was cut off by the end of the file (a torn write), not by a bad
    // length. A file that ends with a whole block has no such block.
    const bool partial_block = full_block_end > file_.size();
    const size_t left = block_end - pos_;
    const uint8_t* header = file_.data() + pos_;
    const uint8_t type = left >= kLegacyHeaderSize ? header[6] : 0;
    const size_t header_size =
        IsRecyclable(format_, type) ? kRecyclableHeaderSize : kLegacyHeaderSize;
    if (left < header_size) {
      // Too few bytes for a header: a whole block's padding, skipped unchecked; or, in a block the
      // file ends inside, a header cut short (RocksDB's kBadHeader whatever the bytes; LevelDB
      // reads either as the end, and zeros there as preallocated space).
      if (partial_block && (format_ == DbFormat::kRocksDb || !AllZero(file_.subspan(pos_, left)))) {
        EndTorn(pos_, "truncated header (a record header cut off by the end of the file)");
        return Step::kEnd;
      }
      pos_ = block_end;
      continue;
    }
    const uint32_t length = DecodeFixed16(header + 4);
    if (header_size == kRecyclableHeaderSize &&
        DecodeFixed32(header + 7) != static_cast<uint32_t>(log_number_)) {
      end_ = LogEnd{LogEnd::Kind::kOldRecord, pos_,
                    "recyclable record of log " + std::to_string(DecodeFixed32(header + 7)) +
                        ", not of log " + std::to_string(static_cast<uint32_t>(log_number_))};
      pos_ = file_.size();
      return Step::kEnd;
    }
    if (pos_ == 0) recycled_ = header_size == kRecyclableHeaderSize;
    if (header_size + length > left) {
      if (recycled_ && !partial_block) return EndInLeftovers("a length that overruns its block");
      if (partial_block) {
        EndTorn(pos_, "truncated record body (a record of " + std::to_string(length) +
                          " bytes cut off by the end of the file)");
        return Step::kEnd;
      }
      return DropRestOfBlock(ErrorCode::kCorrupt,
                             "length " + std::to_string(length) + " overruns its block (" +
                                 std::to_string(left) + " bytes left)",
                             block_end);
    }
    if (type == kZeroType && length == 0) {
      // Space a writer preallocated (mmap writes): both readers drop the rest of the block.
      *fragment = Fragment{kZeroType, false, pos_, pos_ + header_size, 0};
      pos_ = block_end;
      return Step::kFragment;
    }
    const uint32_t expected = Crc32cUnmask(DecodeFixed32(header));
    // The CRC covers the type byte, the log number where there is one, and the payload.
    const uint32_t actual = Crc32c(file_.subspan(pos_ + 6, header_size - 6 + length));
    if (actual != expected) {
      if (recycled_) return EndInLeftovers("a checksum mismatch");
      return DropRestOfBlock(ErrorCode::kChecksumMismatch,
                             "checksum mismatch (stored " + std::to_string(expected) +
                                 ", computed " + std::to_string(actual) + ")",
                             block_end);
    }
    const bool recyclable = header_size == kRecyclableHeaderSize;
    const uint8_t normalized =
        recyclable && type <= kRecyclableLastType ? type - (kRecyclableFullType - kFullType) : type;
    *fragment = Fragment{normalized, recyclable, pos_, pos_ + header_size, length};
    pos_ += header_size + length;
    return Step::kFragment;
  }
  return Step::kEnd;
}

bool LogReader::Next(LogRecord* record) {
  bool assembling = false;
  const auto start = [&](const Fragment& f, LogRecordKind kind) {
    record->kind = kind;
    record->type = file_[f.header_offset + 6];
    record->offset = f.header_offset;
    record->recyclable = f.recyclable;
    const auto payload = file_.subspan(f.payload_offset, f.size);
    record->payload.assign(payload.begin(), payload.end());
    record->fragments.assign(1, LogFragment{f.payload_offset, f.size});
  };
  // Drops the record being assembled, its fragments' extent; under kStop, fails at `at`, where
  // the loss shows.
  const auto drop_assembled = [&](uint64_t at, const char* why) {
    assembling = false;
    const std::string what =
        "fragmented record starting at offset " + std::to_string(record->offset) + " " + why;
    if (damage_ == LogDamage::kStop) return Fail(ErrorCode::kCorrupt, what, at);
    const LogFragment& last = record->fragments.back();
    return Damage(ErrorCode::kCorrupt, what, record->offset,
                  last.payload_offset + last.size - record->offset);
  };
  // A fragment's extent, header included.
  const auto extent = [](const Fragment& f) { return f.payload_offset + f.size - f.header_offset; };
  while (true) {
    Fragment f;
    const Step step = NextFragment(&f);
    if (step == Step::kError) return false;
    if (step == Step::kDropped) {
      if (assembling) drop_assembled(record->offset, "lost a fragment to damage");
      continue;
    }
    if (step == Step::kEnd) {
      if (assembling && end_.kind == LogEnd::Kind::kClean) {
        EndTorn(record->offset,
                "error reading trailing data (a fragmented record without its last fragment)");
      } else if (assembling && end_.kind == LogEnd::Kind::kTorn) {
        end_.offset = record->offset;  // the torn record starts at its first fragment
      }
      return false;
    }
    const bool is_fragment = f.type >= kMiddleType && f.type <= kLastType;
    if (assembling && !is_fragment) {
      // A FULL or FIRST fragment after an empty FIRST one: both readers read on silently (an
      // older writer left empty FIRST fragments at the end of a block).
      const bool empty_first =
          record->payload.empty() && (f.type == kFullType || f.type == kFirstType);
      if (empty_first) {
        assembling = false;
      } else if (!drop_assembled(f.header_offset, "has no last fragment")) {
        return false;
      }
    }
    if (!assembling && is_fragment) {
      if (!Damage(ErrorCode::kCorrupt, "fragment without the first fragment of its record",
                  f.header_offset, extent(f))) {
        return false;
      }
      continue;
    }
    switch (f.type) {
      case kZeroType:
        // Preallocated space (length 0, the rest of its block skipped); a type 0 record with a
        // payload is an unknown type to both readers.
        if (f.size == 0) continue;
        break;
      case kFullType:
        start(f, LogRecordKind::kData);
        data_record_seen_ = true;
        return true;
      case kFirstType:
        start(f, LogRecordKind::kData);
        data_record_seen_ = true;
        assembling = true;
        continue;
      case kMiddleType:
      case kLastType: {
        const auto payload = file_.subspan(f.payload_offset, f.size);
        record->payload.insert(record->payload.end(), payload.begin(), payload.end());
        record->fragments.push_back(LogFragment{f.payload_offset, f.size});
        if (f.type == kLastType) return true;
        continue;
      }
      default:
        break;
    }
    if (format_ == DbFormat::kLevelDb) {
      if (!Damage(ErrorCode::kCorrupt, "unknown record type " + std::to_string(f.type),
                  f.header_offset, extent(f))) {
        return false;
      }
      continue;
    }
    switch (f.type) {
      case kSetCompressionType: {
        // rocksdb util/compression.h CompressionTypeRecord: a fixed32 compression type, once,
        // before any data record.
        // A skipping reader reports a misplaced one and still takes it (rocksdb ReadRecord).
        if ((compression_seen_ || data_record_seen_) &&
            !Damage(ErrorCode::kCorrupt,
                    compression_seen_ ? "a second SetCompressionType record"
                                      : "SetCompressionType after data records",
                    f.header_offset, extent(f))) {
          return false;
        }
        compression_seen_ = true;
        if (f.size != 4) {
          if (!Damage(ErrorCode::kCorrupt,
                      "SetCompressionType record of " + std::to_string(f.size) + " bytes, not 4",
                      f.header_offset, extent(f))) {
            return false;
          }
          continue;
        }
        const uint32_t compression = DecodeFixed32(file_.data() + f.payload_offset);
        if (compression != 0) {
          return Fail(
              ErrorCode::kUnsupported,
              "compressed log records (compression type " + std::to_string(compression) + ")",
              f.header_offset);
        }
        start(f, LogRecordKind::kSetCompressionType);
        return true;
      }
      case kUserDefinedTimestampSizeType:
      case kRecyclableUserDefinedTimestampSizeType:
        start(f, LogRecordKind::kUserDefinedTimestampSize);
        return true;
      case kPredecessorWalInfoType:
      case kRecyclePredecessorWalInfoType:
        start(f, LogRecordKind::kPredecessorWalInfo);
        return true;
      default:
        if ((f.type & kRecordTypeSafeIgnoreMask) != 0) {
          start(f, LogRecordKind::kIgnorable);
          return true;
        }
        if (!Damage(ErrorCode::kCorrupt, "unknown record type " + std::to_string(f.type),
                    f.header_offset, extent(f))) {
          return false;
        }
        continue;
    }
  }
}

}  // namespace sstfilter
