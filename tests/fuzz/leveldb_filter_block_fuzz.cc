// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzLevelDbFilterBlock
// (leveldb_filter_block_harness.h).
#include "leveldb_filter_block_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzLevelDbFilterBlock(data, size);
  return 0;
}
