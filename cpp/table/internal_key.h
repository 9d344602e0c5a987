// Internal keys and the orders table blocks are sorted in (docs/FORMATS.md 3.4; leveldb
// db/dbformat.h, rocksdb db/dbformat.h, util/comparator.cc). An internal key is the user key
// followed by an 8-byte tag (sequence << 8 | type); a reader only needs the user key part. With a
// comparator that carries user-defined timestamps (docs/FORMATS.md 3.4.1), the stored user key
// ends in the timestamp; this library's user keys are the keys without it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sstfilter/bytes.h"
#include "sstfilter/comparator.h"

namespace sstfilter {

inline constexpr size_t kInternalKeyTagSize = 8;

// The user key of an internal key, or nullopt when the key is too short to carry a tag.
inline std::optional<ByteView> StripInternalKeyTag(ByteView internal_key) {
  if (internal_key.size() < kInternalKeyTagSize) return std::nullopt;
  return internal_key.first(internal_key.size() - kInternalKeyTagSize);
}

// Sequence numbers are 56 bits (leveldb and rocksdb db/dbformat.h kMaxSequenceNumber). Index
// separators that FindShortestSeparator / FindShortSuccessor shortened carry this one.
inline constexpr uint64_t kMaxSequenceNumber = (uint64_t{1} << 56) - 1;

// A plain Get reads at the database's last sequence number (DBImpl::GetImpl, leveldb DBImpl::Get):
// below kMaxSequenceNumber and at or above every sequence number in the database's files. Every
// such number positions an index alike, so a table read on its own uses this one.
inline constexpr uint64_t kLatestReadSequence = kMaxSequenceNumber - 1;

// The sequence number of an internal key's 8-byte tag (sequence << 8 | type).
inline uint64_t TagSequence(uint64_t tag) { return tag >> 8; }

// Where a lookup positions an index (docs/FORMATS.md 3.8): the databases seek with the internal
// key (user key, read timestamp, read sequence, kValueTypeForSeek). Internal keys sort by user
// key, then by descending timestamp, then by descending tag; kValueTypeForSeek is the largest
// type, so an index key with the same user key and timestamp sorts before the lookup exactly when
// its sequence number is above the read's.
struct LookupKey {
  ByteView user_key;  // without a timestamp
  uint64_t sequence = kLatestReadSequence;
  // The read timestamp (timestamp orders only): a Get with ReadOptions::timestamp appends it to
  // the key it seeks with. The largest reads the newest version.
  uint64_t timestamp = UINT64_MAX;
};

// <0, 0 or >0 as internal key (stored user key `a`, `a_tag`) sorts before, with or after (`b`,
// `b_tag`): user keys without their timestamps in the comparator's order, then timestamps and
// (`has_tag`) tags descending, the newest first.
int CompareInternalKeys(const Comparator& comparator, ByteView a, uint64_t a_tag, ByteView b,
                        uint64_t b_tag, bool has_tag);

// CompareInternalKeys under a bytewise comparator without timestamps, inline and without the
// comparator's virtual calls: verify's walk compares every entry with the one before it.
inline int CompareBytewiseInternalKeys(ByteView a, uint64_t a_tag, ByteView b, uint64_t b_tag,
                                       bool has_tag) {
  if (const int c = CompareBytes(a, b); c != 0) return c;
  if (!has_tag || a_tag == b_tag) return 0;
  return a_tag > b_tag ? -1 : 1;
}

// <0 when the index key (stored user key `key`, with its timestamp when the comparator has them,
// and `tag` when `has_tag`) sorts before `lookup`, else >=0 (0: the lookup stops at this key).
// Indexes of user keys only compare user keys (and timestamps).
int CompareIndexKeyWithLookup(const Comparator& comparator, ByteView key, bool has_tag,
                              uint64_t tag, const LookupKey& lookup);

}  // namespace sstfilter
