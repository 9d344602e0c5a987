// What a RocksDB point lookup got from a table's filter, read from the Statistics tickers the
// lookup moved (RocksDB table/block_based/block_based_table_reader.cc, FullFilterKeyMayMatch and
// its tickers). Shared by the sections whose answers come from a DB's Get.
#pragma once

#include <rocksdb/statistics.h>

#include <cstdint>

#include "corpus_io.h"

namespace corpus {

// Runs `get` (one DB::Get) and returns 0 the filter said no, 1 maybe, 2 not consulted.
template <typename Get>
uint8_t GetFilterAnswer(rocksdb::Statistics& st, const Get& get) {
  const uint64_t useful = st.getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
  const uint64_t positive = st.getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
  get();
  const uint64_t d_useful = st.getTickerCount(rocksdb::BLOOM_FILTER_USEFUL) - useful;
  const uint64_t d_positive = st.getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE) - positive;
  if (d_useful + d_positive > 1) Fail("one Get consulted more than one filter");
  return d_useful ? 0 : d_positive ? 1 : 2;
}

}  // namespace corpus
