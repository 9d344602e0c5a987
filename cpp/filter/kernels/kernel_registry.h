// The run-time registry of interchangeable kernels: per family (FastLocalBloomKernel,
// RibbonKernel), a struct with a `name` and function pointers, one per instruction set. Tests and
// benchmarks select each in turn; readers use the active one. The public face of it is
// sstfilter/kernels.h.
#pragma once

#include <span>
#include <string_view>

namespace sstfilter::simd {

// The kernels of Kernel's family this build has and the running CPU can execute, scalar first,
// fastest last. Defined for FastLocalBloomKernel and RibbonKernel (kernel_selection.cc).
template <typename Kernel>
std::span<const Kernel* const> AvailableKernels();

// The kernel readers use: the fastest available unless SelectKernel chose another.
template <typename Kernel>
const Kernel& ActiveKernel();

// Makes the available kernel called `name` the active one. Returns false, changing nothing, when
// no available kernel has that name.
template <typename Kernel>
bool SelectKernel(std::string_view name);

}  // namespace sstfilter::simd
