// Calling RocksDB's filter builder and reader from outside RocksDB.
//
// FilterPolicy::GetBuilderWithContext and GetFilterBitsReader are public, but since RocksDB 7.0
// the classes they return, FilterBitsBuilder and FilterBitsReader, are only forward-declared in
// the installed headers (rocksdb/filter_policy.h: "the details of these classes are internal").
// The interfaces below declare, in order, the virtual functions of those classes as librocksdb
// 7.8.3 lays out their vtables, read from the relocations of the vtables in Debian's
// librocksdb.a (filter_policy.cc.o): builder slots ~dtor, ~dtor (deleting), AddKey,
// EstimateEntriesAdded, Finish(buf); reader slots ~dtor, ~dtor (deleting), MayMatch(key),
// MayMatch(num_keys, keys, may_match), HashMayMatch(hash). Only the slots used here are
// declared; later ones are left out. The benchmark checks the layout every run: RocksDB's bytes
// must equal sstfilter's and its answers sstfilter's answers.
#pragma once

#include <rocksdb/filter_policy.h>
#include <rocksdb/slice.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace sstfilter::bench {

class RocksDbBitsBuilder {
 public:
  virtual ~RocksDbBitsBuilder() = default;
  virtual void AddKey(const rocksdb::Slice& key) = 0;
  virtual size_t EstimateEntriesAdded() = 0;
  // The filter, owned by *buf.
  virtual rocksdb::Slice Finish(std::unique_ptr<const char[]>* buf) = 0;
};

class RocksDbBitsReader {
 public:
  virtual ~RocksDbBitsReader() = default;
  virtual bool MayMatch(const rocksdb::Slice& key) = 0;
  // MultiGet's batched probe: may_match[i] for *keys[i].
  virtual void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) = 0;
  virtual bool HashMayMatch(uint64_t hash) = 0;
};

inline std::unique_ptr<RocksDbBitsBuilder> AsBuilder(rocksdb::FilterBitsBuilder* builder) {
  return std::unique_ptr<RocksDbBitsBuilder>(reinterpret_cast<RocksDbBitsBuilder*>(builder));
}

inline std::unique_ptr<RocksDbBitsReader> AsReader(rocksdb::FilterBitsReader* reader) {
  return std::unique_ptr<RocksDbBitsReader>(reinterpret_cast<RocksDbBitsReader*>(reader));
}

}  // namespace sstfilter::bench
