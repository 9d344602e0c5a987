// A run-time registry of interchangeable kernels (a struct with a `name` and function pointers),
// one per instruction set. Tests and benchmarks select each in turn; readers use the active one.
// Portable code: a CPU feature check belongs in the caller's constructor arguments, never in a
// translation unit compiled for that feature, whose code may only run after the check passed.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string_view>

namespace sstfilter::simd {

template <typename Kernel, size_t kMaxKernels>
class KernelRegistry {
 public:
  // `kernels` in order of preference, scalar reference first, fastest last; nulls are skipped
  // (kernels this build has but the CPU lacks). The last one starts active.
  explicit KernelRegistry(std::initializer_list<const Kernel*> kernels) {
    for (const Kernel* kernel : kernels) {
      if (kernel != nullptr && count_ < kMaxKernels) kernels_[count_++] = kernel;
    }
    active_.store(kernels_[count_ - 1], std::memory_order_relaxed);
  }

  std::span<const Kernel* const> available() const {
    return std::span<const Kernel* const>(kernels_.data(), count_);
  }

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

 private:
  std::array<const Kernel*, kMaxKernels> kernels_{};
  size_t count_ = 0;
  std::atomic<const Kernel*> active_{nullptr};
};

}  // namespace sstfilter::simd
