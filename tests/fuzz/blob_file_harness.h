// The harness of blob_file_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>

#include "blob_builder.h"
#include "harness_support.h"
#include "sstfilter/blob_file.h"
#include "sstfilter/bytes.h"

namespace sstfilter::fuzz {

// Blob files. Byte 0: bit 0 builds a file (BlobFileBuilder) from records of [u8 key size][u16
// value size] bytes with valid CRCs, then cuts the last u16 bytes off; otherwise the rest is the
// file as it is. A sound file's records and header and footer make up exactly the file; errors
// are typed and name an offset inside it.
inline void FuzzBlobFile(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  Bytes built;
  ByteView file;
  if ((mode & 1) != 0) {
    const uint16_t cut = in.U16();
    BlobFileBuilder b;
    while (in.remaining() > 0) {
      const ByteView key = in.Take(in.Byte());
      b.Add(key, in.Take(in.U16()));
    }
    built = b.Finish();
    built.erase(built.end() - static_cast<ptrdiff_t>(std::min<size_t>(cut, built.size())),
                built.end());
    file = built;
  } else {
    file = in.Rest();
  }
  BlobFileCheck check;
  const Status s = CheckBlobFile(file, &check);
  if (s.ok()) {
    FUZZ_CHECK(kBlobFileHeaderSize + check.blob_bytes + kBlobFileFooterSize == file.size());
  } else {
    FUZZ_CHECK(s.code() == ErrorCode::kTruncated || s.code() == ErrorCode::kCorrupt ||
               s.code() == ErrorCode::kChecksumMismatch);
    FUZZ_CHECK(s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= file.size());
  }
  // The first blob read back as Get reads it, at the offset its record's header announces: a
  // sound uncompressed file gives the blob itself; any file a value or a typed error inside it.
  if (file.size() < kBlobFileHeaderSize + kBlobRecordHeaderSize) return;
  const uint64_t key_size = DecodeFixed64(file.data() + kBlobFileHeaderSize);
  const uint64_t value_size = DecodeFixed64(file.data() + kBlobFileHeaderSize + 8);
  const size_t room = file.size() - kBlobFileHeaderSize - kBlobRecordHeaderSize;
  if (key_size > room || value_size > room - key_size) return;
  const ByteView record =
      file.subspan(kBlobFileHeaderSize, kBlobRecordHeaderSize + key_size + value_size);
  const ByteView key = record.subspan(kBlobRecordHeaderSize, key_size);
  const BlobPointer pointer{kBlobFileHeaderSize + kBlobRecordHeaderSize + key_size, value_size,
                            file[13], DecodeFixed32(file.data() + 8)};
  Bytes value;
  const Status read =
      ReadBlobValue(file.first(kBlobFileHeaderSize), file.size(), record, key, pointer, &value);
  if (s.ok() && check.blob_count > 0 && check.compression == 0 && !check.has_ttl) {
    FUZZ_CHECK(read.ok());
    FUZZ_CHECK(value.size() == value_size);
  }
  if (!read.ok()) {
    FUZZ_CHECK(read.code() == ErrorCode::kTruncated || read.code() == ErrorCode::kCorrupt ||
               read.code() == ErrorCode::kChecksumMismatch ||
               read.code() == ErrorCode::kUnsupported || read.code() == ErrorCode::kResourceLimit);
    FUZZ_CHECK(read.offset() >= 0 && static_cast<uint64_t>(read.offset()) <= file.size());
  }
}

}  // namespace sstfilter::fuzz
