// The memtable a database's recovery rebuilds from its write-ahead logs (docs/FORMATS.md 6.4):
// every record the replay inserts (sstfilter/wal_recovery.h), held until the caller lets it go, and
// the versions of one user key answered newest first, as rocksdb db/memtable.cc MemTable::Get and
// leveldb db/memtable.cc MemTable::Get find them.
//
// Storage: each record's kind, key and value are copied once into an arena of large chunks; the
// index holds one 24-byte entry per record (where its bytes are, its sequence number, its column
// family and its log). A record therefore costs its key and value bytes, a kind byte and two varint
// lengths in the arena (plus at most a chunk's unused tail per chunk), and 24 bytes of index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/comparator.h"
#include "sstfilter/write_batch.h"

namespace sstfilter {

// One version of a user key as the memtable holds it. `kind` is the write batch record's: a put, a
// deletion, a single deletion, a merge operand, a blob index, a wide-column entity or a TimedPut
// (never a range deletion: those are kept apart, CoveringTombstone). `value` points into the
// memtable and lives as long as it does.
struct MemTableVersion {
  WalRecordKind kind = WalRecordKind::kPut;
  uint64_t sequence = 0;
  uint64_t log_number = 0;  // the write-ahead log the record was replayed from
  ByteView value;           // empty for deletions
};

class MemTable {
 public:
  // The largest timestamp, which a read at the newest (ReadOptions::timestamp = 2^64-1) reads at:
  // every version is visible.
  static constexpr uint64_t kNewestTimestamp = ~uint64_t{0};

  MemTable();
  ~MemTable();
  MemTable(const MemTable&) = delete;
  MemTable& operator=(const MemTable&) = delete;

  // The order of column family `column_family`'s keys; a family never given one is bytewise.
  // Set it before adding the family's records.
  void SetComparator(uint32_t column_family, ComparatorRef comparator);

  // Copies a record replayed from log `log_number` (logs are added in ascending order of number).
  // A range deletion's key is its begin key and its value the end key (exclusive).
  void Add(uint64_t log_number, uint32_t column_family, WalRecordKind kind, uint64_t sequence,
           ByteView key, ByteView value);

  // Builds the index over every record added so far; the lookups see those records. Cheap to call
  // again after more records.
  void Finish();

  // The versions of `key` (the stored key bytes, with the timestamp where the family has one) in
  // `column_family`: the newest log's first and, within a log, by sequence number descending. Only
  // records whose key bytes equal `key` count: the comparators a Get takes call keys equal only
  // when their bytes are.
  std::vector<MemTableVersion> Versions(uint32_t column_family, ByteView key) const;

  // For a family whose comparator has timestamps and orders them (OrdersByKeyThenTimestamp): the
  // versions of `user_key` (without a timestamp) at every timestamp up to `read_timestamp`, the
  // newest timestamp first, then as Versions takes them. What a Get reading at `read_timestamp`
  // sees, in the order it takes them (rocksdb db/memtable.cc MemTable::Get seeks the key with the
  // read timestamp).
  std::vector<MemTableVersion> VersionsAtEveryTimestamp(
      uint32_t column_family, ByteView user_key, uint64_t read_timestamp = kNewestTimestamp) const;

  // The largest sequence number of the range deletions [begin, end) of `column_family` covering
  // `key` (begin <= key < end in the family's order), 0 when none does; with `log_number`, of that
  // log's range deletions only (a Get takes the memtable log by log). Under a timestamp comparator,
  // of those at timestamps up to `read_timestamp` only (rocksdb db/range_tombstone_fragmenter.cc:
  // a deletion newer than ReadOptions::timestamp is not visible).
  uint64_t CoveringTombstone(uint32_t column_family, ByteView key,
                             std::optional<uint64_t> log_number = std::nullopt,
                             uint64_t read_timestamp = kNewestTimestamp) const;

  size_t entry_count() const { return entries_.size() + range_deletions_.size(); }
  // The key and value bytes of every record held: what the records themselves weigh.
  uint64_t record_bytes() const { return record_bytes_; }
  // What the memtable holds in memory: arena chunks and index capacity.
  uint64_t memory_usage() const;

 private:
  class Arena;
  // 24 bytes: see the file comment.
  struct Entry {
    const uint8_t* record;  // in the arena: kind byte, varint32 key size, key, varint32 size, value
    uint64_t sequence;
    uint32_t column_family;
    uint32_t log;  // index into log_numbers_
  };
  struct Record {
    WalRecordKind kind;
    ByteView key;
    ByteView value;
  };
  static Record Decode(const uint8_t* record);
  // The versions in `column_family` whose stored key `compare` (<0, 0, >0 as the stored key sorts
  // before, with or after the one sought, in the index order) calls 0.
  template <typename Compare>
  std::vector<MemTableVersion> VersionsWhere(uint32_t column_family, Compare compare) const;
  const Comparator& ComparatorOf(uint32_t column_family) const;
  // The index order: column family, key (OrderKeys), then the newest log and sequence first.
  bool Before(const Entry& a, const Entry& b) const;

  std::unique_ptr<Arena> arena_;
  std::map<uint32_t, ComparatorRef> comparators_;
  std::vector<uint64_t> log_numbers_;
  std::vector<Entry> entries_;          // sorted by Before up to indexed_
  std::vector<Entry> range_deletions_;  // in the order added
  size_t indexed_ = 0;
  uint64_t record_bytes_ = 0;
};

// The order the memtable's index keeps a family's stored keys in: under the bytewise and reverse
// bytewise comparators (and their timestamped variant) the comparator's order of the user keys
// (without their timestamp), then the newer timestamp first (rocksdb util/comparator.cc
// ComparatorWithU64TsImpl::Compare), then the bytes, so that only keys of equal bytes tie; under
// any other comparator, whose order may not be total over every byte string, the bytes' order.
// <0, 0, >0.
int OrderStoredKeys(const Comparator& comparator, ByteView a, ByteView b);

// Whether OrderStoredKeys keeps a timestamp comparator's versions of one user key together, the
// newest timestamp first: true for the bytewise and reverse bytewise orders.
bool OrdersByKeyThenTimestamp(const Comparator& comparator);

// Whether `stamped` (a stored key, or a range deletion's begin key) ends in a timestamp newer than
// `read_timestamp`, so that a read at that timestamp does not see it: only the 8-byte u64
// timestamps (`timestamp_size` 8, little-endian) are compared; any other size, or a key too short
// for its timestamp, is seen.
bool NewerThanRead(ByteView stamped, size_t timestamp_size, uint64_t read_timestamp);

// Whether the range deletion [begin, end) covers `key`: begin <= key < end in the comparator's
// order. Under a timestamp comparator `key` is a user key without a timestamp and the bounds carry
// the deletion's, which does not count: a range deletion covers its range at every timestamp.
bool RangeDeletionCovers(const Comparator& comparator, ByteView begin, ByteView end, ByteView key);

}  // namespace sstfilter
