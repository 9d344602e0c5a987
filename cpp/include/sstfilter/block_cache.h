// A cache of table blocks with a byte budget the caller sets, shared by the tables of a database
// (and by several databases, as one RocksDB Cache object may be): a point lookup (TableGet,
// DbGet) looks a block up here before asking its driver for the file bytes, and keeps what it
// read. RocksDB's BlockBasedTableOptions::block_cache is the precedent (rocksdb include/rocksdb/
// table.h: when none is given RocksDB makes its own, 8 MB in 7.8.3, 32 MB in 10.x); LevelDB's
// Options::block_cache likewise defaults to 8 MB (leveldb include/leveldb/options.h). Here no
// cache is made unless the caller makes one: the budget is always the caller's.
//
// What a cached block holds: its contents as BlockFetcher::Fetch delivers them, the checksum
// verified and the block decompressed, which is what RocksDB's block cache holds too ("The block
// cache stores uncompressed blocks", rocksdb wiki Block-Cache; table/block_based/
// block_based_table_reader.cc MaybeReadBlockAndLoadToCache puts the block read and uncompressed
// by BlockFetcher). That saves the most work a lookup does per block: the driver's read, the
// checksum and the decompression; what is left (decoding the entries up to the key) depends on
// the key. Only blocks that were read, verified and decoded without error are inserted (RocksDB
// inserts only after ReadBlockContents succeeds), so a corrupt block is read again, and fails
// again, every time.
//
// Eviction is least recently used, as rocksdb cache/lru_cache.cc LRUCacheShard (one shard here:
// the wasm build has one thread). Each entry is charged the bytes its contents hold (their
// allocation) plus kEntryOverhead,
// as RocksDB charges an entry's metadata with it (CacheMetadataChargePolicy
// kFullChargeCacheMetadata, its default). Unlike RocksDB, which lets usage pass the capacity when
// nothing can be evicted and the caller holds a handle (LRUCacheShard::InsertItem without
// strict_capacity_limit), the bytes held never exceed the capacity: a block larger than the
// whole budget is not inserted, as RocksDB does for an insert without a handle. A block a lookup
// still uses after its eviction stays alive with that lookup (shared ownership) but no longer
// counts as held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "sstfilter/bytes.h"

namespace sstfilter {

// Which table a block belongs to. `owner` is an id no other table or database of this process
// has (BlockCache::NewId()), `file` the table's file number under that owner (0 for a table
// opened on its own). A table file is never rewritten under its number, so a database that names
// its tables by one owner id taken when it is opened and their file numbers finds a table's
// blocks again when it reopens the file, as RocksDB keys blocks by its session id and the file
// number (rocksdb table/block_based/block_based_table_reader.cc SetupBaseCacheKey, GetCacheKey).
struct BlockCacheTable {
  uint64_t owner = 0;
  uint64_t file = 0;
};

// A block as the cache holds it.
struct CachedBlock {
  Bytes contents;  // verified and decompressed
  // The file stored it compressed: offsets inside `contents` then mean nothing in the file, and
  // errors name the block instead (as for a block just read).
  bool compressed = false;
};

struct BlockCacheStats {
  uint64_t hits = 0;        // lookups that found the block
  uint64_t misses = 0;      // lookups that did not
  uint64_t inserts = 0;     // blocks taken in
  uint64_t evictions = 0;   // blocks pushed out to make room for others
  uint64_t entries = 0;     // blocks held now
  uint64_t bytes_held = 0;  // their charges: contents' allocation plus kEntryOverhead each
  uint64_t capacity = 0;
};

class BlockCache {
 public:
  // What an entry costs beyond its contents: its key, list and hash nodes, the shared block's
  // control block and the contents' vector (about 150 bytes on a 64-bit build, rounded up).
  static constexpr uint64_t kEntryOverhead = 160;

  // `capacity`: the most bytes the cache holds (charges, see above); 0 caches nothing.
  explicit BlockCache(uint64_t capacity);
  ~BlockCache();
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // A nonzero id no earlier call in this process returned (for BlockCacheTable::owner), as
  // RocksDB's Cache::NewId.
  static uint64_t NewId();

  // The block of `table` at [offset, offset + size) (its handle), made most recently used; null
  // when it is not held. Counts a hit or a miss.
  std::shared_ptr<const CachedBlock> Lookup(BlockCacheTable table, uint64_t offset, uint64_t size);
  // Takes in a block just read, evicting the least recently used blocks until it fits; a block
  // whose charge alone exceeds the capacity is not taken. A block already held is replaced.
  void Insert(BlockCacheTable table, uint64_t offset, uint64_t size,
              std::shared_ptr<const CachedBlock> block);

  BlockCacheStats stats() const;

 private:
  struct Key {
    BlockCacheTable table;
    uint64_t offset = 0;
    uint64_t size = 0;
    bool operator==(const Key& o) const {
      return table.owner == o.table.owner && table.file == o.table.file && offset == o.offset &&
             size == o.size;
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  struct Entry {
    Key key;
    std::shared_ptr<const CachedBlock> block;
    uint64_t charge = 0;
  };
  using Lru = std::list<Entry>;  // most recently used first

  // Drops the entry `it` points to from the list, the index and the bytes held.
  void Remove(Lru::iterator it);

  const uint64_t capacity_;
  mutable std::mutex mutex_;
  Lru lru_;
  std::unordered_map<Key, Lru::iterator, KeyHash> index_;
  BlockCacheStats stats_;
};

}  // namespace sstfilter
