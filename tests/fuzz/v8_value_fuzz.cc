// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzV8Value (v8_value_harness.h).
#include "v8_value_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzV8Value(data, size);
  return 0;
}
