// The FastLocalBloom kernel registry. Portable code: the AVX2 CPU check lives here, never in the
// -mavx2 translation unit, whose code may only run after that check passed.
#include "filter/kernels/bloom_kernels.h"

#include "filter/kernels/kernel_registry.h"

namespace sstfilter::simd {
namespace {

using FastLocalBloomKernelRegistry = KernelRegistry<FastLocalBloomKernel, 3>;

FastLocalBloomKernelRegistry& Registry() {
  static FastLocalBloomKernelRegistry registry({
    &kFastLocalBloomScalar,
#if defined(SSTFILTER_HAVE_AVX2)
        __builtin_cpu_supports("avx2") ? &kFastLocalBloomAvx2 : nullptr,
#endif
#if defined(SSTFILTER_HAVE_SIMD128)
        // A module built with SIMD128 only instantiates on runtimes that validate it.
        &kFastLocalBloomSimd128,
#endif
  });
  return registry;
}

}  // namespace

std::span<const FastLocalBloomKernel* const> AvailableFastLocalBloomKernels() {
  return Registry().available();
}

const FastLocalBloomKernel& ActiveFastLocalBloomKernel() { return Registry().active(); }

bool SelectFastLocalBloomKernel(std::string_view name) { return Registry().Select(name); }

}  // namespace sstfilter::simd
