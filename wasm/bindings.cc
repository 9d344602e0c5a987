// Embind surface for building and opening filters and LevelDB filter blocks (the per-key probe and
// hash calls bypass Embind: fast_paths.cc). The TypeScript layer (ts/) is the
// only caller: it copies keys and filter bytes into linear memory and passes addresses, so one
// batch is one call. Conventions in binding_support.h.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binding_support.h"
#include "sstfilter/filter.h"
#include "sstfilter/leveldb_filter_block.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

// ---- filters ----
// The FilterFormat of a ModuleConstants.filterFormats code, or nullopt (the last error set).
std::optional<FilterFormat> FormatOf(int format) {
  if (format < 0 || format > static_cast<int>(FilterFormat::kRocksDbRibbon)) {
    Fail(Status::Error(ErrorCode::kBadOptions, "unknown filter format"));
    return std::nullopt;
  }
  return static_cast<FilterFormat>(format);
}

val BuildFilterBytes(int format, double bits_per_key, uintptr_t data, size_t data_size,
                     uintptr_t offsets, size_t count) {
  const std::optional<FilterFormat> filter_format = FormatOf(format);
  if (!filter_format) return val::null();
  BuildOptions options;
  options.format = *filter_format;
  options.bits_per_key = bits_per_key;
  Bytes out;
  if (Status s = BuildFilter(Batch(data, data_size, offsets, count), options, &out); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  return ToUint8Array(out);
}

// BuildFilters: an array of one Uint8Array per element of `bits_per_key` (an array of numbers).
val BuildFiltersBytes(int format, val bits_per_key, bool ribbon_bloom_fallback, uintptr_t data,
                      size_t data_size, uintptr_t offsets, size_t count) {
  const std::optional<FilterFormat> filter_format = FormatOf(format);
  if (!filter_format) return val::null();
  const std::vector<double> bits = emscripten::vecFromJSArray<double>(bits_per_key);
  std::vector<Bytes> filters;
  if (Status s = BuildFilters(Batch(data, data_size, offsets, count), *filter_format, bits,
                              &filters, ribbon_bloom_fallback);
      !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  val out = val::array();
  for (const Bytes& filter : filters) out.call<void>("push", ToUint8Array(filter));
  return out;
}

class FilterHandle {
 public:
  explicit FilterHandle(std::unique_ptr<FilterReader> reader) : reader_(std::move(reader)) {}

  std::string Kind() const { return FilterKindName(reader_->kind()); }

  val Info() const {
    const FilterInfo info = reader_->info();
    val out = val::object();
    out.set("kind", std::string(FilterKindName(info.kind)));
    out.set("numProbes", info.num_probes);
    out.set("dataBytes", info.data_bytes);
    out.set("blockBytes", info.block_bytes);
    out.set("ribbonSeed", info.ribbon_seed);
    out.set("ribbonBlocks", info.ribbon_blocks);
    return out;
  }

  // Ok, or why this build cannot probe the filter (the caller throws it).
  bool CheckProbeSupport() const {
    Status s = reader_->ProbeSupport();
    return s.ok() || Fail(std::move(s));
  }

  // The reader's address, for the direct probe exports in fast_paths.cc. Valid while the handle
  // lives; the TypeScript Filter never uses it after dispose().
  uintptr_t ReaderAddress() const { return reinterpret_cast<uintptr_t>(reader_.get()); }

 private:
  std::unique_ptr<FilterReader> reader_;
  LiveHandleCount live_;
};

// family 0 = LevelDB, 1 = RocksDB (ts/api/filters.ts keeps the same numbering).
template <std::unique_ptr<FilterReader> (*kOpen)(Bytes)>
FilterHandle* OpenFilterWith(uintptr_t data, size_t size) {
  return new FilterHandle(kOpen(Copy(data, size)));
}

// ---- LevelDB filter blocks ----
// block_offsets: Float64Array of data-block offsets (whole numbers below 2^53); block_sizes:
// Float64Array of their sizes without the trailer, or -1 where unknown; key_counts: Uint32Array,
// how many consecutive keys of the batch belong to each block.
val BuildLevelDbFilterBlock(double bits_per_key, uintptr_t data, size_t data_size,
                            uintptr_t offsets, size_t count, uintptr_t block_offsets,
                            uintptr_t block_sizes, uintptr_t key_counts, size_t num_blocks) {
  BuildOptions options;
  options.format = FilterFormat::kLevelDbBloom;
  options.bits_per_key = bits_per_key;
  const KeyBatchView keys = Batch(data, data_size, offsets, count);
  Status s = ValidateBuildOptions(options);
  if (s.ok()) s = keys.Validate();
  if (!s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  const double* block_offset = reinterpret_cast<const double*>(block_offsets);
  const double* block_size = reinterpret_cast<const double*>(block_sizes);
  const uint32_t* key_count = reinterpret_cast<const uint32_t*>(key_counts);
  uint64_t total_keys = 0;
  for (size_t b = 0; b < num_blocks; ++b) total_keys += key_count[b];
  if (total_keys != count) {
    Fail(Status::Error(ErrorCode::kBadKey, "block key counts do not add up to the batch size"));
    return val::null();
  }
  LevelDbFilterBlockBuilder builder(static_cast<int>(bits_per_key));
  size_t next_key = 0;
  for (size_t b = 0; b < num_blocks; ++b) {
    const double offset = block_offset[b];
    if (!(offset >= 0 && offset <= 9007199254740991.0) || offset != std::floor(offset)) {
      Fail(Status::Error(ErrorCode::kBadOptions,
                         "block " + std::to_string(b) + ": offset must be a whole number >= 0"));
      return val::null();
    }
    if (Status st = builder.StartBlock(static_cast<uint64_t>(offset)); !st.ok()) {
      Fail(std::move(st));
      return val::null();
    }
    for (uint32_t i = 0; i < key_count[b]; ++i) builder.AddKey(keys[next_key++]);
    // LevelDB's TableBuilder ends every block (EndBlock); of a block whose size is unknown (-1)
    // only the start is known, and a filter block whose last block is such ends with that start's
    // range (docs/FORMATS.md 3.9).
    const double size = block_size[b];
    if (size == -1) continue;
    if (!(size >= 0 && size <= 9007199254740991.0) || size != std::floor(size)) {
      Fail(Status::Error(ErrorCode::kBadOptions,
                         "block " + std::to_string(b) + ": size must be a whole number >= 0"));
      return val::null();
    }
    if (Status st = builder.EndBlock(static_cast<uint64_t>(offset), static_cast<uint64_t>(size));
        !st.ok()) {
      Fail(std::move(st));
      return val::null();
    }
  }
  Bytes out;
  if (Status st = builder.Finish(&out); !st.ok()) {
    Fail(std::move(st));
    return val::null();
  }
  return ToUint8Array(out);
}

class FilterBlockHandle {
 public:
  explicit FilterBlockHandle(Bytes contents) : reader_(std::move(contents)) {}
  // The reader's address, for the direct probe export in fast_paths.cc (see FilterHandle).
  uintptr_t ReaderAddress() const { return reinterpret_cast<uintptr_t>(&reader_); }
  size_t NumFilters() const { return reader_.num_filters(); }
  int BaseLg() const { return reader_.base_lg(); }
  // Each filter's bytes, or null where its offsets are malformed.
  val Filters() const {
    val out = val::array();
    for (size_t i = 0; i < reader_.num_filters(); ++i) {
      const std::optional<ByteView> filter = reader_.FilterAt(i);
      out.call<void>("push", filter ? ToUint8Array(*filter) : val::null());
    }
    return out;
  }

 private:
  LevelDbFilterBlockReader reader_;
  LiveHandleCount live_;
};

FilterBlockHandle* OpenLevelDbFilterBlock(uintptr_t data, size_t size) {
  return new FilterBlockHandle(Copy(data, size));
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter) {
  using namespace emscripten;
  using namespace sstfilter::wasm;

  function("buildFilter", &BuildFilterBytes);
  function("buildFilters", &BuildFiltersBytes);
  class_<FilterHandle>("FilterHandle")
      .function("kind", &FilterHandle::Kind)
      .function("info", &FilterHandle::Info)
      .function("checkProbeSupport", &FilterHandle::CheckProbeSupport)
      .function("readerAddress", &FilterHandle::ReaderAddress);
  function("openLevelDbFilter", &OpenFilterWith<sstfilter::OpenLevelDbFilter>,
           allow_raw_pointers());
  function("openRocksDbFilter", &OpenFilterWith<sstfilter::OpenRocksDbFilter>,
           allow_raw_pointers());

  function("buildLevelDbFilterBlock", &BuildLevelDbFilterBlock);
  class_<FilterBlockHandle>("FilterBlockHandle")
      .function("readerAddress", &FilterBlockHandle::ReaderAddress)
      .function("numFilters", &FilterBlockHandle::NumFilters)
      .function("baseLg", &FilterBlockHandle::BaseLg)
      .function("filters", &FilterBlockHandle::Filters);
  function("openLevelDbFilterBlock", &OpenLevelDbFilterBlock, allow_raw_pointers());
}
