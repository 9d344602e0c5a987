// Chromium's IndexedDB key space (see indexeddb_coding.h): the key prefix, the metadata keys,
// the key kinds (KeyKindName, ParseKey) and the idb_cmp1 order (CompareKeys); the encoded IDB
// keys they hold are read by indexeddb_coding.cc. Moved out of indexeddb_coding.cc; each
// function notes the Chromium function it follows
// (content/browser/indexed_db/indexed_db_leveldb_coding.cc unless said otherwise).
#include <string>

#include "comparator/indexeddb_coding.h"
#include "comparator/indexeddb_coding_internal.h"

namespace sstfilter::indexeddb {

using internal::CompareInts;
using internal::CompareSizes;
using internal::Skip;

namespace {

// The Compare<KeyType> of Chromium for the metadata keys: each side decoded whole by its key
// class, any failure not ok.
struct MetaKey {
  int64_t first = -1;
  int64_t second = -1;
  uint8_t last = 0;
  std::u16string string_a;
  std::u16string string_b;
};

bool DecodeMetaKey(ByteView in, uint8_t type_byte, bool global, MetaKey* key) {
  KeyPrefix prefix;
  if (!DecodeKeyPrefix(&in, &prefix) || in.empty()) return false;
  in = Skip(in, 1);  // the type byte (Chromium DCHECKs it)
  if (global) {
    if (type_byte == kDatabaseFreeListTypeByte) return DecodeVarInt(&in, &key->first);
    return DecodeStringWithLength(&in, &key->string_a) &&
           DecodeStringWithLength(&in, &key->string_b);
  }
  switch (type_byte) {
    case kObjectStoreMetaDataTypeByte:
      if (!DecodeVarInt(&in, &key->first) || in.empty()) return false;
      key->last = in[0];
      return true;
    case kIndexMetaDataTypeByte:
      if (!DecodeVarInt(&in, &key->first) || !DecodeVarInt(&in, &key->second) || in.empty()) {
        return false;
      }
      key->last = in[0];
      return true;
    case kObjectStoreFreeListTypeByte:
      return DecodeVarInt(&in, &key->first);
    case kIndexFreeListTypeByte:
      return DecodeVarInt(&in, &key->first) && DecodeVarInt(&in, &key->second);
    case kObjectStoreNamesTypeByte:
      return DecodeStringWithLength(&in, &key->string_a);
    case kIndexNamesKeyTypeByte:
      return DecodeVarInt(&in, &key->first) && DecodeStringWithLength(&in, &key->string_a);
    default:
      return false;
  }
}

int CompareU16(const std::u16string& a, const std::u16string& b) {
  const int r = a.compare(b);
  return r < 0 ? -1 : (r > 0 ? 1 : 0);
}

int CompareMetaKeys(ByteView a, ByteView b, uint8_t type_byte, bool global, bool* ok) {
  MetaKey key_a;
  MetaKey key_b;
  if (!DecodeMetaKey(a, type_byte, global, &key_a) ||
      !DecodeMetaKey(b, type_byte, global, &key_b)) {
    *ok = false;
    return 0;
  }
  *ok = true;
  if (global) {
    if (type_byte == kDatabaseFreeListTypeByte) return CompareInts(key_a.first, key_b.first);
    // DatabaseNameKey::Compare: origin, then name.
    if (int x = CompareU16(key_a.string_a, key_b.string_a)) return x;
    return CompareU16(key_a.string_b, key_b.string_b);
  }
  switch (type_byte) {
    case kObjectStoreMetaDataTypeByte:
      if (int x = CompareInts(key_a.first, key_b.first)) return x;
      return key_a.last - key_b.last;
    case kIndexMetaDataTypeByte:
      if (int x = CompareInts(key_a.first, key_b.first)) return x;
      if (int x = CompareInts(key_a.second, key_b.second)) return x;
      return key_a.last - key_b.last;
    case kObjectStoreFreeListTypeByte:
      return CompareInts(key_a.first, key_b.first);
    case kIndexFreeListTypeByte:
      if (int x = CompareInts(key_a.first, key_b.first)) return x;
      return CompareInts(key_a.second, key_b.second);
    case kObjectStoreNamesTypeByte:
      return CompareU16(key_a.string_a, key_b.string_a);
    default:  // kIndexNamesKeyTypeByte
      if (int x = CompareInts(key_a.first, key_b.first)) return x;
      return CompareU16(key_a.string_a, key_b.string_a);
  }
}

// CompareSuffix<IndexDataKey>: index key, then (when both have more) the sequence numbers are
// read, the primary keys compared, and the sequence numbers compared last.
int CompareIndexDataSuffix(ByteView* a, ByteView* b, bool only_compare_index_keys, bool* ok) {
  int result = CompareEncodedIdbKeys(a, b, ok);
  if (!*ok || result) return result;
  if (only_compare_index_keys) return 0;
  int64_t sequence_a = -1;
  int64_t sequence_b = -1;
  // A sequence number that does not decode ends the comparison as "equal" with ok still true.
  if (!a->empty() && !DecodeVarInt(a, &sequence_a)) return 0;
  if (!b->empty() && !DecodeVarInt(b, &sequence_b)) return 0;
  if (a->empty() || b->empty()) return CompareSizes(a->size(), b->size());
  result = CompareEncodedIdbKeys(a, b, ok);
  if (!*ok || result) return result;
  return CompareInts(sequence_a, sequence_b);
}

// The metadata keys' part of Compare, after equal prefixes (`rest_a`, `rest_b`: what follows them).
// Out of line: its decoded keys hold strings, and the data keys' comparisons, by far the most
// frequent, should not pay for their frame.
[[gnu::noinline]] int CompareMetadataSuffix(ByteView a, ByteView b, ByteView rest_a,
                                            ByteView rest_b, PrefixType type, bool* ok) {
  const bool global = type == PrefixType::kGlobalMetadata;
  if (rest_a.empty() || rest_b.empty()) {
    *ok = false;
    return 0;
  }
  const uint8_t type_a = rest_a[0];
  const uint8_t type_b = rest_b[0];
  if (int x = type_a - type_b) return x;
  if (type_a < (global ? kMaxSimpleGlobalMetaDataTypeByte : kMaxSimpleDatabaseMetaType)) return 0;
  if (global && type_a == kScopesPrefixByte) return CompareBytes(Skip(rest_a, 1), Skip(rest_b, 1));
  const bool known =
      global ? (type_a == kDatabaseFreeListTypeByte || type_a == kDatabaseNameTypeByte)
             : (type_a == kObjectStoreMetaDataTypeByte || type_a == kIndexMetaDataTypeByte ||
                type_a == kObjectStoreFreeListTypeByte || type_a == kIndexFreeListTypeByte ||
                type_a == kObjectStoreNamesTypeByte || type_a == kIndexNamesKeyTypeByte);
  if (!known) {
    *ok = false;
    return 0;
  }
  return CompareMetaKeys(a, b, type_a, global, ok);
}

// A key prefix is at most 22 bytes: a loop beats a call to memcmp.
bool SamePrefixBytes(const uint8_t* a, const uint8_t* b, size_t size) {
  for (size_t i = 0; i < size; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

PrefixType TypeOf(const KeyPrefix& prefix) {
  if (prefix.database_id == 0) return PrefixType::kGlobalMetadata;
  if (prefix.object_store_id == 0) return PrefixType::kDatabaseMetadata;
  if (prefix.index_id == kObjectStoreDataIndexId) return PrefixType::kObjectStoreData;
  if (prefix.index_id == kExistsEntryIndexId) return PrefixType::kExistsEntry;
  if (prefix.index_id == kBlobEntryIndexId) return PrefixType::kBlobEntry;
  if (prefix.index_id >= kMinimumIndexId) return PrefixType::kIndexData;
  return PrefixType::kInvalid;
}

int CompareKeys(ByteView a, ByteView b, bool only_compare_index_keys, bool* ok) {
  ByteView slice_a = a;
  ByteView slice_b = b;
  KeyPrefix prefix_a;
  KeyPrefix prefix_b;
  const bool ok_a = DecodeKeyPrefix(&slice_a, &prefix_a);
  // Keys of one object store or index share their prefix bytes, and identical bytes decode to the
  // identical prefix: most comparisons (every seek within a store) decode only one.
  const size_t prefix_size = a.size() - slice_a.size();
  bool ok_b = false;
  if (ok_a && b.size() >= prefix_size && SamePrefixBytes(a.data(), b.data(), prefix_size)) {
    prefix_b = prefix_a;
    slice_b = b.subspan(prefix_size);
    ok_b = true;
  } else {
    ok_b = DecodeKeyPrefix(&slice_b, &prefix_b);
  }
  if (!ok_a || !ok_b) {
    *ok = false;
    return 0;
  }
  *ok = true;
  // KeyPrefix::Compare.
  if (prefix_a.database_id != prefix_b.database_id) {
    return CompareInts(prefix_a.database_id, prefix_b.database_id);
  }
  if (prefix_a.object_store_id != prefix_b.object_store_id) {
    return CompareInts(prefix_a.object_store_id, prefix_b.object_store_id);
  }
  if (prefix_a.index_id != prefix_b.index_id) {
    return CompareInts(prefix_a.index_id, prefix_b.index_id);
  }
  switch (TypeOf(prefix_a)) {
    case PrefixType::kGlobalMetadata:
    case PrefixType::kDatabaseMetadata:
      return CompareMetadataSuffix(a, b, slice_a, slice_b, TypeOf(prefix_a), ok);
    case PrefixType::kObjectStoreData:
    case PrefixType::kExistsEntry:
    case PrefixType::kBlobEntry:
      // "Provide a stable ordering for invalid data."
      if (slice_a.empty() || slice_b.empty()) return CompareSizes(slice_a.size(), slice_b.size());
      return CompareEncodedIdbKeys(&slice_a, &slice_b, ok);
    case PrefixType::kIndexData:
      if (slice_a.empty() || slice_b.empty()) return CompareSizes(slice_a.size(), slice_b.size());
      return CompareIndexDataSuffix(&slice_a, &slice_b, only_compare_index_keys, ok);
    case PrefixType::kInvalid:
      break;
  }
  *ok = false;
  return 0;
}

const char* KeyKindName(KeyKind kind) {
  switch (kind) {
    case KeyKind::kSchemaVersion:
      return "schemaVersion";
    case KeyKind::kMaxDatabaseId:
      return "maxDatabaseId";
    case KeyKind::kDataVersion:
      return "dataVersion";
    case KeyKind::kRecoveryBlobJournal:
      return "recoveryBlobJournal";
    case KeyKind::kActiveBlobJournal:
      return "activeBlobJournal";
    case KeyKind::kEarliestSweepTime:
      return "earliestSweepTime";
    case KeyKind::kEarliestCompactionTime:
      return "earliestCompactionTime";
    case KeyKind::kScopes:
      return "scopes";
    case KeyKind::kDatabaseFreeList:
      return "databaseFreeList";
    case KeyKind::kDatabaseName:
      return "databaseName";
    case KeyKind::kDatabaseMetadata:
      return "databaseMetadata";
    case KeyKind::kObjectStoreMetadata:
      return "objectStoreMetadata";
    case KeyKind::kIndexMetadata:
      return "indexMetadata";
    case KeyKind::kObjectStoreFreeList:
      return "objectStoreFreeList";
    case KeyKind::kIndexFreeList:
      return "indexFreeList";
    case KeyKind::kObjectStoreNames:
      return "objectStoreNames";
    case KeyKind::kIndexNames:
      return "indexNames";
    case KeyKind::kObjectStoreData:
      return "objectStoreData";
    case KeyKind::kExistsEntry:
      return "existsEntry";
    case KeyKind::kBlobEntry:
      return "blobEntry";
    case KeyKind::kIndexData:
      return "indexData";
  }
  return "unknown";
}

Status ParseKey(ByteView key, ParsedKey* parsed) {
  *parsed = ParsedKey();
  ByteView in = key;
  auto offset = [&] { return static_cast<int64_t>(key.size() - in.size()); };
  auto corrupt = [&](const std::string& what) {
    return Status::Error(ErrorCode::kCorrupt, "IndexedDB key: " + what, offset());
  };
  if (!DecodeKeyPrefix(&in, &parsed->prefix)) return corrupt("the key prefix is cut short");
  const PrefixType type = TypeOf(parsed->prefix);
  if (type == PrefixType::kGlobalMetadata || type == PrefixType::kDatabaseMetadata) {
    const bool global = type == PrefixType::kGlobalMetadata;
    if (in.empty()) return corrupt("no metadata type byte");
    parsed->type_byte = in[0];
    in = Skip(in, 1);
    if (global) {
      switch (parsed->type_byte) {
        case kSchemaVersionTypeByte:
          parsed->kind = KeyKind::kSchemaVersion;
          return Status::Ok();
        case kMaxDatabaseIdTypeByte:
          parsed->kind = KeyKind::kMaxDatabaseId;
          return Status::Ok();
        case kDataVersionTypeByte:
          parsed->kind = KeyKind::kDataVersion;
          return Status::Ok();
        case kRecoveryBlobJournalTypeByte:
          parsed->kind = KeyKind::kRecoveryBlobJournal;
          return Status::Ok();
        case kActiveBlobJournalTypeByte:
          parsed->kind = KeyKind::kActiveBlobJournal;
          return Status::Ok();
        case kEarliestSweepTimeTypeByte:
          parsed->kind = KeyKind::kEarliestSweepTime;
          return Status::Ok();
        case kEarliestCompactionTimeTypeByte:
          parsed->kind = KeyKind::kEarliestCompactionTime;
          return Status::Ok();
        case kScopesPrefixByte:
          parsed->kind = KeyKind::kScopes;
          parsed->rest = in;
          return Status::Ok();
        case kDatabaseFreeListTypeByte:
          parsed->kind = KeyKind::kDatabaseFreeList;
          if (!DecodeVarInt(&in, &parsed->database_id)) return corrupt("bad database id");
          return Status::Ok();
        case kDatabaseNameTypeByte:
          parsed->kind = KeyKind::kDatabaseName;
          if (!DecodeStringWithLength(&in, &parsed->origin)) return corrupt("bad origin");
          if (!DecodeStringWithLength(&in, &parsed->name)) return corrupt("bad database name");
          return Status::Ok();
        default:
          return Status::Error(ErrorCode::kUnsupported,
                               "IndexedDB key: global metadata type byte " +
                                   std::to_string(parsed->type_byte) + " is not Chromium's",
                               offset() - 1);
      }
    }
    if (parsed->type_byte < kMaxSimpleDatabaseMetaType) {
      parsed->kind = KeyKind::kDatabaseMetadata;
      return Status::Ok();
    }
    switch (parsed->type_byte) {
      case kObjectStoreMetaDataTypeByte:
        parsed->kind = KeyKind::kObjectStoreMetadata;
        if (!DecodeVarInt(&in, &parsed->object_store_id)) return corrupt("bad object store id");
        if (in.empty()) return corrupt("no metadata type");
        parsed->metadata_type = in[0];
        return Status::Ok();
      case kIndexMetaDataTypeByte:
        parsed->kind = KeyKind::kIndexMetadata;
        if (!DecodeVarInt(&in, &parsed->object_store_id)) return corrupt("bad object store id");
        if (!DecodeVarInt(&in, &parsed->index_id)) return corrupt("bad index id");
        if (in.empty()) return corrupt("no metadata type");
        parsed->metadata_type = in[0];
        return Status::Ok();
      case kObjectStoreFreeListTypeByte:
        parsed->kind = KeyKind::kObjectStoreFreeList;
        if (!DecodeVarInt(&in, &parsed->object_store_id)) return corrupt("bad object store id");
        return Status::Ok();
      case kIndexFreeListTypeByte:
        parsed->kind = KeyKind::kIndexFreeList;
        if (!DecodeVarInt(&in, &parsed->object_store_id)) return corrupt("bad object store id");
        if (!DecodeVarInt(&in, &parsed->index_id)) return corrupt("bad index id");
        return Status::Ok();
      case kObjectStoreNamesTypeByte:
        parsed->kind = KeyKind::kObjectStoreNames;
        if (!DecodeStringWithLength(&in, &parsed->name)) return corrupt("bad object store name");
        return Status::Ok();
      case kIndexNamesKeyTypeByte:
        parsed->kind = KeyKind::kIndexNames;
        if (!DecodeVarInt(&in, &parsed->object_store_id)) return corrupt("bad object store id");
        if (!DecodeStringWithLength(&in, &parsed->name)) return corrupt("bad index name");
        return Status::Ok();
      default:
        return Status::Error(ErrorCode::kUnsupported,
                             "IndexedDB key: database metadata type byte " +
                                 std::to_string(parsed->type_byte) + " is not Chromium's",
                             offset() - 1);
    }
  }
  if (type == PrefixType::kInvalid) {
    return Status::Error(ErrorCode::kCorrupt,
                         "IndexedDB key: index id " + std::to_string(parsed->prefix.index_id) +
                             " is neither a special index nor a user index",
                         0);
  }
  parsed->kind = type == PrefixType::kObjectStoreData ? KeyKind::kObjectStoreData
                 : type == PrefixType::kExistsEntry   ? KeyKind::kExistsEntry
                 : type == PrefixType::kBlobEntry     ? KeyKind::kBlobEntry
                                                      : KeyKind::kIndexData;
  parsed->object_store_id = parsed->prefix.object_store_id;
  if (parsed->kind == KeyKind::kIndexData) parsed->index_id = parsed->prefix.index_id;
  const ByteView start = in;
  if (!ConsumeEncodedIdbKey(&in)) return corrupt("the IDB key does not decode");
  parsed->user_key = start.first(start.size() - in.size());
  if (parsed->kind != KeyKind::kIndexData || in.empty()) return Status::Ok();
  // IndexDataKey::Decode: [optional] sequence number, then [optional] primary key.
  if (!DecodeVarInt(&in, &parsed->sequence_number)) return corrupt("bad sequence number");
  parsed->has_sequence_number = true;
  if (in.empty()) return Status::Ok();
  const ByteView primary = in;
  if (!ConsumeEncodedIdbKey(&in)) return corrupt("the primary key does not decode");
  parsed->primary_key = primary.first(primary.size() - in.size());
  parsed->has_primary_key = true;
  return Status::Ok();
}

}  // namespace sstfilter::indexeddb
