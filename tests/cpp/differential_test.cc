// Cross-kernel, cross-platform differential test. Filters of every format are built from keys
// made by a small deterministic generator, probed with their own keys and with fresh ones, and
// every answer is folded into one digest. tests/ts/differential.test.ts runs the same generator
// in both wasm modules and must reach the same kDigest, so native scalar, native AVX2, wasm scalar
// and wasm SIMD128 all give the same answers bit for bit (and no inserted key is ever absent).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "each_kernel.h"
#include "packed_keys.h"
#include "sstfilter/filter.h"

namespace sstfilter {
namespace {

// Keep in step with tests/ts/differential.test.ts.
constexpr uint32_t kDigest = 0xc740e3eb;

// splitmix32-style generator: cheap and identical in C++ and JavaScript (Math.imul).
class KeyGenerator {
 public:
  explicit KeyGenerator(uint32_t seed) : state_(seed) {}
  uint32_t Next() {
    state_ += 0x9e3779b9u;
    uint32_t z = state_;
    z = (z ^ (z >> 16)) * 0x85ebca6bu;
    z = (z ^ (z >> 13)) * 0xc2b2ae35u;
    return z ^ (z >> 16);
  }
  // 0 to 24 bytes, so every hash tail length occurs.
  std::vector<uint8_t> Key() {
    std::vector<uint8_t> key(Next() % 25);
    for (size_t i = 0; i < key.size(); ++i) {
      if (i % 4 == 0) word_ = Next();
      key[i] = static_cast<uint8_t>(word_ >> (8 * (i % 4)));
    }
    return key;
  }

 private:
  uint32_t state_;
  uint32_t word_ = 0;
};

struct Fnv1a {
  uint32_t value = 0x811c9dc5u;
  void Add(uint8_t byte) { value = (value ^ byte) * 0x01000193u; }
};

constexpr double kBitsPerKey[] = {1, 2.5, 5, 6.5, 9.9, 10, 15.5, 20, 33.3, 50};
constexpr size_t kKeyCounts[] = {1, 3, 10, 100, 1000, 10000, 60000};
constexpr FilterFormat kFormats[] = {FilterFormat::kLevelDbBloom, FilterFormat::kRocksDbLegacyBloom,
                                     FilterFormat::kRocksDbFastLocalBloom,
                                     FilterFormat::kRocksDbRibbon};

// Runs every configuration; returns the digest and counts keys and probes.
uint32_t RunAll(size_t* keys_added, size_t* probes) {
  Fnv1a digest;
  uint32_t seed = 1;
  for (FilterFormat format : kFormats) {
    for (double bits : kBitsPerKey) {
      for (size_t count : kKeyCounts) {
        KeyGenerator gen(seed++);
        std::vector<std::vector<uint8_t>> keys(count);
        for (auto& key : keys) key = gen.Key();
        std::vector<std::vector<uint8_t>> probe_keys = keys;
        for (size_t i = 0; i < std::max<size_t>(count, 1000); ++i) probe_keys.push_back(gen.Key());

        // LevelDB takes whole bits per key.
        const double b = format == FilterFormat::kLevelDbBloom ? std::round(bits) : bits;
        Bytes filter;
        const Status s = BuildFilter(testing::PackedKeys(keys).view(), {format, b}, &filter);
        EXPECT_TRUE(s.ok()) << s.message();
        const auto reader = format == FilterFormat::kLevelDbBloom ? OpenLevelDbFilter(filter)
                                                                  : OpenRocksDbFilter(filter);
        const testing::PackedKeys packed(probe_keys);
        std::vector<uint8_t> answers(probe_keys.size());
        reader->MayMatchBatch(packed.view(), answers.data());
        for (size_t i = 0; i < probe_keys.size(); ++i) {
          if (i < count) {
            EXPECT_EQ(answers[i], 1) << "false negative: format " << static_cast<int>(format)
                                     << " bits " << bits << " keys " << count << " key " << i;
          }
          if (i % 97 == 0) {
            EXPECT_EQ(reader->MayMatch(probe_keys[i]) ? 1 : 0, answers[i]) << "single vs batch";
          }
          digest.Add(answers[i]);
        }
        *keys_added += count;
        *probes += probe_keys.size();
      }
    }
  }
  return digest.value;
}

TEST(Differential, EveryNativeKernelReachesTheSharedDigest) {
  testing::EachFastLocalBloomKernel().Run([](const std::string& bloom_kernel) {
    testing::EachRibbonKernel().Run([&](const std::string& ribbon_kernel) {
      size_t keys = 0, probes = 0;
      const uint32_t digest = RunAll(&keys, &probes);
      EXPECT_EQ(digest, kDigest) << "FastLocalBloom kernel " << bloom_kernel << ", Ribbon kernel "
                                 << ribbon_kernel << ": digest " << std::hex << digest;
      std::cout << "[differential] FastLocalBloom kernel " << bloom_kernel << ", Ribbon kernel "
                << ribbon_kernel << ": " << keys << " keys added, " << probes
                << " probes, digest 0x" << std::hex << digest << std::dec << "\n";
    });
  });
}

}  // namespace
}  // namespace sstfilter
