// Chromium's IndexedDB comparator "idb_cmp1" (content/browser/indexed_db/
// indexed_db_leveldb_operations.cc: a leveldb::Comparator whose Compare is
// content::indexed_db::Compare(a, b, /*index_keys=*/false) and whose FindShortestSeparator and
// FindShortSuccessor are empty: Chromium's tables keep whole keys as index separators).
#include "comparator/indexeddb_coding.h"
#include "sstfilter/comparator.h"

namespace sstfilter {
namespace {

class IndexedDbComparatorImpl final : public Comparator {
 public:
  std::string_view Name() const override { return kIndexedDbComparatorName; }
  int Compare(ByteView a, ByteView b) const override {
    const int r = indexeddb::CompareKeys(a, b);
    return r < 0 ? -1 : (r > 0 ? 1 : 0);
  }
  // The defaults change nothing, which is what Chromium's comparator does.
};

}  // namespace

const Comparator& IndexedDbComparator() {
  static const IndexedDbComparatorImpl* const instance = new IndexedDbComparatorImpl();
  return *instance;
}

}  // namespace sstfilter
