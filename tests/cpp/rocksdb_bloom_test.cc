// RocksDB's two Bloom filters (legacy, format_version < 5, and FastLocalBloom, >= 5) against:
// the golden corpus written by RocksDB 7.8.3 (rocksdb-filter), the vectors of RocksDB's own
// util/bloom_test.cc (docs/FORMATS.md 4.4), the special encodings and reader dispatch of
// docs/FORMATS.md 2.9-2.10, and a differential test that every FastLocalBloom kernel answers like
// the scalar reference. Every reader check runs once per kernel this build and CPU have.
#include "sstfilter/rocksdb_bloom.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "each_kernel.h"
#include "filter/kernels/bloom_kernels.h"
#include "filter/rocksdb_bloom_internal.h"
#include "golden.h"
#include "packed_keys.h"
#include "sstfilter/filter.h"
#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

using golden::ReadFileBytes;
using golden::ReadJson;
using golden::ReadKeysFile;
using testing::PackedKeys;
using KeyList = std::vector<std::vector<uint8_t>>;

// Answers of `reader` for `keys`, one MayMatch call per key, and in one MayMatchBatch call.
std::vector<uint8_t> SingleAnswers(const FilterReader& reader, const KeyList& keys) {
  std::vector<uint8_t> answers(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) answers[i] = reader.MayMatch(keys[i]) ? 1 : 0;
  return answers;
}

std::vector<uint8_t> BatchAnswers(const FilterReader& reader, const KeyList& keys) {
  std::vector<uint8_t> answers(keys.size(), 0xee);
  reader.MayMatchBatch(PackedKeys(keys).view(), answers.data());
  return answers;
}

// Names the first index where two answer lists differ; `item` says what the lists answer for.
::testing::AssertionResult SameAnswers(const std::vector<uint8_t>& expected,
                                       const std::vector<uint8_t>& actual, const std::string& where,
                                       const char* item = "probe") {
  if (expected.size() != actual.size()) {
    return ::testing::AssertionFailure()
           << where << ": " << actual.size() << " answers, expected " << expected.size();
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != actual[i]) {
      return ::testing::AssertionFailure() << where << ", " << item << " " << i << ": expected "
                                           << int{expected[i]} << ", got " << int{actual[i]};
    }
  }
  return ::testing::AssertionSuccess();
}

// For keys that were added: every answer must be "may match".
::testing::AssertionResult AllMatch(const std::vector<uint8_t>& answers, const std::string& where) {
  return SameAnswers(std::vector<uint8_t>(answers.size(), 1), answers, where, "added key");
}

FilterKind KindOfBuiltImpl(const std::string& built_impl) {
  if (built_impl == "fastlocalbloom") return FilterKind::kRocksDbFastLocalBloom;
  if (built_impl == "legacybloom") return FilterKind::kRocksDbLegacyBloom;
  if (built_impl == "ribbon") return FilterKind::kRocksDbRibbon;
  if (built_impl == "always_false") return FilterKind::kNeverMatch;
  return FilterKind::kAlwaysMatch;
}

// A corpus's key sets, each read once (cases share them).
class KeySets {
 public:
  explicit KeySets(const golden::Corpus& corpus) : corpus_(corpus) {}
  const KeyList& Get(const std::string& path) {
    auto it = sets_.find(path);
    if (it == sets_.end()) it = sets_.emplace(path, ReadKeysFile(corpus_.Path(path))).first;
    return it->second;
  }

 private:
  const golden::Corpus& corpus_;
  std::map<std::string, KeyList> sets_;
};

TEST(RocksDbBloomGolden, BuildersWriteRocksDbsBytes) {
  std::map<std::string, int> built;
  for (const auto& [corpus, manifest] : golden::Sections("rocksdb_filter")) {
    KeySets key_sets(*corpus);
    for (const auto& c : manifest.at("cases")) {
      const std::string id = corpus->name + ":" + c.at("id").get<std::string>();
      const std::string requested = c.at("requested_impl");
      if (requested != "fastlocalbloom" && requested != "legacybloom") continue;
      const double bits_per_key = c.at("policy").at("bits_per_key");
      const KeyList& keys = key_sets.Get(c.at("keys").at("path"));
      const auto expected = corpus->ReadBytes(c.at("filter"));
      const PackedKeys packed(keys);
      Bytes actual;
      const Status s = requested == "fastlocalbloom"
                           ? BuildRocksDbFastLocalBloom(packed.view(), bits_per_key, &actual)
                           : BuildRocksDbLegacyBloom(packed.view(), bits_per_key, &actual);
      ASSERT_TRUE(s.ok()) << id << ": " << s.message();
      ASSERT_EQ(actual.size(), expected.size()) << id << ": built filter length";
      EXPECT_TRUE(actual == expected) << id << ": built bytes differ from RocksDB's";
      ++built[requested];
    }
  }
  EXPECT_GT(built["fastlocalbloom"], 0) << golden::CorporaSummary();
  EXPECT_GT(built["legacybloom"], 0) << golden::CorporaSummary();
  std::cout << "[golden] rocksdb-filter built byte-identical: " << built["fastlocalbloom"]
            << " fastlocalbloom, " << built["legacybloom"] << " legacybloom\n";
}

TEST(RocksDbBloomGolden, ReadersAnswerEveryProbeAsRocksDb) {
  std::map<std::string, int> checked_per_kernel;
  int ribbon_cases = 0, bloom_cases = 0;
  for (const auto& [corpus, manifest] : golden::Sections("rocksdb_filter")) {
    KeySets key_sets(*corpus);
    for (const auto& c : manifest.at("cases")) {
      const std::string id = corpus->name + ":" + c.at("id").get<std::string>();
      const std::string built_impl = c.at("built_impl");
      const auto filter = corpus->ReadBytes(c.at("filter"));
      if (built_impl == "ribbon") {
        // Dispatched to the Ribbon reader, whose answers the Ribbon suite checks.
        const auto reader = OpenRocksDbFilter(filter);
        const auto& meta = c.at("filter_meta");
        EXPECT_EQ(reader->kind(), FilterKind::kRocksDbRibbon) << id;
        EXPECT_EQ(reader->info().ribbon_seed, meta.at("seed").get<uint32_t>()) << id;
        EXPECT_EQ(reader->info().ribbon_blocks, meta.at("num_blocks").get<uint32_t>()) << id;
        ++ribbon_cases;
        continue;
      }
      const KeyList& keys = key_sets.Get(c.at("keys").at("path"));
      const KeyList& probes = key_sets.Get(c.at("probes").at("path"));
      const auto expected = corpus->ReadBytes(c.at("probe_results"));
      ASSERT_EQ(expected.size(), probes.size()) << id;
      ASSERT_TRUE(c.at("keys_all_match").get<bool>()) << id;
      ++bloom_cases;

      testing::EachFastLocalBloomKernel().Run([&](const std::string& kernel) {
        const std::string where = "case " + id + ", kernel " + kernel;
        const auto reader = OpenRocksDbFilter(filter);
        EXPECT_EQ(reader->kind(), KindOfBuiltImpl(built_impl)) << where;
        EXPECT_TRUE(reader->ProbeSupport().ok()) << where;
        EXPECT_TRUE(SameAnswers(expected, SingleAnswers(*reader, probes), where + ", MayMatch"));
        EXPECT_TRUE(
            SameAnswers(expected, BatchAnswers(*reader, probes), where + ", MayMatchBatch"));
        if (built_impl != "always_false") {  // RocksDB's zero-key filters hold none of the keys
          EXPECT_TRUE(AllMatch(SingleAnswers(*reader, keys), where + ", MayMatch"));
          EXPECT_TRUE(AllMatch(BatchAnswers(*reader, keys), where + ", MayMatchBatch"));
        }
        ++checked_per_kernel[kernel];
      });
    }
  }
  EXPECT_GT(ribbon_cases, 0) << golden::CorporaSummary();
  EXPECT_GT(bloom_cases, 0) << golden::CorporaSummary();
  for (const auto& [kernel, cases] : checked_per_kernel) {
    EXPECT_EQ(cases, bloom_cases) << kernel;
    std::cout << "[golden] rocksdb-filter kernel " << kernel << ": " << cases
              << " cases, every probe and key answered as RocksDB\n";
  }
}

// ---------------------------------------------------------------------------------------------
// util/bloom_test.cc (docs/FORMATS.md 4.4).

// Key(i) of bloom_test.cc: the 4-byte little-endian encoding of i.
std::vector<uint8_t> TestKey(uint32_t i) {
  return {static_cast<uint8_t>(i), static_cast<uint8_t>(i >> 8), static_cast<uint8_t>(i >> 16),
          static_cast<uint8_t>(i >> 24)};
}

KeyList TestKeys(uint32_t first, uint32_t last) {
  KeyList keys;
  for (uint32_t i = first; i <= last; ++i) keys.push_back(TestKey(i));
  return keys;
}

// bloom_test.cc's BloomHash(FilterData()).
uint32_t BloomHash(const Bytes& filter) { return RocksDbLegacyHash32(filter, kBloomHashSeed); }

// bloom_test.cc's FirstFPs(count): the i with Key(i + 1000000) matching, comma-separated.
std::string FirstFPs(const FilterReader& reader, int count) {
  std::string fps;
  int found = 0;
  for (uint32_t i = 0; i < 1000000 && found < count; ++i) {
    if (reader.MayMatch(TestKey(i + 1000000))) {
      if (found++ > 0) fps += ',';
      fps += std::to_string(i);
    }
  }
  return fps;
}

struct SchemaRow {
  double bits_per_key;
  uint32_t first_key, last_key;
  int legacy_probes, fast_probes;
  std::array<uint32_t, 3> legacy_hash;  // for 64-, 128- and 256-byte lines; 0: not asserted
  uint32_t fast_hash;
  const char* fast_first_fps;
};

// FullBloomTest.Schema, rows 1-14 of docs/FORMATS.md 4.4.
constexpr SchemaRow kSchema[] = {
    {5, 0, 86, 3, 3, {0, 0, 0}, 4130687756U, "31,38,40,43,61,83,86,112,125,131"},
    {2,
     0,
     2086,
     1,
     1,
     {1567096579, 1964771444, 2659542661U},
     3817481309U,
     "11,13,17,25,29,30,35,37,45,53"},
    {3,
     0,
     2086,
     2,
     2,
     {2707206547U, 2571983456U, 218344685},
     2807269961U,
     "4,15,17,24,27,28,29,53,63,70"},
    {5,
     0,
     2086,
     3,
     3,
     {515748486, 94611728, 2436112214U},
     204628445,
     "15,24,29,39,53,87,89,100,103,104"},
    {8,
     0,
     2086,
     5,
     5,
     {1302145999, 2811644657U, 756553699},
     355564975,
     "16,60,66,126,220,238,244,256,265,287"},
    {9,
     0,
     2086,
     6,
     6,
     {2092755149, 661139132, 1182970461},
     2137566013U,
     "156,367,791,872,945,1015,1139,1159,1265"},
    {11,
     0,
     2086,
     7,
     7,
     {3755609649U, 1812694762, 1449142939},
     2561502687U,
     "34,74,130,236,643,882,962,1015,1035,1110"},
    {14,
     0,
     2086,
     9,
     8,
     {178861123, 379087593, 2574136516U},
     3709876890U,
     "130,240,522,565,989,2002,2526,3147,3543"},
    {16,
     0,
     2086,
     11,
     9,
     {1129406313, 3049154394U, 1727750964},
     1087138490,
     "3299,3611,3916,6620,7822,8079,8482,8942"},
    {10,
     0,
     2086,
     6,
     6,
     {1478976371, 2910591341U, 1182970461},
     2498541272U,
     "16,126,133,422,466,472,813,1002,1035"},
    {10,
     1,
     2086,
     6,
     6,
     {4205696321U, 1132081253, 2385981855U},
     2058382345,
     "16,126,133,422,466,472,813,1002,1035"},
    {10,
     1,
     2087,
     6,
     6,
     {2885052954U, 769447944, 4175124908U},
     23699164,
     "16,126,133,422,466,472,813,1002,1035"},
    {9.5,
     1,
     2087,
     6,
     6,
     {2885052954U, 769447944, 4175124908U},
     3166884174U,
     "126,156,367,444,458,791,813,976,1015"},
    {10.499,
     1,
     2087,
     6,
     7,
     {2885052954U, 769447944, 4175124908U},
     4098502778U,
     "16,236,240,472,1015,1045,1111,1409,1465"},
};

int CountOf(const char* list) {
  return 1 + static_cast<int>(std::count(list, list + std::strlen(list), ','));
}

TEST(RocksDbBloomSchema, FastLocalBloomMatchesBloomTestSchema) {
  for (const SchemaRow& row : kSchema) {
    const std::string where = "bits/key " + std::to_string(row.bits_per_key) + ", keys " +
                              std::to_string(row.first_key) + ".." + std::to_string(row.last_key);
    const KeyList keys = TestKeys(row.first_key, row.last_key);
    Bytes filter;
    ASSERT_TRUE(
        BuildRocksDbFastLocalBloom(PackedKeys(keys).view(), row.bits_per_key, &filter).ok());
    EXPECT_EQ(BloomHash(filter), row.fast_hash) << where;
    testing::EachFastLocalBloomKernel().Run([&](const std::string& kernel) {
      const auto reader = OpenRocksDbFilter(filter);
      EXPECT_EQ(reader->info().num_probes, static_cast<uint32_t>(row.fast_probes)) << where;
      EXPECT_EQ(FirstFPs(*reader, CountOf(row.fast_first_fps)), row.fast_first_fps)
          << where << ", kernel " << kernel;
      EXPECT_TRUE(AllMatch(BatchAnswers(*reader, keys), where + ", kernel " + kernel));
    });
  }
}

TEST(RocksDbBloomSchema, LegacyBloomMatchesBloomTestSchemaForEachCacheLineSize) {
  constexpr std::array<uint32_t, 3> kCacheLines = {64, 128, 256};
  for (const SchemaRow& row : kSchema) {
    const KeyList keys = TestKeys(row.first_key, row.last_key);
    for (size_t line = 0; line < kCacheLines.size(); ++line) {
      const std::string where = "bits/key " + std::to_string(row.bits_per_key) + ", keys " +
                                std::to_string(row.first_key) + ".." +
                                std::to_string(row.last_key) + ", " +
                                std::to_string(kCacheLines[line]) + "-byte lines";
      Bytes filter;
      ASSERT_TRUE(BuildRocksDbLegacyBloom(PackedKeys(keys).view(), row.bits_per_key, &filter,
                                          kCacheLines[line])
                      .ok());
      if (row.legacy_hash[line] != 0) {
        EXPECT_EQ(BloomHash(filter), row.legacy_hash[line]) << where;
      }
      // A reader on any platform infers the writer's line size.
      const auto reader = OpenRocksDbFilter(filter);
      ASSERT_EQ(reader->kind(), FilterKind::kRocksDbLegacyBloom) << where;
      EXPECT_EQ(reader->info().num_probes, static_cast<uint32_t>(row.legacy_probes)) << where;
      EXPECT_EQ(reader->info().block_bytes, kCacheLines[line]) << where;
      EXPECT_TRUE(AllMatch(SingleAnswers(*reader, keys), where));
    }
  }
}

// RawFilterTester of bloom_test.cc: the last len + 5 bytes of a 3000-byte buffer, the metadata
// bytes set to m0 and LE32 m1. The data bytes are all `fill`, or with `weird` the pattern
// u8(0x7b7b >> (j mod 7)) of ResetWeirdFill.
Bytes RawFilter(uint32_t len, uint8_t m0, uint32_t m1, bool weird, uint8_t fill = 0) {
  std::array<uint8_t, 3000> buffer;
  for (size_t j = 0; j < buffer.size(); ++j) {
    buffer[j] = weird ? static_cast<uint8_t>(0x7b7b >> (j % 7)) : fill;
  }
  uint8_t* meta = buffer.data() + buffer.size() - 5;
  meta[0] = m0;
  for (int i = 0; i < 4; ++i) meta[1 + i] = static_cast<uint8_t>(m1 >> (8 * i));
  return Bytes(buffer.end() - (len + 5), buffer.end());
}

// bloom_test.cc's PackedMatches: bit i set iff Key(i + 12345) matches.
uint64_t PackedMatches(const FilterReader& reader) {
  uint64_t packed = 0;
  for (uint32_t i = 0; i < 64; ++i) {
    if (reader.MayMatch(TestKey(i + 12345))) packed |= uint64_t{1} << i;
  }
  return packed;
}

TEST(RocksDbBloomSchema, RawSchemaFiltersReadAsInBloomTest) {
  struct Row {
    uint32_t len;
    uint8_t m0;
    uint32_t m1;
    FilterKind kind;
    uint32_t block_bytes;
    uint64_t packed_matches;
  };
  constexpr Row kRows[] = {
      {256, 2, 1, FilterKind::kRocksDbLegacyBloom, 256, 11384799501900898790U},
      {256, 2, 2, FilterKind::kRocksDbLegacyBloom, 128, 10157853359773492589U},
      {256, 2, 4, FilterKind::kRocksDbLegacyBloom, 64, 7123594913907464682U},
      {256, 255, 2u << 8, FilterKind::kRocksDbFastLocalBloom, 64, 9957045189927952471U},
  };
  for (const Row& row : kRows) {
    const Bytes filter = RawFilter(row.len, row.m0, row.m1, /*weird=*/true);
    testing::EachFastLocalBloomKernel().Run([&](const std::string& kernel) {
      const auto reader = OpenRocksDbFilter(filter);
      const std::string where =
          "m0 " + std::to_string(row.m0) + ", m1 " + std::to_string(row.m1) + ", kernel " + kernel;
      ASSERT_EQ(reader->kind(), row.kind) << where;
      EXPECT_EQ(reader->info().num_probes, 2u) << where;
      EXPECT_EQ(reader->info().block_bytes, row.block_bytes) << where;
      EXPECT_EQ(PackedMatches(*reader), row.packed_matches) << where;
    });
  }
  // The Ribbon rows (32 and 112 bytes, seed 0, 2 blocks) go to the Ribbon reader, whose answers
  // the Ribbon suite checks.
  for (const uint32_t len : {32u, 112u}) {
    const auto reader = OpenRocksDbFilter(RawFilter(len, 254, 2u << 8, /*weird=*/true));
    EXPECT_EQ(reader->kind(), FilterKind::kRocksDbRibbon) << len;
    EXPECT_EQ(reader->info().ribbon_seed, 0u);
    EXPECT_EQ(reader->info().ribbon_blocks, 2u);
  }
}

// ---------------------------------------------------------------------------------------------
// Special encodings and reader dispatch (docs/FORMATS.md 2.9, 2.10; bloom_test.cc CorruptFilters).

const KeyList kHelloWorld = {{'h', 'e', 'l', 'l', 'o'}, {'w', 'o', 'r', 'l', 'd'}};

// Checks that `filter` gets the constant reader `may_match`, singly and batched.
void ExpectConstant(const Bytes& filter, bool may_match, const std::string& where) {
  const auto reader = OpenRocksDbFilter(filter);
  EXPECT_EQ(reader->kind(), may_match ? FilterKind::kAlwaysMatch : FilterKind::kNeverMatch)
      << where;
  const std::vector<uint8_t> expected(kHelloWorld.size(), may_match ? 1 : 0);
  EXPECT_TRUE(SameAnswers(expected, SingleAnswers(*reader, kHelloWorld), where));
  EXPECT_TRUE(SameAnswers(expected, BatchAnswers(*reader, kHelloWorld), where + " (batch)"));
}

TEST(RocksDbFilterReader, ShortFiltersNeverMatch) {
  for (size_t len = 0; len <= 5; ++len) {
    for (const uint8_t fill : {uint8_t{0x00}, uint8_t{0xff}}) {
      ExpectConstant(Bytes(len, fill), false,
                     std::to_string(len) + " bytes of " + std::to_string(fill));
    }
  }
  // What v7.8.3 writes for zero keys: FF 00 k 00 00 and k 00 00 00 00.
  ExpectConstant(Bytes{0xff, 0x00, 0x06, 0x00, 0x00}, false, "FastLocalBloom of zero keys");
  ExpectConstant(Bytes{0x06, 0x00, 0x00, 0x00, 0x00}, false, "legacy Bloom of zero keys");
}

TEST(RocksDbFilterReader, ZeroAndReservedMarkersAlwaysMatch) {
  ExpectConstant(Bytes(6, 0), true, "FinishAlwaysTrue's six zero bytes");
  for (int marker = -128; marker <= 0; ++marker) {
    if (marker == -1 || marker == -2) continue;
    for (const uint8_t fill : {uint8_t{0x00}, uint8_t{0xff}}) {
      ExpectConstant(RawFilter(64, static_cast<uint8_t>(marker), 6u << 8, false, fill), true,
                     "marker " + std::to_string(marker));
    }
  }
}

TEST(RocksDbFilterReader, CorruptFiltersAsInBloomTest) {
  // "Good" Bloom metadata: the reader is a Bloom reader, so all-zero data matches nothing and
  // all-ones data matches everything.
  struct Good {
    uint32_t len;
    uint8_t m0;
    uint32_t m1;
    FilterKind kind;
  };
  constexpr Good kGood[] = {
      {64, 6, 1, FilterKind::kRocksDbLegacyBloom},
      {192, 6, 3, FilterKind::kRocksDbLegacyBloom},
      {768, 6, 3, FilterKind::kRocksDbLegacyBloom},  // 256-byte lines
      {64, 30, 1, FilterKind::kRocksDbLegacyBloom},
      {64, 1, 1, FilterKind::kRocksDbLegacyBloom},
      {64, 31, 1, FilterKind::kRocksDbLegacyBloom},   // dubious k, read as given
      {64, 127, 1, FilterKind::kRocksDbLegacyBloom},  // likewise
      {64, 255, 6u << 8, FilterKind::kRocksDbFastLocalBloom},
      {64, 255, 30u << 8, FilterKind::kRocksDbFastLocalBloom},
      {64, 255, 1u << 8, FilterKind::kRocksDbFastLocalBloom},
  };
  for (const Good& good : kGood) {
    for (const bool fill : {false, true}) {
      const Bytes filter = RawFilter(good.len, good.m0, good.m1, false, fill ? 0xff : 0x00);
      testing::EachFastLocalBloomKernel().Run([&](const std::string& kernel) {
        std::ostringstream where_stream;
        where_stream << "(" << good.len << ", " << int{good.m0} << ", " << good.m1 << "), fill "
                     << fill << ", kernel " << kernel;
        const std::string where = where_stream.str();
        const auto reader = OpenRocksDbFilter(filter);
        EXPECT_EQ(reader->kind(), good.kind) << where;
        const std::vector<uint8_t> expected(kHelloWorld.size(), fill ? 1 : 0);
        EXPECT_TRUE(SameAnswers(expected, SingleAnswers(*reader, kHelloWorld), where));
        EXPECT_TRUE(SameAnswers(expected, BatchAnswers(*reader, kHelloWorld), where));
      });
    }
  }

  struct Constant {
    uint32_t len;
    uint8_t m0;
    uint32_t m1;
    bool may_match;
    const char* why;
  };
  constexpr Constant kConstant[] = {
      {64, 0, 1, true, "zero probes"},
      {0, 6, 0, false, "no data"},
      {0, 6, 37, false, "no data"},
      {0, 0, 0, false, "no data"},
      {64, 6, 0, true, "legacy with zero lines"},
      {4, 6, 3, true, "legacy: 4 bytes in 3 lines"},
      {291, 6, 3, true, "legacy: 97-byte lines"},
      {195, 6, 3, true, "legacy: 65-byte lines"},
      {64, 6, 0x04000001, true, "legacy: lines * 64 == len only modulo 2^32"},
      {64, 128, 1, true, "negative marker"},
      {64, 253, 1, true, "negative marker"},
      {64, 255, (6u << 8) | 1, true, "FastLocalBloom: sub-implementation 1"},
      {64, 255, (6u << 8) | (1u << 16), true, "FastLocalBloom: reserved byte 3"},
      {64, 255, (6u << 8) | (1u << 24), true, "FastLocalBloom: reserved byte 4"},
      {64, 255, 0u << 8, true, "FastLocalBloom: 0 probes"},
      {64, 255, 31u << 8, true, "FastLocalBloom: 31 probes"},
      {64, 255, 33u << 8, true, "FastLocalBloom: 128-byte blocks"},
      {64, 255, 66u << 8, true, "FastLocalBloom: 256-byte blocks"},
      {64, 255, 130u << 8, true, "FastLocalBloom: 1 KiB blocks"},
      {58, 255, 6u << 8, true, "FastLocalBloom: 63 bytes in all, block 0 would overrun"},
      {128, 254, (1u << 8) + 123, true, "Ribbon with one block"},
      {128, 254, (0u << 8) + 123, true, "Ribbon with no blocks"},
  };
  for (const Constant& constant : kConstant) {
    for (const uint8_t fill : {uint8_t{0x00}, uint8_t{0xff}}) {
      ExpectConstant(RawFilter(constant.len, constant.m0, constant.m1, false, fill),
                     constant.may_match, constant.why);
    }
  }
}

TEST(RocksDbFilterReader, FastLocalBloomShorterThanOneBlockProbesTheFirst64Bytes) {
  // With 59..63 data bytes RocksDB still probes "block 0": the filter's first 64 bytes, metadata
  // included. Every kernel reads exactly those bytes, no further.
  for (uint32_t len = 59; len < 64; ++len) {
    const Bytes filter = RawFilter(len, 255, 2u << 8, /*weird=*/true);
    std::vector<uint8_t> expected;
    testing::EachFastLocalBloomKernel().Run([&](const std::string& kernel) {
      const auto reader = OpenRocksDbFilter(filter);
      ASSERT_EQ(reader->kind(), FilterKind::kRocksDbFastLocalBloom) << len;
      const KeyList keys = TestKeys(0, 999);
      const auto answers = SingleAnswers(*reader, keys);
      if (expected.empty()) expected = answers;
      EXPECT_TRUE(SameAnswers(expected, answers, "len " + std::to_string(len) + ", " + kernel));
      EXPECT_TRUE(SameAnswers(expected, BatchAnswers(*reader, keys), "batch, " + kernel));
    });
  }
}

TEST(RocksDbFilterReader, RibbonMarkerDispatchesToTheRibbonReader) {
  const auto reader = OpenRocksDbFilter(RawFilter(128, 254, (5000u << 8) + 123, false));
  EXPECT_EQ(reader->kind(), FilterKind::kRocksDbRibbon);
  EXPECT_EQ(reader->info().ribbon_seed, 123u);
  EXPECT_EQ(reader->info().ribbon_blocks, 5000u);
  EXPECT_EQ(reader->info().data_bytes, 128u);
}

// ---------------------------------------------------------------------------------------------
// Parameters and sizing (docs/FORMATS.md 2.5-2.7; bloom_test.cc FilterSize).

TEST(RocksDbBloomParams, BitsPerKeySanitisedAsRocksDb) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::pair<double, int> kMillibits[] = {
      {-inf, 0},       {0, 0},         {0.499, 0},    {0.5, 1000},           {1.234, 1234},
      {3.456, 3456},   {9.5, 9500},    {10.0, 10000}, {10.499, 10499},       {21.345, 21345},
      {99.999, 99999}, {1234, 100000}, {inf, 100000}, {std::nan(""), 100000}};
  for (const auto& [bits, millibits] : kMillibits) {
    const RocksDbBloomParams params = SanitizeRocksDbBitsPerKey(bits);
    EXPECT_EQ(params.millibits_per_key, millibits) << bits;
    EXPECT_EQ(params.whole_bits_per_key, millibits == 0 ? 0 : (millibits + 500) / 1000) << bits;
  }
}

TEST(RocksDbBloomParams, ProbeCountsAsRocksDb) {
  // docs/FORMATS.md 2.5: bits/key -> FastLocalBloom k, legacy k.
  const std::array<int, 3> kByBits[] = {
      {1, 1, 1},    {2, 1, 1},    {3, 2, 2},    {4, 3, 2},    {5, 3, 3},    {6, 4, 4},
      {8, 5, 5},    {9, 6, 6},    {10, 6, 6},   {12, 8, 8},   {14, 8, 9},   {16, 9, 11},
      {20, 11, 13}, {24, 12, 16}, {30, 13, 20}, {50, 23, 30}, {100, 24, 30}};
  for (const auto& [bits, fast, legacy] : kByBits) {
    EXPECT_EQ(rocksdb_bloom::FastLocalBloomNumProbes(bits * 1000), fast) << bits;
    EXPECT_EQ(rocksdb_bloom::LegacyBloomNumProbes(bits), legacy) << bits;
  }
  // docs/FORMATS.md 2.7: both ends of every step, including the drop from 12 to 11 at 25502.
  const std::pair<int, int> kByMillibits[] = {
      {1000, 1},   {2080, 1},   {2081, 2},   {3580, 2},   {3581, 3},   {5100, 3},
      {5101, 4},   {6640, 4},   {6641, 5},   {8300, 5},   {8301, 6},   {10070, 6},
      {10071, 7},  {11720, 7},  {11721, 8},  {14001, 8},  {14002, 9},  {16050, 9},
      {16051, 10}, {18300, 10}, {18301, 11}, {22001, 11}, {22002, 12}, {25501, 12},
      {25502, 11}, {28000, 12}, {28001, 13}, {50000, 23}, {50001, 24}, {100000, 24}};
  for (const auto& [millibits, k] : kByMillibits) {
    EXPECT_EQ(rocksdb_bloom::FastLocalBloomNumProbes(millibits), k) << millibits;
  }
}

TEST(RocksDbBloomParams, SizingClampsAsRocksDb) {
  using rocksdb_bloom::FastLocalBloomDataBytes;
  using rocksdb_bloom::LegacyBloomNumLines;
  EXPECT_EQ(FastLocalBloomDataBytes(0, 10000), 0u);
  EXPECT_EQ(FastLocalBloomDataBytes(1, 1000), 64u);
  EXPECT_EQ(FastLocalBloomDataBytes(2087, 9500), 2496u);  // Schema row 13: 2501 bytes in all
  EXPECT_EQ(FastLocalBloomDataBytes(uint64_t{1} << 40, 100000), 0xffffffc0u);
  EXPECT_EQ(LegacyBloomNumLines(0, 10, 64), 0u);
  EXPECT_EQ(LegacyBloomNumLines(1, 10, 64), 1u);
  EXPECT_EQ(LegacyBloomNumLines(2087, 10, 64), 41u);  // 40.8 lines, 41 is odd
  EXPECT_EQ(LegacyBloomNumLines(2087, 2, 64), 9u);    // 8.2 lines -> 9
  EXPECT_EQ(LegacyBloomNumLines(2048, 2, 64), 9u);    // exactly 8 lines, made odd
  // Capped at 0xffff0000 bits; a count of 2^31 or more is a negative int in RocksDB and meets the
  // cap; 2^32 + 5 is 5 after the int conversion.
  EXPECT_EQ(LegacyBloomNumLines(size_t{1} << 30, 100, 64), 0x7fff81u);
  EXPECT_EQ(LegacyBloomNumLines(size_t{1} << 30, 100, 256), 0x1fffe1u);
  if constexpr (sizeof(size_t) == 8) {
    EXPECT_EQ(LegacyBloomNumLines(size_t{1} << 31, 1, 64), 0x7fff81u);
    EXPECT_EQ(LegacyBloomNumLines((size_t{1} << 32) + 5, 10, 64), 1u);
    EXPECT_EQ(LegacyBloomNumLines(size_t{1} << 32, 10, 64), 0u);
  }
}

TEST(RocksDbBloomParams, BuildersRejectWhatRocksDbCannotWrite) {
  const PackedKeys keys(kHelloWorld);
  Bytes out;
  EXPECT_EQ(BuildRocksDbFastLocalBloom(keys.view(), 0.49, &out).code(), ErrorCode::kBadOptions);
  EXPECT_EQ(BuildRocksDbLegacyBloom(keys.view(), 0.49, &out).code(), ErrorCode::kBadOptions);
  EXPECT_EQ(BuildRocksDbLegacyBloom(keys.view(), 10, &out, 32).code(), ErrorCode::kBadOptions);
  // Below 1 bit/key RocksDB rounds up to 1; NaN and above 100 become 100.
  Bytes one, half;
  ASSERT_TRUE(BuildRocksDbFastLocalBloom(keys.view(), 1.0, &one).ok());
  ASSERT_TRUE(BuildRocksDbFastLocalBloom(keys.view(), 0.5, &half).ok());
  EXPECT_EQ(one, half);
  Bytes hundred, nan;
  ASSERT_TRUE(BuildRocksDbLegacyBloom(keys.view(), 100, &hundred).ok());
  ASSERT_TRUE(BuildRocksDbLegacyBloom(keys.view(), std::nan(""), &nan).ok());
  EXPECT_EQ(hundred, nan);
}

TEST(RocksDbBloomParams, ZeroKeysAndAdjacentDuplicates) {
  Bytes out;
  ASSERT_TRUE(BuildRocksDbFastLocalBloom(KeyBatchView(), 10, &out).ok());
  EXPECT_EQ(out, (Bytes{0xff, 0x00, 0x06, 0x00, 0x00}));
  ASSERT_TRUE(BuildRocksDbLegacyBloom(KeyBatchView(), 10, &out).ok());
  EXPECT_EQ(out, (Bytes{0x06, 0x00, 0x00, 0x00, 0x00}));
  // Adjacent equal keys count once; non-adjacent ones again (the filter grows).
  const KeyList twenty = TestKeys(0, 19);
  KeyList each_twice, twenty_twice = twenty;
  for (const auto& key : twenty) {
    each_twice.push_back(key);
    each_twice.push_back(key);
  }
  twenty_twice.insert(twenty_twice.end(), twenty.begin(), twenty.end());
  for (const bool legacy : {false, true}) {
    auto build = [&](const KeyList& keys) {
      Bytes filter;
      const PackedKeys packed(keys);
      EXPECT_TRUE((legacy ? BuildRocksDbLegacyBloom(packed.view(), 50, &filter)
                          : BuildRocksDbFastLocalBloom(packed.view(), 50, &filter))
                      .ok());
      return filter;
    };
    EXPECT_EQ(build(each_twice), build(twenty)) << legacy;
    EXPECT_GT(build(twenty_twice).size(), build(twenty).size()) << legacy;
  }
}

// ---------------------------------------------------------------------------------------------
// Differential: every kernel, single and batched, answers as the scalar reference's single probe,
// and no added key is ever reported absent.

KeyList RandomKeys(std::mt19937_64& rng, size_t n) {
  KeyList keys(n);
  for (auto& key : keys) {
    key.resize(rng() % 25);
    for (auto& byte : key) byte = static_cast<uint8_t>(rng());
  }
  return keys;
}

struct DifferentialCounts {
  size_t filters = 0;
  size_t added = 0;
  size_t probed = 0;
};

// Checks one filter on every kernel: `added` keys must match, and every kernel's single and batch
// answers for `added` and `absent` equal the scalar kernel's single answers.
void CheckAllKernelsAgree(const Bytes& filter, FilterKind kind, const KeyList& added,
                          const KeyList& absent, const std::string& where,
                          DifferentialCounts* counts) {
  std::vector<uint8_t> reference;
  testing::EachFastLocalBloomKernel().Run([&](const std::string& kernel) {
    const auto reader = OpenRocksDbFilter(filter);
    ASSERT_EQ(reader->kind(), kind) << where;
    const std::string at = where + ", kernel " + kernel;
    EXPECT_TRUE(AllMatch(SingleAnswers(*reader, added), at + ", MayMatch"));
    EXPECT_TRUE(AllMatch(BatchAnswers(*reader, added), at + ", MayMatchBatch"));
    const auto single = SingleAnswers(*reader, absent);
    if (reference.empty()) reference = single;  // the scalar kernel comes first
    EXPECT_TRUE(SameAnswers(reference, single, at + ", MayMatch"));
    EXPECT_TRUE(SameAnswers(reference, BatchAnswers(*reader, absent), at + ", MayMatchBatch"));
  });
  ++counts->filters;
  counts->added += added.size();
  counts->probed += absent.size();
}

TEST(RocksDbBloomDifferential, KernelsAgreeBitForBitAndNeverLoseAKey) {
  std::mt19937_64 rng(20240601);
  DifferentialCounts counts;

  // Built filters over many sizes and bits per key, fractional ones included.
  const double kBitsPerKey[] = {1, 2.5, 3.3, 4.75, 6.5, 9.9, 10, 12.345, 15.5, 20, 23.7, 30, 50};
  const size_t kKeyCounts[] = {1, 3, 17, 100, 640, 2500, 12000};
  for (const double bits : kBitsPerKey) {
    for (const size_t n : kKeyCounts) {
      const KeyList added = RandomKeys(rng, n);
      const KeyList absent = RandomKeys(rng, 5000);
      const std::string where = "bits/key " + std::to_string(bits) + ", n " + std::to_string(n);
      Bytes filter;
      ASSERT_TRUE(BuildRocksDbFastLocalBloom(PackedKeys(added).view(), bits, &filter).ok());
      CheckAllKernelsAgree(filter, FilterKind::kRocksDbFastLocalBloom, added, absent,
                           "FastLocalBloom " + where, &counts);
      for (const uint32_t line : {64u, 128u, 256u}) {
        ASSERT_TRUE(BuildRocksDbLegacyBloom(PackedKeys(added).view(), bits, &filter, line).ok());
        CheckAllKernelsAgree(filter, FilterKind::kRocksDbLegacyBloom, added, absent,
                             "legacy " + std::to_string(line) + "-byte lines " + where, &counts);
      }
    }
  }

  // Hand-made FastLocalBloom metadata for every probe count 1..30 (RocksDB writes at most 24),
  // over random background bits of several densities, with keys added on top.
  for (int k = 1; k <= 30; ++k) {
    for (int variant = 0; variant < 4; ++variant) {
      const uint32_t blocks = 1 + static_cast<uint32_t>(rng() % 300);
      const uint32_t len = blocks * 64 + (variant == 3 ? static_cast<uint32_t>(rng() % 64) : 0);
      Bytes filter(len + 5);
      for (auto& byte : filter) {
        uint8_t bits = 0;
        for (int draw = 0; draw < variant + 1; ++draw) bits |= static_cast<uint8_t>(rng());
        byte = bits;  // density 1/2, 3/4, 7/8, 15/16
      }
      const KeyList added = RandomKeys(rng, blocks * 4);
      std::vector<uint64_t> hashes;
      for (const auto& key : added) hashes.push_back(Xxph3Hash64(key, 0));
      simd::FastLocalBloomAdd(hashes.data(), hashes.size(), k, filter.data(), len);
      const uint8_t meta[5] = {0xff, 0x00, static_cast<uint8_t>(k), 0x00, 0x00};
      std::copy(meta, meta + 5, filter.begin() + len);
      const KeyList absent = RandomKeys(rng, 3000);
      CheckAllKernelsAgree(filter, FilterKind::kRocksDbFastLocalBloom, added, absent,
                           "hand-made k " + std::to_string(k) + ", len " + std::to_string(len),
                           &counts);
    }
  }

  EXPECT_GE(counts.added + counts.probed, 1000000u);
  std::cout << "[differential] " << counts.filters << " filters, " << counts.added
            << " added keys, " << counts.probed << " random probes, on "
            << simd::AvailableKernels<simd::FastLocalBloomKernel>().size() << " kernel(s)\n";
}

}  // namespace
}  // namespace sstfilter
