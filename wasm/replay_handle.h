// A write-ahead log replay held in wasm memory (wasm/recovery_bindings.cc): the memtable the
// database Get (wasm/db_get_bindings.cc) looks keys up in lives as long as the handle.
#pragma once

#include "sstfilter/wal_recovery.h"

namespace sstfilter::wasm {

class ReplayHandle;
// The replay behind `handle`, valid while the handle lives.
const WalReplay& ReplayOf(const ReplayHandle& handle);

}  // namespace sstfilter::wasm
