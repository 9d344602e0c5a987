// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzTable (table_harness.h).
#include "table_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzTable(data, size);
  return 0;
}
