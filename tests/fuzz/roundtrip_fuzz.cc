// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzRoundTrip (roundtrip_harness.h).
#include "roundtrip_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzRoundTrip(data, size);
  return 0;
}
