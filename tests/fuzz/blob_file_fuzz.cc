// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzBlobFile (blob_file_harness.h).
#include "blob_file_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzBlobFile(data, size);
  return 0;
}
