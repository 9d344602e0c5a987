// Chromium's encoded IndexedDB keys (see indexeddb_coding.h): varints, integers and strings,
// and the IDB keys themselves (decode, consume, compare). The key prefix, the key kinds and the
// idb_cmp1 order are in indexeddb_key_space.cc. Each function notes the Chromium function it
// follows (content/browser/indexed_db/indexed_db_leveldb_coding.cc unless said otherwise).
#include "comparator/indexeddb_coding.h"

#include <string>

#include "comparator/indexeddb_coding_internal.h"

namespace sstfilter::indexeddb {

using internal::CompareInts;
using internal::CompareSizes;
using internal::Skip;

namespace {

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

}  // namespace

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

namespace {

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

bool ConsumeEncodedIdbKey(ByteView* in) {
  ByteView rest = *in;
  if (!ConsumeKey(&rest, 0)) return false;
  *in = rest;
  return true;
}

bool DecodeIdbKey(ByteView* in, IdbKey* key) {
  ByteView rest = *in;
  if (!DecodeKeyAt(&rest, key, 0)) return false;
  *in = rest;
  return true;
}

}  // namespace sstfilter::indexeddb
