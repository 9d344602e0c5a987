// The typed values of the V8 value deserializer (cpp/chrome/v8_reader.h): Date, the boxed
// primitives, RegExp, Map and Set, BigInt, ArrayBuffer and its views, and the Blink Blob and File
// index host objects; moved out of v8_value.cc, written from the same sources: v8
// src/objects/value-serializer.cc (ValueDeserializer::ReadObject and its Read* methods, versions
// 13-16) and third_party/blink/renderer/bindings/core/v8/serialization (serialization_tag.h,
// v8_script_value_deserializer.cc: the Blob and File index host objects). The output is the
// tagged JSON of docs/FORMATS.md 7.5.
#include <string>
#include <vector>

#include "chrome/json_text.h"
#include "chrome/v8_reader.h"
#include "chrome/v8_value_internal.h"
#include "sstfilter/chrome_stores.h"

namespace sstfilter::chrome {

namespace v8 {

using chrome::AppendHex;
using chrome::AppendJsonNumber;
using chrome::AppendJsonString;

// The values ReadObject hands on by tag: Date, the boxed primitives, RegExp, Map, Set, ArrayBuffer
// (and a view on it) and Blink host objects.
Status V8Reader::ReadTypedObject(uint8_t tag, size_t at, size_t depth) {
  switch (tag) {
    case kDate: {
      double d = 0;
      if (Status s = ReadDouble(&d, "a Date"); !s.ok()) return s;
      const size_t id = BeginId();
      out_->append("{\"$date\":");
      AppendJsonNumber(out_, d);
      out_->push_back('}');
      EndId(id);
      return Status::Ok();
    }
    case kTrueObject:
    case kFalseObject:
    case kNumberObject:
    case kBigIntObject:
    case kStringObject: {
      const size_t id = BeginId();
      out_->append("{\"$boxed\":");
      if (tag == kTrueObject || tag == kFalseObject) {
        out_->append(tag == kTrueObject ? "true" : "false");
      } else if (tag == kNumberObject) {
        double d = 0;
        if (Status s = ReadDouble(&d, "a Number object"); !s.ok()) return s;
        AppendJsonNumber(out_, d);
      } else if (tag == kBigIntObject) {
        if (Status s = ReadBigIntPayload(at); !s.ok()) return s;
      } else if (Status s = ReadStringObject("a String object"); !s.ok()) {
        return s;
      }
      out_->push_back('}');
      EndId(id);
      return CheckOutput();
    }
    case kRegExp: {
      const size_t id = BeginId();
      out_->append("{\"$regexp\":{\"source\":");
      if (Status s = ReadStringObject("a RegExp's source"); !s.ok()) return s;
      uint32_t flags = 0;
      const size_t flags_at = pos_;
      if (Status s = ReadU32(&flags, "a RegExp's flags"); !s.ok()) return s;
      if (flags >> 9) return Fail(ErrorCode::kCorrupt, "RegExp flags out of range", flags_at);
      // JSRegExp::Flag bits; written in the order of RegExp.prototype.flags.
      static constexpr struct {
        uint32_t bit;
        char letter;
      } kFlags[] = {{1u << 7, 'd'}, {1u << 0, 'g'}, {1u << 1, 'i'}, {1u << 6, 'l'}, {1u << 2, 'm'},
                    {1u << 5, 's'}, {1u << 4, 'u'}, {1u << 8, 'v'}, {1u << 3, 'y'}};
      out_->append(",\"flags\":\"");
      for (const auto& f : kFlags) {
        if (flags & f.bit) out_->push_back(f.letter);
      }
      out_->append("\"}}");
      EndId(id);
      return CheckOutput();
    }
    case kBeginJSMap:
      return ReadCollection(depth, kEndJSMap, true);
    case kBeginJSSet:
      return ReadCollection(depth, kEndJSSet, false);
    case kArrayBuffer:
    case kResizableArrayBuffer: {
      const size_t id = BeginId();
      ids_[id].is_buffer = true;
      uint64_t length = 0;
      if (Status s = ReadVarint(SizeWidth(), &length, "an ArrayBuffer's length"); !s.ok()) {
        return s;
      }
      if (tag == kResizableArrayBuffer) {
        uint64_t max_length = 0;
        if (Status s = ReadVarint(SizeWidth(), &max_length, "an ArrayBuffer's maximum length");
            !s.ok()) {
          return s;
        }
        if (length > max_length) {
          return Fail(ErrorCode::kCorrupt, "a resizable ArrayBuffer above its maximum", at);
        }
      }
      if (length > remaining()) return Truncated("an ArrayBuffer");
      if (Status s = ReadBytes(static_cast<size_t>(length), &ids_[id].buffer, "an ArrayBuffer");
          !s.ok()) {
        return s;
      }
      ids_[id].state = IdEntry::State::kDone;
      return FinishBuffer(id, depth);
    }
    case kHostObject:
      return ReadHostObject(at);
    default:
      return Fail(ErrorCode::kUnsupported, "unknown V8 tag " + TagText(tag), at);
  }
}

Status V8Reader::ReadCollection(size_t depth, uint8_t end_tag, bool map) {
  const size_t id = BeginId();
  out_->append(map ? "{\"$map\":[" : "{\"$set\":[");
  uint32_t items = 0;
  bool first = true;
  while (true) {
    uint8_t tag = 0;
    if (!PeekTag(&tag)) return Truncated(map ? "a Map" : "a Set");
    if (tag == end_tag) {
      ConsumeTag();
      break;
    }
    if (!first) out_->push_back(',');
    first = false;
    if (map) out_->push_back('[');
    if (Status s = ReadObject(depth + 1); !s.ok()) return s;
    ++items;
    if (map) {
      out_->push_back(',');
      if (Status s = ReadObject(depth + 1); !s.ok()) return s;
      ++items;
      out_->push_back(']');
    }
  }
  uint32_t expected = 0;
  const size_t at = pos_;
  if (Status s = ReadU32(&expected, "a collection's length"); !s.ok()) return s;
  if (expected != items) {
    return Fail(ErrorCode::kCorrupt, "a collection's length disagrees with its entries", at);
  }
  out_->append("]}");
  EndId(id);
  return CheckOutput();
}

Status V8Reader::ReadBigIntPayload(size_t at) {
  uint32_t bitfield = 0;
  if (Status s = ReadU32(&bitfield, "a BigInt's bitfield"); !s.ok()) return s;
  const bool negative = bitfield & 1;
  const size_t byte_length = (bitfield >> 1) & ((uint32_t{1} << 30) - 1);
  if (byte_length > limits_.max_bigint_bytes) {
    return Fail(ErrorCode::kResourceLimit, "a BigInt of more digits than the limit", at);
  }
  ByteView digits;
  if (Status s = ReadBytes(byte_length, &digits, "a BigInt's digits"); !s.ok()) return s;
  out_->append("{\"$bigint\":\"");
  out_->append(chrome::BigIntDecimal(digits, negative));
  out_->append("\"}");
  return Status::Ok();
}

Status V8Reader::ReadView(size_t buffer_id, size_t depth) {
  (void)depth;
  const size_t at = pos_;
  ConsumeTag();  // kArrayBufferView
  uint64_t subtag = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
  uint32_t flags = 0;
  if (Status s = ReadVarint(8, &subtag, "a view's type"); !s.ok()) return s;
  if (Status s = ReadVarint(SizeWidth(), &offset, "a view's offset"); !s.ok()) return s;
  if (Status s = ReadVarint(SizeWidth(), &length, "a view's length"); !s.ok()) return s;
  if (version_ >= 14) {
    if (Status s = ReadU32(&flags, "a view's flags"); !s.ok()) return s;
  }
  const ByteView buffer = ids_[buffer_id].buffer;
  if (offset > buffer.size() || length > buffer.size() - offset) {
    return Fail(ErrorCode::kCorrupt, "a view outside its buffer", at);
  }
  const char* type = nullptr;
  uint32_t element = 1;
  switch (subtag) {
    case 'b':
      type = "Int8Array";
      break;
    case 'B':
      type = "Uint8Array";
      break;
    case 'C':
      type = "Uint8ClampedArray";
      break;
    case 'w':
      type = "Int16Array";
      element = 2;
      break;
    case 'W':
      type = "Uint16Array";
      element = 2;
      break;
    case 'd':
      type = "Int32Array";
      element = 4;
      break;
    case 'D':
      type = "Uint32Array";
      element = 4;
      break;
    case 'h':
      type = "Float16Array";
      element = 2;
      break;
    case 'f':
      type = "Float32Array";
      element = 4;
      break;
    case 'F':
      type = "Float64Array";
      element = 8;
      break;
    case 'q':
      type = "BigInt64Array";
      element = 8;
      break;
    case 'Q':
      type = "BigUint64Array";
      element = 8;
      break;
    case '?':
      type = "DataView";
      break;
    default:
      return Fail(ErrorCode::kCorrupt,
                  "a view of unknown type " + TagText(static_cast<uint8_t>(subtag)), at);
  }
  if (offset % element != 0 || length % element != 0) {
    return Fail(ErrorCode::kCorrupt, "a view not aligned to its element size", at);
  }
  const size_t id = BeginId();
  out_->append("{\"$view\":{\"type\":\"");
  out_->append(type);
  out_->append("\",\"hex\":\"");
  AppendHex(out_, buffer.subspan(static_cast<size_t>(offset), static_cast<size_t>(length)));
  out_->append("\"}}");
  EndId(id);
  return CheckOutput();
}

// After an ArrayBuffer (read or referenced): a view on it, or the buffer itself.
Status V8Reader::FinishBuffer(size_t buffer_id, size_t depth) {
  uint8_t tag = 0;
  if (PeekTag(&tag) && tag == kArrayBufferView) return ReadView(buffer_id, depth);
  out_->append("{\"$arraybuffer\":\"");
  AppendHex(out_, ids_[buffer_id].buffer);
  out_->append("\"}");
  return CheckOutput();
}

Status V8Reader::ReadHostObject(size_t at) {
  const size_t id = BeginId();
  uint8_t tag = 0;
  size_t tag_at = 0;
  if (!ReadTag(&tag, &tag_at)) return Truncated("a host object");
  switch (tag) {
    case kBlinkBlobIndexTag:
    case kBlinkFileIndexTag: {
      uint32_t index = 0;
      if (Status s = ReadU32(&index, "a blob index"); !s.ok()) return s;
      out_->append("{\"$blob\":{\"kind\":\"");
      out_->append(tag == kBlinkBlobIndexTag ? "blob" : "file");
      out_->append("\",\"index\":");
      out_->append(std::to_string(index));
      if (blobs_ != nullptr && index < blobs_->size()) {
        const chrome::ExternalObject& blob = (*blobs_)[index];
        out_->append(",\"type\":");
        AppendJsonString(out_, blob.type);
        out_->append(",\"size\":");
        out_->append(std::to_string(blob.size));
        if (blob.kind == chrome::ExternalObject::Kind::kFile) {
          out_->append(",\"name\":");
          AppendJsonString(out_, blob.name);
        }
      }
      out_->append("}}");
      break;
    }
    case kBlinkBlobTag: {
      ByteView uuid;
      ByteView type;
      uint32_t n = 0;
      uint64_t size = 0;
      if (Status s = ReadU32(&n, "a blob's uuid"); !s.ok()) return s;
      if (Status s = ReadBytes(n, &uuid, "a blob's uuid"); !s.ok()) return s;
      if (Status s = ReadU32(&n, "a blob's type"); !s.ok()) return s;
      if (Status s = ReadBytes(n, &type, "a blob's type"); !s.ok()) return s;
      if (Status s = ReadVarint(64, &size, "a blob's size"); !s.ok()) return s;
      out_->append("{\"$blob\":{\"kind\":\"blob\",\"type\":");
      AppendJsonString(out_, chrome::Utf8ToUtf16(type));
      out_->append(",\"size\":");
      out_->append(std::to_string(size));
      out_->append("}}");
      break;
    }
    default:
      (void)at;
      return Fail(ErrorCode::kUnsupported, "Blink host object of tag " + TagText(tag), tag_at);
  }
  EndId(id);
  return CheckOutput();
}

}  // namespace v8

std::string BigIntDecimal(ByteView digits, bool negative) {
  // Little-endian bytes into 32-bit limbs, then repeated division by 10^9.
  std::vector<uint32_t> limbs((digits.size() + 3) / 4, 0);
  for (size_t i = 0; i < digits.size(); ++i) limbs[i / 4] |= uint32_t{digits[i]} << (8 * (i % 4));
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  if (limbs.empty()) return "0";
  std::vector<uint32_t> chunks;
  while (!limbs.empty()) {
    uint64_t remainder = 0;
    for (size_t i = limbs.size(); i-- > 0;) {
      const uint64_t current = (remainder << 32) | limbs[i];
      limbs[i] = static_cast<uint32_t>(current / 1000000000u);
      remainder = current % 1000000000u;
    }
    chunks.push_back(static_cast<uint32_t>(remainder));
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  }
  std::string text = negative ? "-" : "";
  text += std::to_string(chunks.back());
  for (size_t i = chunks.size() - 1; i-- > 0;) {
    const std::string part = std::to_string(chunks[i]);
    text.append(9 - part.size(), '0');
    text += part;
  }
  return text;
}

}  // namespace sstfilter::chrome
