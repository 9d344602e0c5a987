// The one place C++ values become JavaScript values for the public shapes of ts/api (the names the
// README and ts/api/index.ts export): the bindings build those objects with these, so TypeScript
// takes them as they come, without copying or renaming a field. Every 64-bit number whose public
// type is bigint crosses as a BigInt; the few whose public type is number (file offsets and sizes)
// as a number.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "sstfilter/status.h"

namespace sstfilter::wasm {

// A 64-bit number as a JavaScript BigInt, the whole range exact. The modules are linked with
// -sWASM_BIGINT, under which embind registers uint64_t as a BigInt type whose values it reads from
// the heap as unsigned (emscripten 3.1.6 src/embind/embind.js _embind_register_bigint,
// integerReadValueFromPointer): val(uint64_t) is that BigInt. Embind functions taking a uint64_t
// take a BigInt the same way.
inline emscripten::val BigIntOf(uint64_t number) { return emscripten::val(number); }

// A file offset or size as a JavaScript number, for the public fields typed number (WalEnd.offset,
// DatabaseFile.size...): files are far below 2^53 bytes, where a double is exact, and the public
// types keep number there so callers index and add them as before.
inline emscripten::val NumberOf(uint64_t number) {
  return emscripten::val(static_cast<double>(number));
}

// A JavaScript array of `marshal(item)` for each item of `items`, in order.
template <typename Items, typename Marshal>
emscripten::val ArrayOf(const Items& items, Marshal marshal) {
  emscripten::val out = emscripten::val::array();
  for (const auto& item : items) out.call<void>("push", marshal(item));
  return out;
}

// `status` (not ok) as the caller's error: `make_error(code, message, offset)` is a JavaScript
// function (ts/api builds an SstFilterError naming the file), the offset a number as
// SstFilterError.offset is.
inline emscripten::val ErrorOf(const Status& status, const emscripten::val& make_error) {
  return make_error(std::string(ErrorCodeName(status.code())), status.message(),
                    static_cast<double>(static_cast<uint64_t>(status.offset())));
}

}  // namespace sstfilter::wasm
