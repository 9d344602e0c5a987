// Hooks only the test builds of the modules (sstfilter-*-testing) carry: what the leak tests count
// (live handles, heap in use) and the Standard128Ribbon sizing digests that
// tests/ts/ribbon-sizing.test.ts compares with the native build's
// (tests/cpp/rocksdb_ribbon_test.cc).
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <string>

#include "binding_support.h"
#include "filter/rocksdb_ribbon_internal.h"

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

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_testing) {
  using namespace sstfilter::wasm;
  emscripten::function("liveHandles", &LiveHandles);
  emscripten::function("heapInUse", &HeapInUse);
  emscripten::function("ribbonSizingDigest", &RibbonSizingDigest);
  emscripten::function("ribbonFpRateTargetDigest", &RibbonFpRateTargetDigest);
}
