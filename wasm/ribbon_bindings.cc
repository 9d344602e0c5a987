// Embind surface for checking Standard128Ribbon's sizing across builds: each call folds a whole
// sweep of sizing decisions into one digest (rocksdb_ribbon_internal.h), which
// tests/ts/ribbon-sizing.test.ts compares with the native build's
// (tests/cpp/rocksdb_ribbon_test.cc). Also the Ribbon query kernels this module has, for tests and
// benchmarks.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "simd/ribbon_kernels.h"
#include "src/rocksdb_ribbon_internal.h"

namespace sstfilter::wasm {
namespace {

// Digests as 16 lowercase hex digits, exactly as the native test prints them.
std::string Hex64(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) hex[i] = kDigits[value & 15];
  return hex;
}

std::string RibbonSizingDigest(uint32_t first, uint32_t last, uint32_t step) {
  return Hex64(rocksdb_ribbon::SizingSweepDigest(first, last, step));
}

std::string RibbonFpRateTargetDigest(uint32_t random_count) {
  return Hex64(rocksdb_ribbon::OneInFpRateSweepDigest(random_count));
}

emscripten::val RibbonKernels() {
  emscripten::val names = emscripten::val::array();
  for (const simd::RibbonKernel* kernel : simd::AvailableRibbonKernels()) {
    names.call<void>("push", std::string(kernel->name));
  }
  return names;
}

std::string ActiveRibbonKernel() { return simd::ActiveRibbonKernel().name; }

bool SelectRibbonKernel(const std::string& name) { return simd::SelectRibbonKernel(name); }

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_ribbon) {
  using namespace sstfilter::wasm;
  emscripten::function("ribbonSizingDigest", &RibbonSizingDigest);
  emscripten::function("ribbonFpRateTargetDigest", &RibbonFpRateTargetDigest);
  emscripten::function("ribbonKernels", &RibbonKernels);
  emscripten::function("activeRibbonKernel", &ActiveRibbonKernel);
  emscripten::function("selectRibbonKernel", &SelectRibbonKernel);
}
