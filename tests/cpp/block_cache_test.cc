// BlockCache (sstfilter/block_cache.h) on its own: hits and misses, the byte budget after every
// insert, least-recently-used eviction, capacity 0, and table ids that never collide. Its use by
// lookups is checked in table_get_test.cc and db_get_test.cc.
#include "sstfilter/block_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

namespace sstfilter {
namespace {

std::shared_ptr<const CachedBlock> Block(size_t size, uint8_t fill) {
  return std::make_shared<const CachedBlock>(CachedBlock{Bytes(size, fill), false});
}

uint64_t Charge(size_t size) { return size + BlockCache::kEntryOverhead; }

TEST(BlockCache, CountsHitsAndMissesOfRepeatedLookups) {
  BlockCache cache(Charge(100) * 4);
  const BlockCacheTable table{BlockCache::NewId(), 7};
  EXPECT_EQ(cache.Lookup(table, 0, 100), nullptr);
  cache.Insert(table, 0, 100, Block(100, 1));
  for (int i = 0; i < 3; ++i) {
    const auto found = cache.Lookup(table, 0, 100);
    ASSERT_NE(found, nullptr) << "lookup " << i;
    EXPECT_EQ(found->contents, Bytes(100, 1)) << "lookup " << i;
  }
  // Another offset, size, file or owner is another block.
  EXPECT_EQ(cache.Lookup(table, 105, 100), nullptr);
  EXPECT_EQ(cache.Lookup(table, 0, 99), nullptr);
  EXPECT_EQ(cache.Lookup(BlockCacheTable{table.owner, 8}, 0, 100), nullptr);
  EXPECT_EQ(cache.Lookup(BlockCacheTable{BlockCache::NewId(), 7}, 0, 100), nullptr);
  const BlockCacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits, 3u);
  EXPECT_EQ(stats.misses, 5u);
  EXPECT_EQ(stats.inserts, 1u);
  EXPECT_EQ(stats.evictions, 0u);
  EXPECT_EQ(stats.entries, 1u);
  EXPECT_EQ(stats.bytes_held, Charge(100));
  EXPECT_EQ(stats.capacity, Charge(100) * 4);
}

TEST(BlockCache, StaysWithinItsBudgetEvictingTheLeastRecentlyUsed) {
  const uint64_t capacity = Charge(100) * 3;
  BlockCache cache(capacity);
  const BlockCacheTable table{BlockCache::NewId(), 0};
  for (uint64_t offset : {0, 1000, 2000}) cache.Insert(table, offset, 100, Block(100, 0));
  EXPECT_EQ(cache.stats().bytes_held, capacity);
  // Using the oldest makes the second oldest the one to go.
  ASSERT_NE(cache.Lookup(table, 0, 100), nullptr);
  cache.Insert(table, 3000, 100, Block(100, 0));
  EXPECT_EQ(cache.stats().evictions, 1u);
  EXPECT_EQ(cache.Lookup(table, 1000, 100), nullptr) << "the least recently used stayed";
  EXPECT_NE(cache.Lookup(table, 0, 100), nullptr);
  EXPECT_NE(cache.Lookup(table, 2000, 100), nullptr);
  EXPECT_NE(cache.Lookup(table, 3000, 100), nullptr);
  // A block of two entries' size evicts the two least recently used (0, then 2000).
  cache.Insert(table, 4000, 100 + Charge(100), Block(100 + Charge(100), 0));
  EXPECT_EQ(cache.stats().evictions, 3u);
  EXPECT_EQ(cache.Lookup(table, 0, 100), nullptr);
  EXPECT_EQ(cache.Lookup(table, 2000, 100), nullptr);
  EXPECT_NE(cache.Lookup(table, 3000, 100), nullptr);
  // Blocks of every size: the bytes held never pass the capacity.
  for (uint64_t i = 0; i < 200; ++i) {
    const size_t size = (i * 37) % (capacity / 2);
    cache.Insert(table, 10000 + i, size, Block(size, 0));
    const BlockCacheStats stats = cache.stats();
    EXPECT_LE(stats.bytes_held, capacity) << "after insert " << i << " of " << size << " bytes";
  }
}

TEST(BlockCache, ReplacesABlockItHoldsAndRefusesOneLargerThanItsBudget) {
  BlockCache cache(Charge(100) * 2);
  const BlockCacheTable table{BlockCache::NewId(), 0};
  cache.Insert(table, 0, 100, Block(100, 1));
  cache.Insert(table, 0, 100, Block(100, 2));
  EXPECT_EQ(cache.stats().entries, 1u);
  EXPECT_EQ(cache.stats().bytes_held, Charge(100));
  EXPECT_EQ(cache.Lookup(table, 0, 100)->contents, Bytes(100, 2));
  cache.Insert(table, 500, 1000, Block(1000, 3));
  EXPECT_EQ(cache.Lookup(table, 500, 1000), nullptr);
  EXPECT_NE(cache.Lookup(table, 0, 100), nullptr) << "an oversized block evicted the others";
  EXPECT_EQ(cache.stats().evictions, 0u);
}

TEST(BlockCache, CapacityZeroCachesNothing) {
  BlockCache cache(0);
  const BlockCacheTable table{BlockCache::NewId(), 0};
  cache.Insert(table, 0, 0, Block(0, 0));
  cache.Insert(table, 10, 100, Block(100, 0));
  EXPECT_EQ(cache.Lookup(table, 0, 0), nullptr);
  EXPECT_EQ(cache.Lookup(table, 10, 100), nullptr);
  const BlockCacheStats stats = cache.stats();
  EXPECT_EQ(stats.inserts, 0u);
  EXPECT_EQ(stats.entries, 0u);
  EXPECT_EQ(stats.bytes_held, 0u);
  EXPECT_EQ(stats.misses, 2u);
}

TEST(BlockCache, AnEvictedBlockLivesOnWithTheLookupUsingIt) {
  BlockCache cache(Charge(100));
  const BlockCacheTable table{BlockCache::NewId(), 0};
  cache.Insert(table, 0, 100, Block(100, 9));
  const auto held = cache.Lookup(table, 0, 100);
  cache.Insert(table, 200, 100, Block(100, 0));
  EXPECT_EQ(cache.Lookup(table, 0, 100), nullptr);
  EXPECT_EQ(held->contents, Bytes(100, 9));
}

TEST(BlockCache, NewIdsAreDistinctAndNonzero) {
  std::set<uint64_t> ids;
  for (int i = 0; i < 1000; ++i) ids.insert(BlockCache::NewId());
  EXPECT_EQ(ids.size(), 1000u);
  EXPECT_EQ(ids.count(0), 0u);
}

}  // namespace
}  // namespace sstfilter
