// The V8 value deserializer and Blink's envelope (sstfilter/chrome_stores.h DecodeV8Value,
// DecodeSerializedScriptValue), written from the wire format of v8 src/objects/value-serializer.cc
// (SerializationTag, ValueDeserializer::ReadObject and its Read* methods, versions 13-15) and of
// third_party/blink/renderer/bindings/core/v8/serialization (serialization_tag.h,
// v8_script_value_serializer.cc: the envelope and trailer offset; v8_script_value_deserializer.cc:
// the Blob and File index host objects). The output is the tagged JSON of docs/FORMATS.md 7.5.
#include <cmath>
#include <string>
#include <vector>

#include "chrome/json_text.h"
#include "chrome/v8_reader.h"
#include "chrome/v8_value_internal.h"
#include "sstfilter/chrome_stores.h"

namespace sstfilter {

namespace chrome::v8 {

using chrome::AppendHex;
using chrome::AppendJsonLatin1;
using chrome::AppendJsonNumber;
using chrome::AppendJsonString;
using chrome::AppendJsonUtf16Le;

std::string TagText(uint8_t tag) {
  std::string text = "0x";
  chrome::AppendHex(&text, ByteView(&tag, 1));
  if (tag >= 0x20 && tag < 0x7f) {
    text += " '";
    text.push_back(static_cast<char>(tag));
    text += "'";
  }
  return text;
}

// The payload of a string tag as a JSON string.
Status V8Reader::ReadStringPayload(uint8_t tag, size_t at) {
  uint32_t length = 0;
  if (Status s = ReadU32(&length, "a string length"); !s.ok()) return s;
  ByteView bytes;
  if (Status s = ReadBytes(length, &bytes, "a string"); !s.ok()) return s;
  switch (tag) {
    case kOneByteString:
      AppendJsonLatin1(out_, bytes);
      break;
    case kTwoByteString:
      if (length % 2 != 0) {
        return Fail(ErrorCode::kCorrupt, "a two-byte string of an odd byte length", at);
      }
      AppendJsonUtf16Le(out_, bytes);
      break;
    default:  // kUtf8String
      AppendJsonString(out_, chrome::Utf8ToUtf16(bytes));
      break;
  }
  return CheckOutput();
}

// ReadString of V8 (versions >= 12): an object that must be a string.
Status V8Reader::ReadStringObject(const char* what) {
  uint8_t tag = 0;
  size_t at = 0;
  if (!ReadTag(&tag, &at)) return Truncated(what);
  if (tag != kOneByteString && tag != kTwoByteString && tag != kUtf8String) {
    return Fail(ErrorCode::kCorrupt, std::string(what) + " is not a string", at);
  }
  return ReadStringPayload(tag, at);
}

// A property key (string or number) as a JSON string; `index` set for array indexes.
Status V8Reader::ReadPropertyKey(bool* is_index, uint32_t* index) {
  *is_index = false;
  uint8_t tag = 0;
  size_t at = 0;
  if (!ReadTag(&tag, &at)) return Truncated("a property key");
  double number = 0;
  switch (tag) {
    case kOneByteString:
    case kTwoByteString:
    case kUtf8String:
      return ReadStringPayload(tag, at);
    case kInt32: {
      uint32_t raw = 0;
      if (Status s = ReadU32(&raw, "an int32 key"); !s.ok()) return s;
      number = static_cast<int32_t>((raw >> 1) ^ (0u - (raw & 1)));
      break;
    }
    case kUint32: {
      uint32_t raw = 0;
      if (Status s = ReadU32(&raw, "a uint32 key"); !s.ok()) return s;
      number = raw;
      break;
    }
    case kDouble:
      if (Status s = ReadDouble(&number, "a number key"); !s.ok()) return s;
      break;
    default:
      return Fail(ErrorCode::kCorrupt, "a property key of tag " + TagText(tag), at);
  }
  if (number >= 0 && number <= 4294967294.0 && std::floor(number) == number) {
    *is_index = true;
    *index = static_cast<uint32_t>(number);
  }
  out_->push_back('"');
  out_->append(std::isnan(number)   ? "NaN"
               : std::isinf(number) ? (number > 0 ? "Infinity" : "-Infinity")
                                    : chrome::JsNumberText(number));
  out_->push_back('"');
  return Status::Ok();
}

// Reads key/value pairs up to `end_tag`; `on_key` decides where each goes. Returns the count.
Status V8Reader::ReadJsObjectProperties(uint8_t end_tag, size_t depth, uint32_t* count) {
  *count = 0;
  bool first = true;
  while (true) {
    uint8_t tag = 0;
    if (!PeekTag(&tag)) return Truncated("an object's properties");
    if (tag == end_tag) {
      ConsumeTag();
      return Status::Ok();
    }
    if (!first) out_->push_back(',');
    first = false;
    bool is_index = false;
    uint32_t index = 0;
    if (Status s = ReadPropertyKey(&is_index, &index); !s.ok()) return s;
    out_->push_back(':');
    if (Status s = ReadObject(depth + 1); !s.ok()) return s;
    ++*count;
  }
}

Status V8Reader::ReadJsObject(size_t depth) {
  const size_t id = BeginId();
  const size_t begin = out_->size();
  out_->push_back('{');
  // Whether the object has exactly one property whose name starts with '$' (then wrapped).
  uint32_t count = 0;
  bool dollar = false;
  bool first = true;
  while (true) {
    uint8_t tag = 0;
    if (!PeekTag(&tag)) return Truncated("an object");
    if (tag == kEndJSObject) {
      ConsumeTag();
      break;
    }
    if (!first) out_->push_back(',');
    first = false;
    const size_t key_at = out_->size();
    bool is_index = false;
    uint32_t index = 0;
    if (Status s = ReadPropertyKey(&is_index, &index); !s.ok()) return s;
    if (count == 0) dollar = out_->size() > key_at + 1 && (*out_)[key_at + 1] == '$';
    out_->push_back(':');
    if (Status s = ReadObject(depth + 1); !s.ok()) return s;
    ++count;
  }
  uint32_t expected = 0;
  const size_t count_at = pos_;
  if (Status s = ReadU32(&expected, "an object's property count"); !s.ok()) return s;
  if (expected != count) {
    return Fail(
        ErrorCode::kCorrupt,
        "an object of " + std::to_string(count) + " properties says " + std::to_string(expected),
        count_at);
  }
  out_->push_back('}');
  if (count == 1 && dollar) {
    static constexpr std::string_view kWrap = "{\"$object\":";
    out_->insert(begin, kWrap);
    out_->push_back('}');
    for (size_t nested = id + 1; nested < ids_.size(); ++nested) {
      if (!ids_[nested].is_buffer && ids_[nested].begin >= begin) {
        ids_[nested].begin += kWrap.size();
        ids_[nested].end += kWrap.size();
      }
    }
  }
  EndId(id);
  return CheckOutput();
}

Status V8Reader::AppendHoles(uint32_t from, uint32_t to, bool* first) {
  for (uint32_t i = from; i < to; ++i) {
    if (!*first) out_->push_back(',');
    *first = false;
    out_->append("{\"$hole\":true}");
    if ((i & 0xfff) == 0) {
      if (Status s = CheckOutput(); !s.ok()) return s;
    }
  }
  return CheckOutput();
}

Status V8Reader::CheckArrayEnd(uint32_t count, uint32_t length, const char* what) {
  uint32_t expected_count = 0;
  uint32_t expected_length = 0;
  const size_t at = pos_;
  if (Status s = ReadU32(&expected_count, what); !s.ok()) return s;
  if (Status s = ReadU32(&expected_length, what); !s.ok()) return s;
  if (expected_count != count || expected_length != length) {
    return Fail(ErrorCode::kCorrupt,
                std::string(what) + " disagrees with the array's properties or length", at);
  }
  return Status::Ok();
}

Status V8Reader::ReadDenseArray(size_t depth, size_t at) {
  const size_t id = BeginId();
  uint32_t length = 0;
  if (Status s = ReadU32(&length, "a dense array length"); !s.ok()) return s;
  // ReadDenseJSArray: every element takes a byte at least.
  if (length > remaining()) {
    return Fail(ErrorCode::kCorrupt, "a dense array longer than its data", at);
  }
  if (length > limits_.max_array_length) {
    return Fail(ErrorCode::kResourceLimit, "an array longer than the limit", at);
  }
  out_->push_back('[');
  bool first = true;
  for (uint32_t i = 0; i < length; ++i) {
    if (!first) out_->push_back(',');
    first = false;
    uint8_t tag = 0;
    if (!PeekTag(&tag)) return Truncated("a dense array");
    if (tag == kTheHole) {
      ConsumeTag();
      out_->append("{\"$hole\":true}");
      continue;
    }
    if (Status s = ReadObject(depth + 1); !s.ok()) return s;
  }
  // Non-index properties follow: read, then left out (the contract does not represent them).
  const size_t keep = out_->size();
  const size_t first_dropped = ids_.size();
  out_->push_back('{');
  uint32_t count = 0;
  if (Status s = ReadJsObjectProperties(kEndDenseJSArray, depth, &count); !s.ok()) return s;
  Truncate(keep, first_dropped);
  if (Status s = CheckArrayEnd(count, length, "a dense array's end"); !s.ok()) return s;
  out_->push_back(']');
  EndId(id);
  return CheckOutput();
}

Status V8Reader::ReadSparseArray(size_t depth, size_t at) {
  const size_t id = BeginId();
  uint32_t length = 0;
  if (Status s = ReadU32(&length, "a sparse array length"); !s.ok()) return s;
  if (length > limits_.max_array_length) {
    return Fail(ErrorCode::kResourceLimit,
                "a sparse array of length " + std::to_string(length) + " is above the limit", at);
  }
  out_->push_back('[');
  bool first = true;
  uint32_t next = 0;
  uint32_t count = 0;
  while (true) {
    uint8_t tag = 0;
    if (!PeekTag(&tag)) return Truncated("a sparse array");
    if (tag == kEndSparseJSArray) {
      ConsumeTag();
      break;
    }
    const size_t key_start = out_->size();
    const size_t first_id = ids_.size();
    const size_t key_at = pos_;
    bool is_index = false;
    uint32_t index = 0;
    if (Status s = ReadPropertyKey(&is_index, &index); !s.ok()) return s;
    out_->resize(key_start);
    ++count;
    if (is_index && index < length) {
      if (index < next) {
        return Fail(ErrorCode::kUnsupported, "sparse array indexes out of order", key_at);
      }
      if (Status s = AppendHoles(next, index, &first); !s.ok()) return s;
      if (!first) out_->push_back(',');
      first = false;
      if (Status s = ReadObject(depth + 1); !s.ok()) return s;
      next = index + 1;
    } else {
      // A property that is not an element: read and left out.
      if (Status s = ReadObject(depth + 1); !s.ok()) return s;
      Truncate(key_start, first_id);
    }
  }
  if (Status s = CheckArrayEnd(count, length, "a sparse array's end"); !s.ok()) return s;
  if (Status s = AppendHoles(next, length, &first); !s.ok()) return s;
  out_->push_back(']');
  EndId(id);
  return CheckOutput();
}

Status V8Reader::ReadObject(size_t depth) {
  if (depth > limits_.max_depth) {
    return Fail(ErrorCode::kResourceLimit,
                "nesting deeper than " + std::to_string(limits_.max_depth), pos_);
  }
  if (Status s = CheckOutput(); !s.ok()) return s;
  uint8_t tag = 0;
  size_t at = 0;
  if (!ReadTag(&tag, &at)) return Truncated("a value");
  // kVerifyObjectCount (a count older writers put before a value) is read and ignored, in a loop:
  // any number of them may come before one value.
  while (tag == kVerifyObjectCount) {
    uint32_t ignored = 0;
    if (Status s = ReadU32(&ignored, "an object count"); !s.ok()) return s;
    if (!ReadTag(&tag, &at)) return Truncated("a value");
  }
  switch (tag) {
    case kUndefined:
      out_->append("{\"$undefined\":true}");
      return Status::Ok();
    case kNull:
      out_->append("null");
      return Status::Ok();
    case kTrue:
      out_->append("true");
      return Status::Ok();
    case kFalse:
      out_->append("false");
      return Status::Ok();
    case kInt32: {
      uint32_t raw = 0;
      if (Status s = ReadU32(&raw, "an int32"); !s.ok()) return s;
      out_->append(std::to_string(static_cast<int32_t>((raw >> 1) ^ (0u - (raw & 1)))));
      return Status::Ok();
    }
    case kUint32: {
      uint32_t raw = 0;
      if (Status s = ReadU32(&raw, "a uint32"); !s.ok()) return s;
      out_->append(std::to_string(raw));
      return Status::Ok();
    }
    case kDouble: {
      double d = 0;
      if (Status s = ReadDouble(&d, "a number"); !s.ok()) return s;
      AppendJsonNumber(out_, d);
      return Status::Ok();
    }
    case kBigInt:
      return ReadBigIntPayload(at);
    case kUtf8String:
    case kOneByteString:
    case kTwoByteString:
      return ReadStringPayload(tag, at);
    case kObjectReference: {
      uint32_t id = 0;
      if (Status s = ReadU32(&id, "an object reference"); !s.ok()) return s;
      if (id >= ids_.size()) {
        return Fail(
            ErrorCode::kCorrupt,
            "a reference to object " + std::to_string(id) + " of " + std::to_string(ids_.size()),
            at);
      }
      const IdEntry entry = ids_[id];
      if (entry.is_buffer) return FinishBuffer(id, depth);
      if (entry.state == IdEntry::State::kInProgress) {
        return Fail(ErrorCode::kUnsupported,
                    "a cyclic reference (to an object that contains it) has no JSON form", at);
      }
      if (entry.state == IdEntry::State::kDropped) {
        return Fail(ErrorCode::kUnsupported,
                    "a reference to a value the tagged JSON leaves out (an array property)", at);
      }
      if (out_->size() + (entry.end - entry.begin) > limits_.max_output_bytes) {
        return CheckOutput().ok() ? Fail(ErrorCode::kResourceLimit,
                                         "references repeat more text than the limit", at)
                                  : CheckOutput();
      }
      const std::string copy = out_->substr(entry.begin, entry.end - entry.begin);
      out_->append(copy);
      return CheckOutput();
    }
    case kBeginJSObject:
      return ReadJsObject(depth);
    case kBeginSparseJSArray:
      return ReadSparseArray(depth, at);
    case kBeginDenseJSArray:
      return ReadDenseArray(depth, at);
    case kDate:
    case kTrueObject:
    case kFalseObject:
    case kNumberObject:
    case kBigIntObject:
    case kStringObject:
    case kRegExp:
    case kBeginJSMap:
    case kBeginJSSet:
    case kArrayBuffer:
    case kResizableArrayBuffer:
    case kHostObject:
      return ReadTypedObject(tag, at, depth);
    case kArrayBufferTransfer:
    case kSharedArrayBuffer:
    case kSharedObject:
    case kWasmModuleTransfer:
    case kWasmMemoryTransfer:
    case kError:
      return Fail(ErrorCode::kUnsupported, "the V8 tag " + TagText(tag) + " has no JSON form", at);
    default:
      return Fail(ErrorCode::kUnsupported, "unknown V8 tag " + TagText(tag), at);
  }
}

}  // namespace chrome::v8

namespace chrome {

std::u16string Utf8ToUtf16(ByteView utf8) {
  // Malformed sequences become U+FFFD, one per maximal bad subpart (as V8's Utf8Decoder does).
  std::u16string out;
  out.reserve(utf8.size());
  size_t i = 0;
  while (i < utf8.size()) {
    const uint8_t b = utf8[i];
    uint32_t cp = 0;
    size_t need = 0;
    uint8_t lo = 0x80;
    uint8_t hi = 0xbf;
    if (b < 0x80) {
      out.push_back(b);
      ++i;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      cp = b & 0x0f;
      if (b == 0xe0) lo = 0xa0;
      if (b == 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      cp = b & 0x07;
      if (b == 0xf0) lo = 0x90;
      if (b == 0xf4) hi = 0x8f;
    } else {
      out.push_back(0xfffd);
      ++i;
      continue;
    }
    size_t j = 1;
    for (; j <= need; ++j) {
      if (i + j >= utf8.size()) break;
      const uint8_t c = utf8[i + j];
      if (c < (j == 1 ? lo : 0x80) || c > (j == 1 ? hi : 0xbf)) break;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (j <= need) {
      out.push_back(0xfffd);
      i += j;
      continue;
    }
    i += need + 1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xd800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xdc00 + (cp & 0x3ff)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

Status Rebase(Status status, size_t base) {
  if (status.ok() || status.offset() == Status::kNoOffset) return status;
  return Status::Error(status.code(), status.message(),
                       status.offset() + static_cast<int64_t>(base));
}

}  // namespace chrome

using chrome::v8::kBlinkTrailerOffsetTag;
using chrome::v8::kLatestV8Version;
using chrome::v8::kMinV8Version;
using chrome::v8::kVersionTag;
using chrome::v8::V8Reader;

Status DecodeV8Value(ByteView data, uint32_t version, std::string* json,
                     const ChromeDecodeLimits& limits) {
  json->clear();
  if (version < kMinV8Version || version > kLatestV8Version) {
    return Status::Error(ErrorCode::kUnsupported,
                         "V8 value: wire format version " + std::to_string(version) +
                             " (this reader knows 13 to 16)",
                         0);
  }
  V8Reader reader(data, version, json, limits, nullptr);
  Status s = reader.ReadValue();
  if (!s.ok()) json->clear();
  return s;
}

Status chrome::DecodeSerializedScriptValueWithBlobs(ByteView ssv,
                                                    const std::vector<ExternalObject>* blobs,
                                                    std::string* json,
                                                    const ChromeDecodeLimits& limits) {
  json->clear();
  size_t pos = 0;
  auto read_varint = [&](uint32_t* value) {
    uint64_t result = 0;
    unsigned shift = 0;
    while (pos < ssv.size()) {
      const uint8_t byte = ssv[pos++];
      if (shift < 32) result |= static_cast<uint64_t>(byte & 0x7f) << shift;
      shift += 7;
      if (!(byte & 0x80)) {
        *value = static_cast<uint32_t>(result);
        return true;
      }
    }
    return false;
  };
  if (ssv.empty() || ssv[0] != kVersionTag) {
    return Status::Error(ErrorCode::kUnsupported,
                         "serialized value: no Blink envelope (a version-0 value)", 0);
  }
  pos = 1;
  uint32_t blink_version = 0;
  if (!read_varint(&blink_version)) {
    return Status::Error(ErrorCode::kTruncated, "serialized value: the Blink version is cut short",
                         static_cast<int64_t>(ssv.size()));
  }
  uint32_t v8_version = blink_version;
  size_t end = ssv.size();
  if (blink_version >= 16) {
    if (blink_version >= 21) {
      // kTrailerOffsetTag, a big-endian uint64 offset and uint32 size of the trailer.
      if (ssv.size() - pos < 13) {
        return Status::Error(ErrorCode::kTruncated,
                             "serialized value: the trailer offset is cut short",
                             static_cast<int64_t>(ssv.size()));
      }
      if (ssv[pos] != kBlinkTrailerOffsetTag) {
        return Status::Error(ErrorCode::kCorrupt,
                             "serialized value: no trailer offset after Blink version " +
                                 std::to_string(blink_version),
                             static_cast<int64_t>(pos));
      }
      uint64_t offset = 0;
      for (size_t i = 0; i < 8; ++i) offset = (offset << 8) | ssv[pos + 1 + i];
      uint64_t size = 0;
      for (size_t i = 0; i < 4; ++i) size = (size << 8) | ssv[pos + 9 + i];
      pos += 13;
      if (offset != 0 || size != 0) {
        if (offset < pos || offset > ssv.size() || size > ssv.size() - offset) {
          return Status::Error(ErrorCode::kCorrupt,
                               "serialized value: the trailer lies outside the value",
                               static_cast<int64_t>(pos - 13));
        }
        end = static_cast<size_t>(offset);
      }
    }
    if (pos >= end || ssv[pos] != kVersionTag) {
      return Status::Error(ErrorCode::kCorrupt, "serialized value: no V8 header",
                           static_cast<int64_t>(pos));
    }
    ++pos;
    if (!read_varint(&v8_version)) {
      return Status::Error(ErrorCode::kTruncated, "serialized value: the V8 version is cut short",
                           static_cast<int64_t>(ssv.size()));
    }
  }
  if (pos > end) pos = end;
  if (v8_version < kMinV8Version || v8_version > kLatestV8Version) {
    return Status::Error(ErrorCode::kUnsupported,
                         "V8 value: wire format version " + std::to_string(v8_version) +
                             " (this reader knows 13 to 16)",
                         static_cast<int64_t>(pos));
  }
  V8Reader reader(ssv.subspan(pos, end - pos), v8_version, json, limits, blobs);
  Status s = reader.ReadValue();
  if (!s.ok()) json->clear();
  return Rebase(std::move(s), pos);
}

Status DecodeSerializedScriptValue(ByteView ssv, std::string* json,
                                   const ChromeDecodeLimits& limits) {
  return chrome::DecodeSerializedScriptValueWithBlobs(ssv, nullptr, json, limits);
}

}  // namespace sstfilter
