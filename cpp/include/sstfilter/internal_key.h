// Internal keys and the orders table blocks are sorted in (FORMATS.md 3.4; leveldb db/dbformat.h,
// rocksdb db/dbformat.h, util/comparator.cc). An internal key is the user key followed by an
// 8-byte tag (sequence << 8 | type); a reader only needs the user key part.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sstfilter/bytes.h"

namespace sstfilter {

inline constexpr size_t kInternalKeyTagSize = 8;

// The user key of an internal key, or nullopt when the key is too short to carry a tag.
inline std::optional<ByteView> StripInternalKeyTag(ByteView internal_key) {
  if (internal_key.size() < kInternalKeyTagSize) return std::nullopt;
  return internal_key.first(internal_key.size() - kInternalKeyTagSize);
}

// The user-key orders a reader can compare in. Internal keys sort by user key first (then by
// descending tag), so "first index entry >= the lookup key (user key, maximal tag)" is "first
// entry whose user key is >= the user key" in every order.
enum class KeyOrder : uint8_t { kBytewise, kReverseBytewise };

// The order a RocksDB `rocksdb.comparator` property names; nullopt for comparators whose order
// cannot be reproduced from the name (custom ones, and user-defined timestamps).
std::optional<KeyOrder> KeyOrderFromComparatorName(std::string_view name);

// <0, 0, >0 as memcmp-then-length (leveldb.BytewiseComparator), or its reverse.
int CompareUserKeys(KeyOrder order, ByteView a, ByteView b);

}  // namespace sstfilter
