// Chromium's IndexedDB key space in LevelDB (docs/FORMATS.md 7): the key prefix, the key kinds,
// encoded IDB keys and the order of the comparator "idb_cmp1". The facts come from Chromium's
// content/browser/indexed_db/indexed_db_leveldb_coding.{h,cc} (KeyPrefix, the *Key classes,
// EncodeIDBKey/DecodeIDBKey, CompareEncodedIDBKeys, Compare) and
// components/services/storage/indexed_db/scopes/varint_coding.cc (DecodeVarInt); the code is
// written here from those facts. Every function reads only inside the views it is given, whatever
// the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter::indexeddb {

// blink::IndexedDBKey::kMaximumDepth: the deepest array nesting Chromium encodes. Decoding and
// comparing refuse deeper input (Chromium would recurse without bound; no valid key is deeper).
inline constexpr size_t kMaxKeyDepth = 2000;

// Type bytes of an encoded IDB key (indexed_db_leveldb_coding.cc kIndexedDBKey*TypeByte).
inline constexpr uint8_t kKeyNullType = 0;  // "max key" in comparisons, never a stored key
inline constexpr uint8_t kKeyStringType = 1;
inline constexpr uint8_t kKeyDateType = 2;
inline constexpr uint8_t kKeyNumberType = 3;
inline constexpr uint8_t kKeyArrayType = 4;
inline constexpr uint8_t kKeyMinKeyType = 5;
inline constexpr uint8_t kKeyBinaryType = 6;

// Index ids of the key prefix with a fixed meaning; user indexes start at kMinimumIndexId.
inline constexpr int64_t kObjectStoreDataIndexId = 1;
inline constexpr int64_t kExistsEntryIndexId = 2;
inline constexpr int64_t kBlobEntryIndexId = 3;
inline constexpr int64_t kMinimumIndexId = 30;

// Global metadata type bytes (after the all-zero prefix).
inline constexpr uint8_t kSchemaVersionTypeByte = 0;
inline constexpr uint8_t kMaxDatabaseIdTypeByte = 1;
inline constexpr uint8_t kDataVersionTypeByte = 2;
inline constexpr uint8_t kRecoveryBlobJournalTypeByte = 3;
inline constexpr uint8_t kActiveBlobJournalTypeByte = 4;
inline constexpr uint8_t kEarliestSweepTimeTypeByte = 5;
inline constexpr uint8_t kEarliestCompactionTimeTypeByte = 6;
inline constexpr uint8_t kMaxSimpleGlobalMetaDataTypeByte = 7;
inline constexpr uint8_t kScopesPrefixByte = 50;
inline constexpr uint8_t kDatabaseFreeListTypeByte = 100;
inline constexpr uint8_t kDatabaseNameTypeByte = 201;

// Database metadata type bytes (after a prefix with only the database id).
inline constexpr uint8_t kOriginNameMeta = 0;
inline constexpr uint8_t kDatabaseNameMeta = 1;
inline constexpr uint8_t kUserStringVersionMeta = 2;
inline constexpr uint8_t kMaxObjectStoreIdMeta = 3;
inline constexpr uint8_t kUserVersionMeta = 4;
inline constexpr uint8_t kBlobKeyGeneratorCurrentNumberMeta = 5;
inline constexpr uint8_t kMaxSimpleDatabaseMetaType = 6;
inline constexpr uint8_t kObjectStoreMetaDataTypeByte = 50;
inline constexpr uint8_t kIndexMetaDataTypeByte = 100;
inline constexpr uint8_t kObjectStoreFreeListTypeByte = 150;
inline constexpr uint8_t kIndexFreeListTypeByte = 151;
inline constexpr uint8_t kObjectStoreNamesTypeByte = 200;
inline constexpr uint8_t kIndexNamesKeyTypeByte = 201;

// DecodeVarInt of varint_coding.cc: little-endian base-128, at most 64 bits; refuses a zero byte
// after the first and bits shifted past 64. Advances *in on success only.
bool DecodeVarInt(ByteView* in, int64_t* value);
// DecodeInt: the whole (non-empty) view as a little-endian integer of up to 8 bytes.
// Inline: every comparison decodes three ids with it (DecodeKeyPrefix).
inline bool DecodeInt(ByteView in, int64_t* value) {
  if (in.empty() || in.size() > 8) return false;
  uint64_t result = 0;
  for (size_t i = 0; i < in.size(); ++i) result |= static_cast<uint64_t>(in[i]) << (8 * i);
  *value = static_cast<int64_t>(result);
  return true;
}
// An encoded double: the host's bytes (EncodeDouble), little-endian on every platform Chrome ships.
inline double LoadDouble(const uint8_t* p) {
  const uint64_t bits = DecodeFixed64(p);
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d;
}
// DecodeStringWithLength: varint count of UTF-16 code units, then UTF-16BE; false on an empty view.
bool DecodeStringWithLength(ByteView* in, std::u16string* value);
// DecodeString: the whole view as UTF-16BE (an odd last byte is left out, as Chromium does).
std::u16string DecodeString(ByteView in);

struct KeyPrefix {
  int64_t database_id = 0;
  int64_t object_store_id = 0;
  int64_t index_id = 0;
};

enum class PrefixType : uint8_t {
  kGlobalMetadata,    // database id 0
  kDatabaseMetadata,  // object store id 0
  kObjectStoreData,   // index id 1
  kExistsEntry,       // index id 2
  kBlobEntry,         // index id 3
  kIndexData,         // index id >= 30
  kInvalid,           // index id 0 (with a store), 4..29, or negative
};

// KeyPrefix::Decode: the first byte holds (database id bytes - 1) << 5 | (object store id bytes -
// 1) << 2 | (index id bytes - 1), then the three ids little-endian in those widths. Inline: every
// comparison decodes one or two.
inline bool DecodeKeyPrefix(ByteView* in, KeyPrefix* prefix) {
  if (in->empty()) return false;
  const uint8_t first = (*in)[0];
  const size_t database_bytes = ((first >> 5) & 0x7) + 1;
  const size_t object_store_bytes = ((first >> 2) & 0x7) + 1;
  const size_t index_bytes = (first & 0x3) + 1;
  if (1 + database_bytes + object_store_bytes + index_bytes > in->size()) return false;
  const uint8_t* p = in->data() + 1;
  DecodeInt(ByteView(p, database_bytes), &prefix->database_id);
  p += database_bytes;
  DecodeInt(ByteView(p, object_store_bytes), &prefix->object_store_id);
  p += object_store_bytes;
  DecodeInt(ByteView(p, index_bytes), &prefix->index_id);
  *in = in->subspan(1 + database_bytes + object_store_bytes + index_bytes);
  return true;
}
PrefixType TypeOf(const KeyPrefix& prefix);

// Moves *in past one encoded IDB key (ConsumeEncodedIDBKey, with the null and min types taking one
// byte); false where it is cut short, malformed or nested deeper than kMaxKeyDepth.
bool ConsumeEncodedIdbKey(ByteView* in);

// CompareEncodedIDBKeys: compares the encoded keys at the front of *a and *b and moves both past
// what it compared. Types order number < date < string < binary < array (the min key below all,
// the null type above all); strings as UTF-16BE bytes, binaries bytewise (both then by length),
// numbers and dates as doubles (NaN equal to everything), arrays element by element and then by
// the difference of their lengths truncated to int, as Chromium does. *ok is false where a
// payload is cut short or malformed (the result is then 0).
// Inline for two number keys, what most object stores hold; the rest in CompareKeysAt.
int CompareKeysAt(ByteView* a, ByteView* b, size_t depth, bool* ok);
inline int CompareEncodedIdbKeys(ByteView* a, ByteView* b, bool* ok) {
  if (a->size() >= 9 && b->size() >= 9 && (*a)[0] == kKeyNumberType && (*b)[0] == kKeyNumberType) {
    const double x = LoadDouble(a->data() + 1);
    const double y = LoadDouble(b->data() + 1);
    *a = a->subspan(9);
    *b = b->subspan(9);
    *ok = true;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  return CompareKeysAt(a, b, 0, ok);
}

// Compare(a, b, only_compare_index_keys, ok) of indexed_db_leveldb_coding.cc over whole user keys.
// *ok is false where Chromium's is: an undecodable prefix, an unknown metadata type at or above the
// simple types, a prefix of the invalid type, or a malformed key where a key class decodes both.
int CompareKeys(ByteView a, ByteView b, bool only_compare_index_keys, bool* ok);
// What the comparator idb_cmp1 answers: CompareKeys with only_compare_index_keys false, and 0
// where it is not ok (content::indexed_db::Compare: "TODO: Report this somehow").
inline int CompareKeys(ByteView a, ByteView b) {
  bool ok = false;
  const int result = CompareKeys(a, b, false, &ok);
  return ok ? result : 0;
}

// A decoded IDB key (DecodeIDBKey): never the null or min type.
struct IdbKey {
  enum class Type : uint8_t { kArray, kBinary, kString, kDate, kNumber };
  Type type = Type::kNumber;
  double number = 0;  // kNumber and kDate
  Bytes binary;
  std::u16string string;
  std::vector<IdbKey> array;
};

// DecodeIDBKey: false on the null and min types, on a cut-short or malformed key, and deeper than
// kMaxKeyDepth. Advances *in past the key on success.
bool DecodeIdbKey(ByteView* in, IdbKey* key);

// What a user key is (the kinds of Chromium's key classes).
enum class KeyKind : uint8_t {
  kSchemaVersion,
  kMaxDatabaseId,
  kDataVersion,
  kRecoveryBlobJournal,
  kActiveBlobJournal,
  kEarliestSweepTime,
  kEarliestCompactionTime,
  kScopes,  // the LevelDB scopes (undo log) records of components/services/storage/indexed_db
  kDatabaseFreeList,
  kDatabaseName,
  kDatabaseMetadata,  // one of the simple per-database records (origin name, name, versions, ...)
  kObjectStoreMetadata,
  kIndexMetadata,
  kObjectStoreFreeList,
  kIndexFreeList,
  kObjectStoreNames,
  kIndexNames,
  kObjectStoreData,
  kExistsEntry,
  kBlobEntry,
  kIndexData,
};

// The JSON name of a kind ("schemaVersion", "objectStoreData", ...).
const char* KeyKindName(KeyKind kind);

struct ParsedKey {
  KeyKind kind = KeyKind::kSchemaVersion;
  KeyPrefix prefix;
  uint8_t type_byte = 0;      // the metadata type byte (global and database metadata)
  uint8_t metadata_type = 0;  // the last byte of object store and index metadata keys
  int64_t database_id = -1;   // database free list
  int64_t object_store_id = -1;
  int64_t index_id = -1;
  std::u16string origin;  // database name keys
  std::u16string name;    // database, object store or index name
  ByteView user_key;      // the encoded IDB key (data, exists, blob entry, index data)
  bool has_sequence_number = false;
  int64_t sequence_number = -1;  // index data
  bool has_primary_key = false;
  ByteView primary_key;  // index data: the encoded primary key
  ByteView rest;         // scopes: the bytes after the scopes byte
};

// Decodes a user key as Chromium's key classes do. Errors: kCorrupt naming the offset of the first
// byte that does not decode (kUnsupported for a metadata type byte Chromium does not define).
Status ParseKey(ByteView key, ParsedKey* parsed);

}  // namespace sstfilter::indexeddb
