#include "sstfilter/status.h"

namespace sstfilter {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "OK";
    case ErrorCode::kBadOptions:
      return "BAD_OPTIONS";
    case ErrorCode::kBadKey:
      return "BAD_KEY";
    case ErrorCode::kTruncated:
      return "TRUNCATED";
    case ErrorCode::kCorrupt:
      return "CORRUPT";
    case ErrorCode::kChecksumMismatch:
      return "CHECKSUM_MISMATCH";
    case ErrorCode::kUnsupported:
      return "UNSUPPORTED";
    case ErrorCode::kResourceLimit:
      return "RESOURCE_LIMIT";
  }
  return "UNKNOWN";
}

}  // namespace sstfilter
