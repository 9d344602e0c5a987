// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzWriteBatch (write_batch_harness.h).
#include "write_batch_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzWriteBatch(data, size);
  return 0;
}
