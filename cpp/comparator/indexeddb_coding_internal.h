// Helpers the two halves of the IndexedDB key coding share (indexeddb_coding.cc: encoded IDB
// keys; indexeddb_key_space.cc: the key prefix, the key kinds and the idb_cmp1 order), moved
// out of indexeddb_coding.cc. The comparisons follow Chromium's
// content/browser/indexed_db/indexed_db_leveldb_coding.cc. Internal to cpp/comparator.
#pragma once

#include <cstdint>

#include "sstfilter/bytes.h"

namespace sstfilter::indexeddb::internal {

inline ByteView Skip(ByteView in, size_t n) { return in.subspan(n); }

// CompareInts: the sign of a - b. Chromium subtracts int64s, which can only overflow for ids read
// from 8-byte prefixes with the top bit set (never written); signed overflow is undefined there
// and compilers turn the test into a comparison, which is what this does.
inline int CompareInts(int64_t a, int64_t b) {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}

inline int CompareSizes(size_t a, size_t b) {
  if (a > b) return 1;
  if (b > a) return -1;
  return 0;
}

}  // namespace sstfilter::indexeddb::internal
