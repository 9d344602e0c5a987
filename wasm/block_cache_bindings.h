// The block cache as JavaScript holds it (sstfilter/block_cache.h): made with a byte budget,
// handed to the lookups that use it (TableHandle.get), asked for its counters.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <memory>

#include "binding_support.h"
#include "sstfilter/block_cache.h"

namespace sstfilter::wasm {

class BlockCacheHandle {
 public:
  explicit BlockCacheHandle(uint64_t capacity)
      : cache_(std::make_shared<BlockCache>(capacity)), owner_(BlockCache::NewId()) {}

  // Shared with the lookups using it, so that deleting the handle first frees nothing they use.
  const std::shared_ptr<BlockCache>& cache() const { return cache_; }
  // { hits, misses, inserts, evictions, entries, bytesHeld, capacity }, BigInts
  // (BlockCacheStats).
  emscripten::val Stats() const;
  // The cache's address, for the bindings of other files (embind hands classes only to the
  // functions of the file that binds them), and the owner id the database using it names its
  // tables by (BlockCacheTable::owner).
  uintptr_t Address() const { return reinterpret_cast<uintptr_t>(cache_.get()); }
  double Owner() const { return static_cast<double>(owner_); }

 private:
  std::shared_ptr<BlockCache> cache_;
  uint64_t owner_;
  LiveHandleCount live_;
};

}  // namespace sstfilter::wasm
