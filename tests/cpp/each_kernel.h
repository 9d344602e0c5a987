// Runs a test body once per available kernel of one family, with that kernel active; restores the
// family's previous kernel on destruction, also when an assertion leaves the test early.
#pragma once

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <string_view>

#include "filter/kernels/bloom_kernels.h"
#include "filter/kernels/ribbon_kernels.h"

namespace sstfilter::testing {

template <typename Kernel>
class EachKernel {
 public:
  using Active = const Kernel& (*)();
  using Available = std::span<const Kernel* const> (*)();
  using Select = bool (*)(std::string_view);

  EachKernel(Active active, Available available, Select select)
      : available_(available), select_(select), previous_(active().name) {}
  ~EachKernel() { select_(previous_); }
  EachKernel(const EachKernel&) = delete;
  EachKernel& operator=(const EachKernel&) = delete;

  template <typename Body>
  void Run(Body body) {
    for (const Kernel* kernel : available_()) {
      EXPECT_TRUE(select_(kernel->name));
      body(std::string(kernel->name));
    }
  }

 private:
  Available available_;
  Select select_;
  std::string previous_;
};

inline EachKernel<simd::FastLocalBloomKernel> EachFastLocalBloomKernel() {
  return {simd::ActiveFastLocalBloomKernel, simd::AvailableFastLocalBloomKernels,
          simd::SelectFastLocalBloomKernel};
}

inline EachKernel<simd::RibbonKernel> EachRibbonKernel() {
  return {simd::ActiveRibbonKernel, simd::AvailableRibbonKernels, simd::SelectRibbonKernel};
}

}  // namespace sstfilter::testing
