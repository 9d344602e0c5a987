// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzBlock (block_harness.h).
#include "block_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzBlock(data, size);
  return 0;
}
