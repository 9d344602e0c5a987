// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzLocalStorage (chrome_harnesses.h).
#include "chrome_harnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzLocalStorage(data, size);
  return 0;
}
