// Zstandard blocks (rocksdb util/compression.h ZSTD_Uncompress, ZSTD_Compress; leveldb port
// Zstd_Uncompress):
// one or more frames decoded in one call into a buffer of the recorded size, with the table's
// dictionary (trained or raw content) where it has one. Decoding straight into that buffer needs
// no window of the size a frame header may claim.
#include <zstd.h>

#include <string>

#include "table/codecs/codecs.h"

namespace sstfilter {

struct ZstdDecompressor::Contexts {
  ~Contexts() {
    ZSTD_freeDDict(dictionary);
    ZSTD_freeDCtx(context);
  }
  ZSTD_DCtx* context = nullptr;
  ZSTD_DDict* dictionary = nullptr;
  ByteView dictionary_bytes;  // what `dictionary` was digested from
};

ZstdDecompressor::ZstdDecompressor() : contexts_(std::make_unique<Contexts>()) {}
ZstdDecompressor::~ZstdDecompressor() = default;

Status ZstdDecompressor::Decompress(const CodecInput& in, Bytes* out) {
  Contexts& c = *contexts_;
  if (!in.size) return CodecCorrupt(Codec::kZstd, "no recorded size");
  if (c.context == nullptr && (c.context = ZSTD_createDCtx()) == nullptr) {
    return Status::Error(ErrorCode::kResourceLimit, "zstd could not set up a context");
  }
  if (!in.dictionary.empty() &&
      (c.dictionary == nullptr || c.dictionary_bytes.data() != in.dictionary.data() ||
       c.dictionary_bytes.size() != in.dictionary.size())) {
    ZSTD_freeDDict(c.dictionary);
    c.dictionary = ZSTD_createDDict(in.dictionary.data(), in.dictionary.size());
    c.dictionary_bytes = in.dictionary;
    if (c.dictionary == nullptr) {
      return CodecCorrupt(Codec::kZstd, "the table's dictionary is not usable");
    }
  }
  out->resize(static_cast<size_t>(*in.size));
  const size_t n = in.dictionary.empty() ? ZSTD_decompressDCtx(c.context, out->data(), out->size(),
                                                               in.payload.data(), in.payload.size())
                                         : ZSTD_decompress_usingDDict(
                                               c.context, out->data(), out->size(),
                                               in.payload.data(), in.payload.size(), c.dictionary);
  if (ZSTD_isError(n)) {
    return CodecCorrupt(Codec::kZstd,
                        std::string("the stream does not decode (") + ZSTD_getErrorName(n) + ")");
  }
  return CheckDecodedSize(Codec::kZstd, in, n);
}

struct ZstdCompressor::Context {
  ~Context() { ZSTD_freeCCtx(context); }
  ZSTD_CCtx* context = nullptr;
};

ZstdCompressor::ZstdCompressor() : context_(std::make_unique<Context>()) {}
ZstdCompressor::~ZstdCompressor() = default;

bool ZstdCompressor::Compress(ByteView in, Bytes* out) {
  // ZSTD_Compress: level 3 for RocksDB's default level (ZSTD_CLEVEL_DEFAULT), through
  // ZSTD_compress_usingDict with the (here empty) raw dictionary.
  constexpr int kDefaultLevel = 3;
  if (context_->context == nullptr && (context_->context = ZSTD_createCCtx()) == nullptr) {
    return false;
  }
  out->resize(ZSTD_compressBound(in.size()));
  const size_t n = ZSTD_compress_usingDict(context_->context, out->data(), out->size(), in.data(),
                                           in.size(), nullptr, 0, kDefaultLevel);
  if (ZSTD_isError(n) || n == 0) return false;
  out->resize(n);
  return true;
}

}  // namespace sstfilter
