// The native half of issue 14's per-codec comparison (bench/content-bench.mjs has the wasm half):
// opening a table held in memory and walking every key, which reads, verifies and decompresses
// every data block. --walk_tables=LABEL=PATH[,LABEL=PATH...] registers walk/<LABEL> for each.
#include <benchmark/benchmark.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "bench_support.h"
#include "sstfilter/table.h"

namespace sstfilter::bench {
namespace {

size_t WalkKeys(const Bytes& file) {
  std::unique_ptr<TableReader> reader;
  if (!OpenTableFromMemory(file, {}, &reader).ok()) return 0;
  TableCursor cursor(*reader);
  size_t keys = 0;
  while (DriveFromMemory(cursor, file).ok() && !cursor.at_end()) {
    keys += cursor.key_offsets().size() - 1;
    cursor.ClearBatch();
  }
  return keys;
}

void Walk(benchmark::State& state, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const Bytes file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t keys = 0;
  for (auto _ : state) benchmark::DoNotOptimize(keys = WalkKeys(file));
  if (keys == 0) state.SkipWithError(("cannot walk " + path).c_str());
  ReportNsPer(state, "ns_per_key", keys);
  state.counters["keys"] = static_cast<double>(keys);
  state.counters["file_bytes"] = static_cast<double>(file.size());
}

}  // namespace

void RegisterTableWalks(const std::string& list) {
  for (size_t at = 0; at < list.size();) {
    size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    const std::string entry = list.substr(at, end - at);
    const size_t eq = entry.find('=');
    if (eq != std::string::npos) {
      benchmark::RegisterBenchmark(("walk/" + entry.substr(0, eq)).c_str(), Walk,
                                   entry.substr(eq + 1))
          ->Unit(benchmark::kMillisecond);
    }
    at = end + 1;
  }
}

}  // namespace sstfilter::bench
