// The order of a table whose writer stripped the user-defined timestamps from its keys
// (persist_user_defined_timestamps = false, RocksDB 8.4 and later; docs/FORMATS.md 3.4.1). Such a
// table records the timestamp comparator's name, but its stored user keys end without the
// timestamp: RocksDB reads them as if the minimum timestamp (all zero bytes) were appended
// (table/block_based/block.h, pad_min_timestamp_). Every key of the table then carries the same
// timestamp, so ordering the stored keys needs the comparator's key order alone.
#pragma once

#include "sstfilter/comparator.h"

namespace sstfilter {

// `order` (a comparator with timestamps) as it orders keys stored without them: the same name,
// key order and bytewise-ness, with timestamp_size() 0, so that nothing cuts a timestamp off a
// stored key.
ComparatorRef OrderOfKeysStoredWithoutTimestamps(ComparatorRef order);

}  // namespace sstfilter
