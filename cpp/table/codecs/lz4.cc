// LZ4 and LZ4HC blocks (rocksdb util/compression.h LZ4_Uncompress, LZ4_Compress, LZ4HC_Compress):
// a raw LZ4 block, decoded with
// the table's dictionary as the preceding history where the table has one. The framing always
// records the size (compress_format_version 1 and 2 alike).
#include <lz4.h>
#include <lz4hc.h>

#include <string>

#include "table/codecs/codecs.h"

namespace sstfilter {

Status Lz4Decompress(const CodecInput& in, Bytes* out) {
  if (!in.size) return CodecCorrupt(Codec::kLz4Block, "no recorded size");
  // Sizes are ints to LZ4; kMaxBlockBytes (checked when unframing) keeps both below 2^31.
  const int capacity = static_cast<int>(*in.size);
  out->resize(static_cast<size_t>(*in.size));
  const auto* src = reinterpret_cast<const char*>(in.payload.data());
  auto* dst = reinterpret_cast<char*>(out->data());
  const int src_size = static_cast<int>(in.payload.size());
  const int n = in.dictionary.empty() ? LZ4_decompress_safe(src, dst, src_size, capacity)
                                      : LZ4_decompress_safe_usingDict(
                                            src, dst, src_size, capacity,
                                            reinterpret_cast<const char*>(in.dictionary.data()),
                                            static_cast<int>(in.dictionary.size()));
  if (n < 0) return CodecCorrupt(Codec::kLz4Block, "the stream does not decode");
  return CheckDecodedSize(Codec::kLz4Block, in, static_cast<uint64_t>(n));
}

bool Lz4Compress(ByteView in, bool high_compression, Bytes* out) {
  // RocksDB compresses through a fresh stream per block (its dictionary, when it has one, loaded
  // first): LZ4_compress_fast_continue with acceleration 1, or LZ4_compress_HC_continue at level 0,
  // which LZ4HC takes as its default level.
  const int size = static_cast<int>(in.size());
  const int bound = LZ4_compressBound(size);
  out->resize(static_cast<size_t>(bound));
  const auto* src = reinterpret_cast<const char*>(in.data());
  auto* dst = reinterpret_cast<char*>(out->data());
  int n = 0;
  if (high_compression) {
    LZ4_streamHC_t* stream = LZ4_createStreamHC();
    if (stream == nullptr) return false;
    LZ4_resetStreamHC(stream, 0);
    n = LZ4_compress_HC_continue(stream, src, dst, size, bound);
    LZ4_freeStreamHC(stream);
  } else {
    LZ4_stream_t* stream = LZ4_createStream();
    if (stream == nullptr) return false;
    n = LZ4_compress_fast_continue(stream, src, dst, size, bound, 1);
    LZ4_freeStream(stream);
  }
  out->resize(static_cast<size_t>(n));
  return n > 0;
}

}  // namespace sstfilter
