// Block decompression with the reference libraries RocksDB and LevelDB link (docs/FORMATS.md 3.2):
// Snappy, zlib (raw deflate), BZip2, LZ4 (and LZ4HC, which the LZ4 decoder reads) and Zstandard,
// one file per codec. table/compression.cc has already stripped the framing around the codec's
// stream and checked the recorded size against kMaxBlockBytes; each codec decodes into exactly that
// size where the block records one, else into at most kMaxBlockBytes. Errors carry no offset: the
// caller knows the block.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "sstfilter/table.h"

namespace sstfilter {

// A codec's stream and what the block says about it.
struct CodecInput {
  ByteView payload;
  std::optional<uint64_t> size;  // the recorded uncompressed size, where the format has one
  ByteView dictionary;           // the table's compression dictionary (data blocks only), or empty
};

Status SnappyDecompress(const CodecInput& in, Bytes* out);
Status ZlibDecompress(const CodecInput& in, Bytes* out);
Status Bzip2Decompress(const CodecInput& in, Bytes* out);
Status Lz4Decompress(const CodecInput& in, Bytes* out);

// Zstandard keeps its decompression context, and the dictionary digested once, across blocks
// (rocksdb util/compression.h keeps a ZSTD_DCtx per thread and a ZSTD_DDict per table).
class ZstdDecompressor {
 public:
  ZstdDecompressor();
  ~ZstdDecompressor();
  ZstdDecompressor(const ZstdDecompressor&) = delete;
  ZstdDecompressor& operator=(const ZstdDecompressor&) = delete;

  Status Decompress(const CodecInput& in, Bytes* out);

 private:
  struct Contexts;
  std::unique_ptr<Contexts> contexts_;
};

// The compress side, for the table writer: each writes the stream the reference library writes for
// `in` with RocksDB's default CompressionOptions (rocksdb util/compression.h *_Compress), without
// RocksDB's size prefix, into `out`; false where the library fails (RocksDB then stores the block
// uncompressed).
void SnappyCompress(ByteView in, Bytes* out);
bool ZlibCompress(ByteView in, Bytes* out);
bool Bzip2Compress(ByteView in, Bytes* out);
// LZ4 with acceleration 1: through a fresh LZ4_stream_t (LZ4_compress_fast_continue, RocksDB
// 7.8.3), or LZ4_compress_fast (RocksDB 11.x without a dictionary). The two pick other hash
// tables for small inputs, so their streams differ.
bool Lz4Compress(ByteView in, bool fresh_stream, Bytes* out);
// LZ4HC at its default level, through a fresh stream (both RocksDB versions).
bool Lz4HcCompress(ByteView in, Bytes* out);

// Zstandard keeps its compression context across blocks, as RocksDB's CompressionContext does.
class ZstdCompressor {
 public:
  ZstdCompressor();
  ~ZstdCompressor();
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;

  bool Compress(ByteView in, Bytes* out);

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

// The blocks of one table: dispatches by codec and keeps the codecs' state between blocks.
class Decompressor {
 public:
  Decompressor();
  ~Decompressor();
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  Status Decompress(Codec codec, const CodecInput& in, Bytes* out);

 private:
  std::unique_ptr<ZstdDecompressor> zstd_;  // created for the first zstd block
};

// Output sizing for streaming codecs (zlib, BZip2). The first output size: the recorded one, or a
// guess when the block records none (before format_version 2).
size_t InitialOutputSize(const CodecInput& in);
// The stream filled `*capacity` bytes and has more: the next capacity, or kCorrupt when the size
// was recorded, kResourceLimit above kMaxBlockBytes.
Status GrowOutput(Codec codec, const CodecInput& in, size_t* capacity);
// Ok when `produced` is the recorded size (or none is recorded).
Status CheckDecodedSize(Codec codec, const CodecInput& in, uint64_t produced);

// "zlib", "lz4", ... followed by `what`, as kCorrupt: the block does not decode.
Status CodecCorrupt(Codec codec, const std::string& what);

}  // namespace sstfilter
