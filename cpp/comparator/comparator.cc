// The bytewise family of orders (leveldb util/comparator.cc BytewiseComparatorImpl; rocksdb
// util/comparator.cc BytewiseComparatorImpl, ReverseBytewiseComparatorImpl,
// ComparatorWithU64TsImpl) and the registry of built-in comparators by name.
#include "sstfilter/comparator.h"

#include <array>

namespace sstfilter {

void Comparator::FindShortestSeparator(Bytes*, ByteView) const {}
void Comparator::FindShortSuccessor(Bytes*) const {}

namespace {

// Separators are shortened by the table writer itself for these (table/key_shortening.h): LevelDB
// and RocksDB shorten bytewise keys by different rules under the same comparator name.
class Bytewise final : public Comparator {
 public:
  std::string_view Name() const override { return kBytewiseComparatorName; }
  int Compare(ByteView a, ByteView b) const override { return CompareBytes(a, b); }
  bool is_bytewise() const override { return true; }
};

class ReverseBytewise final : public Comparator {
 public:
  std::string_view Name() const override { return kReverseBytewiseComparatorName; }
  int Compare(ByteView a, ByteView b) const override { return CompareBytes(b, a); }
};

// RocksDB 7.8.3 records no timestamp size in a table's properties (newer versions add
// rocksdb.user.defined.timestamps.persisted only): the comparator's name says it.
class BytewiseU64Ts final : public Comparator {
 public:
  std::string_view Name() const override { return kBytewiseU64TsComparatorName; }
  int Compare(ByteView a, ByteView b) const override { return CompareBytes(a, b); }
  size_t timestamp_size() const override { return 8; }
  bool is_bytewise() const override { return true; }
};

// Built-in comparators live for the whole program: a ComparatorRef to one frees nothing.
void KeepBuiltin(const Comparator*) {}

}  // namespace

const Comparator& BytewiseComparator() {
  static const Bytewise comparator;
  return comparator;
}

const Comparator& ReverseBytewiseComparator() {
  static const ReverseBytewise comparator;
  return comparator;
}

const Comparator& BytewiseU64TsComparator() {
  static const BytewiseU64Ts comparator;
  return comparator;
}

namespace {

const std::array<const Comparator* (*)(), 4>& BuiltinComparators() {
  static const std::array<const Comparator* (*)(), 4> all = {
      [] { return &BytewiseComparator(); },
      [] { return &ReverseBytewiseComparator(); },
      [] { return &BytewiseU64TsComparator(); },
      [] { return &IndexedDbComparator(); },
  };
  return all;
}

}  // namespace

const Comparator* FindBuiltinComparator(std::string_view name) {
  for (const auto& make : BuiltinComparators()) {
    if (const Comparator* c = make(); c->Name() == name) return c;
  }
  return nullptr;
}

std::vector<std::string_view> BuiltinComparatorNames() {
  std::vector<std::string_view> names;
  for (const auto& make : BuiltinComparators()) names.push_back(make()->Name());
  return names;
}

ComparatorRef BuiltinComparator(std::string_view name) {
  const Comparator* c = FindBuiltinComparator(name);
  if (c == nullptr) return nullptr;
  return ComparatorRef(c, KeepBuiltin);
}

}  // namespace sstfilter
