// Decoders for the records of Chrome's stores (docs/FORMATS.md 7): IndexedDB
// (Default/IndexedDB/<origin>.indexeddb.leveldb, LevelDB with the comparator idb_cmp1),
// localStorage (Default/Local Storage/leveldb) and sessionStorage (Default/Session Storage). Each
// takes one record's user key and value (the latest version of the key, as a LevelDB read gives it)
// and writes one JSON text describing it. Values and IDB keys use the tagged JSON of
// docs/FORMATS.md 7.5: plain JSON where JSON can say it, else a one-member object whose name
// starts with "$". Nothing here reads outside the given bytes, recurses deeper than the limits, or
// allocates more than they allow; every failure is a typed Status with the offset of the byte it is
// about (within the value for value errors, within the key for key errors).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

// Bounds on what one value may make the decoders do.
struct ChromeDecodeLimits {
  size_t max_depth = 256;                             // nesting of V8 objects/arrays/maps/sets
  size_t max_output_bytes = size_t{64} << 20;         // JSON text of one record
  size_t max_array_length = size_t{1} << 24;          // elements written for one (sparse) array
  size_t max_bigint_bytes = size_t{1} << 16;          // digits of one BigInt
  size_t max_decompressed_bytes = size_t{256} << 20;  // a Snappy-wrapped value, uncompressed
};

// The V8 value serializer's wire format (v8 src/objects/value-serializer.cc), versions 13 to 16,
// from the byte after its header (`version` is the header's): one value as tagged JSON. Blink host
// objects of IndexedDB values (Blob and File indexes) become {"$blob": {"kind", "index"}}; other
// host objects, shared objects, WebAssembly, errors and transfers are kUnsupported naming the tag
// and its offset. Object back-references repeat the referenced value's JSON; a reference to an
// object still being read (a cycle) is kUnsupported. Offsets are within `data`.
Status DecodeV8Value(ByteView data, uint32_t version, std::string* json,
                     const ChromeDecodeLimits& limits = {});

// A Blink SerializedScriptValue (third_party/blink/renderer/bindings/core/v8/serialization): the
// Blink envelope (0xFF, version; from 21 the 0xFE trailer offset and size), V8's header (0xFF,
// version), then the value, as DecodeV8Value. Offsets are within `ssv`.
Status DecodeSerializedScriptValue(ByteView ssv, std::string* json,
                                   const ChromeDecodeLimits& limits = {});

// An encoded IDB key (EncodeIDBKey of content/browser/indexed_db/indexed_db_leveldb_coding.cc) as
// tagged JSON: number, {"$date": ms}, string, {"$binary": hex}, array. The whole view must be the
// key. kCorrupt with the offset where it stops decoding.
Status DecodeIndexedDbKey(ByteView encoded_key, std::string* json);

// One record of an IndexedDB LevelDB database (user key without LevelDB's 8-byte tag, value) as a
// JSON object. Always "kind" (indexeddb_coding.h KeyKindName: "schemaVersion", "maxDatabaseId",
// "dataVersion", "recoveryBlobJournal", "activeBlobJournal", "earliestSweepTime",
// "earliestCompactionTime", "scopes", "databaseFreeList", "databaseName", "databaseMetadata",
// "objectStoreMetadata", "indexMetadata", "objectStoreFreeList", "indexFreeList",
// "objectStoreNames", "indexNames", "objectStoreData", "existsEntry", "blobEntry", "indexData"),
// then per kind (docs/FORMATS.md 7.5 lists them): "databaseId", "objectStoreId", "indexId",
// "origin", "name", "metadata" (the metadata field's name), "value", "key" and "primaryKey" (tagged
// IDB keys), "sequenceNumber", "version", "wrapping" ("snappy" or "blob" when Blink wrapped the
// value), "blobs" (a blob entry's external objects). Key errors have offsets in the key; value
// errors are offset by nothing (offsets within the value).
Status DecodeIndexedDbRecord(ByteView key, ByteView value, std::string* json,
                             const ChromeDecodeLimits& limits = {});
// The same, for an object store record, with the value of its blob entry (the key with index id 3
// in place of 1; empty for none): {"$blob"} values then also carry "type", "size" and, for files,
// "name" from it, as the page reads them. Other kinds ignore `blob_entry_value`.
Status DecodeIndexedDbRecord(ByteView key, ByteView value, ByteView blob_entry_value,
                             std::string* json, const ChromeDecodeLimits& limits = {});

// One record of the localStorage LevelDB (components/services/storage/dom_storage
// local_storage_impl.cc): {"kind": "version", "value"} for "VERSION"; {"kind": "meta" or
// "metaAccess", "origin", "lastModified"/"lastAccessed", "sizeBytes"} for the META: and
// METAACCESS: protobufs; {"kind": "item", "origin", "key", "value"} for "_<origin>\0<key>" with
// key and value each after a format byte (0 UTF-16LE, 1 Latin-1). kCorrupt for other records.
Status DecodeLocalStorageRecord(ByteView key, ByteView value, std::string* json);

// One record of the sessionStorage LevelDB (components/services/storage/dom_storage
// session_storage_metadata.cc): {"kind": "version", "value"}, {"kind": "nextMapId", "value"},
// {"kind": "namespace", "namespace" (the guid), "origin", "mapId"} and {"kind": "item", "mapId",
// "key", "value"} for "map-<id>-<key>" (key and value UTF-16LE, without a format byte).
Status DecodeSessionStorageRecord(ByteView key, ByteView value, std::string* json);

}  // namespace sstfilter
