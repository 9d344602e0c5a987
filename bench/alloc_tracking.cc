// Replaces the global operator new and delete to count live bytes and their peak
// (alloc_tracking.h). Sizes come from malloc_usable_size at both ends, so sized and unsized deletes
// count alike.
#include "alloc_tracking.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace sstfilter::bench {
namespace {

std::atomic<size_t> allocated{0};
std::atomic<size_t> peak{0};

void* Track(void* p) {
  if (p == nullptr) return nullptr;
  const size_t now =
      allocated.fetch_add(malloc_usable_size(p), std::memory_order_relaxed) + malloc_usable_size(p);
  size_t seen = peak.load(std::memory_order_relaxed);
  while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
  return p;
}

void Untrack(void* p) {
  if (p != nullptr) allocated.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
}

void* Allocate(size_t size) {
  void* p = Track(std::malloc(size == 0 ? 1 : size));
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* AllocateAligned(size_t size, std::align_val_t align) {
  const size_t alignment = static_cast<size_t>(align);
  // aligned_alloc wants a multiple of the alignment.
  void* p = Track(std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment));
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void Free(void* p) {
  Untrack(p);
  std::free(p);
}

}  // namespace

size_t AllocatedBytes() { return allocated.load(std::memory_order_relaxed); }

size_t PeakAllocatedBytes() { return peak.load(std::memory_order_relaxed); }

void ResetPeakAllocatedBytes() { peak.store(AllocatedBytes(), std::memory_order_relaxed); }

}  // namespace sstfilter::bench

using sstfilter::bench::Allocate;
using sstfilter::bench::AllocateAligned;
using sstfilter::bench::Free;

void* operator new(size_t size) { return Allocate(size); }
void* operator new[](size_t size) { return Allocate(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void* operator new(size_t size, std::align_val_t align) { return AllocateAligned(size, align); }
void* operator new[](size_t size, std::align_val_t align) { return AllocateAligned(size, align); }

void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, size_t) noexcept { Free(p); }
void operator delete[](void* p, size_t) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { Free(p); }
