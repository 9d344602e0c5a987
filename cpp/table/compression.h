// Compressed blocks (docs/FORMATS.md 3.2): which codec a block's compression-type byte names, and
// the framing the writer put around the codec's own stream. Unframing learns the uncompressed size
// where the format records it and rejects what cannot be read before anything is allocated; the
// codecs (table/codecs/) then decode the stream. Codec and kMaxBlockBytes are public
// (sstfilter/table.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "sstfilter/table.h"

namespace sstfilter {

struct CompressedFrame {
  Codec codec = Codec::kNone;
  size_t payload_offset = 0;  // the codec's stream within the block contents
  size_t payload_size = 0;
  std::optional<uint64_t> uncompressed_size;  // when the framing or the stream header records it
};

struct FramingContext {
  TableFamily family = TableFamily::kRocksDb;
  uint32_t format_version = 0;  // RocksDB: >= 2 means compress_format_version 2 (size prefixes)
  uint64_t block_offset = 0;    // for error offsets
  // format_version 7: the compression manager whose codec ids the blocks use ("BuiltinV2" is the
  // builtin one; empty when no block is compressed or the property is absent).
  std::string_view compression_manager;
};

// The builtin compression manager's name (rocksdb util/compression.cc,
// BuiltinCompressionManagerV2::CompatibilityName).
inline constexpr std::string_view kBuiltinCompressionManager = "BuiltinV2";

// The compression manager a format_version >= 7 table's rocksdb.compression names: the field
// before the first ';' of "<manager>;<codec ids used, two hex digits each>;" (rocksdb
// table/block_based/block_based_table_builder.cc, PrePopulateCompressionProperties). Empty for
// older tables, a value without ';', or a table without compression (";;").
std::string_view CompressionManagerName(uint32_t format_version, std::string_view compression);

// Interprets the compression-type byte `type` of a block whose contents are `contents`.
// kUnsupported for XPRESS, custom codec ids (0x80 and up) and any compressed block of a table
// whose compression manager is not the builtin one, naming the manager and the codec id;
// kResourceLimit for sizes above kMaxBlockBytes; kCorrupt for broken framing. Errors carry the
// block's offset.
Status UnframeCompressedBlock(const FramingContext& context, uint8_t type, ByteView contents,
                              CompressedFrame* frame);

// ---- The writer's side ----

class ZstdCompressor;

// How a table writer compresses its blocks: one codec, by the name the options use ("snappy",
// "zlib", "bzip2", "lz4", "lz4hc", "zstd"), framed as RocksDB frames it from format_version 2 on
// (compress_format_version 2: every stream but Snappy's follows its uncompressed size as varint32)
// and as LevelDB frames Snappy (no prefix either).
class BlockCompressor {
 public:
  // nullptr for names of no codec this writer has. `rocksdb11`: call the libraries as RocksDB 11.x
  // does (util/compression.cc at main) where that differs from 7.8.3: LZ4 without a dictionary
  // through LZ4_compress_fast instead of a fresh stream.
  static std::unique_ptr<BlockCompressor> ForName(std::string_view name, bool rocksdb11 = false);
  ~BlockCompressor();
  BlockCompressor(const BlockCompressor&) = delete;
  BlockCompressor& operator=(const BlockCompressor&) = delete;

  // The name rocksdb.compression records (CompressionTypeToString): "Snappy", "Zlib", ...
  const char* rocksdb_name() const;
  // The compression-type byte of a block this codec compressed (RocksDB's CompressionType).
  uint8_t type() const;
  // The block's contents as stored, compressed and framed, and its compression-type byte; false
  // where the codec fails (the block is then stored as it is).
  bool Compress(ByteView raw, Bytes* out, uint8_t* type);

 private:
  enum class Kind : uint8_t { kSnappy, kZlib, kBZip2, kLz4, kLz4Hc, kZstd };
  BlockCompressor(Kind kind, bool rocksdb11);

  Kind kind_;
  bool rocksdb11_;
  std::unique_ptr<ZstdCompressor> zstd_;
};

}  // namespace sstfilter
