// The replayed memtable (sstfilter/memtable.h). Records are copied into an arena as leveldb
// util/arena.h does (large chunks, an oversized record in a chunk of its own), each as a kind byte,
// the varint32 key size, the key, the varint32 value size and the value, like the entries of
// leveldb db/memtable.cc MemTable::Add.
//
// The index is a vector sorted once the replay ends, not a skiplist (leveldb db/skiplist.h): the
// replay only appends and the lookups only come after it, so one sort costs less time than a
// skiplist's inserts and no memory for its towers of next pointers (1.33 per node on average, plus
// the node's own header); an entry is 24 bytes.
#include "sstfilter/memtable.h"

#include <algorithm>
#include <cstring>

namespace sstfilter {

class MemTable::Arena {
 public:
  // Room for `size` bytes, in the current chunk or a new one; never moved afterwards.
  uint8_t* Allocate(size_t size) {
    if (size > kChunkSize / 4) {
      // leveldb util/arena.cc AllocateFallback: a large record gets its own chunk, so the current
      // chunk's tail is not wasted.
      return NewChunk(size);
    }
    if (size > left_) {
      next_ = NewChunk(kChunkSize);
      left_ = kChunkSize;
    }
    uint8_t* out = next_;
    next_ += size;
    left_ -= size;
    return out;
  }

  uint64_t memory_usage() const { return allocated_; }

 private:
  static constexpr size_t kChunkSize = size_t{1} << 20;

  uint8_t* NewChunk(size_t size) {
    chunks_.push_back(std::make_unique<uint8_t[]>(size));
    allocated_ += size;
    return chunks_.back().get();
  }

  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  uint8_t* next_ = nullptr;
  size_t left_ = 0;
  uint64_t allocated_ = 0;
};

namespace {

size_t VarintSize(uint32_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

uint8_t* PutVarint(uint8_t* p, uint32_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

// The arena's own varints, written by PutVarint: well formed by construction.
const uint8_t* GetVarint(const uint8_t* p, uint32_t* v) {
  uint32_t out = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = *p++;
    out |= static_cast<uint32_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  *v = out;
  return p;
}

}  // namespace

int OrderStoredKeys(const Comparator& comparator, ByteView a, ByteView b) {
  // Only an order total over every byte string can guide a binary search: idb_cmp1 calls keys it
  // cannot decode equal, and a caller's comparator may be inconsistent, so under those the index
  // keeps the bytes' order, and a lookup never misses a key.
  if (!OrdersByKeyThenTimestamp(comparator)) return CompareBytes(a, b);
  const size_t ts = comparator.timestamp_size();
  if (ts == 0 || a.size() < ts || b.size() < ts) {
    // A key too short for its timestamp is ordered as it stands: such a key cannot be the
    // family's, and the bytes still break ties.
    const int c = ts == 0 ? comparator.Compare(a, b) : 0;
    return c != 0 ? c : CompareBytes(a, b);
  }
  const int c = comparator.Compare(a.first(a.size() - ts), b.first(b.size() - ts));
  if (c != 0) return c;
  // ComparatorWithU64TsImpl: the larger (little-endian u64) timestamp first.
  if (ts == 8) {
    const uint64_t ta = DecodeFixed64(a.data() + a.size() - ts);
    const uint64_t tb = DecodeFixed64(b.data() + b.size() - ts);
    if (ta != tb) return ta > tb ? -1 : 1;
  }
  return CompareBytes(a, b);
}

bool OrdersByKeyThenTimestamp(const Comparator& comparator) {
  return comparator.is_bytewise() || comparator.Name() == kReverseBytewiseComparatorName;
}

MemTable::MemTable() : arena_(std::make_unique<Arena>()) {}
MemTable::~MemTable() = default;

void MemTable::SetComparator(uint32_t column_family, ComparatorRef comparator) {
  comparators_[column_family] = std::move(comparator);
}

const Comparator& MemTable::ComparatorOf(uint32_t column_family) const {
  const auto it = comparators_.find(column_family);
  return it == comparators_.end() || it->second == nullptr ? BytewiseComparator() : *it->second;
}

void MemTable::Add(uint64_t log_number, uint32_t column_family, WalRecordKind kind,
                   uint64_t sequence, ByteView key, ByteView value) {
  if (log_numbers_.empty() || log_numbers_.back() != log_number) log_numbers_.push_back(log_number);
  // Keys and values come from one log record, which a 32-bit length bounds (DecodeWriteBatch reads
  // them as varint32-prefixed fields).
  const auto key_size = static_cast<uint32_t>(key.size());
  const auto value_size = static_cast<uint32_t>(value.size());
  uint8_t* const record = arena_->Allocate(1 + VarintSize(key_size) + key.size() +
                                           VarintSize(value_size) + value.size());
  uint8_t* p = record;
  *p++ = static_cast<uint8_t>(kind);
  p = PutVarint(p, key_size);
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  p = PutVarint(p + key.size(), value_size);
  if (!value.empty()) std::memcpy(p, value.data(), value.size());
  record_bytes_ += key.size() + value.size();
  const Entry entry{record, sequence, column_family,
                    static_cast<uint32_t>(log_numbers_.size() - 1)};
  (kind == WalRecordKind::kRangeDelete ? range_deletions_ : entries_).push_back(entry);
}

MemTable::Record MemTable::Decode(const uint8_t* record) {
  Record out;
  out.kind = static_cast<WalRecordKind>(record[0]);
  uint32_t size = 0;
  const uint8_t* p = GetVarint(record + 1, &size);
  out.key = ByteView(p, size);
  p = GetVarint(p + size, &size);
  out.value = ByteView(p, size);
  return out;
}

bool MemTable::Before(const Entry& a, const Entry& b) const {
  if (a.column_family != b.column_family) return a.column_family < b.column_family;
  const int c =
      OrderStoredKeys(ComparatorOf(a.column_family), Decode(a.record).key, Decode(b.record).key);
  if (c != 0) return c < 0;
  // A Get takes the logs newest first and each log's versions by sequence descending.
  if (a.log != b.log) return a.log > b.log;
  return a.sequence > b.sequence;
}

void MemTable::Finish() {
  // Stable: versions of one sequence number in one log (a hostile log can repeat a batch's
  // sequence) keep the order they were replayed in, as the TypeScript sort does.
  std::stable_sort(entries_.begin(), entries_.end(),
                   [this](const Entry& a, const Entry& b) { return Before(a, b); });
  // The vector grew by doubling: give back up to half of it, which would be 24 bytes per record.
  entries_.shrink_to_fit();
  range_deletions_.shrink_to_fit();
  indexed_ = entries_.size();
}

template <typename Compare>
std::vector<MemTableVersion> MemTable::VersionsWhere(uint32_t column_family,
                                                     Compare compare) const {
  // <0, 0, >0 as the entry's (family, key) sorts before, with or after the one asked for.
  const auto order = [&](const Entry& e) {
    if (e.column_family != column_family) return e.column_family < column_family ? -1 : 1;
    return compare(Decode(e.record).key);
  };
  const auto begin = entries_.begin();
  const auto end = begin + static_cast<std::ptrdiff_t>(indexed_);
  auto it = std::partition_point(begin, end, [&](const Entry& e) { return order(e) < 0; });
  std::vector<MemTableVersion> out;
  for (; it != end && order(*it) == 0; ++it) {
    const Record r = Decode(it->record);
    out.push_back(MemTableVersion{r.kind, it->sequence, log_numbers_[it->log], r.value});
  }
  return out;
}

std::vector<MemTableVersion> MemTable::Versions(uint32_t column_family, ByteView key) const {
  const Comparator& comparator = ComparatorOf(column_family);
  return VersionsWhere(column_family,
                       [&](ByteView stored) { return OrderStoredKeys(comparator, stored, key); });
}

std::vector<MemTableVersion> MemTable::VersionsAtEveryTimestamp(uint32_t column_family,
                                                                ByteView user_key,
                                                                uint64_t read_timestamp) const {
  const Comparator& comparator = ComparatorOf(column_family);
  const size_t ts = comparator.timestamp_size();
  return VersionsWhere(column_family, [&](ByteView stored) {
    // OrderStoredKeys orders a key too short for its timestamp by its bytes among the stored keys,
    // so one equal to the user key sorts before the key's versions; it is no version of any key.
    if (stored.size() < ts) return CompareBytes(stored, user_key) <= 0 ? -1 : 1;
    const int c = comparator.Compare(stored.first(stored.size() - ts), user_key);
    if (c != 0) return c;
    // The key's versions newer than the read sort first (the newest timestamp first): they are
    // before the ones sought, as the read's seek key (user_key, read_timestamp) skips them.
    return NewerThanRead(stored, ts, read_timestamp) ? -1 : 0;
  });
}

uint64_t MemTable::CoveringTombstone(uint32_t column_family, ByteView key,
                                     std::optional<uint64_t> log_number,
                                     uint64_t read_timestamp) const {
  const Comparator& comparator = ComparatorOf(column_family);
  const size_t ts = comparator.timestamp_size();
  uint64_t covering = 0;
  // Every one of the family's: a memtable holds few range deletions.
  for (const Entry& e : range_deletions_) {
    if (e.column_family != column_family) continue;
    if (log_number && log_numbers_[e.log] != *log_number) continue;
    const Record r = Decode(e.record);
    // The deletion's timestamp ends its begin key (WriteBatch::DeleteRange with a timestamp).
    if (NewerThanRead(r.key, ts, read_timestamp)) continue;
    if (RangeDeletionCovers(comparator, r.key, r.value, key)) {
      covering = std::max(covering, e.sequence);
    }
  }
  return covering;
}

bool NewerThanRead(ByteView stamped, size_t timestamp_size, uint64_t read_timestamp) {
  return timestamp_size == 8 && stamped.size() >= timestamp_size &&
         DecodeFixed64(stamped.data() + stamped.size() - timestamp_size) > read_timestamp;
}

bool RangeDeletionCovers(const Comparator& comparator, ByteView begin, ByteView end, ByteView key) {
  // A timestamped family's bounds carry the deletion's timestamp, the key none: the bounds compare
  // without it (rocksdb db/range_tombstone_fragmenter.h, CompareWithoutTimestamp). Bounds too short
  // for a timestamp bound nothing.
  const size_t ts = comparator.timestamp_size();
  if (begin.size() < ts || end.size() < ts) return false;
  begin = begin.first(begin.size() - ts);
  end = end.first(end.size() - ts);
  return comparator.Compare(begin, key) <= 0 && comparator.Compare(key, end) < 0;
}

uint64_t MemTable::memory_usage() const {
  return arena_->memory_usage() +
         (entries_.capacity() + range_deletions_.capacity()) * sizeof(Entry) +
         log_numbers_.capacity() * sizeof(uint64_t);
}

}  // namespace sstfilter
