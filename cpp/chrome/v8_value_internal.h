// Helpers shared by the Chrome store decoders (cpp/chrome).
#pragma once

#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/chrome_stores.h"
#include "sstfilter/status.h"

namespace sstfilter::chrome {

// One external object of an IndexedDB value, as its blob entry lists it (EncodeExternalObjects of
// content/browser/indexed_db/instance/leveldb/backing_store.cc).
struct ExternalObject {
  enum class Kind : uint8_t { kBlob = 0, kFile = 1, kFileSystemAccessHandle = 2 };
  Kind kind = Kind::kBlob;
  int64_t blob_number = 0;
  std::u16string type;
  int64_t size = 0;
  std::u16string name;        // files
  int64_t last_modified = 0;  // files
  Bytes token;                // File System Access handles
};

// DecodeSerializedScriptValue, with {"$blob"} host objects completed from `blobs` (their type,
// size and, for files, name) where the index is in it.
Status DecodeSerializedScriptValueWithBlobs(ByteView ssv, const std::vector<ExternalObject>* blobs,
                                            std::string* json, const ChromeDecodeLimits& limits);

// UTF-8 to UTF-16, malformed sequences as U+FFFD.
std::u16string Utf8ToUtf16(ByteView utf8);
// The decimal text of a BigInt from its little-endian magnitude bytes.
std::string BigIntDecimal(ByteView digits, bool negative);
// `status` with its offset moved by `base` (errors of a decoder run on a part of the input).
Status Rebase(Status status, size_t base);

}  // namespace sstfilter::chrome
