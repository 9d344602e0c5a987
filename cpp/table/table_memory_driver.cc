// DriveFromMemory (sstfilter/table.h): the native counterpart of the TypeScript driver, for C++
// callers, tests and fuzzing.
#include <cstring>

#include "sstfilter/table.h"

namespace sstfilter {

Status DriveFromMemory(ResumableRead& op, ByteView file) {
  for (;;) {
    if (Status s = op.Advance(); !s.ok()) return s;
    if (op.need() == IoNeed::kNothing) return Status::Ok();
    const uint64_t offset = op.need_offset();
    const uint64_t length = op.need_length();
    // A file shorter than the reader was told is a short read, which the fetcher reports.
    const uint64_t available = offset > file.size() ? 0 : file.size() - offset;
    const auto size = static_cast<size_t>(length < available ? length : available);
    if (size != 0) std::memcpy(op.SupplyBuffer(), file.data() + offset, size);
    if (Status s = op.Supplied(size); !s.ok()) return s;
  }
}

}  // namespace sstfilter
