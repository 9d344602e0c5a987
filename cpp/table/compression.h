// Compressed blocks (docs/FORMATS.md 3.2): which codec a block's compression-type byte names, and
// the framing the writer put around the codec's own stream. Unframing learns the uncompressed size
// where the format records it and rejects what cannot be read before anything is allocated; the
// codecs (table/codecs/) then decode the stream. Codec and kMaxBlockBytes are public
// (sstfilter/table.h).
#pragma once

#include <cstdint>
#include <optional>

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
};

// Interprets the compression-type byte `type` of a block whose contents are `contents`.
// kUnsupported for XPRESS and custom (format_version 7) codecs;
// kResourceLimit for sizes above kMaxBlockBytes; kCorrupt for broken framing. Errors carry the
// block's offset.
Status UnframeCompressedBlock(const FramingContext& context, uint8_t type, ByteView contents,
                              CompressedFrame* frame);

}  // namespace sstfilter
