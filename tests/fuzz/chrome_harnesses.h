// The bodies of the Chrome store fuzz targets (indexeddb_key_fuzz, v8_value_fuzz,
// local_storage_fuzz), header-only like harnesses.h so that the GoogleTest suite can replay
// committed inputs through the same code. Invariants: no crash or out-of-bounds read (ASan), the
// IndexedDB order is antisymmetric and reflexive, errors are typed with an offset inside the
// input, and a success writes some JSON text.
#pragma once

#include <climits>
#include <cstdint>
#include <string>

#include "comparator/indexeddb_coding.h"
#include "harnesses.h"
#include "sstfilter/chrome_stores.h"
#include "sstfilter/comparator.h"

namespace sstfilter::fuzz {

inline int SignOf(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

// An error of a decoder given `size` bytes names a byte inside them (or their end).
inline void CheckTypedError(const Status& s, size_t size) {
  FUZZ_CHECK(!s.ok());
  FUZZ_CHECK(s.code() != ErrorCode::kOk);
  FUZZ_CHECK(s.offset() >= Status::kNoOffset);
  FUZZ_CHECK(s.offset() <= static_cast<int64_t>(size));
}

// Layout: one byte n, then key a (n bytes), then key b (the rest). Compares both ways (Chromium's
// Compare and the comparator), parses both keys, and decodes (a, b) as a record.
inline void FuzzIndexedDbKey(const uint8_t* data, size_t size) {
  Input in(data, size);
  const size_t n = in.Byte();
  const ByteView a = in.Take(n);
  const ByteView b = in.Rest();
  const Comparator& cmp = IndexedDbComparator();
  FUZZ_CHECK(cmp.Compare(a, a) == 0);
  FUZZ_CHECK(cmp.Compare(b, b) == 0);
  bool ok_ab = false;
  bool ok_ba = false;
  const int ab = indexeddb::CompareKeys(a, b, false, &ok_ab);
  const int ba = indexeddb::CompareKeys(b, a, false, &ok_ba);
  FUZZ_CHECK(ok_ab == ok_ba);
  // Chromium returns an array length difference truncated to int: INT_MIN is its own negation.
  if (ab != INT_MIN && ba != INT_MIN) FUZZ_CHECK(SignOf(ab) == -SignOf(ba));
  if (!ok_ab) FUZZ_CHECK(cmp.Compare(a, b) == 0);
  bool ok_index = false;
  indexeddb::CompareKeys(a, b, true, &ok_index);
  for (ByteView key : {a, b}) {
    indexeddb::ParsedKey parsed;
    if (indexeddb::ParseKey(key, &parsed).ok() && !parsed.user_key.empty()) {
      ByteView rest = parsed.user_key;
      FUZZ_CHECK(indexeddb::ConsumeEncodedIdbKey(&rest));
      FUZZ_CHECK(rest.empty());
    }
    std::string json;
    const Status s = DecodeIndexedDbKey(key, &json);
    if (s.ok()) {
      FUZZ_CHECK(!json.empty());
    } else {
      CheckTypedError(s, key.size());
    }
  }
  std::string json;
  ChromeDecodeLimits limits;
  limits.max_output_bytes = 1 << 20;
  const Status s = DecodeIndexedDbRecord(a, b, &json, limits);
  if (s.ok()) {
    FUZZ_CHECK(json.size() >= 2 && json.front() == '{' && json.back() == '}');
  } else {
    FUZZ_CHECK(json.empty());
    FUZZ_CHECK(s.offset() <= static_cast<int64_t>(std::max(a.size(), b.size())));
  }
}

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
