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
  explicit BlockCacheHandle(uint64_t capacity) : cache_(std::make_shared<BlockCache>(capacity)) {}

  // Shared with the lookups using it, so that deleting the handle first frees nothing they use.
  const std::shared_ptr<BlockCache>& cache() const { return cache_; }
  // { hits, misses, inserts, evictions, entries, bytesHeld, capacity }, BigInts
  // (BlockCacheStats).
  emscripten::val Stats() const;

 private:
  std::shared_ptr<BlockCache> cache_;
  LiveHandleCount live_;
};

}  // namespace sstfilter::wasm
