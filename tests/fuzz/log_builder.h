// Writes log files (docs/FORMATS.md 6.1) for the tests and fuzz targets: plain records through the
// core's LogWriter, RocksDB's recyclable records (types 5 to 8, with the log number in each header;
// rocksdb db/log_writer.cc with recycle_log_files) fragmented the same way here. Physical writes
// one record of any type as it is, for logs a writer would not produce.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sstfilter/bytes.h"
#include "sstfilter/db.h"
#include "sstfilter/hash.h"

namespace sstfilter::fuzz {

class LogBuilder {
 public:
  // recyclable: RocksDB's recyclable record types (5 to 8) with `log_number` in each header.
  explicit LogBuilder(bool recyclable = false, uint32_t log_number = 0)
      : recyclable_(recyclable), log_number_(log_number) {}

  void Add(ByteView payload) {
    if (!recyclable_) {
      LogWriter writer(bytes_.size());
      writer.AddRecord(payload);
      const Bytes framed = writer.TakeOutput();
      bytes_.insert(bytes_.end(), framed.begin(), framed.end());
      return;
    }
    // RocksDB's recyclable framing (LogWriter writes only the plain one): 11-byte headers.
    constexpr size_t kHeader = 11;
    size_t pos = 0;
    bool first = true;
    do {
      size_t left = kLogBlockSize - bytes_.size() % kLogBlockSize;
      if (left < kHeader) {
        bytes_.insert(bytes_.end(), left, 0);
        left = kLogBlockSize;
      }
      const size_t n = std::min(left - kHeader, payload.size() - pos);
      const bool last = pos + n == payload.size();
      const uint8_t type = first && last ? 5 : first ? 6 : last ? 8 : 7;
      Physical(type, payload.subspan(pos, n));
      pos += n;
      first = false;
    } while (pos < payload.size());
  }

  // One physical record, with the 11-byte header for RocksDB's recyclable types (5 to 8, 11, 131).
  void Physical(uint8_t type, ByteView payload) {
    const bool recyclable = (type >= 5 && type <= 8) || type == 11 || type == 131;
    Bytes head(recyclable ? 11 : 7, 0);
    head[4] = static_cast<uint8_t>(payload.size());
    head[5] = static_cast<uint8_t>(payload.size() >> 8);
    head[6] = type;
    if (recyclable) {
      for (int i = 0; i < 4; ++i) head[7 + i] = static_cast<uint8_t>(log_number_ >> (8 * i));
    }
    Bytes covered(head.begin() + 6, head.end());
    covered.insert(covered.end(), payload.begin(), payload.end());
    const uint32_t crc = Crc32cMask(Crc32c(covered));
    for (int i = 0; i < 4; ++i) head[i] = static_cast<uint8_t>(crc >> (8 * i));
    bytes_.insert(bytes_.end(), head.begin(), head.end());
    bytes_.insert(bytes_.end(), payload.begin(), payload.end());
  }

  Bytes& bytes() { return bytes_; }

 private:
  bool recyclable_;
  uint32_t log_number_;
  Bytes bytes_;
};

}  // namespace sstfilter::fuzz
