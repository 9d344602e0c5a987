#include "table/internal_key.h"

#include <algorithm>
#include <cstring>

namespace sstfilter {

std::optional<KeyOrder> KeyOrderFromComparatorName(std::string_view name) {
  if (name == "leveldb.BytewiseComparator") return KeyOrder::kBytewise;
  if (name == "rocksdb.ReverseBytewiseComparator") return KeyOrder::kReverseBytewise;
  return std::nullopt;
}

int CompareUserKeys(KeyOrder order, ByteView a, ByteView b) {
  const size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c == 0) c = a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
  return order == KeyOrder::kBytewise ? c : -c;
}

int CompareIndexKeyWithLookup(KeyOrder order, ByteView key, bool has_tag, uint64_t tag,
                              const LookupKey& lookup) {
  if (const int c = CompareUserKeys(order, key, lookup.user_key); c != 0) return c;
  return has_tag && TagSequence(tag) > lookup.sequence ? -1 : 0;
}

}  // namespace sstfilter
