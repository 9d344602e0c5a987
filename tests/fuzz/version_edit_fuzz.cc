// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzVersionEdit (version_edit_harness.h).
#include "version_edit_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzVersionEdit(data, size);
  return 0;
}
