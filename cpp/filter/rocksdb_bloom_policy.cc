// How RocksDB turns a policy's bits_per_key into Bloom parameters (docs/FORMATS.md 2.5, 2.6, 2.7;
// RocksDB table/block_based/filter_policy.cc, BloomLikeFilterPolicy constructor, and
// util/bloom_impl.h, the ChooseNumProbes functions).
#include <string>

#include "filter/rocksdb_bloom_internal.h"
#include "sstfilter/leveldb_bloom.h"
#include "sstfilter/rocksdb_bloom.h"

namespace sstfilter {

RocksDbBloomParams SanitizeRocksDbBitsPerKey(double bits_per_key) {
  if (bits_per_key < 0.5) {
    return {};  // "no filter": RocksDB's builder is null
  }
  if (bits_per_key < 1.0) {
    bits_per_key = 1.0;
  } else if (!(bits_per_key < 100.0)) {  // also +inf and NaN
    bits_per_key = 100.0;
  }
  RocksDbBloomParams params;
  // The 0.500001 nudges values written with three decimals (e.g. 10.499) to the intended integer.
  params.millibits_per_key = static_cast<int>(bits_per_key * 1000.0 + 0.500001);
  params.whole_bits_per_key = (params.millibits_per_key + 500) / 1000;
  return params;
}

namespace rocksdb_bloom {

Status SanitizeBuilderBitsPerKey(double bits_per_key, RocksDbBloomParams* params) {
  *params = SanitizeRocksDbBitsPerKey(bits_per_key);
  if (params->millibits_per_key == 0) {
    return Status::Error(
        ErrorCode::kBadOptions,
        "RocksDB writes no filter below 0.5 bits per key, got " + std::to_string(bits_per_key));
  }
  return Status::Ok();
}

int FastLocalBloomNumProbes(int millibits_per_key) {
  // Measured optimum for a 512-bit block; note the step back to 11 at 25502.
  struct Step {
    int max_millibits;
    int num_probes;
  };
  static constexpr Step kSteps[] = {{2080, 1},  {3580, 2},   {5100, 3},   {6640, 4},
                                    {8300, 5},  {10070, 6},  {11720, 7},  {14001, 8},
                                    {16050, 9}, {18300, 10}, {22001, 11}, {25501, 12}};
  for (const Step& step : kSteps) {
    if (millibits_per_key <= step.max_millibits) return step.num_probes;
  }
  if (millibits_per_key > 50000) return 24;
  return (millibits_per_key - 1) / 2000 - 1;
}

int LegacyBloomNumProbes(int whole_bits_per_key) {
  // RocksDB kept LevelDB's choice, trunc(bits * 0.69) clamped to 1..30.
  return LevelDbBloomNumProbes(whole_bits_per_key);
}

}  // namespace rocksdb_bloom
}  // namespace sstfilter
