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

namespace {

// Runs `compress(src, dst, size, bound)` into `out`, sized to the library's bound first.
template <typename Compress>
bool Lz4Into(ByteView in, Bytes* out, Compress compress) {
  const int size = static_cast<int>(in.size());
  const int bound = LZ4_compressBound(size);
  out->resize(static_cast<size_t>(bound));
  const int n = compress(reinterpret_cast<const char*>(in.data()),
                         reinterpret_cast<char*>(out->data()), size, bound);
  out->resize(static_cast<size_t>(n > 0 ? n : 0));
  return n > 0;
}

}  // namespace

bool Lz4Compress(ByteView in, bool fresh_stream, Bytes* out) {
  // RocksDB 7.8.3 compresses through a fresh stream per block (its dictionary, when it has one,
  // loaded first) with acceleration 1; 11.x calls LZ4_compress_fast when it has no dictionary.
  return Lz4Into(in, out, [fresh_stream](const char* src, char* dst, int size, int bound) {
    if (!fresh_stream) return LZ4_compress_fast(src, dst, size, bound, 1);
    LZ4_stream_t* stream = LZ4_createStream();
    if (stream == nullptr) return 0;
    const int n = LZ4_compress_fast_continue(stream, src, dst, size, bound, 1);
    LZ4_freeStream(stream);
    return n;
  });
}

bool Lz4HcCompress(ByteView in, Bytes* out) {
  // LZ4_compress_HC_continue on a stream reset to level 0, which LZ4HC takes as its default.
  return Lz4Into(in, out, [](const char* src, char* dst, int size, int bound) {
    LZ4_streamHC_t* stream = LZ4_createStreamHC();
    if (stream == nullptr) return 0;
    LZ4_resetStreamHC(stream, 0);
    const int n = LZ4_compress_HC_continue(stream, src, dst, size, bound);
    LZ4_freeStreamHC(stream);
    return n;
  });
}

}  // namespace sstfilter
