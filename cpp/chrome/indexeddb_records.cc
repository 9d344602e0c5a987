// IndexedDB records as JSON (sstfilter/chrome_stores.h DecodeIndexedDbKey, DecodeIndexedDbRecord).
// Keys: comparator/indexeddb_coding.h. Values, per key kind, as Chromium writes them:
// content/browser/indexed_db/instance/leveldb/backing_store.cc (PutInt / PutVarInt / PutString /
// PutBool / PutIDBKeyPath of the metadata, EncodeExternalObjects of blob entries, the version
// varint before object store values and index values) and
// third_party/blink/renderer/modules/indexeddb/idb_value_wrapping.cc (a value replaced by a blob,
// 0xFF 0x11 0x01, or Snappy-compressed, 0xFF 0x11 0x02).
#include <cmath>
#include <string>
#include <vector>

#include "chrome/json_text.h"
#include "chrome/v8_value_internal.h"
#include "comparator/indexeddb_coding.h"
#include "sstfilter/chrome_stores.h"
#include "table/codecs/codecs.h"

namespace sstfilter {
namespace {

namespace idb = indexeddb;
using chrome::AppendHex;
using chrome::AppendJsonAscii;
using chrome::AppendJsonIntMember;
using chrome::AppendJsonMember;
using chrome::AppendJsonNumber;
using chrome::AppendJsonSafeInt;
using chrome::AppendJsonString;

// Blink's wrapping of large values (idb_value_wrapping.cc).
constexpr uint8_t kBlinkVersionTag = 0xFF;
constexpr uint8_t kRequiresProcessingSSVPseudoVersion = 0x11;
constexpr uint8_t kReplaceWithBlob = 0x01;
constexpr uint8_t kCompressedWithSnappy = 0x02;

// `"metadata": name, "value": ` for a metadata type `kNames` names (true: the caller writes the
// value), else `"metadata": "type N", "valueHex": ...` (false: the record is complete).
template <size_t N>
bool MetadataName(std::string* out, uint64_t type, const char* const (&names)[N], ByteView value) {
  AppendJsonMember(out, "metadata");
  if (type >= N) {
    AppendJsonAscii(out, "type " + std::to_string(type));
    AppendJsonMember(out, "valueHex");
    out->push_back('"');
    AppendHex(out, value);
    out->push_back('"');
    return false;
  }
  AppendJsonAscii(out, names[type]);
  AppendJsonMember(out, "value");
  return true;
}

Status ValueError(ErrorCode code, const std::string& what, size_t offset) {
  return Status::Error(code, "IndexedDB value: " + what, static_cast<int64_t>(offset));
}

Status AppendKeyJson(std::string* out, const idb::IdbKey& key, size_t depth) {
  switch (key.type) {
    case idb::IdbKey::Type::kNumber:
      AppendJsonNumber(out, key.number);
      break;
    case idb::IdbKey::Type::kDate:
      out->append("{\"$date\":");
      AppendJsonNumber(out, key.number);
      out->push_back('}');
      break;
    case idb::IdbKey::Type::kString:
      AppendJsonString(out, key.string);
      break;
    case idb::IdbKey::Type::kBinary:
      out->append("{\"$binary\":\"");
      AppendHex(out, key.binary);
      out->append("\"}");
      break;
    case idb::IdbKey::Type::kArray:
      out->push_back('[');
      for (size_t i = 0; i < key.array.size(); ++i) {
        if (i) out->push_back(',');
        if (Status s = AppendKeyJson(out, key.array[i], depth + 1); !s.ok()) return s;
      }
      out->push_back(']');
      break;
  }
  return Status::Ok();
}

// An encoded IDB key that must fill `encoded`; offsets relative to `base`.
Status AppendEncodedKey(std::string* out, ByteView encoded, size_t base) {
  ByteView rest = encoded;
  idb::IdbKey key;
  if (!idb::DecodeIdbKey(&rest, &key)) {
    return Status::Error(ErrorCode::kCorrupt, "IndexedDB key: an IDB key that does not decode",
                         static_cast<int64_t>(base));
  }
  if (!rest.empty()) {
    return Status::Error(ErrorCode::kCorrupt, "IndexedDB key: bytes after the IDB key",
                         static_cast<int64_t>(base + encoded.size() - rest.size()));
  }
  return AppendKeyJson(out, key, 0);
}

// EncodeIDBKeyPath / DecodeIDBKeyPath: null, a string, or an array of strings; a value not
// starting with two zero bytes is a bare UTF-16BE string (the old coding).
Status AppendKeyPath(std::string* out, ByteView value) {
  if (value.size() < 3 || value[0] != 0 || value[1] != 0) {
    AppendJsonString(out, idb::DecodeString(value));
    return Status::Ok();
  }
  ByteView rest = value.subspan(3);
  switch (value[2]) {
    case 0:
      out->append("null");
      return Status::Ok();
    case 1: {
      std::u16string text;
      if (!idb::DecodeStringWithLength(&rest, &text)) {
        return ValueError(ErrorCode::kCorrupt, "a key path string that does not decode", 3);
      }
      AppendJsonString(out, text);
      return Status::Ok();
    }
    case 2: {
      int64_t count = 0;
      if (!idb::DecodeVarInt(&rest, &count) || count < 0 ||
          static_cast<uint64_t>(count) > rest.size()) {
        return ValueError(ErrorCode::kCorrupt, "a key path array count that does not decode", 3);
      }
      out->push_back('[');
      for (int64_t i = 0; i < count; ++i) {
        std::u16string text;
        if (!idb::DecodeStringWithLength(&rest, &text)) {
          return ValueError(ErrorCode::kCorrupt, "a key path array string that does not decode",
                            value.size() - rest.size());
        }
        if (i) out->push_back(',');
        AppendJsonString(out, text);
      }
      out->push_back(']');
      return Status::Ok();
    }
    default:
      return ValueError(ErrorCode::kCorrupt, "a key path of unknown type", 2);
  }
}

Status IntValue(ByteView value, int64_t* out) {
  if (!idb::DecodeInt(value, out)) {
    return ValueError(ErrorCode::kCorrupt,
                      "an integer of " + std::to_string(value.size()) + " bytes (1 to 8)", 0);
  }
  return Status::Ok();
}

Status VarIntValue(ByteView value, int64_t* out) {
  ByteView rest = value;
  if (!idb::DecodeVarInt(&rest, out)) {
    return ValueError(ErrorCode::kCorrupt, "a varint that does not decode", 0);
  }
  return Status::Ok();
}

Status BoolValue(ByteView value, std::string* json) {
  if (value.empty()) return ValueError(ErrorCode::kTruncated, "an empty boolean", 0);
  json->append(value[0] ? "true" : "false");
  return Status::Ok();
}

// DecodeExternalObjects (backing_store.cc): per object a type byte, then for blobs and files the
// blob number, the type and the size, for files also the name and the last modification time;
// for File System Access handles a binary token.
Status DecodeExternalObjects(ByteView value, std::vector<chrome::ExternalObject>* objects) {
  ByteView rest = value;
  auto offset = [&] { return value.size() - rest.size(); };
  while (!rest.empty()) {
    chrome::ExternalObject object;
    const uint8_t type = rest[0];
    if (type > 2) {
      return ValueError(ErrorCode::kCorrupt, "an external object of unknown type", offset());
    }
    object.kind = static_cast<chrome::ExternalObject::Kind>(type);
    rest = rest.subspan(1);
    if (object.kind == chrome::ExternalObject::Kind::kFileSystemAccessHandle) {
      int64_t length = 0;
      if (!idb::DecodeVarInt(&rest, &length) || length < 0 ||
          static_cast<uint64_t>(length) > rest.size()) {
        return ValueError(ErrorCode::kCorrupt, "a handle token that does not decode", offset());
      }
      object.token.assign(rest.begin(), rest.begin() + static_cast<ptrdiff_t>(length));
      rest = rest.subspan(static_cast<size_t>(length));
    } else {
      if (!idb::DecodeVarInt(&rest, &object.blob_number) ||
          !idb::DecodeStringWithLength(&rest, &object.type) ||
          !idb::DecodeVarInt(&rest, &object.size)) {
        return ValueError(ErrorCode::kCorrupt, "a blob that does not decode", offset());
      }
      if (object.kind == chrome::ExternalObject::Kind::kFile &&
          (!idb::DecodeStringWithLength(&rest, &object.name) ||
           !idb::DecodeVarInt(&rest, &object.last_modified))) {
        return ValueError(ErrorCode::kCorrupt, "a file that does not decode", offset());
      }
    }
    objects->push_back(std::move(object));
  }
  return Status::Ok();
}

void AppendExternalObjects(std::string* out, const std::vector<chrome::ExternalObject>& objects) {
  out->push_back('[');
  for (size_t i = 0; i < objects.size(); ++i) {
    const chrome::ExternalObject& o = objects[i];
    if (i) out->push_back(',');
    out->append("{\"kind\":");
    switch (o.kind) {
      case chrome::ExternalObject::Kind::kBlob:
        out->append("\"blob\"");
        break;
      case chrome::ExternalObject::Kind::kFile:
        out->append("\"file\"");
        break;
      case chrome::ExternalObject::Kind::kFileSystemAccessHandle:
        out->append("\"fileSystemAccessHandle\",\"token\":\"");
        AppendHex(out, o.token);
        out->append("\"}");
        continue;
    }
    AppendJsonIntMember(out, "blobNumber", o.blob_number);
    AppendJsonMember(out, "type");
    AppendJsonString(out, o.type);
    AppendJsonIntMember(out, "size", o.size);
    if (o.kind == chrome::ExternalObject::Kind::kFile) {
      AppendJsonMember(out, "name");
      AppendJsonString(out, o.name);
      AppendJsonIntMember(out, "lastModified", o.last_modified);
    }
    out->push_back('}');
  }
  out->push_back(']');
}

// An object store value: the record version, then Blink's value (maybe wrapped).
Status AppendObjectStoreValue(std::string* out, ByteView value,
                              const std::vector<chrome::ExternalObject>* blobs,
                              const ChromeDecodeLimits& limits) {
  ByteView rest = value;
  int64_t version = 0;
  if (!idb::DecodeVarInt(&rest, &version)) {
    return ValueError(ErrorCode::kCorrupt, "the record version does not decode", 0);
  }
  const size_t base = value.size() - rest.size();
  AppendJsonIntMember(out, "version", version);
  std::string json;
  if (rest.size() >= 3 && rest[0] == kBlinkVersionTag &&
      rest[1] == kRequiresProcessingSSVPseudoVersion) {
    if (rest[2] == kReplaceWithBlob) {
      // The value lies in the record's last blob: its size and index are named, not read.
      ByteView wrap = rest.subspan(3);
      int64_t size = 0;
      int64_t index = 0;
      if (!idb::DecodeVarInt(&wrap, &size) || !idb::DecodeVarInt(&wrap, &index)) {
        // Blink reads these with its own varint reader; ours refuses the same malformed ones.
        return ValueError(ErrorCode::kCorrupt, "a blob-wrapped value's size or index", base + 3);
      }
      AppendJsonMember(out, "wrapping");
      out->append("\"blob\"");
      AppendJsonMember(out, "value");
      out->append("{\"$blob\":{\"kind\":\"blob\",\"index\":");
      AppendJsonSafeInt(out, index);
      if (blobs != nullptr && index >= 0 && static_cast<uint64_t>(index) < blobs->size()) {
        out->append(",\"type\":");
        AppendJsonString(out, (*blobs)[static_cast<size_t>(index)].type);
      }
      out->append(",\"size\":");
      AppendJsonSafeInt(out, size);
      out->append("}}");
      return Status::Ok();
    }
    if (rest[2] == kCompressedWithSnappy) {
      Bytes plain;
      CodecInput input;
      input.payload = rest.subspan(3);
      if (Status s = SnappyDecompress(input, &plain); !s.ok()) {
        return ValueError(s.code(), "the Snappy-compressed value: " + s.message(), base + 3);
      }
      if (plain.size() > limits.max_decompressed_bytes) {
        return ValueError(ErrorCode::kResourceLimit, "the decompressed value is above the limit",
                          base + 3);
      }
      if (Status s = chrome::DecodeSerializedScriptValueWithBlobs(plain, blobs, &json, limits);
          !s.ok()) {
        // The error names the compressed stream's first byte; the message where it lies inside.
        return ValueError(s.code(),
                          s.message() + " (at byte " + std::to_string(s.offset()) +
                              " of the Snappy-decompressed value)",
                          base + 3);
      }
      AppendJsonMember(out, "wrapping");
      out->append("\"snappy\"");
      AppendJsonMember(out, "value");
      out->append(json);
      return Status::Ok();
    }
    return ValueError(ErrorCode::kUnsupported,
                      "Blink's value wrapping command " + std::to_string(rest[2]), base + 2);
  }
  if (Status s = chrome::DecodeSerializedScriptValueWithBlobs(rest, blobs, &json, limits);
      !s.ok()) {
    return chrome::Rebase(std::move(s), base);
  }
  AppendJsonMember(out, "value");
  out->append(json);
  return Status::Ok();
}

const char* DatabaseMetadataName(uint8_t type) {
  switch (type) {
    case idb::kOriginNameMeta:
      return "originName";
    case idb::kDatabaseNameMeta:
      return "databaseName";
    case idb::kUserStringVersionMeta:
      return "userStringVersion";
    case idb::kMaxObjectStoreIdMeta:
      return "maxObjectStoreId";
    case idb::kUserVersionMeta:
      return "userVersion";
    default:
      return "blobKeyGeneratorCurrentNumber";
  }
}

Status AppendRecord(std::string* out, ByteView key, ByteView value, ByteView blob_entry_value,
                    const ChromeDecodeLimits& limits) {
  idb::ParsedKey parsed;
  if (Status s = idb::ParseKey(key, &parsed); !s.ok()) return s;
  out->append("{\"kind\":\"");
  out->append(idb::KeyKindName(parsed.kind));
  out->push_back('"');
  const idb::KeyPrefix& prefix = parsed.prefix;
  const size_t key_base =
      parsed.user_key.empty() ? 0 : static_cast<size_t>(parsed.user_key.data() - key.data());
  int64_t number = 0;
  switch (parsed.kind) {
    case idb::KeyKind::kSchemaVersion:
    case idb::KeyKind::kMaxDatabaseId:
    case idb::KeyKind::kDataVersion:
    case idb::KeyKind::kEarliestSweepTime:
    case idb::KeyKind::kEarliestCompactionTime:
      if (Status s = IntValue(value, &number); !s.ok()) return s;
      AppendJsonIntMember(out, "value", number);
      break;
    case idb::KeyKind::kRecoveryBlobJournal:
    case idb::KeyKind::kActiveBlobJournal: {
      // EncodeBlobJournal: pairs of varints (database id, blob number).
      AppendJsonMember(out, "value");
      out->push_back('[');
      ByteView rest = value;
      bool first = true;
      while (!rest.empty()) {
        int64_t database_id = 0;
        int64_t blob_number = 0;
        const size_t at = value.size() - rest.size();
        if (!idb::DecodeVarInt(&rest, &database_id) || !idb::DecodeVarInt(&rest, &blob_number)) {
          return ValueError(ErrorCode::kCorrupt, "a blob journal entry that does not decode", at);
        }
        if (!first) out->push_back(',');
        first = false;
        out->push_back('[');
        AppendJsonSafeInt(out, database_id);
        out->push_back(',');
        AppendJsonSafeInt(out, blob_number);
        out->push_back(']');
      }
      out->push_back(']');
      break;
    }
    case idb::KeyKind::kScopes:
      AppendJsonMember(out, "keyHex");
      out->push_back('"');
      AppendHex(out, parsed.rest);
      out->push_back('"');
      AppendJsonMember(out, "valueHex");
      out->push_back('"');
      AppendHex(out, value);
      out->push_back('"');
      break;
    case idb::KeyKind::kDatabaseFreeList:
      AppendJsonIntMember(out, "databaseId", parsed.database_id);
      break;
    case idb::KeyKind::kDatabaseName:
      AppendJsonMember(out, "origin");
      AppendJsonString(out, parsed.origin);
      AppendJsonMember(out, "name");
      AppendJsonString(out, parsed.name);
      if (Status s = IntValue(value, &number); !s.ok()) return s;
      AppendJsonIntMember(out, "databaseId", number);
      break;
    case idb::KeyKind::kDatabaseMetadata:
      AppendJsonIntMember(out, "databaseId", prefix.database_id);
      AppendJsonMember(out, "metadata");
      AppendJsonAscii(out, DatabaseMetadataName(parsed.type_byte));
      AppendJsonMember(out, "value");
      if (parsed.type_byte <= idb::kUserStringVersionMeta) {
        AppendJsonString(out, idb::DecodeString(value));
      } else if (parsed.type_byte == idb::kMaxObjectStoreIdMeta) {
        if (Status s = IntValue(value, &number); !s.ok()) return s;
        AppendJsonSafeInt(out, number);
      } else {
        if (Status s = VarIntValue(value, &number); !s.ok()) return s;
        AppendJsonSafeInt(out, number);
      }
      break;
    case idb::KeyKind::kObjectStoreMetadata: {
      AppendJsonIntMember(out, "databaseId", prefix.database_id);
      AppendJsonIntMember(out, "objectStoreId", parsed.object_store_id);
      static const char* const kNames[] = {
          "name",        "keyPath",    "autoIncrement", "evictable",
          "lastVersion", "maxIndexId", "hasKeyPath",    "keyGeneratorCurrentNumber"};
      if (!MetadataName(out, parsed.metadata_type, kNames, value)) break;
      switch (parsed.metadata_type) {
        case 0:
          AppendJsonString(out, idb::DecodeString(value));
          break;
        case 1:
          if (Status s = AppendKeyPath(out, value); !s.ok()) return s;
          break;
        case 2:
        case 3:
        case 6:
          if (Status s = BoolValue(value, out); !s.ok()) return s;
          break;
        default:
          if (Status s = IntValue(value, &number); !s.ok()) return s;
          AppendJsonSafeInt(out, number);
          break;
      }
      break;
    }
    case idb::KeyKind::kIndexMetadata: {
      AppendJsonIntMember(out, "databaseId", prefix.database_id);
      AppendJsonIntMember(out, "objectStoreId", parsed.object_store_id);
      AppendJsonIntMember(out, "indexId", parsed.index_id);
      static const char* const kNames[] = {"name", "unique", "keyPath", "multiEntry"};
      if (!MetadataName(out, parsed.metadata_type, kNames, value)) break;
      if (parsed.metadata_type == 0) {
        AppendJsonString(out, idb::DecodeString(value));
      } else if (parsed.metadata_type == 2) {
        if (Status s = AppendKeyPath(out, value); !s.ok()) return s;
      } else if (Status s = BoolValue(value, out); !s.ok()) {
        return s;
      }
      break;
    }
    case idb::KeyKind::kObjectStoreFreeList:
      AppendJsonIntMember(out, "databaseId", prefix.database_id);
      AppendJsonIntMember(out, "objectStoreId", parsed.object_store_id);
      break;
    case idb::KeyKind::kIndexFreeList:
      AppendJsonIntMember(out, "databaseId", prefix.database_id);
      AppendJsonIntMember(out, "objectStoreId", parsed.object_store_id);
      AppendJsonIntMember(out, "indexId", parsed.index_id);
      break;
    case idb::KeyKind::kObjectStoreNames:
      AppendJsonIntMember(out, "databaseId", prefix.database_id);
      AppendJsonMember(out, "name");
      AppendJsonString(out, parsed.name);
      if (Status s = VarIntValue(value, &number); !s.ok()) return s;
      AppendJsonIntMember(out, "objectStoreId", number);
      break;
    case idb::KeyKind::kIndexNames:
      AppendJsonIntMember(out, "databaseId", prefix.database_id);
      AppendJsonIntMember(out, "objectStoreId", parsed.object_store_id);
      AppendJsonMember(out, "name");
      AppendJsonString(out, parsed.name);
      if (Status s = VarIntValue(value, &number); !s.ok()) return s;
      AppendJsonIntMember(out, "indexId", number);
      break;
    case idb::KeyKind::kObjectStoreData:
    case idb::KeyKind::kExistsEntry:
    case idb::KeyKind::kBlobEntry:
    case idb::KeyKind::kIndexData: {
      AppendJsonIntMember(out, "databaseId", prefix.database_id);
      AppendJsonIntMember(out, "objectStoreId", prefix.object_store_id);
      if (parsed.kind == idb::KeyKind::kIndexData)
        AppendJsonIntMember(out, "indexId", prefix.index_id);
      AppendJsonMember(out, "key");
      if (Status s = AppendEncodedKey(out, parsed.user_key, key_base); !s.ok()) return s;
      if (parsed.kind == idb::KeyKind::kObjectStoreData) {
        std::vector<chrome::ExternalObject> blobs;
        if (!blob_entry_value.empty()) {
          if (Status s = DecodeExternalObjects(blob_entry_value, &blobs); !s.ok()) {
            return Status::Error(s.code(), s.message() + " (in the blob entry)", s.offset());
          }
        }
        if (Status s = AppendObjectStoreValue(out, value,
                                              blob_entry_value.empty() ? nullptr : &blobs, limits);
            !s.ok()) {
          return s;
        }
        break;
      }
      if (parsed.kind == idb::KeyKind::kExistsEntry) {
        // The record version as an EncodeInt (PutInt), not a varint.
        if (Status s = IntValue(value, &number); !s.ok()) return s;
        AppendJsonIntMember(out, "version", number);
      } else if (parsed.kind == idb::KeyKind::kBlobEntry) {
        std::vector<chrome::ExternalObject> blobs;
        if (Status s = DecodeExternalObjects(value, &blobs); !s.ok()) return s;
        AppendJsonMember(out, "blobs");
        AppendExternalObjects(out, blobs);
      } else {
        if (parsed.has_sequence_number)
          AppendJsonIntMember(out, "sequenceNumber", parsed.sequence_number);
        // The value: the record version, then the encoded primary key (what Chromium reads).
        ByteView rest = value;
        if (!idb::DecodeVarInt(&rest, &number)) {
          return ValueError(ErrorCode::kCorrupt, "the record version does not decode", 0);
        }
        AppendJsonIntMember(out, "version", number);
        const size_t at = value.size() - rest.size();
        AppendJsonMember(out, "primaryKey");
        ByteView primary = rest;
        idb::IdbKey primary_key;
        if (!idb::DecodeIdbKey(&primary, &primary_key)) {
          return ValueError(ErrorCode::kCorrupt, "the primary key does not decode", at);
        }
        if (Status s = AppendKeyJson(out, primary_key, 0); !s.ok()) return s;
      }
      break;
    }
  }
  out->push_back('}');
  return Status::Ok();
}

}  // namespace

Status DecodeIndexedDbKey(ByteView encoded_key, std::string* json) {
  json->clear();
  Status s = AppendEncodedKey(json, encoded_key, 0);
  if (!s.ok()) json->clear();
  return s;
}

Status DecodeIndexedDbRecord(ByteView key, ByteView value, std::string* json,
                             const ChromeDecodeLimits& limits) {
  return DecodeIndexedDbRecord(key, value, ByteView(), json, limits);
}

Status DecodeIndexedDbRecord(ByteView key, ByteView value, ByteView blob_entry_value,
                             std::string* json, const ChromeDecodeLimits& limits) {
  json->clear();
  Status s = AppendRecord(json, key, value, blob_entry_value, limits);
  if (!s.ok()) json->clear();
  return s;
}

}  // namespace sstfilter
