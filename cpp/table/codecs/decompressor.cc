// Decompressor (codecs.h): one table's blocks, by codec.
#include <algorithm>
#include <string>

#include "table/codecs/codecs.h"

namespace sstfilter {

Decompressor::Decompressor() = default;
Decompressor::~Decompressor() = default;

Status Decompressor::Decompress(Codec codec, const CodecInput& in, Bytes* out) {
  switch (codec) {
    case Codec::kSnappy:
      return SnappyDecompress(in, out);
    case Codec::kDeflateRaw:
      return ZlibDecompress(in, out);
    case Codec::kBZip2:
      return Bzip2Decompress(in, out);
    case Codec::kLz4Block:
      return Lz4Decompress(in, out);
    case Codec::kZstd:
      if (!zstd_) zstd_ = std::make_unique<ZstdDecompressor>();
      return zstd_->Decompress(in, out);
    case Codec::kNone:
      break;
  }
  out->assign(in.payload.begin(), in.payload.end());
  return Status::Ok();
}

size_t InitialOutputSize(const CodecInput& in) {
  if (in.size) return static_cast<size_t>(*in.size);
  // Blocks compress to a quarter or more of their size in practice: one guess fits most.
  constexpr uint64_t kMinimum = 4096;
  return static_cast<size_t>(std::min<uint64_t>(
      kMaxBlockBytes, std::max<uint64_t>(kMinimum, uint64_t{in.payload.size()} * 4)));
}

Status GrowOutput(Codec codec, const CodecInput& in, size_t* capacity) {
  if (in.size) {
    return CodecCorrupt(
        codec, "the stream holds more than the recorded " + std::to_string(*in.size) + " bytes");
  }
  if (*capacity >= kMaxBlockBytes) {
    return Status::Error(ErrorCode::kResourceLimit,
                         std::string(CodecName(codec)) +
                             " block decompresses to more than the limit of " +
                             std::to_string(kMaxBlockBytes) + " bytes");
  }
  *capacity = static_cast<size_t>(std::min<uint64_t>(kMaxBlockBytes, uint64_t{*capacity} * 2));
  return Status::Ok();
}

Status CheckDecodedSize(Codec codec, const CodecInput& in, uint64_t produced) {
  if (!in.size || produced == *in.size) return Status::Ok();
  return CodecCorrupt(codec, "decoded to " + std::to_string(produced) +
                                 " bytes, the block records " + std::to_string(*in.size));
}

Status CodecCorrupt(Codec codec, const std::string& what) {
  return Status::Error(ErrorCode::kCorrupt,
                       std::string(CodecName(codec)) + " block does not decompress: " + what);
}

}  // namespace sstfilter
