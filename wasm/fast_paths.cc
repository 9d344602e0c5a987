// The calls made once per key or per batch, exported as plain wasm functions rather than through
// Embind: an Embind call with DYNAMIC_EXECUTION=0 (kept so that pages with a strict Content
// Security Policy can load the module) costs ~100-250 ns in V8, more than a probe itself. These
// take addresses in linear memory and plain numbers; 64-bit values are BigInts (WASM_BIGINT).
// Readers come from the Embind handles' readerAddress(); ts/api/filters.ts never passes one after
// its handle was disposed.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>

#include "binding_support.h"
#include "sstfilter/filter.h"
#include "sstfilter/hash.h"
#include "sstfilter/leveldb_filter_block.h"

using sstfilter::ByteView;
using sstfilter::ErrorCode;
using sstfilter::FilterReader;
using sstfilter::KeyBatchView;
using sstfilter::LevelDbFilterBlockReader;
using sstfilter::Status;
using sstfilter::wasm::Fail;

extern "C" {

EMSCRIPTEN_KEEPALIVE uint32_t sstfilter_leveldb_hash32(const uint8_t* data, size_t size,
                                                       uint32_t seed) {
  return sstfilter::LevelDbHash32(ByteView(data, size), seed);
}

EMSCRIPTEN_KEEPALIVE uint32_t sstfilter_rocksdb_hash32(const uint8_t* data, size_t size,
                                                       uint32_t seed) {
  return sstfilter::RocksDbLegacyHash32(ByteView(data, size), seed);
}

EMSCRIPTEN_KEEPALIVE uint64_t sstfilter_xxph3_64(const uint8_t* data, size_t size, uint64_t seed) {
  return sstfilter::Xxph3Hash64(ByteView(data, size), seed);
}

EMSCRIPTEN_KEEPALIVE uint64_t sstfilter_xxh3_64(const uint8_t* data, size_t size, uint64_t seed) {
  return sstfilter::Xxh3Hash64(ByteView(data, size), seed);
}

EMSCRIPTEN_KEEPALIVE uint64_t sstfilter_xxh64(const uint8_t* data, size_t size, uint64_t seed) {
  return sstfilter::Xxh64(ByteView(data, size), seed);
}

EMSCRIPTEN_KEEPALIVE uint32_t sstfilter_xxh32(const uint8_t* data, size_t size, uint32_t seed) {
  return sstfilter::Xxh32(ByteView(data, size), seed);
}

EMSCRIPTEN_KEEPALIVE uint32_t sstfilter_crc32c(const uint8_t* data, size_t size) {
  return sstfilter::Crc32c(ByteView(data, size));
}

EMSCRIPTEN_KEEPALIVE int sstfilter_may_match(const FilterReader* reader, const uint8_t* key,
                                             size_t size) {
  return reader->MayMatch(ByteView(key, size)) ? 1 : 0;
}

// Returns 0 after storing the error when the batch's offsets are malformed.
EMSCRIPTEN_KEEPALIVE int sstfilter_may_match_batch(const FilterReader* reader, const uint8_t* data,
                                                   size_t data_size, const uint32_t* offsets,
                                                   size_t count, uint8_t* results) {
  const KeyBatchView keys(data, data_size, offsets, count);
  if (Status s = keys.Validate(); !s.ok()) {
    Fail(std::move(s));
    return 0;
  }
  reader->MayMatchBatch(keys, results);
  return 1;
}

// hashes: n u64 (Xxph3Hash64 of the keys). Returns 0 after storing the error for kinds keyed by
// a 32-bit hash.
EMSCRIPTEN_KEEPALIVE int sstfilter_may_match_hashes(const FilterReader* reader,
                                                    const uint64_t* hashes, size_t n,
                                                    uint8_t* results) {
  if (reader->MayMatchHashes(hashes, n, results)) return 1;
  Fail(Status::Error(ErrorCode::kUnsupported,
                     std::string(sstfilter::FilterKindName(reader->kind())) +
                         " filters are keyed by a 32-bit hash, not by 64-bit hashes"));
  return 0;
}

// block_offset: a whole number below 2^53 (checked by ts/api/filters.ts).
EMSCRIPTEN_KEEPALIVE int sstfilter_filter_block_may_match(const LevelDbFilterBlockReader* reader,
                                                          double block_offset, const uint8_t* key,
                                                          size_t size) {
  return reader->KeyMayMatch(static_cast<uint64_t>(block_offset), ByteView(key, size)) ? 1 : 0;
}

}  // extern "C"
