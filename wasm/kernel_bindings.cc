// Which FastLocalBloom probe kernels this module has and which one readers use. The SIMD128
// module has the portable kernel too, so tests compare kernels within one module and benchmarks
// time each. (The Ribbon kernels' twins of these live in ribbon_bindings.cc.)
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "simd/bloom_kernels.h"

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

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_kernels) {
  using namespace sstfilter::wasm;
  emscripten::function("fastLocalBloomKernels", &FastLocalBloomKernels);
  emscripten::function("activeFastLocalBloomKernel", &ActiveFastLocalBloomKernel);
  emscripten::function("selectFastLocalBloomKernel", &SelectFastLocalBloomKernel);
}
