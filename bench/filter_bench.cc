// Native probe benchmarks: ns per probe for every kernel, on a cache-resident filter (10^4 keys)
// and a memory-resident one (10^7 keys), with hashes precomputed (the kernel alone) and with
// 16-byte keys hashed (the reader's MayMatch / MayMatchBatch). scripts/bench.sh runs it and merges
// its JSON into bench/results.json. `--keys_large=N` changes the memory-resident size (quick runs).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "simd/bloom_kernels.h"
#include "sstfilter/filter.h"
#include "sstfilter/hash.h"

namespace sstfilter {
namespace {

constexpr size_t kProbes = 1 << 16;  // per iteration; half of them keys of the filter
size_t large_keys = 10'000'000;

// 16-byte keys from a counter mixed by XXPH3: distinct and spread out.
std::vector<uint8_t> MakeKeys(size_t n, uint64_t salt) {
  std::vector<uint8_t> data(16 * n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t words[2] = {i ^ salt,
                               Xxph3Hash64(ByteView(reinterpret_cast<uint8_t*>(&i), 8), salt)};
    std::memcpy(&data[16 * i], words, 16);
  }
  return data;
}

struct Fixture {
  std::vector<uint8_t> key_data;
  std::vector<uint32_t> key_offsets;
  Bytes filter;
  std::unique_ptr<FilterReader> reader;
  std::vector<uint8_t> probe_data;
  std::vector<uint32_t> probe_offsets;
  std::vector<uint64_t> probe_hashes;
};

std::vector<uint32_t> Offsets(size_t n) {
  std::vector<uint32_t> offsets(n + 1);
  for (size_t i = 0; i <= n; ++i) offsets[i] = static_cast<uint32_t>(16 * i);
  return offsets;
}

// Built once per (format, size) and kept: building 10^7 keys takes a while.
const Fixture& GetFixture(FilterFormat format, size_t num_keys) {
  static std::map<std::pair<int, size_t>, std::unique_ptr<Fixture>> cache;
  auto& slot = cache[{static_cast<int>(format), num_keys}];
  if (slot) return *slot;
  slot = std::make_unique<Fixture>();
  Fixture& f = *slot;
  f.key_data = MakeKeys(num_keys, 1);
  f.key_offsets = Offsets(num_keys);
  const KeyBatchView keys(f.key_data.data(), f.key_data.size(), f.key_offsets.data(), num_keys);
  if (!BuildFilter(keys, {format, 10.0}, &f.filter).ok()) std::abort();
  f.reader = format == FilterFormat::kLevelDbBloom ? OpenLevelDbFilter(f.filter)
                                                   : OpenRocksDbFilter(f.filter);
  // Half present (every other probe is a key of the filter, chosen across the whole set), half
  // absent, so early-exit and full-length probes both count.
  const std::vector<uint8_t> absent = MakeKeys(kProbes, 2);
  f.probe_data.resize(16 * kProbes);
  for (size_t i = 0; i < kProbes; ++i) {
    const uint8_t* src =
        i % 2 == 0 ? &f.key_data[16 * ((i * 2654435761u) % num_keys)] : &absent[16 * i];
    std::memcpy(&f.probe_data[16 * i], src, 16);
  }
  f.probe_offsets = Offsets(kProbes);
  for (size_t i = 0; i < kProbes; ++i) {
    f.probe_hashes.push_back(Xxph3Hash64(ByteView(&f.probe_data[16 * i], 16), 0));
  }
  return f;
}

// Reported as ns_per_probe (a rate of probes per nanosecond, inverted).
void CountProbes(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kProbes));
  state.counters["ns_per_probe"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kProbes * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The FastLocalBloom kernel alone, hashes precomputed.
void KernelProbe(benchmark::State& state, const simd::FastLocalBloomKernel* kernel, size_t num_keys,
                 bool batched) {
  const Fixture& f = GetFixture(FilterFormat::kRocksDbFastLocalBloom, num_keys);
  const uint32_t len = static_cast<uint32_t>(f.filter.size() - 5);
  const int k = f.filter[len + 2] & 31;
  std::vector<uint8_t> out(kProbes);
  for (auto _ : state) {
    if (batched) {
      kernel->may_match_batch(f.probe_hashes.data(), kProbes, k, f.filter.data(), len, out.data());
    } else {
      for (size_t i = 0; i < kProbes; ++i) {
        out[i] = kernel->may_match(f.probe_hashes[i], k, f.filter.data(), len) ? 1 : 0;
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
  CountProbes(state);
}

// A whole reader: 16-byte keys hashed and probed with the given kernel active.
void ReaderProbe(benchmark::State& state, FilterFormat format, const char* kernel, size_t num_keys,
                 bool batched) {
  const Fixture& f = GetFixture(format, num_keys);
  if (kernel != nullptr) simd::SelectFastLocalBloomKernel(kernel);
  const KeyBatchView probes(f.probe_data.data(), f.probe_data.size(), f.probe_offsets.data(),
                            kProbes);
  std::vector<uint8_t> out(kProbes);
  for (auto _ : state) {
    if (batched) {
      f.reader->MayMatchBatch(probes, out.data());
    } else {
      for (size_t i = 0; i < kProbes; ++i) out[i] = f.reader->MayMatch(probes[i]) ? 1 : 0;
    }
    benchmark::DoNotOptimize(out.data());
  }
  CountProbes(state);
  simd::SelectFastLocalBloomKernel(simd::AvailableFastLocalBloomKernels().back()->name);
}

const char* FormatName(FilterFormat format) {
  switch (format) {
    case FilterFormat::kLevelDbBloom:
      return "leveldb";
    case FilterFormat::kRocksDbLegacyBloom:
      return "rocksdb-legacy-bloom";
    case FilterFormat::kRocksDbFastLocalBloom:
      return "rocksdb-bloom";
    case FilterFormat::kRocksDbRibbon:
      return "rocksdb-ribbon";
  }
  return "?";
}

void RegisterAll() {
  for (size_t num_keys : {size_t{10'000}, large_keys}) {
    for (const simd::FastLocalBloomKernel* kernel : simd::AvailableFastLocalBloomKernels()) {
      for (bool batched : {false, true}) {
        const std::string mode = batched ? "batch" : "single";
        benchmark::RegisterBenchmark(("probe/rocksdb-bloom/" + std::string(kernel->name) +
                                      "/hashes/" + mode + "/" + std::to_string(num_keys))
                                         .c_str(),
                                     KernelProbe, kernel, num_keys, batched);
        benchmark::RegisterBenchmark(("probe/rocksdb-bloom/" + std::string(kernel->name) +
                                      "/keys/" + mode + "/" + std::to_string(num_keys))
                                         .c_str(),
                                     ReaderProbe, FilterFormat::kRocksDbFastLocalBloom,
                                     kernel->name, num_keys, batched);
      }
    }
    for (FilterFormat format : {FilterFormat::kLevelDbBloom, FilterFormat::kRocksDbLegacyBloom,
                                FilterFormat::kRocksDbRibbon}) {
      benchmark::RegisterBenchmark((std::string("probe/") + FormatName(format) +
                                    "/scalar/keys/batch/" + std::to_string(num_keys))
                                       .c_str(),
                                   ReaderProbe, format, nullptr, num_keys, true);
    }
  }
}

}  // namespace
}  // namespace sstfilter

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--keys_large=", 13) == 0)
      sstfilter::large_keys = std::stoul(argv[i] + 13);
  }
  benchmark::Initialize(&argc, argv);
  sstfilter::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
