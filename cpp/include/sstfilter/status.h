// Error reporting for the core. The core never throws (the wasm builds run without C++ exception
// support); every fallible operation returns a Status, which the bindings turn into a typed
// SstFilterError in TypeScript with the same code string.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace sstfilter {

enum class ErrorCode : uint8_t {
  kOk = 0,
  kBadOptions,        // an option is out of range or of the wrong kind
  kBadKey,            // a key is neither bytes nor a string, or a key batch is malformed
  kTruncated,         // input ends before a structure it announces
  kCorrupt,           // input is structurally invalid
  kChecksumMismatch,  // a stored checksum disagrees with the bytes
  kUnsupported,       // valid input using a feature this version does not implement
  kResourceLimit,     // input asks for more memory than the limits allow
};

// The stable code string shown to users (SstFilterError.code).
const char* ErrorCodeName(ErrorCode code);

class Status {
 public:
  static constexpr int64_t kNoOffset = -1;

  Status() = default;
  static Status Ok() { return Status(); }
  static Status Error(ErrorCode code, std::string message, int64_t offset = kNoOffset) {
    return Status(code, std::move(message), offset);
  }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // Byte offset in the input the error refers to, or kNoOffset.
  int64_t offset() const { return offset_; }

 private:
  Status(ErrorCode code, std::string message, int64_t offset)
      : code_(code), message_(std::move(message)), offset_(offset) {}

  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  int64_t offset_ = kNoOffset;
};

}  // namespace sstfilter
