// The harness of local_storage_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "harness_support.h"
#include "sstfilter/chrome_stores.h"

namespace sstfilter::fuzz {

// Layout: one byte (bit 0: sessionStorage rather than localStorage; the rest: the key's length),
// the key, then the value.
inline void FuzzLocalStorage(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  const ByteView key = in.Take(mode >> 1);
  const ByteView value = in.Rest();
  std::string json;
  const Status s = (mode & 1) ? DecodeSessionStorageRecord(key, value, &json)
                              : DecodeLocalStorageRecord(key, value, &json);
  if (s.ok()) {
    FUZZ_CHECK(json.size() >= 2 && json.front() == '{' && json.back() == '}');
  } else {
    FUZZ_CHECK(json.empty());
    FUZZ_CHECK(s.offset() <= static_cast<int64_t>(std::max(key.size(), value.size())));
  }
}

}  // namespace sstfilter::fuzz
