// Which FastLocalBloom and Ribbon probe kernels this module has and which one readers use
// (sstfilter/kernels.h); a family is its KernelFamily number (constants.cc). The SIMD128 module has
// the portable kernels too, so tests compare kernels within one module and benchmarks time each.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <string_view>

#include "sstfilter/kernels.h"

namespace sstfilter::wasm {
namespace {

// Unknown numbers read as no family: no kernels, none active, none selectable.
bool ToFamily(int id, KernelFamily* family) {
  if (id != static_cast<int>(KernelFamily::kFastLocalBloom) &&
      id != static_cast<int>(KernelFamily::kRibbon)) {
    return false;
  }
  *family = static_cast<KernelFamily>(id);
  return true;
}

emscripten::val AvailableKernels(int family_id) {
  emscripten::val names = emscripten::val::array();
  KernelFamily family;
  if (!ToFamily(family_id, &family)) return names;
  for (std::string_view name : AvailableKernelNames(family)) {
    names.call<void>("push", std::string(name));
  }
  return names;
}

std::string ActiveKernel(int family_id) {
  KernelFamily family;
  return ToFamily(family_id, &family) ? std::string(ActiveKernelName(family)) : std::string();
}

bool SelectKernelByName(int family_id, const std::string& name) {
  KernelFamily family;
  return ToFamily(family_id, &family) && SelectKernel(family, name);
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_kernels) {
  using namespace sstfilter::wasm;
  emscripten::function("availableKernels", &AvailableKernels);
  emscripten::function("activeKernel", &ActiveKernel);
  emscripten::function("selectKernel", &SelectKernelByName);
}
