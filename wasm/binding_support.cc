#include "binding_support.h"

#include <emscripten/bind.h>

namespace sstfilter::wasm {
namespace {

Status last_error;
int live_handles = 0;

std::string LastErrorCode() { return ErrorCodeName(last_error.code()); }
std::string LastErrorMessage() { return last_error.message(); }
double LastErrorOffset() { return static_cast<double>(last_error.offset()); }

}  // namespace

bool Fail(Status status) {
  last_error = std::move(status);
  return false;
}

LiveHandleCount::LiveHandleCount() { ++live_handles; }
LiveHandleCount::~LiveHandleCount() { --live_handles; }
int LiveHandleCount::alive() { return live_handles; }

}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_support) {
  using namespace sstfilter::wasm;
  emscripten::function("lastErrorCode", &LastErrorCode);
  emscripten::function("lastErrorMessage", &LastErrorMessage);
  emscripten::function("lastErrorOffset", &LastErrorOffset);
}
