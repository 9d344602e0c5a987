// BlockCache (sstfilter/block_cache.h): one LRU list and a hash index over it, under one mutex,
// as one shard of rocksdb cache/lru_cache.cc.
#include "sstfilter/block_cache.h"

#include <atomic>
#include <utility>

namespace sstfilter {
namespace {

// Mixes one 64-bit word into a hash (the multiplier is the 64-bit golden ratio, as in
// boost::hash_combine's 64-bit form): the index's keys differ mostly in their offsets' low bits.
size_t Mix(size_t seed, uint64_t word) {
  return static_cast<size_t>((seed ^ word) * 0x9E3779B97F4A7C15ULL + (seed >> 7));
}

}  // namespace

size_t BlockCache::KeyHash::operator()(const Key& k) const {
  size_t h = Mix(0, k.table.owner);
  h = Mix(h, k.table.file);
  h = Mix(h, k.offset);
  return Mix(h, k.size);
}

BlockCache::BlockCache(uint64_t capacity) : capacity_(capacity) { stats_.capacity = capacity; }

BlockCache::~BlockCache() = default;

uint64_t BlockCache::NewId() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

std::shared_ptr<const CachedBlock> BlockCache::Lookup(BlockCacheTable table, uint64_t offset,
                                                      uint64_t size) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = index_.find(Key{table, offset, size});
  if (found == index_.end()) {
    ++stats_.misses;
    return nullptr;
  }
  ++stats_.hits;
  lru_.splice(lru_.begin(), lru_, found->second);
  return found->second->block;
}

void BlockCache::Insert(BlockCacheTable table, uint64_t offset, uint64_t size,
                        std::shared_ptr<const CachedBlock> block) {
  const uint64_t charge = block->contents.capacity() + kEntryOverhead;
  const Key key{table, offset, size};
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto held = index_.find(key); held != index_.end()) Remove(held->second);
  if (charge > capacity_) return;
  while (stats_.bytes_held + charge > capacity_) {
    Remove(std::prev(lru_.end()));
    ++stats_.evictions;
  }
  lru_.push_front(Entry{key, std::move(block), charge});
  index_.emplace(key, lru_.begin());
  stats_.bytes_held += charge;
  ++stats_.entries;
  ++stats_.inserts;
}

void BlockCache::Remove(Lru::iterator it) {
  stats_.bytes_held -= it->charge;
  --stats_.entries;
  index_.erase(it->key);
  lru_.erase(it);
}

BlockCacheStats BlockCache::stats() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace sstfilter
