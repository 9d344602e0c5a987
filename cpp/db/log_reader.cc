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
  uint8_t type = 0;         // recyclable FULL..LAST normalized to 1..4
  uint8_t stored_type = 0;  // the type byte as the header holds it
  bool recyclable = false;
  uint64_t header_offset = 0;
  uint64_t payload_offset = 0;
  ByteView payload;  // in the current block: valid until the next NextFragment
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

LogReader::LogReader(DbFormat format, uint64_t log_number, LogDamage damage)
    : format_(format), log_number_(log_number), damage_(damage) {}

LogReader::LogReader(ByteView file, DbFormat format, uint64_t log_number, LogDamage damage)
    : LogReader(format, log_number, damage) {
  Feed(file);
  EndOfFile();
}

void LogReader::Feed(ByteView chunk) {
  if (stopped_ || eof_) return;
  input_ = chunk;
  fed_ += chunk.size();
}

void LogReader::EndOfFile() {
  eof_ = true;
  // A checksum drop found before the block was whole runs to the block's full end (DropRestOfBlock
  // in NextFragment); a block the file ends inside ends at the file's end, as a whole-file read
  // finds it.
  for (LogDrop& d : drops_) d.size = std::min(d.size, fed_ - std::min(d.offset, fed_));
}

size_t LogReader::held_bytes() const {
  return block_copy_.size() + (assembling_ ? partial_.payload.size() : 0);
}

void LogReader::Stop() {
  stopped_ = true;
  input_ = {};
  block_ = {};
  Bytes().swap(block_copy_);
}

void LogReader::FillBlock() {
  const size_t room = kLogBlockSize - block_.size();
  if (room == 0 || input_.empty()) return;
  const size_t n = std::min(room, input_.size());
  if (block_.empty() && (n == room || eof_)) {
    // The chunk holds the whole block (or the file's last bytes): read in place, no copy.
    block_ = input_.first(n);
  } else {
    // A block straddling chunks: its bytes so far are already in block_copy_ (a block is read in
    // place only when it is whole or the file's last, which need no more input).
    if (block_copy_.capacity() < kLogBlockSize) block_copy_.reserve(kLogBlockSize);
    block_copy_.insert(block_copy_.end(), input_.begin(), input_.begin() + n);
    block_ = block_copy_;
  }
  input_ = input_.subspan(n);
}

bool LogReader::Fail(ErrorCode code, const std::string& what, uint64_t offset) {
  status_ = RecordError(code, what, offset);
  Stop();
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
                                           uint64_t block_end) {
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
  Stop();
  return Step::kEnd;
}

// `what` begins with the words RocksDB's reader reports for the same tail under
// kPointInTimeRecovery and kAbsoluteConsistency, which count it as damage (6.4.2).
void LogReader::EndTorn(uint64_t offset, const std::string& what) {
  end_ = LogEnd{LogEnd::Kind::kTorn, offset, what};
  Stop();
}

LogReader::Step LogReader::NextFragment(Fragment* fragment) {
  while (!stopped_) {
    FillBlock();
    const uint64_t full_block_end = block_start_ + kLogBlockSize;
    const uint64_t received_end = block_start_ + block_.size();
    if (pos_ >= received_end) {
      if (block_.size() < kLogBlockSize) return eof_ ? Step::kEnd : Step::kNeedInput;
      block_start_ = full_block_end;  // this block is read: on to the next
      block_ = {};
      block_copy_.clear();
      continue;
    }
    // The block's end is known once the block is whole or the file has ended: then it is
    // received_end. The file ends inside this block (both readers' eof_: a read returned less
    // than a block): a record that does not fit was cut off by the end of the file (a torn
    // write), not by a bad length. A file that ends with a whole block has no such block.
    const bool block_known = eof_ || block_.size() == kLogBlockSize;
    const bool partial_block = eof_ && block_.size() < kLogBlockSize;
    // The bytes of the block from pos_ on: all of them once the block is known.
    const ByteView left = block_.subspan(static_cast<size_t>(pos_ - block_start_));
    if (!block_known && left.size() < kLegacyHeaderSize) return Step::kNeedInput;
    const uint8_t* header = left.data();
    const uint8_t type = left.size() >= kLegacyHeaderSize ? header[6] : 0;
    const size_t header_size =
        IsRecyclable(format_, type) ? kRecyclableHeaderSize : kLegacyHeaderSize;
    if (left.size() < header_size) {
      if (!block_known) return Step::kNeedInput;
      // Too few bytes for a header: a whole block's padding, skipped unchecked; or, in a block the
      // file ends inside, a header cut short (RocksDB's kBadHeader whatever the bytes; LevelDB
      // reads either as the end, and zeros there as preallocated space).
      if (partial_block && (format_ == DbFormat::kRocksDb || !AllZero(left))) {
        EndTorn(pos_, "truncated header (a record header cut off by the end of the file)");
        return Step::kEnd;
      }
      pos_ = received_end;
      continue;
    }
    const uint32_t length = DecodeFixed16(header + 4);
    if (header_size == kRecyclableHeaderSize &&
        DecodeFixed32(header + 7) != static_cast<uint32_t>(log_number_)) {
      end_ = LogEnd{LogEnd::Kind::kOldRecord, pos_,
                    "recyclable record of log " + std::to_string(DecodeFixed32(header + 7)) +
                        ", not of log " + std::to_string(static_cast<uint32_t>(log_number_))};
      Stop();
      return Step::kEnd;
    }
    if (pos_ == 0) recycled_ = header_size == kRecyclableHeaderSize;
    if (header_size + length > left.size()) {
      // Fits the block's room or overruns it: the rest of the block or the file's end tells.
      if (!block_known) return Step::kNeedInput;
      if (recycled_ && !partial_block) return EndInLeftovers("a length that overruns its block");
      if (partial_block) {
        EndTorn(pos_, "truncated record body (a record of " + std::to_string(length) +
                          " bytes cut off by the end of the file)");
        return Step::kEnd;
      }
      return DropRestOfBlock(ErrorCode::kCorrupt,
                             "length " + std::to_string(length) + " overruns its block (" +
                                 std::to_string(left.size()) + " bytes left)",
                             received_end);
    }
    if (type == kZeroType && length == 0) {
      // Space a writer preallocated (mmap writes): both readers drop the rest of the block.
      *fragment = Fragment{kZeroType, type, false, pos_, pos_ + header_size, {}};
      pos_ = block_known ? received_end : full_block_end;
      return Step::kFragment;
    }
    const uint32_t expected = Crc32cUnmask(DecodeFixed32(header));
    // The CRC covers the type byte, the log number where there is one, and the payload.
    const uint32_t actual = Crc32c(left.subspan(6, header_size - 6 + length));
    if (actual != expected) {
      if (recycled_) return EndInLeftovers("a checksum mismatch");
      // Before the block is whole, to its full end: EndOfFile cuts the drop back to the file's
      // end if the file ends inside this block.
      return DropRestOfBlock(ErrorCode::kChecksumMismatch,
                             "checksum mismatch (stored " + std::to_string(expected) +
                                 ", computed " + std::to_string(actual) + ")",
                             block_known ? received_end : full_block_end);
    }
    const bool recyclable = header_size == kRecyclableHeaderSize;
    const uint8_t normalized =
        recyclable && type <= kRecyclableLastType ? type - (kRecyclableFullType - kFullType) : type;
    *fragment = Fragment{
        normalized, type, recyclable, pos_, pos_ + header_size, left.subspan(header_size, length)};
    pos_ += header_size + length;
    return Step::kFragment;
  }
  return Step::kEnd;
}

void LogReader::Start(const Fragment& f, LogRecordKind kind) {
  partial_.kind = kind;
  partial_.type = f.stored_type;
  partial_.offset = f.header_offset;
  partial_.recyclable = f.recyclable;
  partial_.payload.assign(f.payload.begin(), f.payload.end());
  partial_.fragments.assign(1,
                            LogFragment{f.payload_offset, static_cast<uint32_t>(f.payload.size())});
}

// Drops the record being assembled, its fragments' extent; under kStop, fails at `at`, where the
// loss shows.
bool LogReader::DropAssembled(uint64_t at, const char* why) {
  assembling_ = false;
  const std::string what =
      "fragmented record starting at offset " + std::to_string(partial_.offset) + " " + why;
  if (damage_ == LogDamage::kStop) return Fail(ErrorCode::kCorrupt, what, at);
  const LogFragment& last = partial_.fragments.back();
  return Damage(ErrorCode::kCorrupt, what, partial_.offset,
                last.payload_offset + last.size - partial_.offset);
}

LogReader::ReadResult LogReader::Read(LogRecord* record) {
  if (done_) return ReadResult::kDone;
  const auto done = [&] {
    done_ = true;
    assembling_ = false;
    return ReadResult::kDone;
  };
  // The record read, handed over; the caller's old record becomes the next one's storage.
  const auto emit = [&] {
    assembling_ = false;
    std::swap(*record, partial_);
    return ReadResult::kRecord;
  };
  // A fragment's extent, header included.
  const auto extent = [](const Fragment& f) {
    return f.payload_offset + f.payload.size() - f.header_offset;
  };
  while (true) {
    Fragment f;
    const Step step = NextFragment(&f);
    if (step == Step::kNeedInput) return ReadResult::kNeedInput;
    if (step == Step::kError) return done();
    if (step == Step::kDropped) {
      if (assembling_) DropAssembled(partial_.offset, "lost a fragment to damage");
      continue;
    }
    if (step == Step::kEnd) {
      if (assembling_ && end_.kind == LogEnd::Kind::kClean) {
        EndTorn(partial_.offset,
                "error reading trailing data (a fragmented record without its last fragment)");
      } else if (assembling_ && end_.kind == LogEnd::Kind::kTorn) {
        end_.offset = partial_.offset;  // the torn record starts at its first fragment
      }
      return done();
    }
    const bool is_fragment = f.type >= kMiddleType && f.type <= kLastType;
    if (assembling_ && !is_fragment) {
      // A FULL or FIRST fragment after an empty FIRST one: both readers read on silently (an
      // older writer left empty FIRST fragments at the end of a block).
      const bool empty_first =
          partial_.payload.empty() && (f.type == kFullType || f.type == kFirstType);
      if (empty_first) {
        assembling_ = false;
      } else if (!DropAssembled(f.header_offset, "has no last fragment")) {
        return done();
      }
    }
    if (!assembling_ && is_fragment) {
      if (!Damage(ErrorCode::kCorrupt, "fragment without the first fragment of its record",
                  f.header_offset, extent(f))) {
        return done();
      }
      continue;
    }
    switch (f.type) {
      case kZeroType:
        // Preallocated space (length 0, the rest of its block skipped); a type 0 record with a
        // payload is an unknown type to both readers.
        if (f.payload.empty()) continue;
        break;
      case kFullType:
        Start(f, LogRecordKind::kData);
        data_record_seen_ = true;
        return emit();
      case kFirstType:
        Start(f, LogRecordKind::kData);
        data_record_seen_ = true;
        assembling_ = true;
        continue;
      case kMiddleType:
      case kLastType:
        partial_.payload.insert(partial_.payload.end(), f.payload.begin(), f.payload.end());
        partial_.fragments.push_back(
            LogFragment{f.payload_offset, static_cast<uint32_t>(f.payload.size())});
        if (f.type == kLastType) return emit();
        continue;
      default:
        break;
    }
    if (format_ == DbFormat::kLevelDb) {
      if (!Damage(ErrorCode::kCorrupt, "unknown record type " + std::to_string(f.type),
                  f.header_offset, extent(f))) {
        return done();
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
          return done();
        }
        compression_seen_ = true;
        if (f.payload.size() != 4) {
          if (!Damage(ErrorCode::kCorrupt,
                      "SetCompressionType record of " + std::to_string(f.payload.size()) +
                          " bytes, not 4",
                      f.header_offset, extent(f))) {
            return done();
          }
          continue;
        }
        const uint32_t compression = DecodeFixed32(f.payload.data());
        if (compression != 0) {
          Fail(ErrorCode::kUnsupported,
               "compressed log records (compression type " + std::to_string(compression) + ")",
               f.header_offset);
          return done();
        }
        Start(f, LogRecordKind::kSetCompressionType);
        return emit();
      }
      case kUserDefinedTimestampSizeType:
      case kRecyclableUserDefinedTimestampSizeType:
        Start(f, LogRecordKind::kUserDefinedTimestampSize);
        return emit();
      case kPredecessorWalInfoType:
      case kRecyclePredecessorWalInfoType:
        Start(f, LogRecordKind::kPredecessorWalInfo);
        return emit();
      default:
        if ((f.type & kRecordTypeSafeIgnoreMask) != 0) {
          Start(f, LogRecordKind::kIgnorable);
          return emit();
        }
        if (!Damage(ErrorCode::kCorrupt, "unknown record type " + std::to_string(f.type),
                    f.header_offset, extent(f))) {
          return done();
        }
        continue;
    }
  }
}

}  // namespace sstfilter
