// Chromium's IndexedDB key coding and the idb_cmp1 order (see indexeddb_coding.h). Each function
// notes the Chromium function it follows (content/browser/indexed_db/indexed_db_leveldb_coding.cc
// unless said otherwise).
#include "comparator/indexeddb_coding.h"

#include <cstring>
#include <string>

namespace sstfilter::indexeddb {
namespace {

ByteView Skip(ByteView in, size_t n) { return in.subspan(n); }

// std::string_view::compare over bytes: memcmp, then the shorter first.
int CompareBytes(ByteView a, ByteView b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  if (n > 0) {
    if (int r = std::memcmp(a.data(), b.data(), n)) return r < 0 ? -1 : 1;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

// CompareInts: the sign of a - b. Chromium subtracts int64s, which can only overflow for ids read
// from 8-byte prefixes with the top bit set (never written); signed overflow is undefined there
// and compilers turn the test into a comparison, which is what this does.
int CompareInts(int64_t a, int64_t b) {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}

int CompareSizes(size_t a, size_t b) {
  if (a > b) return 1;
  if (b > a) return -1;
  return 0;
}

// KeyTypeByteToKeyType into blink::mojom::IDBKeyType's numbering (Invalid 0, Array 1, Binary 2,
// String 3, Date 4, Number 5, None 6, Min 7); the null type and unknown bytes are Invalid.
int KeyTypeRank(uint8_t type) {
  switch (type) {
    case kKeyArrayType:
      return 1;
    case kKeyBinaryType:
      return 2;
    case kKeyStringType:
      return 3;
    case kKeyDateType:
      return 4;
    case kKeyNumberType:
      return 5;
    case kKeyMinKeyType:
      return 7;
    default:
      return 0;
  }
}

double LoadDouble(const uint8_t* p) {
  // EncodeDouble writes the host's bytes: little-endian on every platform Chrome ships.
  const uint64_t bits = DecodeFixed64(p);
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d;
}

bool DecodeDoubleAt(ByteView* in, double* value) {
  if (in->size() < 8) return false;
  *value = LoadDouble(in->data());
  *in = Skip(*in, 8);
  return true;
}

bool ConsumeKey(ByteView* in, size_t depth) {
  if (in->empty() || depth > kMaxKeyDepth) return false;
  const uint8_t type = (*in)[0];
  *in = Skip(*in, 1);
  switch (type) {
    case kKeyNullType:
    case kKeyMinKeyType:
      return true;
    case kKeyArrayType: {
      int64_t length = 0;
      if (!DecodeVarInt(in, &length) || length < 0) return false;
      while (length--) {
        if (!ConsumeKey(in, depth + 1)) return false;
      }
      return true;
    }
    case kKeyBinaryType: {
      int64_t length = 0;
      if (!DecodeVarInt(in, &length) || length < 0) return false;
      if (in->size() < static_cast<uint64_t>(length)) return false;
      *in = Skip(*in, static_cast<size_t>(length));
      return true;
    }
    case kKeyStringType: {
      int64_t length = 0;
      if (!DecodeVarInt(in, &length) || length < 0) return false;
      if (static_cast<uint64_t>(length) > in->size() / 2) return false;
      *in = Skip(*in, static_cast<size_t>(length) * 2);
      return true;
    }
    case kKeyDateType:
    case kKeyNumberType:
      if (in->size() < 8) return false;
      *in = Skip(*in, 8);
      return true;
    default:
      return false;
  }
}

// CompareEncodedStringsWithLength and CompareEncodedBinary: `unit` bytes per counted element.
int CompareCounted(ByteView* a, ByteView* b, size_t unit, bool* ok) {
  int64_t length_a = 0;
  int64_t length_b = 0;
  if (!DecodeVarInt(a, &length_a) || !DecodeVarInt(b, &length_b) || length_a < 0 || length_b < 0 ||
      static_cast<uint64_t>(length_a) > a->size() / unit ||
      static_cast<uint64_t>(length_b) > b->size() / unit) {
    *ok = false;
    return 0;
  }
  const ByteView bytes_a = a->first(static_cast<size_t>(length_a) * unit);
  const ByteView bytes_b = b->first(static_cast<size_t>(length_b) * unit);
  *a = Skip(*a, bytes_a.size());
  *b = Skip(*b, bytes_b.size());
  *ok = true;
  return CompareBytes(bytes_a, bytes_b);
}

int CompareKeysAt(ByteView* a, ByteView* b, size_t depth, bool* ok) {
  // Chromium reads the type bytes without looking (a DCHECK): an empty side is malformed here.
  if (a->empty() || b->empty() || depth > kMaxKeyDepth) {
    *ok = false;
    return 0;
  }
  *ok = true;
  const uint8_t type_a = (*a)[0];
  const uint8_t type_b = (*b)[0];
  *a = Skip(*a, 1);
  *b = Skip(*b, 1);
  // CompareTypes(a, b) is b - a in the mojom numbering: Min (7) sorts first, Invalid (0) last.
  if (int x = KeyTypeRank(type_b) - KeyTypeRank(type_a)) return x;
  switch (type_a) {
    case kKeyArrayType: {
      int64_t length_a = 0;
      int64_t length_b = 0;
      if (!DecodeVarInt(a, &length_a) || !DecodeVarInt(b, &length_b)) {
        *ok = false;
        return 0;
      }
      for (int64_t i = 0; i < length_a && i < length_b; ++i) {
        const int result = CompareKeysAt(a, b, depth + 1, ok);
        if (!*ok || result) return result;
      }
      // `return length_a - length_b;` converts an int64 to int: the low 32 bits.
      const uint64_t diff = static_cast<uint64_t>(length_a) - static_cast<uint64_t>(length_b);
      return static_cast<int>(static_cast<int32_t>(static_cast<uint32_t>(diff)));
    }
    case kKeyBinaryType:
      return CompareCounted(a, b, 1, ok);
    case kKeyStringType:
      return CompareCounted(a, b, 2, ok);
    case kKeyDateType:
    case kKeyNumberType: {
      double d = 0;
      double e = 0;
      if (!DecodeDoubleAt(a, &d) || !DecodeDoubleAt(b, &e)) {
        *ok = false;
        return 0;
      }
      if (d < e) return -1;
      if (d > e) return 1;
      return 0;
    }
    default:
      // The null and min types have no payload; an unknown type (ranked as the null type) falls
      // out of Chromium's switch and compares equal.
      return 0;
  }
}

bool DecodeKeyAt(ByteView* in, IdbKey* key, size_t depth) {
  if (in->empty() || depth > kMaxKeyDepth) return false;
  const uint8_t type = (*in)[0];
  *in = Skip(*in, 1);
  switch (type) {
    case kKeyArrayType: {
      int64_t length = 0;
      if (!DecodeVarInt(in, &length) || length < 0) return false;
      // Every element takes at least one byte: a count above what is left cannot decode.
      if (static_cast<uint64_t>(length) > in->size()) return false;
      key->type = IdbKey::Type::kArray;
      key->array.clear();
      key->array.reserve(static_cast<size_t>(length));
      while (length--) {
        IdbKey element;
        if (!DecodeKeyAt(in, &element, depth + 1)) return false;
        key->array.push_back(std::move(element));
      }
      return true;
    }
    case kKeyBinaryType: {
      int64_t length = 0;
      if (in->empty() || !DecodeVarInt(in, &length) || length < 0 ||
          static_cast<uint64_t>(length) > in->size()) {
        return false;
      }
      key->type = IdbKey::Type::kBinary;
      key->binary.assign(in->begin(), in->begin() + static_cast<ptrdiff_t>(length));
      *in = Skip(*in, static_cast<size_t>(length));
      return true;
    }
    case kKeyStringType:
      key->type = IdbKey::Type::kString;
      return DecodeStringWithLength(in, &key->string);
    case kKeyDateType:
    case kKeyNumberType:
      key->type = type == kKeyDateType ? IdbKey::Type::kDate : IdbKey::Type::kNumber;
      return DecodeDoubleAt(in, &key->number);
    default:
      // The null and min types are never stored; unknown types do not decode.
      return false;
  }
}

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
  int result = CompareKeysAt(a, b, 0, ok);
  if (!*ok || result) return result;
  if (only_compare_index_keys) return 0;
  int64_t sequence_a = -1;
  int64_t sequence_b = -1;
  // A sequence number that does not decode ends the comparison as "equal" with ok still true.
  if (!a->empty() && !DecodeVarInt(a, &sequence_a)) return 0;
  if (!b->empty() && !DecodeVarInt(b, &sequence_b)) return 0;
  if (a->empty() || b->empty()) return CompareSizes(a->size(), b->size());
  result = CompareKeysAt(a, b, 0, ok);
  if (!*ok || result) return result;
  return CompareInts(sequence_a, sequence_b);
}

}  // namespace

bool DecodeVarInt(ByteView* in, int64_t* value) {
  size_t pos = 0;
  unsigned shift = 0;
  uint64_t result = 0;
  while (true) {
    if (pos >= in->size() || shift >= 64) return false;
    const uint8_t c = (*in)[pos];
    if (shift != 0 && c == 0) return false;
    const uint64_t bits = c & 0x7f;
    const uint64_t shifted = bits << shift;
    if ((shifted >> shift) != bits) return false;
    result |= shifted;
    shift += 7;
    ++pos;
    if (!(c & 0x80)) break;
  }
  *value = static_cast<int64_t>(result);
  *in = Skip(*in, pos);
  return true;
}

bool DecodeInt(ByteView in, int64_t* value) {
  if (in.empty() || in.size() > 8) return false;
  uint64_t result = 0;
  for (size_t i = 0; i < in.size(); ++i) result |= static_cast<uint64_t>(in[i]) << (8 * i);
  *value = static_cast<int64_t>(result);
  return true;
}

std::u16string DecodeString(ByteView in) {
  std::u16string out;
  out.reserve(in.size() / 2);
  for (size_t i = 0; i + 1 < in.size(); i += 2) {
    out.push_back(static_cast<char16_t>((in[i] << 8) | in[i + 1]));
  }
  return out;
}

bool DecodeStringWithLength(ByteView* in, std::u16string* value) {
  if (in->empty()) return false;
  ByteView rest = *in;
  int64_t length = 0;
  if (!DecodeVarInt(&rest, &length) || length < 0) return false;
  if (static_cast<uint64_t>(length) > rest.size() / 2) return false;
  const size_t bytes = static_cast<size_t>(length) * 2;
  *value = DecodeString(rest.first(bytes));
  *in = Skip(rest, bytes);
  return true;
}

bool DecodeKeyPrefix(ByteView* in, KeyPrefix* prefix) {
  if (in->empty()) return false;
  const uint8_t first = (*in)[0];
  const size_t database_bytes = ((first >> 5) & 0x7) + 1;
  const size_t object_store_bytes = ((first >> 2) & 0x7) + 1;
  const size_t index_bytes = (first & 0x3) + 1;
  ByteView rest = Skip(*in, 1);
  if (database_bytes + object_store_bytes + index_bytes > rest.size()) return false;
  KeyPrefix out;
  DecodeInt(rest.first(database_bytes), &out.database_id);
  rest = Skip(rest, database_bytes);
  DecodeInt(rest.first(object_store_bytes), &out.object_store_id);
  rest = Skip(rest, object_store_bytes);
  DecodeInt(rest.first(index_bytes), &out.index_id);
  *prefix = out;
  *in = Skip(rest, index_bytes);
  return true;
}

PrefixType TypeOf(const KeyPrefix& prefix) {
  if (prefix.database_id == 0) return PrefixType::kGlobalMetadata;
  if (prefix.object_store_id == 0) return PrefixType::kDatabaseMetadata;
  if (prefix.index_id == kObjectStoreDataIndexId) return PrefixType::kObjectStoreData;
  if (prefix.index_id == kExistsEntryIndexId) return PrefixType::kExistsEntry;
  if (prefix.index_id == kBlobEntryIndexId) return PrefixType::kBlobEntry;
  if (prefix.index_id >= kMinimumIndexId) return PrefixType::kIndexData;
  return PrefixType::kInvalid;
}

bool ConsumeEncodedIdbKey(ByteView* in) {
  ByteView rest = *in;
  if (!ConsumeKey(&rest, 0)) return false;
  *in = rest;
  return true;
}

int CompareEncodedIdbKeys(ByteView* a, ByteView* b, bool* ok) { return CompareKeysAt(a, b, 0, ok); }

bool DecodeIdbKey(ByteView* in, IdbKey* key) {
  ByteView rest = *in;
  if (!DecodeKeyAt(&rest, key, 0)) return false;
  *in = rest;
  return true;
}

int CompareKeys(ByteView a, ByteView b, bool only_compare_index_keys, bool* ok) {
  ByteView slice_a = a;
  ByteView slice_b = b;
  KeyPrefix prefix_a;
  KeyPrefix prefix_b;
  const bool ok_a = DecodeKeyPrefix(&slice_a, &prefix_a);
  const bool ok_b = DecodeKeyPrefix(&slice_b, &prefix_b);
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
    case PrefixType::kDatabaseMetadata: {
      const bool global = TypeOf(prefix_a) == PrefixType::kGlobalMetadata;
      if (slice_a.empty() || slice_b.empty()) {
        *ok = false;
        return 0;
      }
      const uint8_t type_a = slice_a[0];
      const uint8_t type_b = slice_b[0];
      if (int x = type_a - type_b) return x;
      if (type_a < (global ? kMaxSimpleGlobalMetaDataTypeByte : kMaxSimpleDatabaseMetaType)) {
        return 0;
      }
      if (global && type_a == kScopesPrefixByte) {
        return CompareBytes(Skip(slice_a, 1), Skip(slice_b, 1));
      }
      const bool known =
          global ? (type_a == kDatabaseFreeListTypeByte || type_a == kDatabaseNameTypeByte)
                 : (type_a == kObjectStoreMetaDataTypeByte || type_a == kIndexMetaDataTypeByte ||
                    type_a == kObjectStoreFreeListTypeByte || type_a == kIndexFreeListTypeByte ||
                    type_a == kObjectStoreNamesTypeByte || type_a == kIndexNamesKeyTypeByte);
      if (!known) break;
      return CompareMetaKeys(a, b, type_a, global, ok);
    }
    case PrefixType::kObjectStoreData:
    case PrefixType::kExistsEntry:
    case PrefixType::kBlobEntry:
      // "Provide a stable ordering for invalid data."
      if (slice_a.empty() || slice_b.empty()) return CompareSizes(slice_a.size(), slice_b.size());
      return CompareKeysAt(&slice_a, &slice_b, 0, ok);
    case PrefixType::kIndexData:
      if (slice_a.empty() || slice_b.empty()) return CompareSizes(slice_a.size(), slice_b.size());
      return CompareIndexDataSuffix(&slice_a, &slice_b, only_compare_index_keys, ok);
    case PrefixType::kInvalid:
      break;
  }
  *ok = false;
  return 0;
}

int CompareKeys(ByteView a, ByteView b) {
  bool ok = false;
  const int result = CompareKeys(a, b, false, &ok);
  return ok ? result : 0;
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
