#include "table/internal_key.h"

#include <algorithm>
#include <cstring>

namespace sstfilter {

std::optional<KeyOrder> KeyOrderFromComparatorName(std::string_view name) {
  if (name == "leveldb.BytewiseComparator") return KeyOrder::kBytewise;
  if (name == "rocksdb.ReverseBytewiseComparator") return KeyOrder::kReverseBytewise;
  // RocksDB 7.8.3 records no timestamp size in the properties (newer versions add
  // rocksdb.user.defined.timestamps.persisted only): the comparator's name says it.
  if (name == "leveldb.BytewiseComparator.u64ts") return KeyOrder::kBytewiseU64Ts;
  return std::nullopt;
}

int CompareUserKeys(KeyOrder order, ByteView a, ByteView b) {
  const size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c == 0) c = a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
  return order == KeyOrder::kReverseBytewise ? -c : c;
}

int CompareIndexKeyWithLookup(KeyOrder order, ByteView key, bool has_tag, uint64_t tag,
                              const LookupKey& lookup) {
  const size_t ts_size = TimestampSize(order);
  // A separator too short for its timestamp exists only in a damaged file: it compares as the
  // newest version of itself, so that a seek still ends somewhere.
  uint64_t timestamp = UINT64_MAX;
  if (ts_size != 0 && key.size() >= ts_size) {
    timestamp = DecodeFixed64(key.data() + key.size() - ts_size);
    key = key.first(key.size() - ts_size);
  }
  if (const int c = CompareUserKeys(order, key, lookup.user_key); c != 0) return c;
  if (timestamp != lookup.timestamp) return timestamp > lookup.timestamp ? -1 : 1;
  return has_tag && TagSequence(tag) > lookup.sequence ? -1 : 0;
}

}  // namespace sstfilter
