// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzV8Value (chrome_harnesses.h).
#include "chrome_harnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzV8Value(data, size);
  return 0;
}
