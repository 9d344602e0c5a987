// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzIndexedDbKey
// (indexeddb_key_harness.h).
#include "indexeddb_key_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzIndexedDbKey(data, size);
  return 0;
}
