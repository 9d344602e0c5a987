// How the table readers do I/O without doing it (docs/FORMATS.md 3.1, 3.2): every read of a table
// file is a ResumableRead that says which bytes it needs next; a driver supplies them (the
// TypeScript layer over a ByteSource, or DriveFromMemory for a file held in memory) and advances it
// again. Blocks are checksum-verified and decompressed in the core.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

// ---- Blocks (docs/FORMATS.md 3.1, 3.2) ----

// Every block in a table file is followed by 1 compression-type byte and 4 checksum bytes.
inline constexpr uint64_t kBlockTrailerSize = 5;

// Where a block lies in the file.
struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;  // without the 5-byte trailer
};

// Largest uncompressed block accepted, so that a hostile size prefix cannot make anyone allocate.
inline constexpr uint64_t kMaxBlockBytes = uint64_t{256} << 20;

// Which database wrote the table (compression type 2 is zlib in RocksDB, zstd in newer LevelDB).
enum class TableFamily : uint8_t { kLevelDb, kRocksDb };

// The codec a compressed block's payload needs (docs/FORMATS.md 3.2); the core decompresses with
// the reference libraries (Snappy, zlib, bzip2, LZ4, Zstandard).
enum class Codec : uint8_t {
  kNone,
  kSnappy,      // raw Snappy block format
  kDeflateRaw,  // raw deflate (RocksDB's zlib with its default window_bits = -14)
  kBZip2,       // one bzip2 stream
  kLz4Block,    // raw LZ4 block (not frame); also LZ4HC
  kZstd,        // zstd frames
};

// "none", "snappy", "zlib", "bzip2", "lz4", "zstd".
const char* CodecName(Codec codec);

// ---- Resumable reads ----

// What the driver must do before a read can make progress. The numbering is what the bindings'
// advance() returns to TypeScript.
enum class IoNeed : uint8_t {
  kNothing = 0,
  kBytes = 1,  // supply file bytes [need_offset, need_offset + need_length)
};

class BlockFetcher;  // the state of one block read (internal: table/block_fetcher.h)

// An operation on a table that makes progress by fetching blocks: opening it, walking its keys,
// reading a block. Advance() until need() is kNothing, doing what need() asks in between.
class ResumableRead {
 public:
  virtual ~ResumableRead() = default;

  // Runs until the operation is done or needs the driver.
  virtual Status Advance() = 0;

  // What the driver must do now.
  IoNeed need() const;
  // kBytes: the file range to supply (reads are coalesced: a range may hold many blocks).
  uint64_t need_offset() const;
  uint64_t need_length() const;
  // How much the read after this one will likely ask for, from need_offset() + need_length() on (0
  // when none is expected): a driver may read it ahead while the operation works.
  uint64_t need_ahead_length() const;
  // The driver's answer to need(): the file bytes, copied in by Supply, or written by the driver
  // into SupplyBuffer() (need_length() bytes; nullptr when nothing is needed) and announced by
  // Supplied.
  Status Supply(ByteView bytes);
  uint8_t* SupplyBuffer();
  Status Supplied(size_t size);

  // The block read behind the calls above, for the library's own code and tests.
  virtual BlockFetcher& fetcher() const = 0;
};

// Advances `op` until it needs nothing more, answering its reads from `file`.
Status DriveFromMemory(ResumableRead& op, ByteView file);

}  // namespace sstfilter
