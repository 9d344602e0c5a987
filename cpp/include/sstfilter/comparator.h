// Key orders (docs/FORMATS.md 3.4): the comparator a database was opened with decides the order of
// every table, log-derived memtable and MANIFEST key range it writes. LevelDB tables do not record
// it; RocksDB tables name it in the `rocksdb.comparator` property; both MANIFESTs name it. A reader
// that seeks (an index, a partitioned filter's partitions, a key range, a Get across levels) must
// compare as that comparator does, or it lands on the wrong block and answers a false "definitely
// not". The model is leveldb include/leveldb/comparator.h and rocksdb include/rocksdb/comparator.h.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sstfilter/bytes.h"

namespace sstfilter {

// A total order over user keys. Implementations must be thread-compatible and consistent (the
// order of two keys never changes); an inconsistent comparator makes the order checks report the
// file as out of order, never a wrong "definitely not" for a key in order.
class Comparator {
 public:
  virtual ~Comparator() = default;

  // The name RocksDB records in `rocksdb.comparator` and both databases record in the MANIFEST.
  virtual std::string_view Name() const = 0;

  // <0, 0 or >0 as `a` sorts before, with or after `b`. User keys without their timestamp (for a
  // comparator with timestamp_size() > 0 the stored key is this key followed by the timestamp).
  virtual int Compare(ByteView a, ByteView b) const = 0;

  // Bytes of user-defined timestamp at the end of every stored user key (docs/FORMATS.md 3.4.1): 0
  // for none. Versions of one key sort by timestamp, the largest (a little-endian u64) first.
  virtual size_t timestamp_size() const { return 0; }

  // Whether Compare is memcmp-then-length (leveldb.BytewiseComparator and its timestamp variant):
  // lets bytewise-only fast paths and the writer's separator shortening apply.
  virtual bool is_bytewise() const { return false; }

  // What the table writer stores as index separators (Comparator::FindShortestSeparator and
  // FindShortSuccessor): `*start` may become any key in [start, limit), `*key` any key >= key. The
  // defaults change nothing, as a comparator that does not shorten.
  virtual void FindShortestSeparator(Bytes* start, ByteView limit) const;
  virtual void FindShortSuccessor(Bytes* key) const;
};

// The built-in orders, by the names the databases record.
inline constexpr std::string_view kBytewiseComparatorName = "leveldb.BytewiseComparator";
inline constexpr std::string_view kReverseBytewiseComparatorName =
    "rocksdb.ReverseBytewiseComparator";
inline constexpr std::string_view kBytewiseU64TsComparatorName = "leveldb.BytewiseComparator.u64ts";
// Chromium's IndexedDB backing store (content/browser/indexed_db: the LevelDB comparator it opens
// its databases with).
inline constexpr std::string_view kIndexedDbComparatorName = "idb_cmp1";

// LevelDB's and RocksDB's BytewiseComparator (memcmp, then the shorter first).
const Comparator& BytewiseComparator();
// RocksDB's ReverseBytewiseComparator.
const Comparator& ReverseBytewiseComparator();
// RocksDB's BytewiseComparatorWithU64Ts: bytewise keys with 8-byte timestamps.
const Comparator& BytewiseU64TsComparator();
// Chromium's idb_cmp1 (cpp/comparator/indexeddb_comparator.cc).
const Comparator& IndexedDbComparator();

// The built-in comparator of that name, or nullptr.
const Comparator* FindBuiltinComparator(std::string_view name);
// The names FindBuiltinComparator knows, in a fixed order.
std::vector<std::string_view> BuiltinComparatorNames();

// A comparator to hold: a built-in one (never freed) or one the caller made.
using ComparatorRef = std::shared_ptr<const Comparator>;
// The built-in comparator of that name as a ComparatorRef, or nullptr.
ComparatorRef BuiltinComparator(std::string_view name);

}  // namespace sstfilter
