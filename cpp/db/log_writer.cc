// Writing log files (docs/FORMATS.md 6.1; leveldb db/log_writer.cc, rocksdb db/log_writer.cc
// Writer::AddRecord without recycling): what LogReader reads back.
#include <algorithm>

#include "sstfilter/hash.h"
#include "sstfilter/log.h"

namespace sstfilter {
namespace {

constexpr size_t kHeaderSize = 7;  // masked CRC-32C (4), length (2), type (1)
enum FragmentType : uint8_t { kFull = 1, kFirst = 2, kMiddle = 3, kLast = 4 };

}  // namespace

void LogWriter::AddRecord(ByteView payload) {
  bool first = true;
  // An empty record is one FULL fragment of length 0.
  do {
    const size_t left = kLogBlockSize - block_offset_;
    if (left < kHeaderSize) {
      // Both writers fill a block's tail too short for a header with zeros; readers skip it.
      out_.insert(out_.end(), left, 0);
      block_offset_ = 0;
    }
    const size_t room = kLogBlockSize - block_offset_ - kHeaderSize;
    const size_t length = std::min(room, payload.size());
    const bool last = length == payload.size();
    const uint8_t type = first && last ? kFull : first ? kFirst : last ? kLast : kMiddle;
    // The CRC covers the type byte and the payload.
    const uint8_t type_byte[1] = {type};
    const ByteView fragment = payload.first(length);
    PutFixed32(&out_, Crc32cMask(Crc32cExtend(Crc32c(type_byte), fragment)));
    out_.push_back(static_cast<uint8_t>(length & 0xff));
    out_.push_back(static_cast<uint8_t>(length >> 8));
    out_.push_back(type);
    out_.insert(out_.end(), fragment.begin(), fragment.end());
    block_offset_ += kHeaderSize + length;
    payload = payload.subspan(length);
    first = false;
  } while (!payload.empty());
}

Bytes LogWriter::TakeOutput() {
  Bytes out;
  out.swap(out_);
  return out;
}

}  // namespace sstfilter
