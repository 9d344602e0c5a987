// Which FastLocalBloom and Ribbon probe kernels this module has and which one readers use. The
// SIMD128 module has the portable kernels too, so tests compare kernels within one module and
// benchmarks time each.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "filter/kernels/bloom_kernels.h"
#include "filter/kernels/ribbon_kernels.h"

namespace sstfilter::wasm {
namespace {

emscripten::val FastLocalBloomKernels() {
  emscripten::val names = emscripten::val::array();
  for (const simd::FastLocalBloomKernel* kernel : simd::AvailableFastLocalBloomKernels()) {
    names.call<void>("push", std::string(kernel->name));
  }
  return names;
}

std::string ActiveFastLocalBloomKernel() { return simd::ActiveFastLocalBloomKernel().name; }

bool SelectFastLocalBloomKernel(const std::string& name) {
  return simd::SelectFastLocalBloomKernel(name);
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

EMSCRIPTEN_BINDINGS(sstfilter_kernels) {
  using namespace sstfilter::wasm;
  emscripten::function("fastLocalBloomKernels", &FastLocalBloomKernels);
  emscripten::function("activeFastLocalBloomKernel", &ActiveFastLocalBloomKernel);
  emscripten::function("selectFastLocalBloomKernel", &SelectFastLocalBloomKernel);
  emscripten::function("ribbonKernels", &RibbonKernels);
  emscripten::function("activeRibbonKernel", &ActiveRibbonKernel);
  emscripten::function("selectRibbonKernel", &SelectRibbonKernel);
}
