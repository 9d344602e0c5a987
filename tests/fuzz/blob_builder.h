// Writes blob files (docs/FORMATS.md 6.7) for the tests and fuzz targets, after rocksdb
// db/blob/blob_log_format.cc: the 30-byte header, records of a 32-byte header (sizes, expiration,
// masked CRC32C of those 24 bytes, masked CRC32C of key and value) with key and value, and the
// 32-byte footer (magic, count, expiration range, masked CRC32C of those 28 bytes). Record writes
// a header announcing any sizes over any body, for files a writer would not produce.
#pragma once

#include <cstdint>

#include "sstfilter/bytes.h"
#include "sstfilter/hash.h"

namespace sstfilter::fuzz {

class BlobFileBuilder {
 public:
  static constexpr uint32_t kMagic = 2395959;  // 0x00248f37

  explicit BlobFileBuilder(uint32_t column_family_id = 0, uint8_t compression = 0) {
    PutFixed32(&bytes_, kMagic);
    PutFixed32(&bytes_, 1);  // version
    PutFixed32(&bytes_, column_family_id);
    bytes_.push_back(0);  // flags: no TTL
    bytes_.push_back(compression);
    PutFixed64(&bytes_, 0);  // expiration range
    PutFixed64(&bytes_, 0);
  }

  void Add(ByteView key, ByteView value) {
    Bytes body(key.begin(), key.end());
    body.insert(body.end(), value.begin(), value.end());
    Record(key.size(), value.size(), body);
    count_++;
  }

  void Record(uint64_t key_size, uint64_t value_size, ByteView body) {
    Bytes fixed;
    PutFixed64(&fixed, key_size);
    PutFixed64(&fixed, value_size);
    PutFixed64(&fixed, 0);  // expiration
    bytes_.insert(bytes_.end(), fixed.begin(), fixed.end());
    PutFixed32(&bytes_, Crc32cMask(Crc32c(fixed)));
    PutFixed32(&bytes_, Crc32cMask(Crc32c(body)));
    bytes_.insert(bytes_.end(), body.begin(), body.end());
  }

  void Raw(ByteView bytes) { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }

  // The file with a footer counting `count` blobs (default: those Add wrote).
  Bytes Finish(int64_t count = -1) {
    Bytes fixed;
    PutFixed32(&fixed, kMagic);
    PutFixed64(&fixed, count < 0 ? count_ : static_cast<uint64_t>(count));
    PutFixed64(&fixed, 0);  // expiration range
    PutFixed64(&fixed, 0);
    Bytes out = bytes_;
    out.insert(out.end(), fixed.begin(), fixed.end());
    PutFixed32(&out, Crc32cMask(Crc32c(fixed)));
    return out;
  }

  size_t size() const { return bytes_.size(); }

 private:
  Bytes bytes_;
  uint64_t count_ = 0;
};

}  // namespace sstfilter::fuzz
