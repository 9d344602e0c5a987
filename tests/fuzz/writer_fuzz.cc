// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzTableWriter (writer_harness.h).
#include "writer_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzTableWriter(data, size);
  return 0;
}
