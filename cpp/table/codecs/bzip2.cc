// BZip2 blocks (rocksdb util/compression.h BZip2_Uncompress, BZip2_Compress): one bzip2 stream,
// whose size the framing records from format_version 2 on; before, the output grows until the
// stream ends. The library's small-memory mode is off, as in RocksDB.
#include <bzlib.h>

#include <string>

#include "table/codecs/codecs.h"

namespace sstfilter {
namespace {

class Bz2Stream {
 public:
  ~Bz2Stream() {
    if (initialized_) BZ2_bzDecompressEnd(&stream_);
  }
  Status Init() {
    if (BZ2_bzDecompressInit(&stream_, /*verbosity=*/0, /*small=*/0) != BZ_OK) {
      return Status::Error(ErrorCode::kResourceLimit, "bzip2 could not set up a stream");
    }
    initialized_ = true;
    return Status::Ok();
  }
  bz_stream* get() { return &stream_; }

 private:
  bz_stream stream_{};
  bool initialized_ = false;
};

uint64_t TotalOut(const bz_stream& s) {
  return (uint64_t{s.total_out_hi32} << 32) | s.total_out_lo32;
}

}  // namespace

Status Bzip2Decompress(const CodecInput& in, Bytes* out) {
  Bz2Stream bz;
  if (Status s = bz.Init(); !s.ok()) return s;
  bz_stream* stream = bz.get();
  // Sizes are unsigned ints to bzip2; kMaxBlockBytes keeps every one below 2^32.
  stream->next_in = const_cast<char*>(reinterpret_cast<const char*>(in.payload.data()));
  stream->avail_in = static_cast<unsigned>(in.payload.size());
  size_t capacity = InitialOutputSize(in);
  out->resize(capacity);
  for (;;) {
    const auto produced = static_cast<size_t>(TotalOut(*stream));
    stream->next_out = reinterpret_cast<char*>(out->data() + produced);
    stream->avail_out = static_cast<unsigned>(capacity - produced);
    const int rc = BZ2_bzDecompress(stream);
    if (rc == BZ_STREAM_END) break;
    if (rc != BZ_OK) {
      return CodecCorrupt(Codec::kBZip2,
                          "the stream does not decode (bzip2 error " + std::to_string(rc) + ")");
    }
    if (stream->avail_out != 0) return CodecCorrupt(Codec::kBZip2, "the stream ends early");
    if (Status s = GrowOutput(Codec::kBZip2, in, &capacity); !s.ok()) return s;
    out->resize(capacity);
  }
  out->resize(static_cast<size_t>(TotalOut(*stream)));
  return CheckDecodedSize(Codec::kBZip2, in, out->size());
}

bool Bzip2Compress(ByteView in, Bytes* out) {
  // BZip2_Compress: 100k blocks (blockSize100k 1), silent, workFactor 30, and room for no more
  // than the input: a stream that does not fit there is no compression.
  bz_stream stream{};
  if (BZ2_bzCompressInit(&stream, /*blockSize100k=*/1, /*verbosity=*/0, /*workFactor=*/30) !=
      BZ_OK) {
    return false;
  }
  out->resize(in.size());
  stream.next_in = const_cast<char*>(reinterpret_cast<const char*>(in.data()));
  stream.avail_in = static_cast<unsigned int>(in.size());
  stream.next_out = reinterpret_cast<char*>(out->data());
  stream.avail_out = static_cast<unsigned int>(out->size());
  const bool done = BZ2_bzCompress(&stream, BZ_FINISH) == BZ_STREAM_END;
  out->resize(out->size() - stream.avail_out);
  BZ2_bzCompressEnd(&stream);
  return done;
}

}  // namespace sstfilter
