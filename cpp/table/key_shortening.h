// Index keys shortened as the bytewise comparators shorten them (docs/FORMATS.md 3.11.2): an index
// entry only has to separate a data block's last key from the next block's first, so both
// databases store a short key between them instead of the last key itself.
#pragma once

#include <cstdint>

#include "sstfilter/bytes.h"
#include "sstfilter/table.h"

namespace sstfilter {

// The comparator whose shortening rules apply: LevelDB's BytewiseComparator (leveldb
// util/comparator.cc) and RocksDB's (rocksdb util/comparator.cc) differ where `start`'s first
// differing byte is just below `limit`'s.
enum class ShorteningRules : uint8_t { kLevelDb, kRocksDb };

// FindShortestSeparator on user keys: turns `start` (< limit) into a short key in [start, limit),
// or leaves it when none is shorter.
void ShortenSeparator(ShorteningRules rules, Bytes* start, ByteView limit);

// FindShortSuccessor: a short key >= `key` (its first byte below 0xff incremented, the rest cut).
void ShortSuccessor(Bytes* key);

// InternalKeyComparator::FindShortestSeparator (leveldb db/dbformat.cc; rocksdb
// ShortenedIndexBuilder::FindShortestInternalKeySeparator): shortens the user key part of the
// internal key `start` against `limit`'s; when that made it shorter and larger it gets the tag of
// sequence kMaxSequenceNumber and `type_for_seek` (LevelDB kTypeValue, RocksDB 7.8.3
// kTypeWideColumnEntity), which sorts before every real entry of that user key.
void ShortenInternalKeySeparator(ShorteningRules rules, Bytes* start, ByteView limit,
                                 EntryType type_for_seek);
// The same under a comparator that is not bytewise: its FindShortestSeparator shortens the user
// key, and the tag is set where that made it shorter and larger in its order.
void ShortenInternalKeySeparator(const Comparator& comparator, Bytes* start, ByteView limit,
                                 EntryType type_for_seek);

}  // namespace sstfilter
