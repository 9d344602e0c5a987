// Probe kernels: the formats whose probes have more than one implementation (FastLocalBloom and
// Standard128Ribbon) carry one kernel per instruction set this build has ("scalar", the reference,
// then "avx2" natively on x86-64 or "simd128" in the SIMD128 wasm module). Every kernel gives the
// same answers; readers use the fastest one the CPU runs unless another is selected (tests and
// benchmarks run each in turn).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace sstfilter {

enum class KernelFamily : uint8_t {
  kFastLocalBloom,  // RocksDB FastLocalBloom probes
  kRibbon,          // RocksDB Standard128Ribbon queries
};

// The kernels of `family` this build has and the running CPU can execute, scalar first, fastest
// last.
std::vector<std::string_view> AvailableKernelNames(KernelFamily family);

// The kernel readers of `family` use now.
std::string_view ActiveKernelName(KernelFamily family);

// Makes the available kernel called `name` the active one of its family, for every reader.
// Returns false, changing nothing, when no available kernel has that name.
bool SelectKernel(KernelFamily family, std::string_view name);

}  // namespace sstfilter
