// Counts the bytes allocated through operator new (alloc_tracking.cc replaces it in the benchmark
// programs), so that a build's peak memory can be reported. RocksDB's shared library allocates
// through the same replaced operator new, so both libraries are counted alike.
#pragma once

#include <cstddef>

namespace sstfilter::bench {

// Bytes currently allocated (as malloc_usable_size counts them).
size_t AllocatedBytes();

// The most bytes allocated at once since the last ResetPeakAllocatedBytes.
size_t PeakAllocatedBytes();

// Starts a new peak from the bytes allocated now.
void ResetPeakAllocatedBytes();

}  // namespace sstfilter::bench
