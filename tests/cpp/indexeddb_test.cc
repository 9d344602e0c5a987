// Chromium's IndexedDB key coding and the comparator idb_cmp1 (comparator/indexeddb_coding.h,
// sstfilter/comparator.h IndexedDbComparator): keys built here from the coding of
// content/browser/indexed_db/indexed_db_leveldb_coding.cc, every key type, the order across types,
// key prefixes, metadata against data, index data (index key, primary key, sequence number), what
// Chromium answers for keys it cannot decode; and, with the Chromium sample, that every table's
// keys and index separators are in idb_cmp1 order.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "chrome_sample.h"
#include "comparator/indexeddb_coding.h"
#include "sstfilter/comparator.h"

namespace sstfilter {
namespace {

namespace idb = indexeddb;

Bytes Cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes EncInt(uint64_t v) {
  Bytes out;
  do {
    out.push_back(static_cast<uint8_t>(v));
    v >>= 8;
  } while (v);
  return out;
}

Bytes VarInt(uint64_t v) {
  Bytes out;
  PutVarint64(&out, v);
  return out;
}

// KeyPrefix::EncodeInternal: minimal widths, the first byte packs them.
Bytes Prefix(uint64_t db, uint64_t os, uint64_t index) {
  const Bytes a = EncInt(db), b = EncInt(os), c = EncInt(index);
  Bytes out = {
      static_cast<uint8_t>(((a.size() - 1) << 5) | ((b.size() - 1) << 2) | (c.size() - 1))};
  return Cat({out, a, b, c});
}

Bytes KNum(double d, uint8_t type = idb::kKeyNumberType) {
  Bytes out = {type};
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  PutFixed64(&out, bits);
  return out;
}
Bytes KDate(double d) { return KNum(d, idb::kKeyDateType); }
Bytes U16(const std::u16string& s) {
  Bytes out;
  for (char16_t c : s) {
    out.push_back(static_cast<uint8_t>(c >> 8));
    out.push_back(static_cast<uint8_t>(c));
  }
  return out;
}
Bytes KStr(const std::u16string& s) {
  return Cat({Bytes{idb::kKeyStringType}, VarInt(s.size()), U16(s)});
}
Bytes StrWithLength(const std::u16string& s) { return Cat({VarInt(s.size()), U16(s)}); }
Bytes KBin(const Bytes& b) { return Cat({Bytes{idb::kKeyBinaryType}, VarInt(b.size()), b}); }
Bytes KArr(std::initializer_list<Bytes> items) {
  Bytes out = Cat({Bytes{idb::kKeyArrayType}, VarInt(items.size())});
  for (const Bytes& i : items) out.insert(out.end(), i.begin(), i.end());
  return out;
}
Bytes KMin() { return {idb::kKeyMinKeyType}; }
Bytes KNull() { return {idb::kKeyNullType}; }

int Sign(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

int CompareIdb(const Bytes& a, const Bytes& b) {
  ByteView x = a, y = b;
  bool ok = false;
  const int r = idb::CompareEncodedIdbKeys(&x, &y, &ok);
  EXPECT_TRUE(ok);
  return Sign(r);
}

// Each key sorts strictly before the next, both ways round.
void ExpectAscendingKeys(const std::vector<Bytes>& keys) {
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = 0; j < keys.size(); ++j) {
      EXPECT_EQ(CompareIdb(keys[i], keys[j]), i < j ? -1 : (i > j ? 1 : 0)) << i << " " << j;
    }
  }
}

void ExpectAscendingUserKeys(const std::vector<Bytes>& keys) {
  const Comparator& cmp = IndexedDbComparator();
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = 0; j < keys.size(); ++j) {
      EXPECT_EQ(cmp.Compare(keys[i], keys[j]), i < j ? -1 : (i > j ? 1 : 0)) << i << " " << j;
    }
  }
}

TEST(IndexedDbCoding, VarIntAndPrefix) {
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 300ull, 1ull << 40, ~0ull >> 1, ~0ull}) {
    Bytes b = VarInt(v);
    ByteView view = b;
    int64_t out = 0;
    ASSERT_TRUE(idb::DecodeVarInt(&view, &out));
    EXPECT_EQ(static_cast<uint64_t>(out), v);
    EXPECT_TRUE(view.empty());
  }
  int64_t out = 0;
  Bytes overlong = {0x80, 0x00};  // a zero byte after the first (varint_coding.cc refuses it)
  ByteView view = overlong;
  EXPECT_FALSE(idb::DecodeVarInt(&view, &out));
  Bytes too_wide = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  view = too_wide;
  EXPECT_FALSE(idb::DecodeVarInt(&view, &out));
  Bytes cut = {0x80};
  view = cut;
  EXPECT_FALSE(idb::DecodeVarInt(&view, &out));
  EXPECT_EQ(view.size(), 1u);

  const Bytes p = Prefix(300, 70000, 31);
  EXPECT_EQ(p[0], (1 << 5) | (2 << 2) | 0);
  view = p;
  idb::KeyPrefix prefix;
  ASSERT_TRUE(idb::DecodeKeyPrefix(&view, &prefix));
  EXPECT_EQ(prefix.database_id, 300);
  EXPECT_EQ(prefix.object_store_id, 70000);
  EXPECT_EQ(prefix.index_id, 31);
  EXPECT_TRUE(view.empty());
  EXPECT_EQ(idb::TypeOf(prefix), idb::PrefixType::kIndexData);
  Bytes short_prefix = {0xff, 1, 2, 3};
  view = short_prefix;
  EXPECT_FALSE(idb::DecodeKeyPrefix(&view, &prefix));
}

TEST(IndexedDbCoding, KeyTypesInOrder) {
  // min < numbers < dates < strings < binaries < arrays < the null ("max") type.
  ExpectAscendingKeys({KMin(),
                       KNum(-INFINITY),
                       KNum(-1e300),
                       KNum(-1),
                       KNum(0),
                       KNum(5e-324),
                       KNum(1),
                       KNum(2),
                       KNum(INFINITY),
                       KDate(-86400000),
                       KDate(0),
                       KDate(1),
                       KStr(u""),
                       KStr(u"A"),
                       KStr(u"a"),
                       KStr(std::u16string(u"a\0b", 3)),
                       KStr(u"aa"),
                       KStr(u"\u00e9"),
                       KStr(std::u16string(1, char16_t{0xd800})),
                       KStr(u"\U0001F600"),
                       KStr(u"\uffff"),
                       KBin({}),
                       KBin({0}),
                       KBin({0, 1}),
                       KBin({0xff}),
                       KArr({}),
                       KArr({KNum(0)}),
                       KArr({KNum(0), KNum(0)}),
                       KArr({KNum(1)}),
                       KArr({KStr(u"a")}),
                       KArr({KArr({})}),
                       KNull()});
  // -0 and 0 are equal; NaN compares equal to everything (neither < nor >).
  EXPECT_EQ(CompareIdb(KNum(-0.0), KNum(0)), 0);
  EXPECT_EQ(CompareIdb(KNum(NAN), KNum(1)), 0);
  EXPECT_EQ(CompareIdb(KNum(1), KNum(NAN)), 0);
  // Numbers compare as doubles, not as their little-endian bytes.
  EXPECT_GT(std::memcmp(KNum(1).data(), KNum(2).data(), 9), 0);
  // Unknown type bytes rank as the null type and compare equal to it and to each other.
  EXPECT_EQ(CompareIdb({9}, KNull()), 0);
  EXPECT_EQ(CompareIdb({9}, {7}), 0);
  EXPECT_EQ(CompareIdb({9}, KNum(1)), 1);
}

TEST(IndexedDbCoding, DecodesKeys) {
  const Bytes encoded = KArr({KNum(1.5), KDate(2), KStr(u"x\u00e9"), KBin({7}), KArr({})});
  ByteView view = encoded;
  idb::IdbKey key;
  ASSERT_TRUE(idb::DecodeIdbKey(&view, &key));
  EXPECT_TRUE(view.empty());
  ASSERT_EQ(key.array.size(), 5u);
  EXPECT_EQ(key.array[0].number, 1.5);
  EXPECT_EQ(key.array[1].type, idb::IdbKey::Type::kDate);
  EXPECT_EQ(key.array[2].string, u"x\u00e9");
  EXPECT_EQ(key.array[3].binary, Bytes{7});
  EXPECT_TRUE(key.array[4].array.empty());
  for (size_t n = 0; n < encoded.size(); ++n) {
    ByteView cut = ByteView(encoded).first(n);
    EXPECT_FALSE(idb::DecodeIdbKey(&cut, &key)) << n;
    EXPECT_EQ(cut.size(), n);
  }
  const Bytes min_key = KMin();
  ByteView min = min_key;
  EXPECT_FALSE(idb::DecodeIdbKey(&min, &key));
  Bytes deep;
  for (int i = 0; i < 5000; ++i) deep.insert(deep.end(), {idb::kKeyArrayType, 1});
  deep.push_back(idb::kKeyMinKeyType);
  ByteView deep_view = deep;
  EXPECT_FALSE(idb::DecodeIdbKey(&deep_view, &key));
  ByteView a = deep, b = deep;
  bool ok = true;
  EXPECT_EQ(idb::CompareEncodedIdbKeys(&a, &b, &ok), 0);
  EXPECT_FALSE(ok);
}

TEST(IndexedDbCoding, ArrayLengthDifferenceIsTruncatedToInt) {
  // Chromium returns `length_a - length_b` (int64) as an int: lengths 2^32 apart compare equal.
  const Bytes huge = Cat({Bytes{idb::kKeyArrayType}, VarInt(uint64_t{1} << 32)});
  ByteView a = huge;
  const Bytes empty = KArr({});
  ByteView b = empty;
  bool ok = false;
  EXPECT_EQ(idb::CompareEncodedIdbKeys(&a, &b, &ok), 0);
  EXPECT_TRUE(ok);
}

TEST(IndexedDbComparator, PrefixesAndKinds) {
  // Ids compare as numbers: database 257 (bytes 01 01) sorts before 512 (00 02).
  ExpectAscendingUserKeys({
      Cat({Prefix(0, 0, 0), {0}}),                 // schema version
      Cat({Prefix(0, 0, 0), {1}}),                 // max database id
      Cat({Prefix(0, 0, 0), {2}}),                 // data version
      Cat({Prefix(0, 0, 0), {50, 0}}),             // scopes, bytewise
      Cat({Prefix(0, 0, 0), {50, 1}}),             //
      Cat({Prefix(0, 0, 0), {100}, VarInt(5)}),    // database free list
      Cat({Prefix(0, 0, 0), {100}, VarInt(300)}),  //
      Cat({Prefix(0, 0, 0), {201}, StrWithLength(u"a"), StrWithLength(u"z")}),  // database names
      Cat({Prefix(0, 0, 0), {201}, StrWithLength(u"b"), StrWithLength(u"")}),   //
      Cat({Prefix(2, 0, 0), {0}}),                                              // origin name
      Cat({Prefix(2, 0, 0), {3}}),                                              // max os id
      Cat({Prefix(2, 0, 0), {50}, VarInt(1), {0}}),                             // os metadata
      Cat({Prefix(2, 0, 0), {50}, VarInt(1), {7}}),                             //
      Cat({Prefix(2, 0, 0), {50}, VarInt(200), {0}}),                           //
      Cat({Prefix(2, 0, 0), {100}, VarInt(1), VarInt(30), {0}}),                // index metadata
      Cat({Prefix(2, 0, 0), {100}, VarInt(1), VarInt(31), {0}}),                //
      Cat({Prefix(2, 0, 0), {150}, VarInt(4)}),                                 // os free list
      Cat({Prefix(2, 0, 0), {151}, VarInt(4), VarInt(30)}),                     // index free list
      Cat({Prefix(2, 0, 0), {200}, StrWithLength(u"people")}),                  // os names
      Cat({Prefix(2, 0, 0), {200}, StrWithLength(u"values")}),                  //
      Cat({Prefix(2, 0, 0), {201}, VarInt(1), StrWithLength(u"by_i")}),         // index names
      Cat({Prefix(2, 1, 1), KNum(1)}),                                          // data
      Cat({Prefix(2, 1, 1), KNum(2)}),                                          //
      Cat({Prefix(2, 1, 1), KStr(u"a")}),                                       //
      Cat({Prefix(2, 1, 2), KNum(1)}),                                          // exists
      Cat({Prefix(2, 1, 3), KNum(1)}),                                          // blob entry
      Cat({Prefix(2, 1, 30), KNum(1), VarInt(1), KNum(1)}),                     // index data
      Cat({Prefix(2, 1, 256), KNum(1), VarInt(1), KNum(1)}),                    //
      Cat({Prefix(2, 2, 1), KNum(1)}),                                          //
      Cat({Prefix(257, 1, 1), KNum(1)}),                                        //
      Cat({Prefix(512, 1, 1), KNum(1)}),                                        //
  });
  // The simple metadata types compare by their type byte alone.
  const Comparator& cmp = IndexedDbComparator();
  EXPECT_EQ(cmp.Compare(Cat({Prefix(0, 0, 0), {0, 9}}), Cat({Prefix(0, 0, 0), {0}})), 0);
  EXPECT_EQ(cmp.Compare(Cat({Prefix(2, 0, 0), {4, 9}}), Cat({Prefix(2, 0, 0), {4, 1}})), 0);
  // A record without a key sorts before those with one ("a stable ordering for invalid data").
  EXPECT_EQ(cmp.Compare(Prefix(2, 1, 1), Cat({Prefix(2, 1, 1), KNum(1)})), -1);
}

TEST(IndexedDbComparator, EightByteIdsWithTheTopBitCompareAsSignedNumbers) {
  // Never written (ids are positive); found by the indexeddb_key fuzz target: Chromium's a - b
  // would overflow, a comparison stays antisymmetric (fuzz/regressions/indexeddb_key).
  const Bytes negative = {0xe0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0};  // database id INT64_MIN
  const Bytes global = {0, 0, 0, 0, 0};
  const Comparator& cmp = IndexedDbComparator();
  EXPECT_EQ(cmp.Compare(negative, global), -cmp.Compare(global, negative));
  EXPECT_EQ(cmp.Compare(negative, global), -1);
}

TEST(IndexedDbComparator, IndexData) {
  auto entry = [](const Bytes& index_key, uint64_t sequence, const Bytes& primary) {
    return Cat({Prefix(2, 1, 30), index_key, VarInt(sequence), primary});
  };
  // Index key first, then the primary key, the sequence number last.
  ExpectAscendingUserKeys({
      Cat({Prefix(2, 1, 30), KStr(u"a")}),  // no primary key: sorts first (CompareSizes)
      entry(KStr(u"a"), 9, KNum(1)),
      entry(KStr(u"a"), 1, KNum(2)),
      entry(KStr(u"a"), 5, KNum(2)),
      entry(KStr(u"b"), 0, KNum(0)),
  });
  // With or without a sequence number, a key without a primary key compares by what is left
  // after the sequence numbers: nothing on either side, equal.
  EXPECT_EQ(IndexedDbComparator().Compare(Cat({Prefix(2, 1, 30), KStr(u"a")}),
                                          Cat({Prefix(2, 1, 30), KStr(u"a"), VarInt(9)})),
            0);
  bool ok = false;
  EXPECT_EQ(
      idb::CompareKeys(entry(KStr(u"a"), 1, KNum(1)), entry(KStr(u"a"), 2, KNum(3)), true, &ok), 0);
  EXPECT_TRUE(ok);
  // A sequence number that does not decode ends the comparison as equal, still "ok".
  EXPECT_EQ(idb::CompareKeys(Cat({Prefix(2, 1, 30), KStr(u"a"), {0x80}}),
                             entry(KStr(u"a"), 2, KNum(3)), false, &ok),
            0);
  EXPECT_TRUE(ok);
}

TEST(IndexedDbComparator, UndecodableKeysCompareEqual) {
  const Comparator& cmp = IndexedDbComparator();
  bool ok = true;
  // A prefix cut short, an index id of no kind (4..29), an unknown metadata type at or above the
  // simple ones, a malformed string: Chromium's Compare is not ok and idb_cmp1 answers 0.
  const Bytes good = Cat({Prefix(2, 1, 1), KNum(1)});
  for (const Bytes& bad : {Bytes{0x20, 1}, Cat({Prefix(2, 1, 5), KNum(1)})}) {
    EXPECT_EQ(cmp.Compare(bad, bad), 0);
    idb::CompareKeys(bad, bad, false, &ok);
    EXPECT_FALSE(ok);
  }
  EXPECT_EQ(cmp.Compare(Bytes{0x20, 1}, good), 0);
  EXPECT_EQ(cmp.Compare(Cat({Prefix(0, 0, 0), {7}}), Cat({Prefix(0, 0, 0), {8}})), -1);
  EXPECT_EQ(cmp.Compare(Cat({Prefix(0, 0, 0), {7}}), Cat({Prefix(0, 0, 0), {7, 1}})), 0);
  idb::CompareKeys(Cat({Prefix(0, 0, 0), {7}}), Cat({Prefix(0, 0, 0), {7}}), false, &ok);
  EXPECT_FALSE(ok);
  EXPECT_EQ(cmp.Compare(Cat({Prefix(2, 0, 0), {99}}), Cat({Prefix(2, 0, 0), {99, 5}})), 0);
  const Bytes bad_string = Cat({Prefix(2, 1, 1), {idb::kKeyStringType, 5, 0, 'a'}});
  EXPECT_EQ(cmp.Compare(bad_string, Cat({Prefix(2, 1, 1), KStr(u"b")})), 0);
  EXPECT_EQ(cmp.Compare(bad_string, Cat({Prefix(2, 1, 1), KNum(1)})), 1);  // types decide first
}

TEST(IndexedDbComparator, Interface) {
  const Comparator& cmp = IndexedDbComparator();
  EXPECT_EQ(cmp.Name(), "idb_cmp1");
  EXPECT_EQ(FindBuiltinComparator("idb_cmp1"), &cmp);
  EXPECT_FALSE(cmp.is_bytewise());
  EXPECT_EQ(cmp.timestamp_size(), 0u);
  // No separator shortening (Chromium's comparator leaves both unchanged).
  Bytes start = Cat({Prefix(2, 1, 1), KStr(u"abc")});
  const Bytes before = start;
  cmp.FindShortestSeparator(&start, Cat({Prefix(2, 1, 1), KStr(u"xyz")}));
  EXPECT_EQ(start, before);
  cmp.FindShortSuccessor(&start);
  EXPECT_EQ(start, before);
}

TEST(IndexedDbComparator, AntisymmetricOnRandomKeys) {
  std::mt19937 rng(17);
  const std::vector<Bytes> pieces = {
      Prefix(0, 0, 0), Prefix(2, 0, 0), Prefix(2, 1, 1), Prefix(2, 1, 30), KNum(1),
      KStr(u"a"),      KArr({KNum(1)}), KBin({1}),       VarInt(5),        {50},
      {100},           {201},           {0x80}};
  const Comparator& cmp = IndexedDbComparator();
  for (int round = 0; round < 20000; ++round) {
    Bytes a, b;
    for (Bytes* k : {&a, &b}) {
      const int n = 1 + static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) {
        const Bytes& p = pieces[rng() % pieces.size()];
        k->insert(k->end(), p.begin(), p.end());
      }
      if (rng() % 3 == 0) k->resize(rng() % (k->size() + 1));
    }
    EXPECT_EQ(cmp.Compare(a, b), -cmp.Compare(b, a));
    EXPECT_EQ(cmp.Compare(a, a), 0);
  }
}

// ---- the Chromium sample ----

TEST(IndexedDbSample, TablesAreInIdbCmp1Order) {
  if (!testing::ChromiumSampleReady()) GTEST_SKIP() << "no Chromium sample";
  const testing::SampleFolder folder =
      testing::ReadLevelDbFolder(testing::ChromiumSampleDir() / "indexeddb");
  ASSERT_TRUE(folder.error.empty()) << folder.error;
  ASSERT_FALSE(folder.tables.empty());
  const Comparator& cmp = IndexedDbComparator();
  size_t keys = 0;
  size_t separators = 0;
  size_t bytewise_inversions = 0;
  for (const testing::SampleTable& table : folder.tables) {
    for (size_t i = 0; i + 1 < table.keys.size(); ++i) {
      // Versions of one user key are adjacent and equal; distinct keys ascend.
      const int r = cmp.Compare(table.keys[i], table.keys[i + 1]);
      EXPECT_LE(r, 0) << table.name << " key " << i;
      EXPECT_EQ(r == 0, table.keys[i] == table.keys[i + 1]) << table.name << " key " << i;
      if (testing::BytewiseLess()(table.keys[i + 1], table.keys[i])) ++bytewise_inversions;
    }
    keys += table.keys.size();
    // One separator per data block: Chromium does not shorten, so each is its block's last key,
    // and it sorts before the next block's first key (or equals it: versions of one key).
    ASSERT_EQ(table.separators.size(), table.block_ends.size()) << table.name;
    size_t begin = 0;
    for (size_t b = 0; b < table.block_ends.size(); ++b) {
      const size_t end = table.block_ends[b];
      ASSERT_LT(begin, end) << table.name;
      EXPECT_EQ(table.separators[b], table.keys[end - 1]) << table.name << " block " << b;
      EXPECT_EQ(cmp.Compare(table.keys[end - 1], table.separators[b]), 0);
      if (end < table.keys.size()) {
        EXPECT_LE(cmp.Compare(table.separators[b], table.keys[end]), 0);
      }
      if (b > 0) {
        EXPECT_LE(cmp.Compare(table.separators[b - 1], table.separators[b]), 0);
      }
      begin = end;
      ++separators;
    }
    EXPECT_EQ(begin, table.keys.size());
  }
  EXPECT_GT(bytewise_inversions, 0u) << "the sample should hold keys bytewise order misplaces";
  std::printf(
      "[ sample   ] %zu tables: %zu keys and %zu index separators in idb_cmp1 order "
      "(%zu adjacent pairs out of bytewise order)\n",
      folder.tables.size(), keys, separators, bytewise_inversions);
}

}  // namespace
}  // namespace sstfilter
