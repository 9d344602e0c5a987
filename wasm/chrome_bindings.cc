// Embind bindings for the Chrome store decoders (sstfilter/chrome_stores.h) and the IndexedDB
// comparator (sstfilter/comparator.h IndexedDbComparator): each decoder returns its record's JSON
// text as a string, or null with the Status in the last-error slot (binding_support.h).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "binding_support.h"
#include "sstfilter/chrome_stores.h"
#include "sstfilter/comparator.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

val JsonOrNull(Status status, const std::string& json) {
  if (!status.ok()) {
    Fail(std::move(status));
    return val::null();
  }
  return val(json);
}

// One IndexedDB record ([key, key + key_size), [value, value + value_size)) as JSON.
val DecodeIndexedDbRecordAt(uintptr_t key, size_t key_size, uintptr_t value, size_t value_size) {
  std::string json;
  Status s = DecodeIndexedDbRecord(View(key, key_size), View(value, value_size), &json);
  return JsonOrNull(std::move(s), json);
}

// The same with the record's blob entry value (empty: none), for Blob and File details.
val DecodeIndexedDbRecordWithBlobsAt(uintptr_t key, size_t key_size, uintptr_t value,
                                     size_t value_size, uintptr_t blobs, size_t blobs_size) {
  std::string json;
  Status s = DecodeIndexedDbRecord(View(key, key_size), View(value, value_size),
                                   View(blobs, blobs_size), &json);
  return JsonOrNull(std::move(s), json);
}

// A Blink SerializedScriptValue (a blob-wrapped IndexedDB value's file) as tagged JSON.
val DecodeSerializedScriptValueAt(uintptr_t data, size_t size) {
  std::string json;
  Status s = DecodeSerializedScriptValue(View(data, size), &json);
  return JsonOrNull(std::move(s), json);
}

val DecodeLocalStorageRecordAt(uintptr_t key, size_t key_size, uintptr_t value, size_t value_size) {
  std::string json;
  Status s = DecodeLocalStorageRecord(View(key, key_size), View(value, value_size), &json);
  return JsonOrNull(std::move(s), json);
}

val DecodeSessionStorageRecordAt(uintptr_t key, size_t key_size, uintptr_t value,
                                 size_t value_size) {
  std::string json;
  Status s = DecodeSessionStorageRecord(View(key, key_size), View(value, value_size), &json);
  return JsonOrNull(std::move(s), json);
}

// idb_cmp1 over two user keys: -1, 0 or 1 (0 also for keys Chromium cannot decode).
int CompareIndexedDbKeysAt(uintptr_t a, size_t a_size, uintptr_t b, size_t b_size) {
  return IndexedDbComparator().Compare(View(a, a_size), View(b, b_size));
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_chrome) {
  using namespace sstfilter::wasm;
  emscripten::function("decodeIndexedDbRecord", &DecodeIndexedDbRecordAt);
  emscripten::function("decodeIndexedDbRecordWithBlobs", &DecodeIndexedDbRecordWithBlobsAt);
  emscripten::function("decodeSerializedScriptValue", &DecodeSerializedScriptValueAt);
  emscripten::function("decodeLocalStorageRecord", &DecodeLocalStorageRecordAt);
  emscripten::function("decodeSessionStorageRecord", &DecodeSessionStorageRecordAt);
  emscripten::function("compareIndexedDbKeys", &CompareIndexedDbKeysAt);
}
