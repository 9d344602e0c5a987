// zlib blocks (rocksdb util/compression.h Zlib_Uncompress, Zlib_Compress): raw deflate with a
// 2^14-byte window (RocksDB's default window_bits of -14, which it also decompresses with), the
// table's dictionary set before the first byte where the table has one. The stream must end:
// RocksDB fails a block whose stream stops short.
#include <zlib.h>

#include <string>

#include "table/codecs/codecs.h"

namespace sstfilter {
namespace {

constexpr int kRocksDbWindowBits = -14;

class InflateStream {
 public:
  InflateStream() = default;  // zero-initialized: zlib's default allocator
  ~InflateStream() {
    if (initialized_) inflateEnd(&stream_);
  }
  InflateStream(const InflateStream&) = delete;
  InflateStream& operator=(const InflateStream&) = delete;

  Status Init(ByteView dictionary) {
    if (inflateInit2(&stream_, kRocksDbWindowBits) != Z_OK) {
      return Status::Error(ErrorCode::kResourceLimit, "zlib could not set up a stream");
    }
    initialized_ = true;
    if (!dictionary.empty() && inflateSetDictionary(&stream_, dictionary.data(),
                                                    static_cast<uInt>(dictionary.size())) != Z_OK) {
      return CodecCorrupt(Codec::kDeflateRaw, "the table's dictionary is not usable");
    }
    return Status::Ok();
  }
  z_stream* get() { return &stream_; }

 private:
  z_stream stream_{};
  bool initialized_ = false;
};

}  // namespace

Status ZlibDecompress(const CodecInput& in, Bytes* out) {
  InflateStream inflate_stream;
  if (Status s = inflate_stream.Init(in.dictionary); !s.ok()) return s;
  z_stream* stream = inflate_stream.get();
  // Sizes are uInt to zlib; kMaxBlockBytes keeps every one below 2^32.
  stream->next_in = const_cast<Bytef*>(in.payload.data());
  stream->avail_in = static_cast<uInt>(in.payload.size());
  size_t capacity = InitialOutputSize(in);
  out->resize(capacity);
  for (;;) {
    stream->next_out = out->data() + stream->total_out;
    stream->avail_out = static_cast<uInt>(capacity - stream->total_out);
    const int rc = inflate(stream, Z_SYNC_FLUSH);
    if (rc == Z_STREAM_END) break;
    const bool out_of_room = stream->avail_out == 0 && (rc == Z_OK || rc == Z_BUF_ERROR);
    if (!out_of_room) {
      return CodecCorrupt(Codec::kDeflateRaw,
                          rc == Z_OK || rc == Z_BUF_ERROR
                              ? std::string("the stream ends early")
                              : std::string(stream->msg != nullptr ? stream->msg : "bad stream"));
    }
    if (Status s = GrowOutput(Codec::kDeflateRaw, in, &capacity); !s.ok()) return s;
    out->resize(capacity);
  }
  out->resize(stream->total_out);
  return CheckDecodedSize(Codec::kDeflateRaw, in, out->size());
}

bool ZlibCompress(ByteView in, Bytes* out) {
  // Zlib_Compress with the default options: Z_DEFAULT_COMPRESSION (level 32767 means "the
  // library's default"), memLevel 8, strategy 0; no dictionary (the writer builds none).
  constexpr int kMemLevel = 8;
  z_stream stream{};
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kRocksDbWindowBits, kMemLevel,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return false;
  }
  out->resize(deflateBound(&stream, static_cast<uLong>(in.size())));
  stream.next_in = const_cast<Bytef*>(in.data());
  stream.avail_in = static_cast<uInt>(in.size());
  stream.next_out = out->data();
  stream.avail_out = static_cast<uInt>(out->size());
  const bool done = deflate(&stream, Z_FINISH) == Z_STREAM_END;
  out->resize(stream.total_out);
  deflateEnd(&stream);
  return done;
}

}  // namespace sstfilter
