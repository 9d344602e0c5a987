// The harness of v8_value_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <cstdint>
#include <string>

#include "harness_support.h"
#include "sstfilter/chrome_stores.h"

namespace sstfilter::fuzz {

// Layout: one byte selecting the version (13 + its low two bits), the envelope (bit 2: a Blink
// SerializedScriptValue rather than a bare V8 value) and small limits (bit 3), then the payload.
inline void FuzzV8Value(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  const ByteView payload = in.Rest();
  ChromeDecodeLimits limits;
  if (mode & 8) {
    limits.max_depth = 8;
    limits.max_output_bytes = 4096;
    limits.max_array_length = 64;
    limits.max_bigint_bytes = 16;
  } else {
    limits.max_output_bytes = 1 << 22;
    limits.max_array_length = 1 << 16;
  }
  std::string json;
  const Status s = (mode & 4) ? DecodeSerializedScriptValue(payload, &json, limits)
                              : DecodeV8Value(payload, 13u + (mode & 3), &json, limits);
  if (s.ok()) {
    FUZZ_CHECK(!json.empty());
    FUZZ_CHECK(json.size() <= limits.max_output_bytes + 64);
  } else {
    CheckTypedError(s, payload.size());
    FUZZ_CHECK(json.empty());
  }
}

}  // namespace sstfilter::fuzz
