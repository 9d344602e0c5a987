// Runs a test body once per available kernel of one family (sstfilter/kernels.h), with that kernel
// active; restores the family's previous kernel on destruction, also when an assertion leaves the
// test early.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "sstfilter/kernels.h"

namespace sstfilter::testing {

class EachKernel {
 public:
  explicit EachKernel(KernelFamily family) : family_(family), previous_(ActiveKernelName(family)) {}
  ~EachKernel() { SelectKernel(family_, previous_); }
  EachKernel(const EachKernel&) = delete;
  EachKernel& operator=(const EachKernel&) = delete;

  template <typename Body>
  void Run(Body body) {
    for (std::string_view name : AvailableKernelNames(family_)) {
      EXPECT_TRUE(SelectKernel(family_, name));
      body(std::string(name));
    }
  }

 private:
  KernelFamily family_;
  std::string previous_;
};

inline EachKernel EachFastLocalBloomKernel() { return EachKernel(KernelFamily::kFastLocalBloom); }

inline EachKernel EachRibbonKernel() { return EachKernel(KernelFamily::kRibbon); }

}  // namespace sstfilter::testing
