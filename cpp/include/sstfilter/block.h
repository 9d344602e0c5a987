// Block contents shared by LevelDB and RocksDB tables (FORMATS.md 3.1, 3.3): block handles and the
// prefix-compressed key/value entries followed by a restart array.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"

namespace sstfilter {

struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;  // without the 5-byte trailer (1 compression-type byte, 4 checksum bytes)
};

// varint64 offset, varint64 size.
std::optional<BlockHandle> DecodeBlockHandle(ByteView in, size_t* pos);

// Visits the entries of an uncompressed block in order, rebuilding each full key from its shared
// prefix. `visit` returns false to stop early. Errors carry the offset within the block.
using BlockEntryVisitor = std::function<bool(ByteView key, ByteView value)>;
Status ForEachBlockEntry(ByteView block, const BlockEntryVisitor& visit);

}  // namespace sstfilter
