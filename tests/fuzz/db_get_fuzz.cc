// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzDbGet (db_get_harness.h).
#include "db_get_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzDbGet(data, size);
  return 0;
}
