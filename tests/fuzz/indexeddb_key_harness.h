// The harness of indexeddb_key_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "comparator/indexeddb_coding.h"
#include "harness_support.h"
#include "sstfilter/chrome_stores.h"
#include "sstfilter/comparator.h"

namespace sstfilter::fuzz {

inline int SignOf(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

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

}  // namespace sstfilter::fuzz
