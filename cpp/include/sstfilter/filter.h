// The format-independent face of a filter: what kind it is, and may-match queries, single or
// batched. A reader owns its copy of the filter bytes (contents()), the only one a table keeps. A
// reader never answers "definitely not" for bytes it cannot interpret: where upstream's reader
// would answer "may match" (reserved or corrupt metadata), so does the reader here (kind
// kAlwaysMatch).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/status.h"

namespace sstfilter {

enum class FilterKind : uint8_t {
  kLevelDbBloom,
  kRocksDbLegacyBloom,
  kRocksDbFastLocalBloom,
  kRocksDbRibbon,
  kAlwaysMatch,
  kNeverMatch,
};

// The TypeScript name of a kind ("leveldb-bloom", "rocksdb-bloom", ...).
const char* FilterKindName(FilterKind kind);

// What a reader learned from the filter's own bytes, for viewers and `t.filter`.
struct FilterInfo {
  FilterKind kind = FilterKind::kAlwaysMatch;
  uint32_t num_probes = 0;     // Bloom kinds; 0 otherwise
  uint32_t data_bytes = 0;     // bytes of bit array / solution, without metadata
  uint32_t block_bytes = 0;    // cache line / block size for RocksDB Bloom kinds; 0 otherwise
  uint32_t ribbon_seed = 0;    // Ribbon only
  uint32_t ribbon_blocks = 0;  // Ribbon only
};

class FilterReader {
 public:
  virtual ~FilterReader() = default;

  virtual FilterInfo info() const = 0;
  FilterKind kind() const { return info().kind; }

  // The filter's bytes as stored, exactly as the reader was opened with them.
  virtual ByteView contents() const = 0;

  // Ok when this build can answer queries for the filter. A recognised format that is not
  // implemented yet reports kUnsupported here (its MayMatch then answers "may match").
  virtual Status ProbeSupport() const { return Status::Ok(); }

  virtual bool MayMatch(ByteView key) const = 0;

  // results[i] = 1 when keys[i] may be in the filter, 0 when it is definitely not. Same answers as
  // MayMatch; formats with a batched kernel override this.
  virtual void MayMatchBatch(const KeyBatchView& keys, uint8_t* results) const;

  // FastLocalBloom and Ribbon key everything by Xxph3Hash64(key, 0), so they can answer from
  // precomputed hashes (RocksDB's HashMayMatch): results[i] for hashes[i], same answers as for the
  // keys. Returns false, writing nothing, for kinds keyed by another hash.
  virtual bool MayMatchHashes(const uint64_t* hashes, size_t n, uint8_t* results) const;
};

// A reader that gives one answer to every key: RocksDB's always-true / always-false readers.
// `contents`: the bytes it answers for (bytes that read as such a filter), kept for contents().
std::unique_ptr<FilterReader> MakeConstantFilterReader(bool may_match, Bytes contents = {});

enum class FilterFormat : uint8_t {
  kLevelDbBloom,           // leveldb.BuiltinBloomFilter2
  kRocksDbLegacyBloom,     // RocksDB full filter, format_version < 5
  kRocksDbFastLocalBloom,  // RocksDB FastLocalBloom, format_version >= 5
  kRocksDbRibbon,          // RocksDB Standard128Ribbon (NewRibbonFilterPolicy)
};

// The name TypeScript and the tools use for a format: "leveldb", "rocksdb-legacy-bloom",
// "rocksdb-bloom", "rocksdb-ribbon".
const char* FilterFormatName(FilterFormat format);

struct BuildOptions {
  FilterFormat format = FilterFormat::kRocksDbFastLocalBloom;
  // As the format's own policy constructor takes it: an integer for LevelDB, a double for RocksDB.
  double bits_per_key = 10.0;
};

// Checks options before any work: finite, > 0, at most kMaxBitsPerKey, whole for LevelDB, and at
// least 0.5 for RocksDB (below that RocksDB writes no filter at all).
inline constexpr double kMaxBitsPerKey = 1000.0;
Status ValidateBuildOptions(const BuildOptions& options);

// Builds exactly the bytes the upstream builder stores for these keys, added in this order.
Status BuildFilter(const KeyBatchView& keys, const BuildOptions& options, Bytes* out);

// BuildFilter for `format` at each of `bits_per_key`, (*out)[i] for bits_per_key[i]: the same
// bytes, built for less than one build each where the work allows: FastLocalBloom hashes the keys
// once, Standard128Ribbon also bands them once (BuildRocksDbRibbons); the other formats are built
// one by one. Every bits per key is validated first; the first failure is returned, the filters
// then unspecified. `ribbon_bloom_fallback` false: Standard128Ribbon without RocksDB's Bloom
// fallback (BuildRocksDbRibbons); the other formats have none.
Status BuildFilters(const KeyBatchView& keys, FilterFormat format,
                    std::span<const double> bits_per_key, std::vector<Bytes>* out,
                    bool ribbon_bloom_fallback = true);

// Opens a filter's bytes. LevelDB filters carry no format marker, so the caller says which family
// the bytes belong to; RocksDB readers dispatch on the metadata trailer as
// GetBuiltinFilterBitsReader does (docs/FORMATS.md 2.10).
std::unique_ptr<FilterReader> OpenLevelDbFilter(Bytes filter);
std::unique_ptr<FilterReader> OpenRocksDbFilter(Bytes filter);

}  // namespace sstfilter
