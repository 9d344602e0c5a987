// DriveFromMemory (sstfilter/table.h): the native counterpart of the TypeScript driver, for C++
// callers, tests and fuzzing.
#include <string>

#include "sstfilter/table.h"

namespace sstfilter {

Status DriveFromMemory(ResumableRead& op, ByteView file, const BlockDecompressor& decompress) {
  for (;;) {
    if (Status s = op.Advance(); !s.ok()) return s;
    Status s;
    switch (op.need()) {
      case IoNeed::kNothing:
        return Status::Ok();
      case IoNeed::kBytes: {
        const uint64_t offset = op.need_offset();
        const uint64_t length = op.need_length();
        // A file shorter than the reader was told is a short read, which the fetcher reports.
        const uint64_t available = offset > file.size() ? 0 : file.size() - offset;
        s = op.Supply(file.subspan(static_cast<size_t>(offset > file.size() ? file.size() : offset),
                                   static_cast<size_t>(length < available ? length : available)));
        break;
      }
      case IoNeed::kDecompression: {
        if (!decompress) {
          return Status::Error(ErrorCode::kUnsupported,
                               std::string(CodecName(op.codec())) +
                                   " compressed block: no decompressor in this build",
                               static_cast<int64_t>(op.block_offset()));
        }
        Bytes out;
        s = decompress(op.codec(), op.payload(), op.uncompressed_size(), &out);
        if (s.ok()) {
          s = op.Supply(out);
        } else if (s.offset() == Status::kNoOffset) {
          // A codec knows nothing of the file: the block it failed on is where the error is.
          s = Status::Error(s.code(), s.message(), static_cast<int64_t>(op.block_offset()));
        }
        break;
      }
    }
    if (!s.ok()) return s;
  }
}

}  // namespace sstfilter
