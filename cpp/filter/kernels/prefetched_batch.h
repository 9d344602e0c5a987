// The one loop shape of every batched probe and every builder's insertion loop on native targets:
// while one group of items is worked on, the memory of the next group is already on its way, so
// that many cache misses stay in flight all the time.
//
// RocksDB's MultiGet path prefetches a group of keys and then probes the group
// (FastLocalBloomBitsReader::MayMatch(num_keys, ...), Standard128RibbonBitsReader::MayMatch), which
// leaves the memory idle while each group's probes wait; the rolling window measured 1.5x to 2x
// faster on memory-resident filters (bench/results.json). Prefetching changes no answer and no
// built byte: it only moves loads earlier.
//
// The wasm SIMD128 kernels do not use it: wasm has no prefetch instruction, so they touch a group's
// memory with plain loads instead.
#pragma once

#include <bit>
#include <cstddef>
#include <type_traits>

namespace sstfilter::simd {

enum class PrefetchFor { kRead = 0, kWrite = 1 };

// Wasm has no prefetch instruction (Emscripten drops __builtin_prefetch): there PrefetchedBatch is
// a plain loop, without the ring of prepared items that would only cost time.
#if defined(__wasm__)
inline constexpr bool kHavePrefetch = false;
#else
inline constexpr bool kHavePrefetch = true;
#endif

// Prefetches every cache line of [p, p + bytes): a 64-byte block that is not 64-byte aligned in
// memory spans two lines, so the last byte is always fetched too.
template <PrefetchFor kFor>
[[gnu::always_inline]] inline void PrefetchBytes(const void* p, size_t bytes) {
  const char* first = static_cast<const char*>(p);
  for (size_t offset = 0; offset < bytes; offset += 64) {
    __builtin_prefetch(first + offset, static_cast<int>(kFor), 1);
  }
  if (bytes > 0) __builtin_prefetch(first + bytes - 1, static_cast<int>(kFor), 1);
}

// How far ahead of the work the prefetches run.
enum class Lookahead {
  // The next group is prepared before the current one is worked on, so its misses are in flight
  // meanwhile (kGroup to 2 * kGroup items ahead). Best where an item is one line (Bloom filters).
  kNextGroup,
  // A group is prepared, then worked on: its misses overlap one another only. Best for Ribbon,
  // whose queries read several lines each, so that one group already fills the memory's queues
  // (measured 10% faster than kNextGroup at 10^7 keys; 1.4x slower for FastLocalBloom).
  kThisGroup,
};

// Calls work(i, slot_i) for i = 0 .. n - 1 in order, after prepare(i, slot_i) filled slot_i:
// `prepare` locates item i's memory, issues its prefetches and stores what `work` needs of it (a
// pointer, a hash, a prepared query) in the slot. Items go in groups of kGroup, each loop short and
// free of the other's dependencies. When `work` returns bool, false stops the loop and
// PrefetchedBatch returns false; otherwise it returns true.
template <typename Prepared, size_t kGroup, Lookahead kLookahead, typename Prepare, typename Work>
[[gnu::always_inline]] inline bool PrefetchedBatch(size_t n, Prepare&& prepare, Work&& work) {
  static_assert(std::has_single_bit(kGroup), "i % (2 * kGroup) should be a mask");
  // work(i, item), and whether to go on.
  const auto run = [&](size_t i, const Prepared& item) {
    if constexpr (std::is_same_v<std::invoke_result_t<Work&, size_t, const Prepared&>, bool>) {
      return work(i, item);
    } else {
      work(i, item);
      return true;
    }
  };
  if constexpr (!kHavePrefetch) {
    // Nothing to run ahead of: each item is prepared right before its work.
    for (size_t i = 0; i < n; ++i) {
      Prepared item;
      prepare(i, item);
      if (!run(i, item)) return false;
    }
    return true;
  }
  constexpr size_t kAhead = kLookahead == Lookahead::kNextGroup ? kGroup : 0;
  constexpr size_t kSlots = kAhead + kGroup;
  Prepared ahead[kSlots];
  for (size_t i = 0; i < n && i < kAhead; ++i) prepare(i, ahead[i]);
  for (size_t group = 0; group < n; group += kGroup) {
    const size_t prepare_end = n - group < kAhead + kGroup ? n : group + kAhead + kGroup;
    for (size_t i = group + kAhead; i < prepare_end; ++i) prepare(i, ahead[i % kSlots]);
    const size_t end = n - group < kGroup ? n : group + kGroup;
    for (size_t i = group; i < end; ++i) {
      if (!run(i, ahead[i % kSlots])) return false;
    }
  }
  return true;
}

}  // namespace sstfilter::simd
