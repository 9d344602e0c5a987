// TEMPORARY (idb branch): a minimal registry and bytewise family so that the IndexedDB comparator
// links. The main developer's cpp/comparator/comparator.cc replaces this file on merge.
// Models: leveldb util/comparator.cc, rocksdb util/comparator.cc.
#include "sstfilter/comparator.h"

#include <algorithm>
#include <cstring>

namespace sstfilter {

void Comparator::FindShortestSeparator(Bytes*, ByteView) const {}
void Comparator::FindShortSuccessor(Bytes*) const {}

namespace {

int CompareBytes(ByteView a, ByteView b) {
  const size_t n = std::min(a.size(), b.size());
  if (n > 0) {
    if (int r = std::memcmp(a.data(), b.data(), n)) return r < 0 ? -1 : 1;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

class BytewiseImpl final : public Comparator {
 public:
  std::string_view Name() const override { return kBytewiseComparatorName; }
  int Compare(ByteView a, ByteView b) const override { return CompareBytes(a, b); }
  bool is_bytewise() const override { return true; }
  void FindShortestSeparator(Bytes* start, ByteView limit) const override {
    const size_t n = std::min(start->size(), limit.size());
    size_t i = 0;
    while (i < n && (*start)[i] == limit[i]) ++i;
    if (i >= n) return;
    const uint8_t byte = (*start)[i];
    if (byte < 0xff && byte + 1 < limit[i]) {
      (*start)[i]++;
      start->resize(i + 1);
    }
  }
  void FindShortSuccessor(Bytes* key) const override {
    for (size_t i = 0; i < key->size(); ++i) {
      if ((*key)[i] != 0xff) {
        (*key)[i]++;
        key->resize(i + 1);
        return;
      }
    }
  }
};

class ReverseBytewiseImpl final : public Comparator {
 public:
  std::string_view Name() const override { return kReverseBytewiseComparatorName; }
  int Compare(ByteView a, ByteView b) const override { return -CompareBytes(a, b); }
};

class BytewiseU64TsImpl final : public Comparator {
 public:
  std::string_view Name() const override { return kBytewiseU64TsComparatorName; }
  size_t timestamp_size() const override { return 8; }
  bool is_bytewise() const override { return true; }
  int Compare(ByteView a, ByteView b) const override { return CompareBytes(a, b); }
};

}  // namespace

const Comparator& BytewiseComparator() {
  static const BytewiseImpl* const instance = new BytewiseImpl();
  return *instance;
}

const Comparator& ReverseBytewiseComparator() {
  static const ReverseBytewiseImpl* const instance = new ReverseBytewiseImpl();
  return *instance;
}

const Comparator& BytewiseU64TsComparator() {
  static const BytewiseU64TsImpl* const instance = new BytewiseU64TsImpl();
  return *instance;
}

const Comparator* FindBuiltinComparator(std::string_view name) {
  for (const Comparator* c : {&BytewiseComparator(), &ReverseBytewiseComparator(),
                              &BytewiseU64TsComparator(), &IndexedDbComparator()}) {
    if (c->Name() == name) return c;
  }
  return nullptr;
}

std::vector<std::string_view> BuiltinComparatorNames() {
  return {kBytewiseComparatorName, kReverseBytewiseComparatorName, kBytewiseU64TsComparatorName,
          kIndexedDbComparatorName};
}

ComparatorRef BuiltinComparator(std::string_view name) {
  const Comparator* c = FindBuiltinComparator(name);
  if (c == nullptr) return nullptr;
  return ComparatorRef(c, [](const Comparator*) {});
}

}  // namespace sstfilter
