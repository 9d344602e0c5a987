// Compressed blocks (docs/FORMATS.md 3.2): which codec a block's compression-type byte names, and
// the framing the writer put around the codec's own stream. Decompression itself happens outside
// the core (the TypeScript layer uses maintained codec libraries); the core only strips the
// framing, learns the uncompressed size where the format records it, and rejects what it cannot
// support before anything is allocated.
#pragma once

#include <cstdint>
#include <optional>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

// The numbering is shared with ts/codecs.ts.
enum class Codec : uint8_t {
  kNone = 0,
  kSnappy = 1,      // raw Snappy block format
  kDeflateRaw = 2,  // raw deflate (RocksDB's zlib with its default window_bits = -14)
  kLz4Block = 3,    // raw LZ4 block (not frame); also LZ4HC
  kZstd = 4,        // one zstd frame
};

const char* CodecName(Codec codec);

// Largest uncompressed block accepted, so that a hostile size prefix cannot make anyone allocate.
inline constexpr uint64_t kMaxBlockBytes = uint64_t{256} << 20;

struct CompressedFrame {
  Codec codec = Codec::kNone;
  size_t payload_offset = 0;  // the codec's stream within the block contents
  size_t payload_size = 0;
  std::optional<uint64_t> uncompressed_size;  // when the framing or the stream header records it
};

// Which family wrote the block: type byte 2 is zlib in RocksDB and zstd in newer LevelDB.
enum class TableFamily : uint8_t { kLevelDb, kRocksDb };

struct FramingContext {
  TableFamily family = TableFamily::kRocksDb;
  uint32_t format_version = 0;  // RocksDB: >= 2 means compress_format_version 2 (size prefixes)
  bool dictionary_possible = false;  // a data block of a table with a compression dictionary
  uint64_t block_offset = 0;         // for error offsets
};

// Interprets the compression-type byte `type` of a block whose contents are `contents`.
// kUnsupported for bzip2, XPRESS, custom (format_version 7) codecs and dictionary compression;
// kResourceLimit for sizes above kMaxBlockBytes; kCorrupt for broken framing. Errors carry the
// block's offset.
Status UnframeCompressedBlock(const FramingContext& context, uint8_t type, ByteView contents,
                              CompressedFrame* frame);

}  // namespace sstfilter
