#include "table/internal_key.h"

namespace sstfilter {

int CompareIndexKeyWithLookup(const Comparator& comparator, ByteView key, bool has_tag,
                              uint64_t tag, const LookupKey& lookup) {
  const size_t ts_size = comparator.timestamp_size();
  // A separator too short for its timestamp exists only in a damaged file: it compares as the
  // newest version of itself, so that a seek still ends somewhere.
  uint64_t timestamp = UINT64_MAX;
  if (ts_size != 0 && key.size() >= ts_size) {
    timestamp = DecodeFixed64(key.data() + key.size() - ts_size);
    key = key.first(key.size() - ts_size);
  }
  if (const int c = comparator.Compare(key, lookup.user_key); c != 0) return c;
  if (timestamp != lookup.timestamp) return timestamp > lookup.timestamp ? -1 : 1;
  return has_tag && TagSequence(tag) > lookup.sequence ? -1 : 0;
}

}  // namespace sstfilter
