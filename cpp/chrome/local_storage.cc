// localStorage and sessionStorage records as JSON (sstfilter/chrome_stores.h). The layouts are
// those of components/services/storage/dom_storage: local_storage_impl.cc ("VERSION", "META:" and
// "METAACCESS:" + storage key holding the LocalStorageOriginMetaData and
// LocalStorageAreaAccessMetaData protobufs of local_storage_database.proto, and items under
// "_" + storage key + "\0" + key), session_storage_metadata.cc ("version", "next-map-id",
// "namespace-" + guid + "-" + storage key holding the map id, items under "map-" + id + "-" +
// key), and third_party/blink/renderer/modules/storage/cached_storage_area.cc for how keys and
// values are encoded (localStorage: a format byte, 0 UTF-16LE or 1 Latin-1, before each;
// sessionStorage: keys UTF-8 and values UTF-16LE, without a format byte).
#include <string>
#include <string_view>

#include "chrome/json_text.h"
#include "chrome/v8_value_internal.h"
#include "sstfilter/chrome_stores.h"

namespace sstfilter {
namespace {

using chrome::AppendJsonIntMember;
using chrome::AppendJsonString;

bool StartsWith(ByteView bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() &&
         std::string_view(reinterpret_cast<const char*>(bytes.data()), prefix.size()) == prefix;
}

Status Corrupt(const std::string& store, const std::string& what, size_t offset) {
  return Status::Error(ErrorCode::kCorrupt, store + ": " + what, static_cast<int64_t>(offset));
}

// A storage key or other text Chromium writes as UTF-8.
void AppendUtf8(std::string* out, ByteView text) {
  AppendJsonString(out, chrome::Utf8ToUtf16(text));
}

// A localStorage key or value: the format byte, then UTF-16LE (0) or Latin-1 (1).
Status AppendLocalStorageString(std::string* out, ByteView bytes, const char* what, bool in_value,
                                size_t base) {
  const std::string store = std::string("localStorage ") + (in_value ? "value" : "key");
  if (bytes.empty()) return Corrupt(store, std::string(what) + " has no format byte", base);
  ByteView text = bytes.subspan(1);
  switch (bytes[0]) {
    case 0:
      if (text.size() % 2 != 0) {
        return Corrupt(store, std::string(what) + " in UTF-16 of an odd byte length", base);
      }
      chrome::AppendJsonUtf16Le(out, text);
      return Status::Ok();
    case 1:
      chrome::AppendJsonLatin1(out, text);
      return Status::Ok();
    default:
      return Corrupt(
          store, std::string(what) + " of unknown format byte " + std::to_string(bytes[0]), base);
  }
}

// Varint fields 1 and 2 of a small protobuf (others skipped by wire type).
Status ReadProtobufInts(ByteView value, int64_t fields[3], bool present[3]) {
  size_t pos = 0;
  auto varint = [&](uint64_t* v) {
    auto r = GetVarint64(value, &pos);
    if (!r) return false;
    *v = *r;
    return true;
  };
  while (pos < value.size()) {
    const size_t at = pos;
    uint64_t tag = 0;
    if (!varint(&tag)) return Corrupt("localStorage metadata", "a protobuf tag", at);
    const uint64_t field = tag >> 3;
    switch (tag & 7) {
      case 0: {
        uint64_t v = 0;
        if (!varint(&v)) return Corrupt("localStorage metadata", "a protobuf varint", at);
        if (field >= 1 && field <= 2) {
          fields[field] = static_cast<int64_t>(v);
          present[field] = true;
        }
        break;
      }
      case 1:
        if (value.size() - pos < 8) return Corrupt("localStorage metadata", "a fixed64", at);
        pos += 8;
        break;
      case 5:
        if (value.size() - pos < 4) return Corrupt("localStorage metadata", "a fixed32", at);
        pos += 4;
        break;
      case 2: {
        uint64_t n = 0;
        if (!varint(&n) || n > value.size() - pos) {
          return Corrupt("localStorage metadata", "a length-delimited field", at);
        }
        pos += static_cast<size_t>(n);
        break;
      }
      default:
        return Corrupt("localStorage metadata", "a protobuf wire type", at);
    }
  }
  return Status::Ok();
}

// A decimal id of ASCII digits (a map id), or nothing.
bool ParseDecimal(ByteView text, int64_t* value) {
  if (text.empty() || text.size() > 18) return false;
  int64_t v = 0;
  for (uint8_t c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *value = v;
  return true;
}

Status AppendLocal(std::string* out, ByteView key, ByteView value) {
  if (std::string_view(reinterpret_cast<const char*>(key.data()), key.size()) == "VERSION") {
    out->append("{\"kind\":\"version\",\"value\":");
    AppendUtf8(out, value);
    out->push_back('}');
    return Status::Ok();
  }
  const bool access = StartsWith(key, "METAACCESS:");
  if (access || StartsWith(key, "META:")) {
    const size_t skip = access ? 11 : 5;
    out->append(access ? "{\"kind\":\"metaAccess\",\"origin\":" : "{\"kind\":\"meta\",\"origin\":");
    AppendUtf8(out, key.subspan(skip));
    int64_t fields[3] = {0, 0, 0};
    bool present[3] = {false, false, false};
    if (Status s = ReadProtobufInts(value, fields, present); !s.ok()) return s;
    if (present[1]) AppendJsonIntMember(out, access ? "lastAccessed" : "lastModified", fields[1]);
    if (!access && present[2]) AppendJsonIntMember(out, "sizeBytes", fields[2]);
    out->push_back('}');
    return Status::Ok();
  }
  if (!key.empty() && key[0] == '_') {
    size_t nul = 1;
    while (nul < key.size() && key[nul] != 0) ++nul;
    if (nul >= key.size()) {
      return Corrupt("localStorage key", "an item key without the NUL after its origin",
                     key.size());
    }
    out->append("{\"kind\":\"item\",\"origin\":");
    AppendUtf8(out, key.subspan(1, nul - 1));
    out->append(",\"key\":");
    if (Status s = AppendLocalStorageString(out, key.subspan(nul + 1), "the key", false, nul + 1);
        !s.ok()) {
      return s;
    }
    out->append(",\"value\":");
    if (Status s = AppendLocalStorageString(out, value, "the value", true, 0); !s.ok()) return s;
    out->push_back('}');
    return Status::Ok();
  }
  return Corrupt("localStorage key", "not a record localStorage writes", 0);
}

Status AppendSession(std::string* out, ByteView key, ByteView value) {
  const std::string_view text(reinterpret_cast<const char*>(key.data()), key.size());
  if (text == "version" || text == "next-map-id") {
    out->append(text == "version" ? "{\"kind\":\"version\",\"value\":"
                                  : "{\"kind\":\"nextMapId\",\"value\":");
    AppendUtf8(out, value);
    out->push_back('}');
    return Status::Ok();
  }
  if (StartsWith(key, "namespace-")) {
    // A 36-character GUID (written with '_' or '-' between its groups), '-', the storage key.
    constexpr size_t kGuid = 36;
    const size_t start = 10;
    if (key.size() < start + kGuid + 1 || key[start + kGuid] != '-') {
      return Corrupt("sessionStorage key", "a namespace key without a GUID", start);
    }
    out->append("{\"kind\":\"namespace\",\"namespace\":");
    AppendUtf8(out, key.subspan(start, kGuid));
    out->append(",\"origin\":");
    AppendUtf8(out, key.subspan(start + kGuid + 1));
    int64_t map_id = 0;
    if (!ParseDecimal(value, &map_id)) {
      return Corrupt("sessionStorage value", "a map id that is not a decimal number", 0);
    }
    AppendJsonIntMember(out, "mapId", map_id);
    out->push_back('}');
    return Status::Ok();
  }
  if (StartsWith(key, "map-")) {
    size_t dash = 4;
    while (dash < key.size() && key[dash] != '-') ++dash;
    int64_t map_id = 0;
    if (dash >= key.size() || !ParseDecimal(key.subspan(4, dash - 4), &map_id)) {
      return Corrupt("sessionStorage key", "a map key without its id", 4);
    }
    if (value.size() % 2 != 0) {
      return Corrupt("sessionStorage value", "UTF-16 of an odd byte length", 0);
    }
    out->append("{\"kind\":\"item\"");
    AppendJsonIntMember(out, "mapId", map_id);
    out->append(",\"key\":");
    AppendUtf8(out, key.subspan(dash + 1));
    out->append(",\"value\":");
    chrome::AppendJsonUtf16Le(out, value);
    out->push_back('}');
    return Status::Ok();
  }
  return Corrupt("sessionStorage key", "not a record sessionStorage writes", 0);
}

}  // namespace

Status DecodeLocalStorageRecord(ByteView key, ByteView value, std::string* json) {
  json->clear();
  Status s = AppendLocal(json, key, value);
  if (!s.ok()) json->clear();
  return s;
}

Status DecodeSessionStorageRecord(ByteView key, ByteView value, std::string* json) {
  json->clear();
  Status s = AppendSession(json, key, value);
  if (!s.ok()) json->clear();
  return s;
}

}  // namespace sstfilter
