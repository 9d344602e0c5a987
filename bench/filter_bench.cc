// Native benchmarks of sstfilter (Google Benchmark), merged into bench/results.json by
// scripts/bench.sh. Every format at every size given by --sizes (default 10^4 and 10^7 keys of 16
// bytes, 10 bits per key):
//   build/<format>/<keys>                              ns_per_key, peak_bytes_per_key
//   probe/<format>/<kernel>/<input>/<mode>/<keys>       ns_per_key
// with input "hashes" (64-bit hashes precomputed, FastLocalBloom and Ribbon only) or "keys" (the
// reader hashes each 16-byte key), mode "single" (one call per key) or "batch" (one call for all
// probes), and kernel each kernel the CPU can run ("portable" for formats without kernels); and
//   floor/random-read-64B/1GiB/<shape>                  ns_per_read
// the cost of independent random 64-byte reads over 1 GiB, which bounds a memory-resident probe.
// --export_dir=DIR writes each size's probe keys (probes-<keys>.bin, 16 bytes each) and built
// filters (<format>-<keys>.bin) there, so that the wasm benchmark probes the same filters with the
// same keys.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "alloc_tracking.h"
#include "bench_support.h"
#include "filter/kernels/bloom_kernels.h"
#include "filter/kernels/fast_local_bloom_avx2.h"
#include "filter/kernels/ribbon_kernels.h"
#include "sstfilter/filter.h"

namespace sstfilter::bench {
namespace {

constexpr double kBitsPerKey = 10.0;
std::string export_dir;

void Export(const std::string& name, const uint8_t* data, size_t size) {
  if (export_dir.empty()) return;
  std::ofstream file(export_dir + "/" + name, std::ios::binary);
  file.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!file) {
    std::fprintf(stderr, "filter_bench: cannot write %s/%s\n", export_dir.c_str(), name.c_str());
    std::exit(1);
  }
}

constexpr FilterFormat kFormats[] = {FilterFormat::kLevelDbBloom, FilterFormat::kRocksDbLegacyBloom,
                                     FilterFormat::kRocksDbFastLocalBloom,
                                     FilterFormat::kRocksDbRibbon};

// The keys, probes and built filters of one size. Benchmarks run size by size (RegisterAll), so
// only the current size is kept: 10^8 keys take 2 GB before any filter is built.
struct SizeFixture {
  size_t num_keys = 0;
  std::unique_ptr<KeySet> keys;
  std::unique_ptr<KeySet> probes;
  std::vector<uint64_t> probe_hashes;
  // Per format (indexed by FilterFormat): the built bytes and a reader of them.
  Bytes filters[std::size(kFormats)];
  std::unique_ptr<FilterReader> readers[std::size(kFormats)];
};

SizeFixture& Fixture(size_t num_keys) {
  static SizeFixture fixture;
  if (fixture.num_keys != num_keys) {
    fixture = SizeFixture();
    fixture.num_keys = num_keys;
    fixture.keys = std::make_unique<KeySet>(num_keys, 0);
    fixture.probes = std::make_unique<KeySet>(MakeProbes(*fixture.keys));
    Export("probes-" + std::to_string(num_keys) + ".bin", fixture.probes->data.data(),
           fixture.probes->data.size());
    fixture.probe_hashes = KeyHashes(*fixture.probes);
  }
  return fixture;
}

KeyBatchView View(const KeySet& keys) {
  return KeyBatchView(keys.data.data(), keys.data.size(), keys.offsets.data(), keys.size());
}

const FilterReader& Reader(SizeFixture& f, FilterFormat format) {
  const size_t i = static_cast<size_t>(format);
  if (!f.readers[i]) {
    if (!BuildFilter(View(*f.keys), {format, kBitsPerKey}, &f.filters[i]).ok()) std::abort();
    Export(std::string(FilterFormatName(format)) + "-" + std::to_string(f.num_keys) + ".bin",
           f.filters[i].data(), f.filters[i].size());
    f.readers[i] = format == FilterFormat::kLevelDbBloom ? OpenLevelDbFilter(f.filters[i])
                                                         : OpenRocksDbFilter(f.filters[i]);
  }
  return *f.readers[i];
}

void Build(benchmark::State& state, FilterFormat format, size_t num_keys) {
  SizeFixture& f = Fixture(num_keys);
  size_t peak_bytes = 0;
  for (auto _ : state) {
    Bytes filter;
    ResetPeakAllocatedBytes();
    const size_t before = AllocatedBytes();
    if (!BuildFilter(View(*f.keys), {format, kBitsPerKey}, &filter).ok()) std::abort();
    peak_bytes = PeakAllocatedBytes() - before;
    benchmark::DoNotOptimize(filter.data());
  }
  ReportNsPer(state, "ns_per_key", num_keys);
  state.counters["peak_bytes_per_key"] =
      static_cast<double>(peak_bytes) / static_cast<double>(num_keys);
}

// Selects the kernel of the format's family for the duration of one benchmark.
class KernelChoice {
 public:
  KernelChoice(FilterFormat format, const char* kernel) : format_(format) {
    if (format_ == FilterFormat::kRocksDbFastLocalBloom)
      simd::SelectKernel<simd::FastLocalBloomKernel>(kernel);
    if (format_ == FilterFormat::kRocksDbRibbon) simd::SelectKernel<simd::RibbonKernel>(kernel);
  }
  ~KernelChoice() {
    if (format_ == FilterFormat::kRocksDbFastLocalBloom) {
      simd::SelectKernel<simd::FastLocalBloomKernel>(
          simd::AvailableKernels<simd::FastLocalBloomKernel>().back()->name);
    }
    if (format_ == FilterFormat::kRocksDbRibbon) {
      simd::SelectKernel<simd::RibbonKernel>(
          simd::AvailableKernels<simd::RibbonKernel>().back()->name);
    }
  }
  KernelChoice(const KernelChoice&) = delete;
  KernelChoice& operator=(const KernelChoice&) = delete;

 private:
  FilterFormat format_;
};

enum class Input { kHashes, kKeys };

#if defined(SSTFILTER_HAVE_AVX2)
// RocksDB's HashMayMatch inlined into the caller's loop, as in RocksDB's own AVX2 build.
[[gnu::target("avx2")]] void ProbeFastLocalBloomHashesAvx2(int num_probes, const uint8_t* data,
                                                           uint32_t len_bytes,
                                                           const uint64_t* hashes, size_t n,
                                                           uint8_t* out) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = simd::FastLocalBloomAvx2MayMatch(hashes[i], num_probes, data, len_bytes) ? 1 : 0;
  }
}
#endif

// One call per precomputed hash: the AVX2 probe inline, other kernels through their single-key
// entry. `data` is the filter's bytes (its last 5 bytes are the metadata).
void ProbeFastLocalBloomHashes(const FilterReader& reader, const uint8_t* data,
                               const uint64_t* hashes, size_t n, uint8_t* out) {
  const simd::FastLocalBloomKernel& k = simd::ActiveKernel<simd::FastLocalBloomKernel>();
  const FilterInfo info = reader.info();
  const int num_probes = static_cast<int>(info.num_probes);
#if defined(SSTFILTER_HAVE_AVX2)
  if (&k == &simd::kFastLocalBloomAvx2) {
    ProbeFastLocalBloomHashesAvx2(num_probes, data, info.data_bytes, hashes, n, out);
    return;
  }
#endif
  for (size_t i = 0; i < n; ++i)
    out[i] = k.may_match(hashes[i], num_probes, data, info.data_bytes) ? 1 : 0;
}

void Probe(benchmark::State& state, FilterFormat format, const char* kernel, Input input,
           bool batched, size_t num_keys) {
  SizeFixture& f = Fixture(num_keys);
  const FilterReader& reader = Reader(f, format);
  const KernelChoice choice(format, kernel);
  const KeyBatchView probes = View(*f.probes);
  const size_t n = probes.size();
  const uint64_t* hashes = f.probe_hashes.data();
  std::vector<uint8_t> out(n);
  for (auto _ : state) {
    if (input == Input::kKeys && batched) {
      reader.MayMatchBatch(probes, out.data());
    } else if (input == Input::kKeys) {
      for (size_t i = 0; i < n; ++i) out[i] = reader.MayMatch(probes[i]) ? 1 : 0;
    } else if (batched) {
      reader.MayMatchHashes(hashes, n, out.data());
    } else if (format == FilterFormat::kRocksDbFastLocalBloom) {
      ProbeFastLocalBloomHashes(reader, f.filters[static_cast<size_t>(format)].data(), hashes, n,
                                out.data());
    } else {
      // Ribbon has no single-key kernel entry: one reader call per hash, as RocksDB's
      // HashMayMatch.
      for (size_t i = 0; i < n; ++i) reader.MayMatchHashes(&hashes[i], 1, &out[i]);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  ReportNsPer(state, "ns_per_key", n);
}

// Independent random 64-byte reads over 1 GiB: every read's address is known before the read, as
// a batch of probes' blocks are, so the CPU overlaps as many misses as it can track. How many
// loads a read takes matters (each waits in the load queue until its line arrives), so each
// shape is measured and the floor is the fastest.
enum class ReadShape { kOneWord, kEightWords, kFourSse, kTwoAvx2 };

[[gnu::target("avx2")]] uint64_t ReadLinesAvx2(const uint64_t* memory,
                                               const std::vector<uint32_t>& lines) {
  __m256i acc = _mm256_setzero_si256();
  for (uint32_t line : lines) {
    const __m256i* p = reinterpret_cast<const __m256i*>(memory + size_t{line} * 8);
    acc = _mm256_xor_si256(acc, _mm256_and_si256(_mm256_load_si256(p), _mm256_load_si256(p + 1)));
  }
  return static_cast<uint64_t>(_mm256_extract_epi64(acc, 0));
}

uint64_t ReadLines(const uint64_t* memory, const std::vector<uint32_t>& lines, ReadShape shape) {
  uint64_t acc = 0;
  switch (shape) {
    case ReadShape::kOneWord:
      for (uint32_t line : lines) acc ^= memory[size_t{line} * 8];
      break;
    case ReadShape::kEightWords:
      for (uint32_t line : lines) {
        const uint64_t* w = memory + size_t{line} * 8;
        acc ^= w[0] ^ w[1] ^ w[2] ^ w[3] ^ w[4] ^ w[5] ^ w[6] ^ w[7];
      }
      break;
    case ReadShape::kFourSse: {
      __m128i v = _mm_setzero_si128();
      for (uint32_t line : lines) {
        const __m128i* p = reinterpret_cast<const __m128i*>(memory + size_t{line} * 8);
        v = _mm_xor_si128(
            v, _mm_and_si128(_mm_and_si128(_mm_load_si128(p), _mm_load_si128(p + 1)),
                             _mm_and_si128(_mm_load_si128(p + 2), _mm_load_si128(p + 3))));
      }
      acc = static_cast<uint64_t>(_mm_cvtsi128_si64(v));
      break;
    }
    case ReadShape::kTwoAvx2:
      acc = ReadLinesAvx2(memory, lines);
      break;
  }
  return acc;
}

void RandomReadFloor(benchmark::State& state, ReadShape shape) {
  constexpr size_t kBytes = size_t{1} << 30;
  constexpr size_t kLines = kBytes / 64;
  constexpr size_t kReads = size_t{1} << 22;
  // Shared by the shapes; 64-byte aligned, so that a read is one cache line. Written, not just
  // allocated: untouched pages would all read the one shared zero page.
  static const std::unique_ptr<uint64_t[]> memory = [] {
    std::unique_ptr<uint64_t[]> m(new (std::align_val_t{64}) uint64_t[kBytes / 8]);
    for (size_t i = 0; i < kBytes / 8; ++i) m[i] = i;
    return m;
  }();
  std::vector<uint32_t> lines(kReads);
  for (size_t i = 0; i < kReads; ++i) lines[i] = static_cast<uint32_t>(Mix64(i) % kLines);
  for (auto _ : state) benchmark::DoNotOptimize(ReadLines(memory.get(), lines, shape));
  ReportNsPer(state, "ns_per_read", kReads);
}

// Kernel names are static strings, so benchmarks can keep them.
template <typename Kernel>
std::vector<const char*> KernelNames(std::span<const Kernel* const> kernels) {
  std::vector<const char*> names;
  for (const Kernel* kernel : kernels) names.push_back(kernel->name);
  return names;
}

std::vector<const char*> KernelsOf(FilterFormat format) {
  if (format == FilterFormat::kRocksDbFastLocalBloom) {
    return KernelNames(simd::AvailableKernels<simd::FastLocalBloomKernel>());
  }
  if (format == FilterFormat::kRocksDbRibbon)
    return KernelNames(simd::AvailableKernels<simd::RibbonKernel>());
  return {"portable"};
}

void RegisterAll(const std::vector<size_t>& sizes) {
  benchmark::RegisterBenchmark("floor/random-read-64B/1GiB/load8", RandomReadFloor,
                               ReadShape::kOneWord);
  benchmark::RegisterBenchmark("floor/random-read-64B/1GiB/8x8B", RandomReadFloor,
                               ReadShape::kEightWords);
  benchmark::RegisterBenchmark("floor/random-read-64B/1GiB/4x16B", RandomReadFloor,
                               ReadShape::kFourSse);
  if (__builtin_cpu_supports("avx2")) {
    benchmark::RegisterBenchmark("floor/random-read-64B/1GiB/2x32B", RandomReadFloor,
                                 ReadShape::kTwoAvx2);
  }
  for (size_t num_keys : sizes) {
    const std::string keys = std::to_string(num_keys);
    for (FilterFormat format : kFormats) {
      const std::string name = FilterFormatName(format);
      SetBuildIterations(benchmark::RegisterBenchmark(("build/" + name + "/" + keys).c_str(), Build,
                                                      format, num_keys),
                         num_keys);
      const bool hashed =
          format == FilterFormat::kRocksDbFastLocalBloom || format == FilterFormat::kRocksDbRibbon;
      for (const char* kernel : KernelsOf(format)) {
        for (Input input : {Input::kHashes, Input::kKeys}) {
          if (input == Input::kHashes && !hashed) continue;
          for (bool batched : {false, true}) {
            const std::string full = "probe/" + name + "/" + kernel + "/" +
                                     (input == Input::kHashes ? "hashes" : "keys") + "/" +
                                     (batched ? "batch" : "single") + "/" + keys;
            benchmark::RegisterBenchmark(full.c_str(), Probe, format, kernel, input, batched,
                                         num_keys);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace sstfilter::bench

int main(int argc, char** argv) {
  const std::vector<size_t> sizes = sstfilter::bench::TakeSizes(&argc, argv);
  sstfilter::bench::export_dir = sstfilter::bench::TakeFlag(&argc, argv, "export_dir");
  const std::string walk_tables = sstfilter::bench::TakeFlag(&argc, argv, "walk_tables");
  benchmark::Initialize(&argc, argv);
  if (walk_tables.empty()) {
    sstfilter::bench::RegisterAll(sizes);
  } else {
    sstfilter::bench::RegisterTableWalks(walk_tables);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
