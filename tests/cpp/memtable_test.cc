// The replayed memtable (sstfilter/memtable.h) on records built here: versions newest first as
// ts/api/db-get.ts lookupMemtable orders them (the newest log first, then by sequence), lookups by
// the stored key's bytes under each built-in comparator, a key's versions at every timestamp under
// the timestamp order, range deletions [begin, end) in the family's order, and memory close to
// the records' own bytes.
#include "sstfilter/memtable.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sstfilter {
namespace {

ByteView B(const std::string& s) { return BytesOf(s); }

std::string Describe(const std::vector<MemTableVersion>& versions) {
  std::string out;
  for (const MemTableVersion& v : versions) {
    if (!out.empty()) out += ", ";
    out += std::to_string(v.log_number) + ":" + std::to_string(v.sequence) + " " +
           WalRecordKindName(v.kind) + " " + std::string(v.value.begin(), v.value.end());
  }
  return out;
}

TEST(MemTable, VersionsNewestLogFirstThenBySequence) {
  MemTable m;
  m.Add(4, 0, WalRecordKind::kPut, 10, B("a"), B("a10"));
  m.Add(4, 0, WalRecordKind::kPut, 12, B("a"), B("a12"));
  m.Add(4, 1, WalRecordKind::kPut, 13, B("a"), B("other family"));
  m.Add(4, 0, WalRecordKind::kMerge, 11, B("a"), B("m11"));
  m.Add(4, 0, WalRecordKind::kPut, 14, B("ab"), B("ab14"));
  // A later log whose batches restart lower (a hostile or skipped log): still taken first.
  m.Add(7, 0, WalRecordKind::kDelete, 5, B("a"), B(""));
  m.Finish();
  EXPECT_EQ(Describe(m.Versions(0, B("a"))),
            "7:5 delete , 4:12 put a12, 4:11 merge m11, 4:10 put a10");
  EXPECT_EQ(Describe(m.Versions(1, B("a"))), "4:13 put other family");
  EXPECT_EQ(Describe(m.Versions(0, B("ab"))), "4:14 put ab14");
  EXPECT_TRUE(m.Versions(0, B("")).empty());
  EXPECT_TRUE(m.Versions(0, B("b")).empty());
  EXPECT_TRUE(m.Versions(2, B("a")).empty());
  // Records added after Finish are seen after the next one.
  m.Add(8, 0, WalRecordKind::kSingleDelete, 20, B("b"), B(""));
  EXPECT_TRUE(m.Versions(0, B("b")).empty());
  m.Finish();
  EXPECT_EQ(Describe(m.Versions(0, B("b"))), "8:20 single-delete ");
}

TEST(MemTable, EachBuiltinOrderFindsEveryKeyByItsBytes) {
  for (const std::string_view name : BuiltinComparatorNames()) {
    MemTable m;
    m.SetComparator(0, BuiltinComparator(name));
    std::vector<std::string> keys;
    // Keys of 8 bytes and more, so that the timestamped order has a timestamp to read.
    for (int i = 0; i < 300; ++i) {
      keys.push_back(std::string(8, '\0') + std::to_string(i * 7919 % 1000));
      keys.push_back(std::to_string(i) + std::string(8, static_cast<char>(i)));
    }
    uint64_t sequence = 1;
    for (const std::string& k : keys) m.Add(3, 0, WalRecordKind::kPut, sequence++, B(k), B(k));
    m.Finish();
    for (const std::string& k : keys) {
      const auto versions = m.Versions(0, B(k));
      ASSERT_EQ(versions.size(), 1u) << name << " key " << k;
      EXPECT_EQ(std::string(versions[0].value.begin(), versions[0].value.end()), k) << name;
    }
    EXPECT_TRUE(m.Versions(0, B("absent key!")).empty()) << name;
  }
}

// A stored key of the timestamp order: the key, then its timestamp as 8 little-endian bytes.
std::string WithTimestamp(const std::string& key, uint64_t timestamp) {
  std::string out = key;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(timestamp >> (8 * i)));
  return out;
}

TEST(MemTable, VersionsAtEveryTimestampNewestTimestampFirst) {
  MemTable m;
  m.SetComparator(0, BuiltinComparator(kBytewiseU64TsComparatorName));
  // Timestamps compare as numbers (0x100 > 0xff although its first byte is smaller), and a key
  // that has the one sought as a prefix ("ab") is another key.
  m.Add(3, 0, WalRecordKind::kPut, 10, B(WithTimestamp("a", 0xff)), B("a@ff"));
  m.Add(3, 0, WalRecordKind::kPut, 11, B(WithTimestamp("ab", 0x200)), B("ab@200"));
  m.Add(3, 0, WalRecordKind::kDelete, 12, B(WithTimestamp("a", 0x100)), B(""));
  m.Add(3, 0, WalRecordKind::kPut, 13, B(WithTimestamp("a", 0x100)), B("a@100"));
  m.Add(4, 0, WalRecordKind::kPut, 14, B(WithTimestamp("a", 1)), B("a@1"));
  m.Add(4, 0, WalRecordKind::kPut, 15, B("a"), B("too short for a timestamp"));
  m.Finish();
  EXPECT_EQ(Describe(m.VersionsAtEveryTimestamp(0, B("a"))),
            "3:13 put a@100, 3:12 delete , 3:10 put a@ff, 4:14 put a@1");
  EXPECT_EQ(Describe(m.VersionsAtEveryTimestamp(0, B("ab"))), "3:11 put ab@200");
  EXPECT_TRUE(m.VersionsAtEveryTimestamp(0, B("b")).empty());
  EXPECT_TRUE(m.VersionsAtEveryTimestamp(0, B("")).empty());
  // Versions still finds one stored key by its bytes, timestamp included.
  EXPECT_EQ(Describe(m.Versions(0, B(WithTimestamp("a", 0xff)))), "3:10 put a@ff");
}

TEST(MemTable, RangeDeletionsCoverInTheFamilysOrder) {
  MemTable m;
  m.SetComparator(1, BuiltinComparator(kReverseBytewiseComparatorName));
  m.Add(5, 0, WalRecordKind::kRangeDelete, 30, B("b"), B("d"));
  m.Add(5, 0, WalRecordKind::kRangeDelete, 31, B("c"), B("e"));
  m.Add(6, 0, WalRecordKind::kRangeDelete, 40, B("x"), B("z"));
  // Reverse bytewise: "d" sorts before "b", so [d, b) covers c and d.
  m.Add(6, 1, WalRecordKind::kRangeDelete, 41, B("d"), B("b"));
  m.Finish();
  EXPECT_EQ(m.CoveringTombstone(0, B("a")), 0u);
  EXPECT_EQ(m.CoveringTombstone(0, B("b")), 30u);
  EXPECT_EQ(m.CoveringTombstone(0, B("c")), 31u);
  EXPECT_EQ(m.CoveringTombstone(0, B("d")), 31u);
  EXPECT_EQ(m.CoveringTombstone(0, B("e")), 0u);
  EXPECT_EQ(m.CoveringTombstone(0, B("y")), 40u);
  EXPECT_EQ(m.CoveringTombstone(0, B("y"), 5), 0u);
  EXPECT_EQ(m.CoveringTombstone(0, B("c"), 5), 31u);
  EXPECT_EQ(m.CoveringTombstone(1, B("c")), 41u);
  EXPECT_EQ(m.CoveringTombstone(1, B("d")), 41u);
  EXPECT_EQ(m.CoveringTombstone(1, B("b")), 0u);
  EXPECT_EQ(m.CoveringTombstone(1, B("e")), 0u);
  // Range deletions are no versions.
  EXPECT_TRUE(m.Versions(0, B("b")).empty());
}

TEST(MemTable, MemoryIsTheRecordsBytesAnd24BytesOfIndexEach) {
  MemTable m;
  const size_t n = 200000;
  for (size_t i = 0; i < n; ++i) {
    const std::string key = "key" + std::to_string(i * 2654435761u % n);
    m.Add(9, 0, WalRecordKind::kPut, i + 1, B(key), B(std::string(100, 'v')));
  }
  m.Finish();
  // Per record: 24 bytes of index, a kind byte and two one-byte varints; one chunk of slack.
  const uint64_t bound = m.record_bytes() + n * (24 + 3) + (uint64_t{1} << 20);
  EXPECT_LE(m.memory_usage(), bound);
  EXPECT_GE(m.memory_usage(), m.record_bytes());
  EXPECT_EQ(m.entry_count(), n);
  // A value larger than a quarter chunk takes a chunk of its own.
  m.Add(9, 0, WalRecordKind::kPut, n + 1, B("big"), B(std::string(3 << 20, 'b')));
  m.Finish();
  ASSERT_EQ(m.Versions(0, B("big")).size(), 1u);
  EXPECT_EQ(m.Versions(0, B("big"))[0].value.size(), size_t{3} << 20);
}

}  // namespace
}  // namespace sstfilter
