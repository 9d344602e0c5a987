// What the harnesses of the libFuzzer targets share. Each target has its harness in
// <target>_harness.h, and its entry point <target>_fuzz.cc calls it; the harnesses are header-only
// so that the GoogleTest suite (tests/cpp/fuzz_regression_test.cc) replays committed crash inputs
// through exactly the same code. Each harness reads its input in a fixed layout (documented per
// harness; the seed generator scripts/fuzz-seeds.mjs writes golden files in it), drives the public
// core API, and aborts through FUZZ_CHECK when an answer breaks an invariant that holds for every
// input: kernels and batch paths agree with the single-key path, a filter built from keys matches
// every one of them, errors reading a table say where, and readers answer "may match" where they
// cannot tell.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "filter/kernels/bloom_kernels.h"
#include "filter/kernels/ribbon_kernels.h"
#include "sstfilter/bytes.h"
#include "sstfilter/comparator.h"
#include "sstfilter/filter.h"
#include "sstfilter/hash.h"
#include "sstfilter/status.h"
#include "sstfilter/table_io.h"
#include "sstfilter/table_reader.h"

namespace sstfilter::fuzz {

[[noreturn]] inline void InvariantBroken(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: fuzz invariant broken: %s\n", file, line, what);
  std::abort();
}

#define FUZZ_CHECK(condition) \
  ((condition) ? (void)0 : ::sstfilter::fuzz::InvariantBroken(#condition, __FILE__, __LINE__))

// A cursor over the fuzz input; reads past the end give zeros and empty views, so every input is
// valid for every layout.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : rest_(data, size) {}

  uint8_t Byte() {
    if (rest_.empty()) return 0;
    const uint8_t b = rest_[0];
    rest_ = rest_.subspan(1);
    return b;
  }
  uint16_t U16() {
    const uint16_t lo = Byte();
    return static_cast<uint16_t>(lo | (Byte() << 8));
  }
  ByteView Take(size_t n) {
    const ByteView out = rest_.first(std::min(n, rest_.size()));
    rest_ = rest_.subspan(out.size());
    return out;
  }
  ByteView Rest() { return Take(rest_.size()); }
  size_t remaining() const { return rest_.size(); }

 private:
  ByteView rest_;
};

// Probe keys: a length byte, then that many bytes, repeated (the last key may be cut short). The
// empty key always comes first; at most `max_keys` in all (the rest of `region` is ignored).
inline std::vector<ByteView> SplitKeys(ByteView region, size_t max_keys = SIZE_MAX) {
  std::vector<ByteView> keys{ByteView()};
  keys.reserve(std::min(region.size() + 1, max_keys));
  Input in(region.data(), region.size());
  while (in.remaining() > 0 && keys.size() < max_keys) {
    const uint8_t n = in.Byte();
    keys.push_back(in.Take(n));
  }
  return keys;
}

// Keys probed through every path and kernel per input. Probing costs keys x kernels x paths, so
// Keys as one packed KeyBatch (data + n + 1 offsets).
struct PackedKeys {
  Bytes data;
  std::vector<uint32_t> offsets;

  explicit PackedKeys(const std::vector<ByteView>& keys) : offsets(keys.size() + 1, 0) {
    for (size_t i = 0; i < keys.size(); ++i) {
      offsets[i + 1] = offsets[i] + static_cast<uint32_t>(keys[i].size());
    }
    data.resize(offsets.back());
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!keys[i].empty()) std::memcpy(data.data() + offsets[i], keys[i].data(), keys[i].size());
    }
  }
  KeyBatchView view() const {
    return KeyBatchView(data.data(), data.size(), offsets.data(), offsets.size() - 1);
  }
};

// Answers of `reader` for `keys` through every path and every kernel this build has; all must
// agree. Returns the single-key answers (1 or 0) of the scalar reference kernels.
inline std::vector<uint8_t> ProbeEveryWay(const FilterReader& reader,
                                          const std::vector<ByteView>& keys) {
  const PackedKeys packed(keys);
  std::vector<uint64_t> hashes(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) hashes[i] = Xxph3Hash64(keys[i], 0);
  const char* default_bloom = simd::ActiveKernel<simd::FastLocalBloomKernel>().name;
  const char* default_ribbon = simd::ActiveKernel<simd::RibbonKernel>().name;

  // A filter uses kernels of one family only: the i-th kernel of each family run together covers
  // every kernel against the scalar reference (the first). Filters of other kinds (LevelDB,
  // legacy Bloom, constant) use none, and are probed once.
  const auto blooms = simd::AvailableKernels<simd::FastLocalBloomKernel>();
  const auto ribbons = simd::AvailableKernels<simd::RibbonKernel>();
  const FilterKind kind = reader.kind();
  const size_t kernels = kind == FilterKind::kRocksDbFastLocalBloom ? blooms.size()
                         : kind == FilterKind::kRocksDbRibbon       ? ribbons.size()
                                                                    : 1;
  // Byte vectors, not vector<bool>: under the fuzzer's instrumentation bit iterators cost more
  // than the probes.
  std::vector<uint8_t> reference;
  std::vector<uint8_t> single(keys.size());
  std::vector<uint8_t> batch(keys.size());
  std::vector<uint8_t> by_hash(keys.size());
  for (size_t kernel = 0; kernel < kernels; ++kernel) {
    simd::SelectKernel<simd::FastLocalBloomKernel>(
        blooms[std::min(kernel, blooms.size() - 1)]->name);
    simd::SelectKernel<simd::RibbonKernel>(ribbons[std::min(kernel, ribbons.size() - 1)]->name);
    for (size_t i = 0; i < keys.size(); ++i) single[i] = reader.MayMatch(keys[i]) ? 1 : 0;
    std::fill(batch.begin(), batch.end(), 2);
    reader.MayMatchBatch(packed.view(), batch.data());
    std::fill(by_hash.begin(), by_hash.end(), 2);
    const bool hashed = reader.MayMatchHashes(hashes.data(), hashes.size(), by_hash.data());
    for (size_t i = 0; i < keys.size(); ++i) {
      FUZZ_CHECK(batch[i] == single[i]);
      if (hashed) FUZZ_CHECK(by_hash[i] == single[i]);
    }
    if (kernel == 0) {
      reference = single;
    } else {
      FUZZ_CHECK(reference == single);
    }
  }
  simd::SelectKernel<simd::FastLocalBloomKernel>(default_bloom);
  simd::SelectKernel<simd::RibbonKernel>(default_ribbon);
  return reference;
}

// A ResumableRead that passes `op` through, checking each read it is about to make of `file`
// before DriveFromMemory supplies it: no read may pass the end (a reader is told the file's size,
// so it must never ask for more; DriveFromMemory would answer with a short read), and no operation
// may loop.
class CheckedFuzzRead final : public ResumableRead {
 public:
  CheckedFuzzRead(ResumableRead& op, ByteView file) : op_(op), file_(file) {}

  Status Advance() override {
    // A read never makes more than a few block requests per block it parses; far more means the
    // operation loops.
    FUZZ_CHECK(++steps_ < 1000000);
    Status s = op_.Advance();
    if (!s.ok() || op_.need() != IoNeed::kBytes) return s;
    const uint64_t offset = op_.need_offset();
    const uint64_t length = op_.need_length();
    FUZZ_CHECK(offset <= file_.size() && length <= file_.size() - offset);
    return s;
  }
  BlockFetcher& fetcher() const override { return op_.fetcher(); }

 private:
  ResumableRead& op_;
  ByteView file_;
  int steps_ = 0;
};

// Advances `op` to completion over `file` with DriveFromMemory, through CheckedFuzzRead.
inline Status DriveForFuzzing(ResumableRead& op, ByteView file) {
  CheckedFuzzRead checked(op, file);
  return DriveFromMemory(checked, file);
}

// Users are told where in the file a table is broken.
inline bool InFile(const Status& s, ByteView file) {
  return s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= file.size();
}

// An error of a decoder given `size` bytes names a byte inside them (or their end).
inline void CheckTypedError(const Status& s, size_t size) {
  FUZZ_CHECK(!s.ok());
  FUZZ_CHECK(s.code() != ErrorCode::kOk);
  FUZZ_CHECK(s.offset() >= Status::kNoOffset);
  FUZZ_CHECK(s.offset() <= static_cast<int64_t>(size));
}

// ---- table_fuzz, table_get_fuzz (and db_get_fuzz after its WAL):
// ---- [flags u8][probe-key bytes u16][probe keys][table file]
// flags bit 0: keys are bare user keys (TableOptions::internal_keys = false); bit 1: checksums are
// not verified (TableOptions::verify_checksums = false), so mutations reach the parsers and codecs
// behind them. Compressed blocks go through the real codecs either way.

// Probe keys per input (the seeds carry 16: scripts/fuzz-seeds.mjs). Each probe seeks the index
// (and its partitions) anew; more keys repeat the same parsing, so this bounds the work per
// execution.
inline constexpr size_t kMaxTableProbeKeys = 1 + 16;  // the empty key, then 16

// The table opened from the input as its flags say; nullopt when opening failed (with an error
// inside the file, checked here).
struct FuzzedTable {
  uint8_t flag_bits = 0;
  std::vector<ByteView> keys;
  ByteView file;
  std::unique_ptr<TableReader> reader;
};

inline std::optional<FuzzedTable> OpenFuzzedTable(const uint8_t* data, size_t size) {
  Input in(data, size);
  FuzzedTable out;
  out.flag_bits = in.Byte();
  TableOptions options;
  options.internal_keys = (out.flag_bits & 1) == 0;
  options.verify_checksums = (out.flag_bits & 2) == 0;
  // The order: the table's own, a MANIFEST naming one this library lacks (unknown: conservative
  // answers), or a supplied one (checked against the index).
  if (out.flag_bits & 4) options.manifest_comparator = "fuzz.Unknown";
  if (out.flag_bits & 8) options.comparator = BuiltinComparator(kReverseBytewiseComparatorName);
  out.keys = SplitKeys(in.Take(in.U16()), kMaxTableProbeKeys);
  out.file = in.Rest();
  out.reader = std::make_unique<TableReader>(out.file.size(), options);
  const Status opened = DriveForFuzzing(*out.reader, out.file);
  if (!opened.ok()) {
    FUZZ_CHECK(InFile(opened, out.file));
    return std::nullopt;
  }
  FUZZ_CHECK(out.reader->is_open());
  return out;
}

}  // namespace sstfilter::fuzz
