#include "table/internal_key.h"

namespace sstfilter {

int CompareInternalKeys(const Comparator& comparator, ByteView a, uint64_t a_tag, ByteView b,
                        uint64_t b_tag, bool has_tag) {
  uint64_t ta = UINT64_MAX;
  uint64_t tb = UINT64_MAX;
  const size_t ts_size = comparator.timestamp_size();
  if (ts_size == 8 && a.size() >= ts_size && b.size() >= ts_size) {
    ta = DecodeFixed64(a.data() + a.size() - ts_size);
    tb = DecodeFixed64(b.data() + b.size() - ts_size);
    a = a.first(a.size() - ts_size);
    b = b.first(b.size() - ts_size);
  }
  if (const int c = comparator.Compare(a, b); c != 0) return c;
  if (ta != tb) return ta > tb ? -1 : 1;
  if (!has_tag || a_tag == b_tag) return 0;
  return a_tag > b_tag ? -1 : 1;
}

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
