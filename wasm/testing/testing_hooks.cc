// Hooks only the test builds of the modules (sstfilter-*-testing) carry: what the leak tests count
// (live handles, heap in use), the Standard128Ribbon sizing digests that
// tests/ts/ribbon-sizing.test.ts compares with the native build's
// (tests/cpp/rocksdb_ribbon_test.cc), the MANIFEST that places one table in a RocksDB
// database (tests/ts/table-writer-readback.test.ts), and a sweep of the module's memcpy
// (wasm/memcpy.cc; tests/ts/wasm-memcpy.test.ts).
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "binding_support.h"
#include "filter/rocksdb_ribbon_internal.h"
#include "sstfilter/db.h"

namespace sstfilter::wasm {
namespace {

int LiveHandles() { return LiveHandleCount::alive(); }

// Bytes allocated and not yet freed: HEAPU8 keeps the size the heap once grew to, so free space
// there can hide a leak that this count shows.
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

// Digests as 16 lowercase hex digits, exactly as the native test prints them.
std::string Hex64(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) hex[static_cast<size_t>(i)] = kDigits[value & 15];
  return hex;
}

std::string RibbonSizingDigest(uint32_t first, uint32_t last, uint32_t step) {
  return Hex64(rocksdb_ribbon::SizingSweepDigest(first, last, step));
}

std::string RibbonFpRateTargetDigest(uint32_t random_count) {
  return Hex64(rocksdb_ribbon::OneInFpRateSweepDigest(random_count));
}

Bytes FromHex(const std::string& hex) {
  Bytes out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// The MANIFEST of a RocksDB database whose only file is table `file_number` at `level`, its
// smallest and largest internal keys in hex; null on error (last error).
emscripten::val SingleTableManifest(double file_number, double file_size, int level,
                                    const std::string& smallest_hex, const std::string& largest_hex,
                                    double largest_seqno) {
  VersionEdit::NewFile file;
  file.level = level;
  file.meta.number = static_cast<uint64_t>(file_number);
  file.meta.size = static_cast<uint64_t>(file_size);
  file.meta.smallest = FromHex(smallest_hex);
  file.meta.largest = FromHex(largest_hex);
  file.meta.largest_seqno = static_cast<uint64_t>(largest_seqno);
  Bytes manifest;
  Status s = BuildManifest(DbFormat::kRocksDb, "leveldb.BytewiseComparator", {file},
                           file.meta.largest_seqno, &manifest);
  if (!s.ok()) {
    Fail(std::move(s));
    return emscripten::val::null();
  }
  return ToUint8Array(manifest);
}

// Copies runs of every length up to `max_length` between every pair of source and target
// alignments mod 16 with the module's memcpy, and counts the copies that left the target run unlike
// the source or touched a byte beside it (0 when every copy is exact).
int MemcpyMismatches(int max_length) {
  // Called through a volatile pointer, so that the compiler cannot turn the copy into its own.
  void* (*volatile copy)(void*, const void*, size_t) = std::memcpy;
  constexpr size_t kGuard = 32;
  const auto longest = static_cast<size_t>(max_length);
  std::vector<uint8_t> source(longest + 2 * kGuard);
  std::vector<uint8_t> target(longest + 2 * kGuard);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<uint8_t>(i * 131 + 7);
  int mismatches = 0;
  for (size_t length = 0; length <= longest; ++length) {
    for (size_t from = 0; from < 16; ++from) {
      for (size_t to = 0; to < 16; ++to) {
        std::fill(target.begin(), target.end(), uint8_t{0xEE});
        copy(target.data() + kGuard + to, source.data() + kGuard + from, length);
        bool exact = true;
        for (size_t i = 0; i < target.size(); ++i) {
          const bool inside = i >= kGuard + to && i < kGuard + to + length;
          const uint8_t expected = inside ? source[i - to + from] : uint8_t{0xEE};
          exact = exact && target[i] == expected;
        }
        mismatches += exact ? 0 : 1;
      }
    }
  }
  return mismatches;
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_testing) {
  using namespace sstfilter::wasm;
  emscripten::function("liveHandles", &LiveHandles);
  emscripten::function("heapInUse", &HeapInUse);
  emscripten::function("ribbonSizingDigest", &RibbonSizingDigest);
  emscripten::function("ribbonFpRateTargetDigest", &RibbonFpRateTargetDigest);
  emscripten::function("singleTableManifest", &SingleTableManifest);
  emscripten::function("memcpyMismatches", &MemcpyMismatches);
}
