// The codecs (cpp/table/codecs/) on streams the reference libraries write here: sizes recorded or
// not, dictionaries, and streams that must fail. The golden tables cover the framing around them.
#include "table/codecs/codecs.h"

#include <bzlib.h>
#include <gtest/gtest.h>
#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <string>

namespace sstfilter {
namespace {

Bytes Sample(size_t n) {
  Bytes out(n);
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<uint8_t>("key-value-"[i % 10] + (i / 4096) % 3);
  return out;
}

Bytes RawDeflate(const Bytes& in, const Bytes& dictionary = {}) {
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, 6, Z_DEFLATED, -14, 8, Z_DEFAULT_STRATEGY), Z_OK);
  if (!dictionary.empty()) {
    deflateSetDictionary(&s, dictionary.data(), static_cast<uInt>(dictionary.size()));
  }
  Bytes out(deflateBound(&s, in.size()));
  s.next_in = const_cast<Bytef*>(in.data());
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = out.data();
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

Bytes Bzip2(const Bytes& in) {
  Bytes out(in.size() + in.size() / 100 + 600);
  auto size = static_cast<unsigned>(out.size());
  EXPECT_EQ(BZ2_bzBuffToBuffCompress(reinterpret_cast<char*>(out.data()), &size,
                                     const_cast<char*>(reinterpret_cast<const char*>(in.data())),
                                     static_cast<unsigned>(in.size()), 9, 0, 0),
            BZ_OK);
  out.resize(size);
  return out;
}

TEST(Codecs, StreamsWithoutARecordedSizeGrowTheirOutput) {
  // 1 MiB from a few KiB of stream: the first guess is far too small.
  const Bytes data = Sample(1 << 20);
  Decompressor d;
  for (Codec codec : {Codec::kDeflateRaw, Codec::kBZip2}) {
    const Bytes stream = codec == Codec::kDeflateRaw ? RawDeflate(data) : Bzip2(data);
    Bytes out;
    ASSERT_TRUE(d.Decompress(codec, CodecInput{stream, std::nullopt, {}}, &out).ok());
    EXPECT_EQ(out, data) << CodecName(codec);
    // With a recorded size, a stream holding more or less is corrupt.
    for (uint64_t recorded : {uint64_t{data.size() - 1}, uint64_t{data.size() + 1}}) {
      const Status s = d.Decompress(codec, CodecInput{stream, recorded, {}}, &out);
      EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << CodecName(codec) << " " << recorded;
    }
    // A stream cut short never decodes.
    const Bytes cut(stream.begin(),
                    stream.begin() + static_cast<std::ptrdiff_t>(stream.size() / 2));
    EXPECT_EQ(d.Decompress(codec, CodecInput{cut, std::nullopt, {}}, &out).code(),
              ErrorCode::kCorrupt)
        << CodecName(codec);
  }
}

TEST(Codecs, DictionariesAreTheHistoryBlocksContinue) {
  const Bytes dictionary = Sample(16384);
  const Bytes data = Sample(4096);
  Decompressor d;
  Bytes out;
  // zlib: the dictionary set before the first byte.
  const Bytes z = RawDeflate(data, dictionary);
  ASSERT_TRUE(d.Decompress(Codec::kDeflateRaw, CodecInput{z, data.size(), dictionary}, &out).ok());
  EXPECT_EQ(out, data);
  EXPECT_EQ(d.Decompress(Codec::kDeflateRaw, CodecInput{z, data.size(), {}}, &out).code(),
            ErrorCode::kCorrupt);
  // LZ4: the dictionary precedes the block.
  LZ4_stream_t* lz4 = LZ4_createStream();
  LZ4_loadDict(lz4, reinterpret_cast<const char*>(dictionary.data()),
               static_cast<int>(dictionary.size()));
  Bytes l(static_cast<size_t>(LZ4_compressBound(static_cast<int>(data.size()))));
  l.resize(static_cast<size_t>(LZ4_compress_fast_continue(
      lz4, reinterpret_cast<const char*>(data.data()), reinterpret_cast<char*>(l.data()),
      static_cast<int>(data.size()), static_cast<int>(l.size()), 1)));
  LZ4_freeStream(lz4);
  ASSERT_TRUE(d.Decompress(Codec::kLz4Block, CodecInput{l, data.size(), dictionary}, &out).ok());
  EXPECT_EQ(out, data);
  // zstd: raw-content dictionary; the same context serves blocks with and without it.
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  Bytes zs(ZSTD_compressBound(data.size()));
  zs.resize(ZSTD_compress_usingDict(cctx, zs.data(), zs.size(), data.data(), data.size(),
                                    dictionary.data(), dictionary.size(), 3));
  Bytes plain(ZSTD_compressBound(data.size()));
  plain.resize(ZSTD_compressCCtx(cctx, plain.data(), plain.size(), data.data(), data.size(), 3));
  ZSTD_freeCCtx(cctx);
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(d.Decompress(Codec::kZstd, CodecInput{zs, data.size(), dictionary}, &out).ok());
    EXPECT_EQ(out, data);
    ASSERT_TRUE(d.Decompress(Codec::kZstd, CodecInput{plain, data.size(), {}}, &out).ok());
    EXPECT_EQ(out, data);
  }
  EXPECT_EQ(d.Decompress(Codec::kZstd, CodecInput{zs, data.size() + 1, dictionary}, &out).code(),
            ErrorCode::kCorrupt);
}

TEST(Codecs, SnappyChecksItsPreambleAgainstTheBlock) {
  const Bytes data = Sample(5000);
  std::string compressed;
  snappy::Compress(reinterpret_cast<const char*>(data.data()), data.size(), &compressed);
  const Bytes s(compressed.begin(), compressed.end());
  Bytes out;
  ASSERT_TRUE(SnappyDecompress(CodecInput{s, data.size(), {}}, &out).ok());
  EXPECT_EQ(out, data);
  EXPECT_EQ(SnappyDecompress(CodecInput{s, data.size() + 1, {}}, &out).code(), ErrorCode::kCorrupt);
  const Bytes cut(s.begin(), s.end() - 3);
  EXPECT_EQ(SnappyDecompress(CodecInput{cut, data.size(), {}}, &out).code(), ErrorCode::kCorrupt);
}

}  // namespace
}  // namespace sstfilter
