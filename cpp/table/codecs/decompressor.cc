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

size_t FirstOutputGuess(size_t payload_size) {
  // Blocks compress to a quarter or more of their size in practice: one guess fits most.
  constexpr size_t kMinimum = 4096;
  return static_cast<size_t>(
      std::min<uint64_t>(kMaxBlockBytes, std::max<uint64_t>(kMinimum, uint64_t{payload_size} * 4)));
}

size_t NextOutputGuess(size_t current) {
  if (current >= kMaxBlockBytes) return 0;
  return static_cast<size_t>(std::min<uint64_t>(kMaxBlockBytes, uint64_t{current} * 2));
}

Status CodecCorrupt(Codec codec, const std::string& what) {
  return Status::Error(ErrorCode::kCorrupt,
                       std::string(CodecName(codec)) + " block does not decompress: " + what);
}

}  // namespace sstfilter
