// Drives a ResumableRead (opening a table, walking its keys) synchronously over a whole file held
// in memory: the native counterpart of the TypeScript driver, for C++ callers, tests and fuzzing.
#pragma once

#include <functional>
#include <optional>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "table/block_fetcher.h"
#include "table/compression.h"

namespace sstfilter {

// Decompresses one block's payload (framing already stripped); `size` is the uncompressed size
// when the format records it.
using BlockDecompressor =
    std::function<Status(Codec codec, ByteView payload, std::optional<uint64_t> size, Bytes* out)>;

// Advances `op` until it needs nothing more, answering its reads from `file`. Without a
// decompressor, compressed blocks are kUnsupported (with the block's offset); a decompressor's
// error without an offset gets the block's.
Status DriveFromMemory(ResumableRead& op, ByteView file, const BlockDecompressor& decompress = {});

}  // namespace sstfilter
