// RocksDB's Standard128Ribbon filter against: the golden corpus written by RocksDB 7.8.3
// (rocksdb-filter, NewRibbonFilterPolicy(bits, -1)), the worked example of docs/FORMATS.md 2.8.8
// and the behaviours of RocksDB's util/ribbon_test.cc (docs/FORMATS.md 4.5), RocksDB's sizing
// formulas evaluated with glibc (the sizing here calls no libm transcendental), randomized
// false-negative and false-positive checks, and a differential test that every Ribbon kernel
// answers like the scalar reference on arbitrary bytes. Reader checks run once per kernel this
// build and CPU have.
#include "sstfilter/rocksdb_ribbon.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "each_kernel.h"
#include "filter/kernels/ribbon_kernels.h"
#include "filter/kernels/rocksdb_ribbon_hashing.h"
#include "filter/rocksdb_bloom_internal.h"
#include "filter/rocksdb_ribbon_internal.h"
#include "golden.h"
#include "packed_keys.h"
#include "sstfilter/filter.h"
#include "sstfilter/hash.h"
#include "sstfilter/rocksdb_bloom.h"

namespace sstfilter {
namespace {

using golden::ReadFileBytes;
using golden::ReadJson;
using golden::ReadKeysFile;
using testing::PackedKeys;
using KeyList = std::vector<std::vector<uint8_t>>;

// The digests of tests/ts/ribbon-sizing.test.ts: both wasm modules must reproduce them.
constexpr uint64_t kSizingDigestEvery = 0x76d34e60af10e62b;    // SizingSweepDigest(1, 1e5, 1)
constexpr uint64_t kSizingDigestSampled = 0xa9c5c349996dff24;  // (1e5, 1e8, 997)
constexpr uint64_t kSizingDigestLargest = 0x74ef869d4e98cab1;  // (1e8, 950e6, 99991)
constexpr uint64_t kOneInFpRateDigest = 0x1e5e0f1ab6237dd3;    // OneInFpRateSweepDigest(1e5)

KeyList NumberedKeys(const char* prefix, uint64_t first, size_t count) {
  KeyList keys;
  keys.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    std::string s(prefix);
    s += std::to_string(first + i);
    keys.emplace_back(s.begin(), s.end());
  }
  return keys;
}

Bytes BuildRibbon(const KeyList& keys, double bits_per_key) {
  BuildOptions options;
  options.format = FilterFormat::kRocksDbRibbon;
  options.bits_per_key = bits_per_key;
  Bytes out;
  const PackedKeys packed(keys);
  const Status s = BuildFilter(packed.view(), options, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

std::vector<uint8_t> BatchAnswers(const FilterReader& reader, const KeyList& keys) {
  const PackedKeys packed(keys);
  std::vector<uint8_t> answers(keys.size());
  reader.MayMatchBatch(packed.view(), answers.data());
  return answers;
}

// ---- RocksDB's formulas with glibc's log, exp and pow, as RocksDB computes them ----

double GlibcDesiredOneInFpRate(double bits_per_key) {
  bits_per_key = std::clamp(bits_per_key, 1.0, 100.0);
  const int k = rocksdb_bloom::FastLocalBloomNumProbes(
      SanitizeRocksDbBitsPerKey(bits_per_key).millibits_per_key);
  auto standard = [k](double b) { return std::pow(1.0 - std::exp(-k / b), k); };
  const double keys_per_line = 512 / bits_per_key;
  const double stddev = std::sqrt(keys_per_line);
  return 1.0 /
         ((standard(512 / (keys_per_line + stddev)) + standard(512 / (keys_per_line - stddev))) /
          2);
}

uint32_t GlibcGetNumSlots(uint32_t n) {
  static const double kKnown[18] = {0,       0,       0,       0,       0,       0,
                                    0,       0,       248.851, 499.532, 1001.26, 2003.97,
                                    4005.59, 8000.39, 15966.6, 31828.1, 63447.3, 126506};
  auto to_add = [](uint32_t l2) {
    if (l2 < 18) return kKnown[l2];
    const double base = 1.0 * (1u << 17) / kKnown[17] - 17 * 0.0038;
    return 1.0 * (uint64_t{1} << l2) / (base + l2 * 0.0038);
  };
  uint32_t a = static_cast<uint32_t>(std::log(n) * 1.4426950409 + 0.5);
  double lower = to_add(a), upper;
  if (a == 0 || lower == 0) return 256;
  if (n < lower) {
    upper = lower;
    lower = to_add(--a);
  } else {
    upper = to_add(a + 1);
  }
  const double base = 1.0 * (uint64_t{1} << a);
  return static_cast<uint32_t>((n - lower) / (upper - lower) * base + base + 0.999999999);
}

// ---- Golden corpus ----

TEST(RibbonGolden, BuiltBytesAndEveryAnswerMatchRocksDb) {
  std::map<std::string, int> built_impls;
  auto kernels = testing::EachRibbonKernel();
  std::map<std::string, int> answered;
  int cases = 0;
  for (const auto& [corpus, manifest] : golden::Sections("rocksdb_filter")) {
    for (const auto& c : manifest.at("cases")) {
      if (c.at("requested_impl") != "ribbon") continue;
      const std::string id = corpus->name + ":" + c.at("id").get<std::string>();
      ++cases;
      const auto keys = corpus->ReadKeys(c.at("keys"));
      const auto expected = corpus->ReadBytes(c.at("filter"));
      const auto probes = corpus->ReadKeys(c.at("probes"));
      const auto answers = corpus->ReadBytes(c.at("probe_results"));
      ASSERT_EQ(probes.size(), answers.size()) << id;

      const Bytes built = BuildRibbon(keys, c.at("policy").at("bloom_equivalent_bits_per_key"));
      ASSERT_EQ(built, expected) << id << ": built filter differs from RocksDB's";
      ++built_impls[c.at("built_impl").get<std::string>()];

      const auto reader = OpenRocksDbFilter(expected);
      std::vector<uint64_t> probe_hashes;
      for (const auto& probe : probes) probe_hashes.push_back(Xxph3Hash64(probe, 0));
      kernels.Run([&](const std::string& kernel) {
        const std::vector<uint8_t> batch = BatchAnswers(*reader, probes);
        std::vector<uint8_t> by_hash(probes.size());
        ASSERT_TRUE(reader->MayMatchHashes(probe_hashes.data(), probes.size(), by_hash.data()));
        for (size_t i = 0; i < probes.size(); ++i) {
          ASSERT_EQ(reader->MayMatch(probes[i]) ? 1 : 0, answers[i])
              << id << " kernel " << kernel << ": probe " << i;
          ASSERT_EQ(batch[i], answers[i]) << id << " kernel " << kernel << ": batched probe " << i;
          ASSERT_EQ(by_hash[i], answers[i]) << id << " kernel " << kernel << ": hashed probe " << i;
        }
        const std::vector<uint8_t> own = BatchAnswers(*reader, keys);
        for (size_t i = 0; i < keys.size(); ++i) {
          ASSERT_TRUE(reader->MayMatch(keys[i]) && own[i] == 1)
              << id << " kernel " << kernel << ": false negative for key " << i;
        }
        ++answered[kernel];
      });
    }
  }
  // Both outcomes of the Ribbon policy: Ribbon, and its FastLocalBloom fallback for small sets.
  EXPECT_GT(built_impls["ribbon"], 0) << golden::CorporaSummary();
  EXPECT_GT(built_impls["fastlocalbloom"], 0) << golden::CorporaSummary();
  for (const auto& [kernel, count] : answered) {
    EXPECT_EQ(count, cases) << kernel;
    std::cout << "[golden] rocksdb-filter ribbon policy, kernel " << kernel << ": " << count
              << " cases (" << built_impls["ribbon"] << " Ribbon, " << built_impls["fastlocalbloom"]
              << " Bloom fallback, " << built_impls["always_false"]
              << " empty), bytes and answers identical\n";
  }
}

// ---- docs/FORMATS.md 2.8.8: 300 keys k0000..k0299 at 10 bits per key ----

TEST(RibbonWorkedExample, IntermediateValuesAndFilter) {
  EXPECT_EQ(rocksdb_ribbon::DesiredOneInFpRate(10.0), 104.90235348782818);
  EXPECT_EQ(rocksdb_ribbon::GetNumSlots(300), 309u);
  EXPECT_EQ(rocksdb_ribbon::RoundUpNumSlots(309), 384u);
  EXPECT_EQ(rocksdb_ribbon::GetBytesForOneInFpRate(384, 104.90235348782818, 2848217152u), 336u);
  EXPECT_EQ(rocksdb_bloom::FastLocalBloomDataBytes(300, 10000) + 5, 389u);
  EXPECT_EQ(rocksdb_ribbon::RawSeed(60), 0xb40bc0bfu);

  KeyList keys;
  for (int i = 0; i < 300; ++i) {
    char name[8];
    std::snprintf(name, sizeof(name), "k%04d", i);
    keys.emplace_back(name, name + 5);
  }
  const uint64_t h0 = Xxph3Hash64(keys[0], 0);
  EXPECT_EQ(h0, 0xa9c45840c3fa883cu);
  const uint64_t seeded = rocksdb_ribbon::RibbonSeededHash(h0, rocksdb_ribbon::RawSeed(60));
  EXPECT_EQ(rocksdb_ribbon::RibbonStart(seeded, 257), 63u);
  const rocksdb_ribbon::RibbonU128 coeff = rocksdb_ribbon::RibbonCoeffRow(seeded);
  EXPECT_EQ(static_cast<uint64_t>(coeff >> 64), 0xa52cde7f8daff39bu);
  EXPECT_EQ(static_cast<uint64_t>(coeff), 0x664b5a35e3fd8087u);
  EXPECT_EQ(rocksdb_ribbon::RibbonResultRow(seeded), 0x7fde2ca5u);

  const Bytes filter = BuildRibbon(keys, 10.0);
  ASSERT_EQ(filter.size(), 341u);
  EXPECT_EQ(Bytes(filter.end() - 5, filter.end()), (Bytes{0xfe, 0x3c, 0x03, 0x00, 0x00}));
  EXPECT_EQ(Crc32c(filter), 0x5d2829dcu);
  const rocksdb_ribbon::SolutionLayout layout = rocksdb_ribbon::ConfigureLayout(3, 336);
  EXPECT_EQ(layout.upper_num_columns, 7u);
  EXPECT_EQ(layout.upper_start_block, 0u);
  EXPECT_EQ(layout.num_segments, 21u);
}

// ---- docs/FORMATS.md 2.8.3, 2.5 and 4.5 (util/ribbon_test.cc) ----

TEST(RibbonSizing, SlotCountExamples) {
  for (uint32_t n = 1; n <= 248; ++n) {
    EXPECT_EQ(rocksdb_ribbon::RoundUpNumSlots(rocksdb_ribbon::GetNumSlots(n)), 256u) << n;
  }
  const std::pair<uint32_t, uint32_t> examples[] = {
      {249, 384},   {300, 384},     {500, 640},       {1000, 1024},       {2087, 2176},
      {3000, 3072}, {10000, 10368}, {100000, 103552}, {1000000, 1047552},
  };
  for (const auto& [n, slots] : examples) {
    EXPECT_EQ(rocksdb_ribbon::RoundUpNumSlots(rocksdb_ribbon::GetNumSlots(n)), slots) << n;
  }
  // RoundUpNumSlots is idempotent (CompactnessAndBacktrackAndFpRate).
  for (uint32_t s = 1; s < 5000; ++s) {
    const uint32_t r = rocksdb_ribbon::RoundUpNumSlots(s);
    EXPECT_EQ(rocksdb_ribbon::RoundUpNumSlots(r), r) << s;
  }
}

TEST(RibbonSizing, DesiredFpRateTable) {
  const std::pair<double, double> table[] = {
      {1, 1.58287646},   {2, 2.543408618},  {3, 4.222978679},  {4, 6.776102473},
      {5, 10.78834202},  {6, 17.42534266},  {8, 43.38745256},  {9, 68.16746958},
      {12, 248.3483976}, {14, 563.1953763}, {16, 1255.053209}, {20, 5852.540104},
      {24, 24528.47576}, {30, 176754.093},  {50, 160480109},   {100, 1.296551555e13},
  };
  for (const auto& [bits, one_in] : table) {
    EXPECT_NEAR(rocksdb_ribbon::DesiredOneInFpRate(bits) / one_in, 1.0, 1e-9) << bits;
  }
}

TEST(RibbonSizing, RawAndOrdinalSeeds) {
  EXPECT_EQ(rocksdb_ribbon::RawSeed(0), 0u);
  std::set<uint32_t> low8, low16;
  for (uint32_t ordinal = 0; ordinal <= 0xfffe; ++ordinal) {
    if (ordinal <= 0xfe) {
      EXPECT_TRUE(low8.insert(rocksdb_ribbon::RawSeed(ordinal) & 0xff).second) << ordinal;
    }
    EXPECT_TRUE(low16.insert(rocksdb_ribbon::RawSeed(ordinal) & 0xffff).second) << ordinal;
  }
}

TEST(RibbonSizing, LayoutExtremes) {
  // Plenty of space: 32 columns, the rest unused.
  const rocksdb_ribbon::SolutionLayout wide = rocksdb_ribbon::ConfigureLayout(10, 100000);
  EXPECT_EQ(wide.upper_num_columns, 32u);
  EXPECT_EQ(wide.upper_start_block, 0u);
  EXPECT_EQ(wide.num_segments, 320u);
  // No space: no columns.
  EXPECT_EQ(rocksdb_ribbon::ConfigureLayout(10, 15).upper_num_columns, 0u);
  // Mixed: 25 segments over 4 blocks = 6, 6, 6, 7 columns.
  const rocksdb_ribbon::SolutionLayout mixed = rocksdb_ribbon::ConfigureLayout(4, 25 * 16 + 5);
  EXPECT_EQ(mixed.upper_num_columns, 7u);
  EXPECT_EQ(mixed.upper_start_block, 3u);
}

// ---- Sizing without libm: equal to RocksDB's formulas evaluated with glibc ----

// GetNumSlots's log only decides a step function; the table of steps gives glibc's value
// everywhere it can step (every count to 2 million, then around each step and sampled).
TEST(RibbonSizing, SlotCountsEqualGlibcLog) {
  auto check = [](uint32_t n) {
    ASSERT_EQ(rocksdb_ribbon::GetNumSlots(n), GlibcGetNumSlots(n)) << "num_entries " << n;
  };
  for (uint32_t n = 1; n <= 2000000; ++n) check(n);
  for (int k = 1; k <= 30; ++k) {
    const double step = std::ceil(std::exp((k - 0.5) / 1.4426950409));
    for (double n = step - 3; n <= step + 3; ++n) {
      if (n >= 1 && n <= rocksdb_ribbon::kMaxRibbonEntries) {
        check(static_cast<uint32_t>(n));
      }
    }
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000000; ++i) {
    check(static_cast<uint32_t>(1 + rng() % rocksdb_ribbon::kMaxRibbonEntries));
  }
}

// exp and pow correctly rounded: equal to the double nearest an 80-bit long double evaluation
// wherever that one is not too close to a rounding boundary to tell, and within 1 ulp of glibc.
TEST(RibbonSizing, ExpAndPowCorrectlyRounded) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> exponent(-25.0, 0.0), base(0.01, 1.0);
  int decided = 0, glibc_differs = 0;
  auto check = [&](double ours, long double reference, double glibc, const std::string& what) {
    const double nearest = static_cast<double>(reference);
    const long double ulp = std::nextafter(nearest, 2 * nearest) - nearest;
    const long double distance_to_midpoint =
        std::fabs(std::fabs(reference - nearest) - ulp / 2) / ulp;
    if (distance_to_midpoint > 1e-3L) {
      ++decided;
      ASSERT_EQ(ours, nearest) << what;
    }
    ASSERT_LE(std::fabs(ours - glibc), std::nextafter(glibc, 2 * glibc) - glibc) << what;
    if (ours != glibc) ++glibc_differs;
  };
  for (int i = 0; i < 200000; ++i) {
    const double x = exponent(rng);
    check(rocksdb_ribbon::CorrectlyRoundedExp(x), std::exp(static_cast<long double>(x)),
          std::exp(x), "exp " + std::to_string(x));
    const double b = base(rng);
    const int k = 1 + static_cast<int>(rng() % 24);
    check(rocksdb_ribbon::CorrectlyRoundedPow(b, k), std::pow(static_cast<long double>(b), k),
          std::pow(b, static_cast<double>(k)), "pow " + std::to_string(b));
  }
  EXPECT_GT(decided, 390000);
  std::cout << "[sizing] exp/pow: " << decided << " of 400000 decidable results correctly rounded; "
            << glibc_differs << " differ from glibc's by 1 ulp\n";
}

// Every size over a sweep equals RocksDB's formulas evaluated with glibc: slot counts and solution
// bytes for many bits per key and roundings. Where glibc's FP-rate target differs in its last bit
// from the correctly rounded one, a size could only differ on a rounding boundary.
TEST(RibbonSizing, SizesEqualRocksDbWithGlibc) {
  std::vector<double> bits_per_key;
  for (int millibits = 500; millibits <= 100000; millibits += 250) {
    bits_per_key.push_back(millibits / 1000.0);
  }
  std::mt19937_64 rng(13);
  for (int i = 0; i < 200; ++i) {
    bits_per_key.push_back(0.5 + 99.5 * static_cast<double>(rng() >> 11) * 0x1p-53);
  }
  std::vector<double> ours, glibc;
  int target_differs = 0;
  for (double b : bits_per_key) {
    ours.push_back(rocksdb_ribbon::DesiredOneInFpRate(b));
    glibc.push_back(GlibcDesiredOneInFpRate(b));
    if (ours.back() != glibc.back()) ++target_differs;
  }
  for (int pow = 0; pow <= 33; ++pow) ASSERT_EQ(std::pow(2.0, -pow), std::ldexp(1.0, -pow));
  uint64_t compared = 0;
  auto check = [&](uint32_t n) {
    const uint32_t slots = rocksdb_ribbon::RoundUpNumSlots(rocksdb_ribbon::GetNumSlots(n));
    const uint32_t rounding = static_cast<uint32_t>(rng());
    for (size_t i = 0; i < bits_per_key.size(); ++i) {
      ASSERT_EQ(rocksdb_ribbon::GetBytesForOneInFpRate(slots, ours[i], rounding),
                rocksdb_ribbon::GetBytesForOneInFpRate(slots, glibc[i], rounding))
          << "num_entries " << n << " bits per key " << bits_per_key[i] << " rounding " << rounding;
      ++compared;
    }
  };
  for (uint32_t n = 1; n <= 3000; ++n) check(n);
  for (int i = 0; i < 3000; ++i) {
    check(static_cast<uint32_t>(1 + rng() % rocksdb_ribbon::kMaxRibbonEntries));
  }
  std::cout << "[sizing] " << compared << " sizes equal RocksDB's with glibc; FP-rate target "
            << "differs from glibc's in the last bit for " << target_differs << " of "
            << bits_per_key.size() << " bits-per-key values\n";
}

// The digests the wasm builds must reproduce (tests/ts/ribbon-sizing.test.ts).
TEST(RibbonSizing, SweepDigests) {
  const uint64_t every = rocksdb_ribbon::SizingSweepDigest(1, 100000, 1);
  const uint64_t sampled = rocksdb_ribbon::SizingSweepDigest(100000, 100000000, 997);
  const uint64_t largest = rocksdb_ribbon::SizingSweepDigest(100000000, 950000000, 99991);
  const uint64_t one_in = rocksdb_ribbon::OneInFpRateSweepDigest(100000);
  std::cout << "[sizing] digests " << golden::FormatHex(every, 16) << " "
            << golden::FormatHex(sampled, 16) << " " << golden::FormatHex(largest, 16) << " "
            << golden::FormatHex(one_in, 16) << "\n";
  EXPECT_EQ(every, kSizingDigestEvery);
  EXPECT_EQ(sampled, kSizingDigestSampled);
  EXPECT_EQ(largest, kSizingDigestLargest);
  EXPECT_EQ(one_in, kOneInFpRateDigest);
}

// ---- Randomized ----

TEST(RibbonRandomized, NoFalseNegatives) {
  const std::pair<size_t, double> shapes[] = {
      {1, 1.0},    {2, 1.0},     {10, 3.3},   {249, 10},   {300, 10},     {1000, 1.0},
      {2087, 6.5}, {5000, 15.5}, {10000, 20}, {40000, 50}, {100000, 7.5}, {850000, 10},
  };
  size_t total = 0;
  auto kernels = testing::EachRibbonKernel();
  uint64_t first = 0;
  for (const auto& [count, bits] : shapes) {
    const KeyList keys = NumberedKeys("key", first, count);
    first += count;
    const auto reader = OpenRocksDbFilter(BuildRibbon(keys, bits));
    kernels.Run([&](const std::string& kernel) {
      const std::vector<uint8_t> answers = BatchAnswers(*reader, keys);
      for (size_t i = 0; i < count; ++i) {
        ASSERT_EQ(answers[i], 1) << count << " keys, kernel " << kernel << ": key " << i;
        if (i % 64 == 0) {
          ASSERT_TRUE(reader->MayMatch(keys[i])) << kernel << ": key " << i;
        }
      }
    });
    total += count;
  }
  EXPECT_GE(total, 1000000u);
}

// RocksDB's expectation for a Ribbon filter's FP rate is SerializableInterleavedSolution::
// ExpectedFpRate: half per column, for the mix of column counts actually used.
TEST(RibbonRandomized, FalsePositiveRateAtTenBitsPerKey) {
  const KeyList keys = NumberedKeys("present", 0, 200000);
  const Bytes filter = BuildRibbon(keys, 10.0);
  const auto reader = OpenRocksDbFilter(filter);
  ASSERT_EQ(reader->kind(), FilterKind::kRocksDbRibbon);
  const FilterInfo info = reader->info();
  const rocksdb_ribbon::SolutionLayout layout =
      rocksdb_ribbon::ConfigureLayout(info.ribbon_blocks, info.data_bytes);
  const double lower_portion = layout.upper_start_block * 128.0 / (info.ribbon_blocks * 128 - 127);
  const double expected = lower_portion * std::ldexp(1.0, -int(layout.upper_num_columns - 1)) +
                          (1 - lower_portion) * std::ldexp(1.0, -int(layout.upper_num_columns));
  const KeyList absent = NumberedKeys("absent", 0, 1000000);
  auto kernels = testing::EachRibbonKernel();
  kernels.Run([&](const std::string& kernel) {
    const std::vector<uint8_t> answers = BatchAnswers(*reader, absent);
    const double measured = static_cast<double>(std::count(answers.begin(), answers.end(), 1)) /
                            static_cast<double>(absent.size());
    std::cout << "[fp] 10 bits/key, 200000 keys, "
              << static_cast<double>(filter.size()) * 8.0 / static_cast<double>(keys.size())
              << " bits/key used, kernel " << kernel << ": measured " << measured
              << ", RocksDB's expectation " << expected << ", Bloom target "
              << 1 / rocksdb_ribbon::DesiredOneInFpRate(10.0) << "\n";
    // 1e6 probes: one standard deviation is about 1% of the rate.
    EXPECT_NEAR(measured / expected, 1.0, 0.06) << kernel;
  });
}

// Repeated keys: adjacent ones are dropped like RocksDB's AddKey; others band as redundant
// equations, so the filter still builds and matches them.
TEST(RibbonRandomized, RepeatedKeys) {
  KeyList keys = NumberedKeys("dup", 0, 3000);
  const KeyList unique = keys;
  keys.insert(keys.end(), unique.begin(), unique.end());
  for (size_t i = 0; i < 500; ++i) keys.push_back(unique[i]);
  const Bytes filter = BuildRibbon(keys, 9.9);
  const auto reader = OpenRocksDbFilter(filter);
  ASSERT_EQ(reader->kind(), FilterKind::kRocksDbRibbon);
  const std::vector<uint8_t> answers = BatchAnswers(*reader, unique);
  EXPECT_EQ(std::count(answers.begin(), answers.end(), 1), 3000);
}

TEST(RibbonBuild, EmptyAndInvalid) {
  EXPECT_TRUE(BuildRibbon({}, 10).empty());
  EXPECT_EQ(OpenRocksDbFilter(Bytes{})->kind(), FilterKind::kNeverMatch);
  Bytes out;
  const PackedKeys packed(NumberedKeys("k", 0, 3));
  EXPECT_EQ(BuildRocksDbRibbon(packed.view(), 0.4, &out).code(), ErrorCode::kBadOptions);
}

// ---- Kernels and reader robustness ----

// Random solution bytes with every column count (including layouts with a lower-column region,
// the 32-column cap and no columns at all), each kernel's answers equal the scalar kernel's.
// Under AddressSanitizer this also shows the reader never reads outside what it owns.
TEST(RibbonKernels, AgreeWithScalarOnArbitraryBytes) {
  std::mt19937_64 rng(17);
  const KeyList probes = NumberedKeys("probe", 0, 3000);
  auto kernels = testing::EachRibbonKernel();
  for (int trial = 0; trial < 300; ++trial) {
    const uint32_t num_blocks = 2 + static_cast<uint32_t>(rng() % 40);
    // Solution bytes: anything from nothing to more than 32 columns need, not always whole
    // segments.
    const size_t data_len = rng() % (num_blocks * 16 * 34 + 40);
    Bytes filter(data_len + 5);
    for (uint8_t& byte : filter) byte = static_cast<uint8_t>(rng());
    filter[data_len] = 0xfe;
    filter[data_len + 2] = static_cast<uint8_t>(num_blocks);
    filter[data_len + 3] = 0;
    filter[data_len + 4] = 0;
    const auto reader = OpenRocksDbFilter(filter);
    ASSERT_EQ(reader->kind(), FilterKind::kRocksDbRibbon);
    ASSERT_TRUE(simd::SelectKernel<simd::RibbonKernel>("scalar"));
    const std::vector<uint8_t> reference = BatchAnswers(*reader, probes);
    kernels.Run([&](const std::string& kernel) {
      const std::vector<uint8_t> answers = BatchAnswers(*reader, probes);
      for (size_t i = 0; i < probes.size(); ++i) {
        ASSERT_EQ(answers[i], reference[i])
            << "trial " << trial << " (" << num_blocks << " blocks, " << data_len
            << " bytes), kernel " << kernel << ": probe " << i;
        if (i % 16 == 0) {
          ASSERT_EQ(reader->MayMatch(probes[i]) ? 1 : 0, reference[i]) << kernel << ": " << i;
        }
      }
    });
  }
}

TEST(RibbonReader, MetadataAndDegenerateLayouts) {
  const KeyList probes = NumberedKeys("probe", 0, 100);
  // num_blocks < 2: always match.
  for (uint8_t blocks : {uint8_t{0}, uint8_t{1}}) {
    const Bytes filter = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe, 7, blocks, 0, 0};
    EXPECT_EQ(OpenRocksDbFilter(filter)->kind(), FilterKind::kAlwaysMatch);
  }
  // Fewer than 16 solution bytes: no columns, every key may match.
  const auto empty = OpenRocksDbFilter(Bytes{1, 2, 3, 0xfe, 9, 2, 0, 0});
  ASSERT_EQ(empty->kind(), FilterKind::kRocksDbRibbon);
  EXPECT_EQ(empty->info().ribbon_seed, 9u);
  EXPECT_EQ(empty->info().ribbon_blocks, 2u);
  EXPECT_EQ(empty->info().data_bytes, 3u);
  const std::vector<uint8_t> answers = BatchAnswers(*empty, probes);
  EXPECT_EQ(std::count(answers.begin(), answers.end(), 1), 100);
  // The largest block count the metadata can state, with a short solution.
  Bytes huge(4096 + 5, 0x5a);
  huge[4096] = 0xfe;
  huge[4098] = huge[4099] = huge[4100] = 0xff;
  const auto reader = OpenRocksDbFilter(huge);
  EXPECT_EQ(reader->info().ribbon_blocks, 0xffffffu);
  BatchAnswers(*reader, probes);
}

}  // namespace
}  // namespace sstfilter
