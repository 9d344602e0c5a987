// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzTableGet (table_get_harness.h).
#include "table_get_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzTableGet(data, size);
  return 0;
}
