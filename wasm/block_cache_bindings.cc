// Embind bindings for the block cache (block_cache_bindings.h): createBlockCache(capacity: bigint)
// makes one, stats() reads its counters, delete() frees it (the lookups using it keep it alive).
#include "block_cache_bindings.h"

#include <emscripten/bind.h>

#include "marshal.h"

namespace sstfilter::wasm {

using emscripten::val;

val BlockCacheHandle::Stats() const {
  const BlockCacheStats stats = cache_->stats();
  val out = val::object();
  out.set("hits", BigIntOf(stats.hits));
  out.set("misses", BigIntOf(stats.misses));
  out.set("inserts", BigIntOf(stats.inserts));
  out.set("evictions", BigIntOf(stats.evictions));
  out.set("entries", BigIntOf(stats.entries));
  out.set("bytesHeld", BigIntOf(stats.bytes_held));
  out.set("capacity", BigIntOf(stats.capacity));
  return out;
}

namespace {

// A cache holding at most `capacity` bytes (0: caches nothing).
BlockCacheHandle* CreateBlockCache(uint64_t capacity) { return new BlockCacheHandle(capacity); }

}  // namespace

EMSCRIPTEN_BINDINGS(sstfilter_block_cache) {
  emscripten::class_<BlockCacheHandle>("BlockCacheHandle")
      .function("stats", &BlockCacheHandle::Stats)
      .function("address", &BlockCacheHandle::Address)
      .function("owner", &BlockCacheHandle::Owner);
  emscripten::function("createBlockCache", &CreateBlockCache, emscripten::allow_raw_pointers());
}

}  // namespace sstfilter::wasm
