// The FastLocalBloom kernel registry. Portable code: the AVX2 CPU check lives here, never in the
// -mavx2 translation unit, whose code may only run after that check passed.
#include "simd/bloom_kernels.h"

#include <array>
#include <atomic>

namespace sstfilter::simd {
namespace {

class KernelRegistry {
 public:
  KernelRegistry() {
    Add(&kFastLocalBloomScalar);
#if defined(SSTFILTER_HAVE_AVX2)
    if (__builtin_cpu_supports("avx2")) Add(&kFastLocalBloomAvx2);
#endif
#if defined(SSTFILTER_HAVE_SIMD128)
    // A module built with SIMD128 only instantiates on runtimes that validate it.
    Add(&kFastLocalBloomSimd128);
#endif
    active_.store(kernels_[count_ - 1], std::memory_order_relaxed);
  }

  std::span<const FastLocalBloomKernel* const> available() const {
    return std::span<const FastLocalBloomKernel* const>(kernels_.data(), count_);
  }
  const FastLocalBloomKernel& active() const { return *active_.load(std::memory_order_relaxed); }
  void set_active(const FastLocalBloomKernel* kernel) {
    active_.store(kernel, std::memory_order_relaxed);
  }

 private:
  void Add(const FastLocalBloomKernel* kernel) { kernels_[count_++] = kernel; }

  std::array<const FastLocalBloomKernel*, 3> kernels_{};
  size_t count_ = 0;
  std::atomic<const FastLocalBloomKernel*> active_{nullptr};
};

KernelRegistry& Registry() {
  static KernelRegistry registry;
  return registry;
}

}  // namespace

std::span<const FastLocalBloomKernel* const> AvailableFastLocalBloomKernels() {
  return Registry().available();
}

const FastLocalBloomKernel& ActiveFastLocalBloomKernel() { return Registry().active(); }

bool SelectFastLocalBloomKernel(std::string_view name) {
  for (const FastLocalBloomKernel* kernel : Registry().available()) {
    if (name == kernel->name) {
      Registry().set_active(kernel);
      return true;
    }
  }
  return false;
}

}  // namespace sstfilter::simd
