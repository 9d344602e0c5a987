// The Standard128Ribbon kernel registry. Portable code: the AVX2 CPU check lives here, never in the
// -mavx2 translation unit.
#include "filter/kernels/ribbon_kernels.h"

#include "filter/kernels/kernel_registry.h"

namespace sstfilter::simd {
namespace {

using RibbonKernelRegistry = KernelRegistry<RibbonKernel, 3>;

RibbonKernelRegistry& Registry() {
  static RibbonKernelRegistry registry({
    &kRibbonScalar,
#if defined(SSTFILTER_HAVE_AVX2)
        __builtin_cpu_supports("avx2") ? &kRibbonAvx2 : nullptr,
#endif
#if defined(SSTFILTER_HAVE_SIMD128)
        // A module built with SIMD128 only instantiates on runtimes that validate it.
        &kRibbonSimd128,
#endif
  });
  return registry;
}

}  // namespace

std::span<const RibbonKernel* const> AvailableRibbonKernels() { return Registry().available(); }

const RibbonKernel& ActiveRibbonKernel() { return Registry().active(); }

bool SelectRibbonKernel(std::string_view name) { return Registry().Select(name); }

}  // namespace sstfilter::simd
