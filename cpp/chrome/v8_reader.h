// The V8 value deserializer of v8_value.cc and v8_value_typed.cc: the V8 and Blink
// SerializationTag values, the reader class and its byte-level primitives, written from v8
// src/objects/value-serializer.cc (SerializationTag, ValueDeserializer and its Read* methods,
// versions 13-16) and third_party/blink/renderer/bindings/core/v8/serialization
// (serialization_tag.h). Internal to cpp/chrome.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "chrome/json_text.h"
#include "chrome/v8_value_internal.h"
#include "sstfilter/chrome_stores.h"

namespace sstfilter::chrome::v8 {

// v8 SerializationTag values (value-serializer.cc).
enum : uint8_t {
  kVersionTag = 0xFF,
  kPadding = 0x00,
  kVerifyObjectCount = '?',
  kTheHole = '-',
  kUndefined = '_',
  kNull = '0',
  kTrue = 'T',
  kFalse = 'F',
  kInt32 = 'I',
  kUint32 = 'U',
  kDouble = 'N',
  kBigInt = 'Z',
  kUtf8String = 'S',
  kOneByteString = '"',
  kTwoByteString = 'c',
  kObjectReference = '^',
  kBeginJSObject = 'o',
  kEndJSObject = '{',
  kBeginSparseJSArray = 'a',
  kEndSparseJSArray = '@',
  kBeginDenseJSArray = 'A',
  kEndDenseJSArray = '$',
  kDate = 'D',
  kTrueObject = 'y',
  kFalseObject = 'x',
  kNumberObject = 'n',
  kBigIntObject = 'z',
  kStringObject = 's',
  kRegExp = 'R',
  kBeginJSMap = ';',
  kEndJSMap = ':',
  kBeginJSSet = '\'',
  kEndJSSet = ',',
  kArrayBuffer = 'B',
  kResizableArrayBuffer = '~',
  kArrayBufferTransfer = 't',
  kArrayBufferView = 'V',
  kSharedArrayBuffer = 'u',
  kSharedObject = 'p',
  kWasmModuleTransfer = 'w',
  kHostObject = '\\',
  kWasmMemoryTransfer = 'm',
  kError = 'r',
};

// Blink's SerializationTag values of the host objects IndexedDB values hold
// (serialization_tag.h).
enum : uint8_t {
  kBlinkBlobTag = 'b',       // uuid, type, size (not written for IndexedDB)
  kBlinkBlobIndexTag = 'i',  // index into the value's blob list
  kBlinkFileIndexTag = 'e',  // index into the value's blob list
  kBlinkTrailerOffsetTag = 0xFE,
};

constexpr uint32_t kMinV8Version = 13;
// Version 16 (Chromium 156 writes it) widens ArrayBuffer and view lengths and offsets to size_t
// varints; nothing else changed.
constexpr uint32_t kLatestV8Version = 16;

// A tag as hex, with its character where it is printable (error messages).
std::string TagText(uint8_t tag);

class V8Reader {
 public:
  V8Reader(ByteView data, uint32_t version, std::string* out, const ChromeDecodeLimits& limits,
           const std::vector<chrome::ExternalObject>* blobs)
      : in_(data), version_(version), out_(out), limits_(limits), blobs_(blobs) {}

  Status ReadValue() { return ReadObject(0); }

 private:
  // What a back-reference to an object id gives.
  struct IdEntry {
    enum class State : uint8_t { kInProgress, kDone, kDropped };
    State state = State::kInProgress;
    size_t begin = 0;  // its JSON text in *out_
    size_t end = 0;
    bool is_buffer = false;  // an ArrayBuffer: its bytes (it may have no text of its own)
    ByteView buffer;
  };

  Status Fail(ErrorCode code, const std::string& what, size_t offset) const {
    return Status::Error(code, "V8 value: " + what, static_cast<int64_t>(offset));
  }
  Status Truncated(const std::string& what) const {
    return Fail(ErrorCode::kTruncated, what + " is cut short", in_.size());
  }
  Status CheckOutput() const {
    if (out_->size() > limits_.max_output_bytes) {
      return Fail(ErrorCode::kResourceLimit,
                  "the JSON text passes the limit of " + std::to_string(limits_.max_output_bytes) +
                      " bytes",
                  pos_);
    }
    return Status::Ok();
  }

  size_t remaining() const { return in_.size() - pos_; }
  // Lengths and offsets of buffers and views: uint32 before version 16, size_t from it.
  unsigned SizeWidth() const { return version_ >= 16 ? 64 : 32; }

  // ReadTag: the next byte that is not padding.
  bool ReadTag(uint8_t* tag, size_t* at) {
    while (pos_ < in_.size() && in_[pos_] == kPadding) ++pos_;
    if (pos_ >= in_.size()) return false;
    *at = pos_;
    *tag = in_[pos_++];
    return true;
  }
  bool PeekTag(uint8_t* tag) const {
    size_t p = pos_;
    while (p < in_.size() && in_[p] == kPadding) ++p;
    if (p >= in_.size()) return false;
    *tag = in_[p];
    return true;
  }
  void ConsumeTag() {
    while (pos_ < in_.size() && in_[pos_] == kPadding) ++pos_;
    ++pos_;
  }

  // ReadVarint<T>: base-128 little-endian; bits past the width are dropped, as V8 does.
  Status ReadVarint(unsigned width, uint64_t* value, const char* what) {
    uint64_t result = 0;
    unsigned shift = 0;
    while (true) {
      if (pos_ >= in_.size()) return Truncated(what);
      const uint8_t byte = in_[pos_++];
      if (shift < width) {
        result |= static_cast<uint64_t>(byte & 0x7f) << shift;
        shift += 7;
      }
      if (!(byte & 0x80)) break;
    }
    if (width < 64) result &= (uint64_t{1} << width) - 1;
    *value = result;
    return Status::Ok();
  }
  Status ReadU32(uint32_t* value, const char* what) {
    uint64_t v = 0;
    if (Status s = ReadVarint(32, &v, what); !s.ok()) return s;
    *value = static_cast<uint32_t>(v);
    return Status::Ok();
  }
  Status ReadDouble(double* value, const char* what) {
    if (remaining() < 8) return Truncated(what);
    const uint64_t bits = DecodeFixed64(in_.data() + pos_);
    std::memcpy(value, &bits, sizeof(*value));
    pos_ += 8;
    return Status::Ok();
  }
  Status ReadBytes(size_t n, ByteView* bytes, const char* what) {
    if (remaining() < n) return Truncated(what);
    *bytes = in_.subspan(pos_, n);
    pos_ += n;
    return Status::Ok();
  }

  size_t BeginId() {
    IdEntry entry;
    entry.begin = out_->size();
    ids_.push_back(entry);
    return ids_.size() - 1;
  }
  void EndId(size_t id) {
    ids_[id].state = IdEntry::State::kDone;
    ids_[id].end = out_->size();
  }
  // Drops the text from `from` on (properties the tagged JSON does not represent): references to
  // the objects in it can no longer be written.
  void Truncate(size_t from, size_t first_id) {
    out_->resize(from);
    for (size_t id = first_id; id < ids_.size(); ++id) {
      if (!ids_[id].is_buffer && ids_[id].begin >= from) ids_[id].state = IdEntry::State::kDropped;
    }
  }

  // Strings, property keys, objects, arrays and ReadObject itself (v8_value.cc).
  Status ReadStringPayload(uint8_t tag, size_t at);
  Status ReadStringObject(const char* what);
  Status ReadPropertyKey(bool* is_index, uint32_t* index);
  Status ReadJsObjectProperties(uint8_t end_tag, size_t depth, uint32_t* count);
  Status ReadJsObject(size_t depth);
  Status AppendHoles(uint32_t from, uint32_t to, bool* first);
  Status CheckArrayEnd(uint32_t count, uint32_t length, const char* what);
  Status ReadDenseArray(size_t depth, size_t at);
  Status ReadSparseArray(size_t depth, size_t at);
  Status ReadObject(size_t depth);

  // The typed values: collections, BigInt, ArrayBuffer and views, host objects (v8_value_typed.cc).
  Status ReadCollection(size_t depth, uint8_t end_tag, bool map);
  Status ReadBigIntPayload(size_t at);
  Status ReadView(size_t buffer_id, size_t depth);
  Status FinishBuffer(size_t buffer_id, size_t depth);
  Status ReadHostObject(size_t at);
  Status ReadTypedObject(uint8_t tag, size_t at, size_t depth);

  ByteView in_;
  size_t pos_ = 0;
  uint32_t version_;
  std::string* out_;
  const ChromeDecodeLimits& limits_;
  const std::vector<chrome::ExternalObject>* blobs_;
  std::vector<IdEntry> ids_;
};

}  // namespace sstfilter::chrome::v8
