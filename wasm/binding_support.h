// Shared by every Embind translation unit in wasm/: linear-memory views, the last-error slot and
// the live-handle count. Nothing in the bindings throws (the modules have no C++ exception
// support): a failing call returns a null handle / null result and leaves its Status in the
// last-error slot, which ts/core/heap.ts turns into an SstFilterError.
#pragma once

#include <emscripten/val.h>
#include <emscripten/wire.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "sstfilter/bytes.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/status.h"

namespace sstfilter::wasm {

inline const uint8_t* AsBytes(uintptr_t address) {
  return reinterpret_cast<const uint8_t*>(address);
}

inline ByteView View(uintptr_t address, size_t size) { return ByteView(AsBytes(address), size); }

inline Bytes Copy(uintptr_t address, size_t size) {
  return Bytes(AsBytes(address), AsBytes(address) + size);
}

inline KeyBatchView Batch(uintptr_t data, size_t data_size, uintptr_t offsets, size_t count) {
  return KeyBatchView(AsBytes(data), data_size, reinterpret_cast<const uint32_t*>(offsets), count);
}

// A copy of `values` as a JavaScript typed array owned by JavaScript: Uint8Array, Uint32Array or
// Float64Array after the element type.
template <typename T>
emscripten::val ToTypedArray(std::span<const T> values) {
  static_assert(std::is_same_v<T, uint8_t> || std::is_same_v<T, uint32_t> ||
                std::is_same_v<T, double>);
  const char* type = std::is_same_v<T, uint8_t>    ? "Uint8Array"
                     : std::is_same_v<T, uint32_t> ? "Uint32Array"
                                                   : "Float64Array";
  return emscripten::val::global(type)
      .new_(emscripten::typed_memory_view(values.size(), values.data()))
      .template call<emscripten::val>("slice");
}

inline emscripten::val ToUint8Array(ByteView bytes) { return ToTypedArray(bytes); }

// Stores `status` in the last-error slot; returns false so callers can `return Fail(...)`.
bool Fail(Status status);

// Counts handles alive on the wasm side, so tests can prove that dispose() and the
// FinalizationRegistry free what they should. Every handle class holds one.
class LiveHandleCount {
 public:
  LiveHandleCount();
  ~LiveHandleCount();
  LiveHandleCount(const LiveHandleCount&) = delete;
  LiveHandleCount& operator=(const LiveHandleCount&) = delete;
  // Handles alive now (wasm/testing exposes it to the leak tests).
  static int alive();
};

}  // namespace sstfilter::wasm
