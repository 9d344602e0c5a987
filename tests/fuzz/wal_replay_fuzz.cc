// libFuzzer entry point; the harness is sstfilter::fuzz::FuzzWalReplay (wal_replay_harness.h).
#include "wal_replay_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::FuzzWalReplay(data, size);
  return 0;
}
