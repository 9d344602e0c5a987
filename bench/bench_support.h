// What both native benchmark programs share, so that sstfilter and RocksDB are measured on the
// same keys, the same probes and the same clock: key sets, probe sets and their hashes, the
// allocation counter
// (alloc_tracking.cc) and the counters reported to Google Benchmark.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sstfilter/hash.h"

namespace sstfilter::bench {

// SplitMix64: a bijection of the counter, so distinct counters give distinct keys.
inline uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9;
  x = (x ^ (x >> 27)) * 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

constexpr size_t kKeyBytes = 16;
// Absent probe keys start this far into the counter space: they never equal a key of the set.
constexpr uint64_t kAbsentKeysStart = uint64_t{1} << 40;

// n 16-byte keys (key i from counter start + i), packed as sstfilter's KeyBatch.
struct KeySet {
  std::vector<uint8_t> data;
  std::vector<uint32_t> offsets;

  KeySet(size_t n, uint64_t start) : data(kKeyBytes * n), offsets(n + 1) {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t words[2] = {Mix64(start + i), Mix64(~(start + i))};
      std::memcpy(&data[kKeyBytes * i], words, kKeyBytes);
    }
    for (size_t i = 0; i <= n; ++i) offsets[i] = static_cast<uint32_t>(kKeyBytes * i);
  }
  size_t size() const { return offsets.size() - 1; }
  const uint8_t* key(size_t i) const { return &data[kKeyBytes * i]; }
};

// Probes per timed pass: a cache-resident filter gets few (they fit in L1/L2 with it), a larger
// one enough distinct probes that their blocks do not stay cached between passes.
inline size_t ProbeCount(size_t num_keys) { return num_keys <= 100'000 ? 1 << 16 : 1 << 22; }

// Half the probes are keys of the set (at random positions), half absent keys, interleaved, so
// that both the early exit and the full-length probe count.
inline KeySet MakeProbes(const KeySet& keys) {
  const size_t n = ProbeCount(keys.size());
  KeySet probes(n, kAbsentKeysStart);
  for (size_t i = 0; i < n; i += 2) {
    std::memcpy(&probes.data[kKeyBytes * i], keys.key(Mix64(i) % keys.size()), kKeyBytes);
  }
  return probes;
}

// The 64-bit hash of every key of `keys` (Xxph3Hash64, seed 0): the input of sstfilter's and
// RocksDB's hash probes (FastLocalBloom and Ribbon).
inline std::vector<uint64_t> KeyHashes(const KeySet& keys) {
  std::vector<uint64_t> hashes(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    hashes[i] = Xxph3Hash64(ByteView(keys.key(i), kKeyBytes), /*seed=*/0);
  }
  return hashes;
}

// Reports `per_pass` items per iteration as the counter `name`, in ns per item (the inverse of a
// rate of items per nanosecond).
inline void ReportNsPer(benchmark::State& state, const char* name, size_t per_pass) {
  const double items = static_cast<double>(state.iterations()) * static_cast<double>(per_pass);
  state.SetItemsProcessed(static_cast<int64_t>(items));
  state.counters[name] =
      benchmark::Counter(items * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Registers walk/<label> for each LABEL=PATH of --walk_tables (table_walk_bench.cc).
void RegisterTableWalks(const std::string& list);

// The value of "--<name>=value" (empty when absent), removed from argv before Google Benchmark,
// which rejects flags it does not know, parses the rest.
inline std::string TakeFlag(int* argc, char** argv, const std::string& name) {
  const std::string prefix = "--" + name + "=";
  std::string value;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) {
      value = argv[i] + prefix.size();
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return value;
}

// Key counts from "--sizes=10000,10000000"; 10^4 and 10^7 when absent.
inline std::vector<size_t> TakeSizes(int* argc, char** argv) {
  const std::string list = TakeFlag(argc, argv, "sizes");
  if (list.empty()) return {10'000, 10'000'000};
  std::vector<size_t> sizes;
  for (const char* p = list.c_str(); *p != '\0';) {
    char* end = nullptr;
    sizes.push_back(std::strtoull(p, &end, 10));
    p = *end == ',' ? end + 1 : end;
  }
  return sizes;
}

// Builds of 10^8 keys take seconds each: one timed build is enough there.
template <typename Benchmark>
void SetBuildIterations(Benchmark* b, size_t num_keys) {
  if (num_keys >= 10'000'000) b->Iterations(1);
}

}  // namespace sstfilter::bench
