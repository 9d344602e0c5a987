// Embind bindings for the value decoders (sstfilter/values.h, sstfilter/embedded_blobs.h): blob
// indexes, wide-column entities and the embedded blob stats property in the public shapes of
// ts/api/values.ts (BlobIndex, WideColumn, EmbeddedBlobStats), built through wasm/marshal.h (64-bit
// numbers as BigInts).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "binding_support.h"
#include "marshal.h"
#include "sstfilter/embedded_blobs.h"
#include "sstfilter/values.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

// A BlobIndex: { type, expiration?, value? } or { type, fileNumber, offset, size, compression,
// compressionType, expiration? }, its fields in the interface's order.
val BlobIndexOf(const BlobIndex& index) {
  val out = val::object();
  out.set("type", std::string(BlobIndexTypeName(index.type)));
  if (index.type != BlobIndex::Type::kInlinedTtl) {
    out.set("fileNumber", BigIntOf(index.file_number));
    out.set("offset", BigIntOf(index.offset));
    out.set("size", BigIntOf(index.size));
    out.set("compression", std::string(CompressionTypeName(index.compression)));
    out.set("compressionType", index.compression);
  }
  if (index.type != BlobIndex::Type::kBlob) out.set("expiration", BigIntOf(index.expiration));
  if (index.type == BlobIndex::Type::kInlinedTtl) out.set("value", ToUint8Array(index.value));
  return out;
}

// The blob index at [value, value + size); null on error (last error).
val DecodeBlobIndexAt(uintptr_t value, size_t size) {
  BlobIndex index;
  if (Status s = DecodeBlobIndex(View(value, size), &index); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  return BlobIndexOf(index);
}

// The columns of the entity at [value, value + size) as WideColumns; null on error (last error).
val DecodeWideColumnsAt(uintptr_t value, size_t size) {
  std::vector<WideColumn> columns;
  if (Status s = DecodeWideColumns(View(value, size), &columns); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  val out = val::array();
  for (const WideColumn& column : columns) {
    val entry = val::object();
    entry.set("name", ToUint8Array(column.name));
    entry.set("value", ToUint8Array(column.value));
    if (column.blob_index) entry.set("blobIndex", BlobIndexOf(*column.blob_index));
    out.call<void>("push", entry);
  }
  return out;
}

// The rocksdb.embedded.blob.stats value at [value, value + size) as EmbeddedBlobStats; null on
// error (last error).
val DecodeEmbeddedBlobStatsAt(uintptr_t value, size_t size) {
  EmbeddedBlobStats stats;
  if (Status s = DecodeEmbeddedBlobStats(View(value, size), &stats); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  val out = val::object();
  out.set("blobCount", BigIntOf(stats.blob_count));
  out.set("payloadBytes", BigIntOf(stats.payload_bytes));
  return out;
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_values) {
  using namespace sstfilter::wasm;
  emscripten::function("decodeBlobIndex", &DecodeBlobIndexAt);
  emscripten::function("decodeWideColumns", &DecodeWideColumnsAt);
  emscripten::function("decodeEmbeddedBlobStats", &DecodeEmbeddedBlobStatsAt);
}
