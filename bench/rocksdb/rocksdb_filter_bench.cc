// RocksDB 7.8.3 itself (Debian's librocksdb), measured as bench/filter_bench.cc measures sstfilter:
// the same keys, probes, sizes, benchmark names and counters, with kernel "rocksdb". Filters are
// built and read through FilterPolicy::GetBuilderWithContext / GetFilterBitsReader
// (rocksdb_filter_abi.h), the calls RocksDB's own table builder and reader make:
//   build/<format>/<keys>                      AddKey per key, then Finish
//   probe/<format>/rocksdb/keys/single/<keys>   MayMatch(key) per key
//   probe/<format>/rocksdb/keys/batch/<keys>    MayMatch(32 keys): MultiGet's batch size
//   probe/<format>/rocksdb/hashes/single/<keys> HashMayMatch(hash) per key (no batched form)
// Before timing, each filter's bytes and answers are compared with sstfilter's; a difference
// stops the program.
#include <benchmark/benchmark.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../alloc_tracking.h"
#include "../bench_support.h"
#include "rocksdb_filter_abi.h"
#include "sstfilter/filter.h"

namespace sstfilter::bench {
namespace {

constexpr double kBitsPerKey = 10.0;
// MultiGetContext::MAX_BATCH_SIZE: MultiGet hands a filter at most this many keys at once.
constexpr size_t kMultiGetBatch = 32;

struct Format {
  const char* name;
  FilterFormat sstfilter_format;
  // Bloom filters: format_version 5 selects FastLocalBloom, below 5 the legacy Bloom filter.
  uint32_t format_version;
  bool ribbon;
};

constexpr Format kFormats[] = {
    {"rocksdb-legacy-bloom", FilterFormat::kRocksDbLegacyBloom, 4, false},
    {"rocksdb-bloom", FilterFormat::kRocksDbFastLocalBloom, 5, false},
    {"rocksdb-ribbon", FilterFormat::kRocksDbRibbon, 5, true},
};

class RocksDbFilter {
 public:
  explicit RocksDbFilter(const Format& format) {
    // bloom_before_level -1: Ribbon at every level, as sstfilter's "rocksdb-ribbon" builds.
    policy_.reset(format.ribbon ? rocksdb::NewRibbonFilterPolicy(kBitsPerKey, -1)
                                : rocksdb::NewBloomFilterPolicy(kBitsPerKey));
    table_options_.format_version = format.format_version;
    table_options_.filter_policy = policy_;
  }

  // Builds from every key of `keys`; the result stays valid until the next Build.
  rocksdb::Slice Build(const KeySet& keys) {
    const rocksdb::FilterBuildingContext context(table_options_);
    std::unique_ptr<RocksDbBitsBuilder> builder =
        AsBuilder(policy_->GetBuilderWithContext(context));
    for (size_t i = 0; i < keys.size(); ++i) {
      builder->AddKey(rocksdb::Slice(reinterpret_cast<const char*>(keys.key(i)), kKeyBytes));
    }
    return builder->Finish(&buf_);
  }

  std::unique_ptr<RocksDbBitsReader> Reader(const rocksdb::Slice& contents) const {
    return AsReader(policy_->GetFilterBitsReader(contents));
  }

 private:
  rocksdb::BlockBasedTableOptions table_options_;
  std::shared_ptr<const rocksdb::FilterPolicy> policy_;
  std::unique_ptr<const char[]> buf_;
};

struct SizeFixture {
  size_t num_keys = 0;
  std::unique_ptr<KeySet> keys;
  std::unique_ptr<KeySet> probes;
  std::vector<uint64_t> probe_hashes;
  std::vector<rocksdb::Slice> probe_slices;
  std::unique_ptr<RocksDbFilter> filters[std::size(kFormats)];
  std::unique_ptr<RocksDbBitsReader> readers[std::size(kFormats)];
};

SizeFixture& Fixture(size_t num_keys) {
  static SizeFixture fixture;
  if (fixture.num_keys != num_keys) {
    fixture = SizeFixture();
    fixture.num_keys = num_keys;
    fixture.keys = std::make_unique<KeySet>(num_keys, 0);
    fixture.probes = std::make_unique<KeySet>(MakeProbes(*fixture.keys));
    fixture.probe_hashes = KeyHashes(*fixture.probes);
    for (size_t i = 0; i < fixture.probes->size(); ++i) {
      fixture.probe_slices.emplace_back(reinterpret_cast<const char*>(fixture.probes->key(i)),
                                        kKeyBytes);
    }
  }
  return fixture;
}

[[noreturn]] void Mismatch(const char* format, size_t num_keys, const char* what) {
  std::fprintf(stderr, "rocksdb bench: %s filter of %zu keys: %s differ from sstfilter's\n", format,
               num_keys, what);
  std::exit(1);
}

// Builds RocksDB's filter once per size and checks it against sstfilter's bytes and answers.
RocksDbBitsReader& Reader(SizeFixture& f, size_t format_index) {
  const Format& format = kFormats[format_index];
  if (!f.readers[format_index]) {
    f.filters[format_index] = std::make_unique<RocksDbFilter>(format);
    const rocksdb::Slice contents = f.filters[format_index]->Build(*f.keys);
    Bytes ours;
    const KeyBatchView keys(f.keys->data.data(), f.keys->data.size(), f.keys->offsets.data(),
                            f.keys->size());
    if (!BuildFilter(keys, {format.sstfilter_format, kBitsPerKey}, &ours).ok() ||
        ours.size() != contents.size() ||
        std::memcmp(ours.data(), contents.data(), ours.size()) != 0) {
      Mismatch(format.name, f.num_keys, "bytes");
    }
    f.readers[format_index] = f.filters[format_index]->Reader(contents);
    const std::unique_ptr<FilterReader> our_reader = OpenRocksDbFilter(std::move(ours));
    for (size_t i = 0; i < f.probes->size(); ++i) {
      if (f.readers[format_index]->MayMatch(f.probe_slices[i]) !=
          our_reader->MayMatch(ByteView(f.probes->key(i), kKeyBytes))) {
        Mismatch(format.name, f.num_keys, "answers");
      }
    }
  }
  return *f.readers[format_index];
}

void Build(benchmark::State& state, size_t format_index, size_t num_keys) {
  SizeFixture& f = Fixture(num_keys);
  RocksDbFilter filter(kFormats[format_index]);
  size_t peak_bytes = 0;
  for (auto _ : state) {
    ResetPeakAllocatedBytes();
    const size_t before = AllocatedBytes();
    benchmark::DoNotOptimize(filter.Build(*f.keys).data());
    peak_bytes = PeakAllocatedBytes() - before;
  }
  ReportNsPer(state, "ns_per_key", num_keys);
  state.counters["peak_bytes_per_key"] =
      static_cast<double>(peak_bytes) / static_cast<double>(num_keys);
}

enum class Probe { kKeysSingle, kKeysBatch, kHashesSingle };

void ProbeFilter(benchmark::State& state, size_t format_index, Probe probe, size_t num_keys) {
  SizeFixture& f = Fixture(num_keys);
  RocksDbBitsReader& reader = Reader(f, format_index);
  const size_t n = f.probe_slices.size();
  // MayMatch(num_keys, ...) takes pointers to the keys and answers with bools.
  std::vector<rocksdb::Slice*> key_pointers(n);
  for (size_t i = 0; i < n; ++i) key_pointers[i] = &f.probe_slices[i];
  std::unique_ptr<bool[]> out(new bool[n]);
  for (auto _ : state) {
    switch (probe) {
      case Probe::kKeysSingle:
        for (size_t i = 0; i < n; ++i) out[i] = reader.MayMatch(f.probe_slices[i]);
        break;
      case Probe::kKeysBatch:
        for (size_t start = 0; start < n; start += kMultiGetBatch) {
          const size_t count = std::min(kMultiGetBatch, n - start);
          reader.MayMatch(static_cast<int>(count), &key_pointers[start], &out[start]);
        }
        break;
      case Probe::kHashesSingle:
        for (size_t i = 0; i < n; ++i) out[i] = reader.HashMayMatch(f.probe_hashes[i]);
        break;
    }
    benchmark::DoNotOptimize(out.get());
    benchmark::ClobberMemory();
  }
  ReportNsPer(state, "ns_per_key", n);
}

void RegisterAll(const std::vector<size_t>& sizes) {
  for (size_t num_keys : sizes) {
    const std::string keys = std::to_string(num_keys);
    for (size_t i = 0; i < std::size(kFormats); ++i) {
      const std::string name = kFormats[i].name;
      SetBuildIterations(
          benchmark::RegisterBenchmark(("build/" + name + "/" + keys).c_str(), Build, i, num_keys),
          num_keys);
      const std::string prefix = "probe/" + name + "/rocksdb/";
      benchmark::RegisterBenchmark((prefix + "keys/single/" + keys).c_str(), ProbeFilter, i,
                                   Probe::kKeysSingle, num_keys);
      benchmark::RegisterBenchmark((prefix + "keys/batch/" + keys).c_str(), ProbeFilter, i,
                                   Probe::kKeysBatch, num_keys);
      // The legacy Bloom filter is keyed by a 32-bit hash: it has no HashMayMatch.
      if (kFormats[i].sstfilter_format != FilterFormat::kRocksDbLegacyBloom) {
        benchmark::RegisterBenchmark((prefix + "hashes/single/" + keys).c_str(), ProbeFilter, i,
                                     Probe::kHashesSingle, num_keys);
      }
    }
  }
}

}  // namespace
}  // namespace sstfilter::bench

int main(int argc, char** argv) {
  const std::vector<size_t> sizes = sstfilter::bench::TakeSizes(&argc, argv);
  benchmark::Initialize(&argc, argv);
  sstfilter::bench::RegisterAll(sizes);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
