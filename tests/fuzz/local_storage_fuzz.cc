// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzLocalStorage
// (local_storage_harness.h).
#include "local_storage_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzLocalStorage(data, size);
  return 0;
}
