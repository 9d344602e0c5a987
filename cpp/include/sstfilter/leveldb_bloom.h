// LevelDB's Bloom filter, leveldb.BuiltinBloomFilter2 (docs/FORMATS.md 2.2; LevelDB util/bloom.cc).
// One filter = a bit array of max(64, n * bits_per_key) bits rounded up to whole bytes, followed
// by one byte holding the number of probes.
#pragma once

#include "sstfilter/bytes.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/status.h"

namespace sstfilter {

// k = bits_per_key * ln 2, truncated, clamped to [1, 30] (util/bloom.cc BloomFilterPolicy).
int LevelDbBloomNumProbes(int bits_per_key);

// Appends one filter for `keys` to *out, exactly as BloomFilterPolicy::CreateFilter does: every
// key is hashed, duplicates included. Fails only on a filter larger than the resource limit.
Status AppendLevelDbBloomFilter(const KeyBatchView& keys, int bits_per_key, Bytes* out);

// BloomFilterPolicy::KeyMayMatch: an empty filter matches nothing, a probe count above 30 (a
// reserved encoding) matches everything.
bool LevelDbBloomMayMatch(ByteView filter, ByteView key);

}  // namespace sstfilter
