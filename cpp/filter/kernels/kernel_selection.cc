// The kernel registries of both families (kernel_registry.h) and the public sstfilter/kernels.h.
// Portable code: the AVX2 CPU check lives here, never in an -mavx2 translation unit, whose code may
// only run after that check passed.
#include <array>
#include <atomic>
#include <cstddef>
#include <initializer_list>

#include "filter/kernels/bloom_kernels.h"
#include "filter/kernels/kernel_registry.h"
#include "filter/kernels/ribbon_kernels.h"
#include "sstfilter/kernels.h"

// A kernel of an instruction set, or nullptr where this build does not have it or the CPU cannot
// run it. A module built with SIMD128 only instantiates on runtimes that validate it.
#if defined(SSTFILTER_HAVE_AVX2)
#define SSTFILTER_AVX2_KERNEL(kernel) (__builtin_cpu_supports("avx2") ? &(kernel) : nullptr)
#else
#define SSTFILTER_AVX2_KERNEL(kernel) nullptr
#endif
#if defined(SSTFILTER_HAVE_SIMD128)
#define SSTFILTER_SIMD128_KERNEL(kernel) (&(kernel))
#else
#define SSTFILTER_SIMD128_KERNEL(kernel) nullptr
#endif

namespace sstfilter::simd {
namespace {

template <typename Kernel>
class Registry {
 public:
  // `kernels` in order of preference, scalar reference first, fastest last; nulls are skipped.
  // The last one starts active.
  explicit Registry(std::initializer_list<const Kernel*> kernels) {
    for (const Kernel* kernel : kernels) {
      if (kernel != nullptr && count_ < kernels_.size()) kernels_[count_++] = kernel;
    }
    active_.store(kernels_[count_ - 1], std::memory_order_relaxed);
  }

  std::span<const Kernel* const> available() const { return {kernels_.data(), count_}; }

  const Kernel& active() const { return *active_.load(std::memory_order_relaxed); }

  bool Select(std::string_view name) {
    for (const Kernel* kernel : available()) {
      if (name == kernel->name) {
        active_.store(kernel, std::memory_order_relaxed);
        return true;
      }
    }
    return false;
  }

  static Registry& Of();

 private:
  std::array<const Kernel*, 3> kernels_{};
  size_t count_ = 0;
  std::atomic<const Kernel*> active_{nullptr};
};

template <>
Registry<FastLocalBloomKernel>& Registry<FastLocalBloomKernel>::Of() {
  static Registry registry({&kFastLocalBloomScalar, SSTFILTER_AVX2_KERNEL(kFastLocalBloomAvx2),
                            SSTFILTER_SIMD128_KERNEL(kFastLocalBloomSimd128)});
  return registry;
}

template <>
Registry<RibbonKernel>& Registry<RibbonKernel>::Of() {
  static Registry registry({&kRibbonScalar, SSTFILTER_AVX2_KERNEL(kRibbonAvx2),
                            SSTFILTER_SIMD128_KERNEL(kRibbonSimd128)});
  return registry;
}

}  // namespace

template <typename Kernel>
std::span<const Kernel* const> AvailableKernels() {
  return Registry<Kernel>::Of().available();
}

template <typename Kernel>
const Kernel& ActiveKernel() {
  return Registry<Kernel>::Of().active();
}

template <typename Kernel>
bool SelectKernel(std::string_view name) {
  return Registry<Kernel>::Of().Select(name);
}

template std::span<const FastLocalBloomKernel* const> AvailableKernels<FastLocalBloomKernel>();
template const FastLocalBloomKernel& ActiveKernel<FastLocalBloomKernel>();
template bool SelectKernel<FastLocalBloomKernel>(std::string_view);
template std::span<const RibbonKernel* const> AvailableKernels<RibbonKernel>();
template const RibbonKernel& ActiveKernel<RibbonKernel>();
template bool SelectKernel<RibbonKernel>(std::string_view);

}  // namespace sstfilter::simd

namespace sstfilter {
namespace {

// Calls body(registry) with the registry of `family`.
template <typename Body>
auto WithRegistry(KernelFamily family, Body body) {
  if (family == KernelFamily::kRibbon) return body(simd::Registry<simd::RibbonKernel>::Of());
  return body(simd::Registry<simd::FastLocalBloomKernel>::Of());
}

}  // namespace

std::vector<std::string_view> AvailableKernelNames(KernelFamily family) {
  return WithRegistry(family, [](const auto& registry) {
    std::vector<std::string_view> names;
    for (const auto* kernel : registry.available()) names.emplace_back(kernel->name);
    return names;
  });
}

std::string_view ActiveKernelName(KernelFamily family) {
  return WithRegistry(
      family, [](const auto& registry) { return std::string_view(registry.active().name); });
}

bool SelectKernel(KernelFamily family, std::string_view name) {
  return WithRegistry(family, [&](auto& registry) { return registry.Select(name); });
}

}  // namespace sstfilter
