// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzValues (values_harness.h).
#include "values_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzValues(data, size);
  return 0;
}
