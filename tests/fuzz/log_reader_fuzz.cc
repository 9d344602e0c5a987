// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzLogReader (log_reader_harness.h).
#include "log_reader_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzLogReader(data, size);
  return 0;
}
