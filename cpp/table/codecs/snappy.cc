// Snappy (rocksdb util/compression.h Snappy_Compress / Snappy_Uncompress; leveldb
// port/port_stdcxx.h): the stream starts with its own varint32 length, and the library checks every
// literal and copy against the input and the output. Both databases compress with RawCompress and
// frame nothing around it, whatever the format_version.
#include <snappy.h>

#include <string>

#include "table/codecs/codecs.h"

namespace sstfilter {

Status SnappyDecompress(const CodecInput& in, Bytes* out) {
  const auto* data = reinterpret_cast<const char*>(in.payload.data());
  size_t size = 0;
  if (!snappy::GetUncompressedLength(data, in.payload.size(), &size)) {
    return CodecCorrupt(Codec::kSnappy, "bad length preamble");
  }
  if (in.size && size != *in.size) {
    return CodecCorrupt(Codec::kSnappy, "length preamble " + std::to_string(size) +
                                            ", the block records " + std::to_string(*in.size));
  }
  if (size > kMaxBlockBytes) {
    return Status::Error(ErrorCode::kResourceLimit,
                         "snappy block of " + std::to_string(size) + " bytes is above the limit");
  }
  out->resize(size);
  if (!snappy::RawUncompress(data, in.payload.size(), reinterpret_cast<char*>(out->data()))) {
    return CodecCorrupt(Codec::kSnappy, "the stream does not decode");
  }
  return Status::Ok();
}

void SnappyCompress(ByteView in, Bytes* out) {
  out->resize(snappy::MaxCompressedLength(in.size()));
  size_t size = 0;
  snappy::RawCompress(reinterpret_cast<const char*>(in.data()), in.size(),
                      reinterpret_cast<char*>(out->data()), &size);
  out->resize(size);
}

}  // namespace sstfilter
