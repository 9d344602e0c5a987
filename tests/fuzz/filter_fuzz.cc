// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzFilter (filter_harness.h).
#include "filter_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzFilter(data, size);
  return 0;
}
