#include "binding_support.h"

#include <emscripten/bind.h>
#include <malloc.h>

namespace sstfilter::wasm {
namespace {

Status last_error;
int live_handles = 0;

std::string LastErrorCode() { return ErrorCodeName(last_error.code()); }
std::string LastErrorMessage() { return last_error.message(); }
double LastErrorOffset() { return static_cast<double>(last_error.offset()); }
int LiveHandles() { return live_handles; }
// Bytes allocated and not yet freed, for leak tests: HEAPU8 keeps the size the heap once grew to,
// so free space there can hide a leak that this count shows.
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

emscripten::val ToUint8Array(ByteView bytes) {
  return emscripten::val::global("Uint8Array")
      .new_(emscripten::typed_memory_view(bytes.size(), bytes.data()))
      .call<emscripten::val>("slice");
}

bool Fail(Status status) {
  last_error = std::move(status);
  return false;
}

LiveHandleCount::LiveHandleCount() { ++live_handles; }
LiveHandleCount::~LiveHandleCount() { --live_handles; }

}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_support) {
  using namespace sstfilter::wasm;
  emscripten::function("lastErrorCode", &LastErrorCode);
  emscripten::function("lastErrorMessage", &LastErrorMessage);
  emscripten::function("lastErrorOffset", &LastErrorOffset);
  emscripten::function("liveHandles", &LiveHandles);
  emscripten::function("heapInUse", &HeapInUse);
}
