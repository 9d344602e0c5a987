// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzLogReader (harnesses.h).
#include "harnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzLogReader(data, size);
  return 0;
}
