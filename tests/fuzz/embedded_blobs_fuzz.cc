// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzEmbeddedBlobs
// (embedded_blobs_harness.h).
#include "embedded_blobs_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzEmbeddedBlobs(data, size);
  return 0;
}
