#include "sstfilter/status.h"

#include "base/enum_names.h"

namespace sstfilter {

const char* ErrorCodeName(ErrorCode code) {
  // In ErrorCode's order.
  static constexpr const char* kNames[] = {"OK",          "BAD_OPTIONS",   "BAD_KEY",
                                           "TRUNCATED",   "CORRUPT",       "CHECKSUM_MISMATCH",
                                           "UNSUPPORTED", "RESOURCE_LIMIT"};
  return EnumName<ErrorCode::kResourceLimit>(code, kNames, "UNKNOWN");
}

}  // namespace sstfilter
