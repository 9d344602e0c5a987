// Just enough of the table layout to record what the libraries wrote: the footer, the metaindex,
// and the entries of uncompressed (or Snappy) blocks, so the corpus can store each raw filter and
// probe every index separator. Byte layouts: docs/FORMATS.md sections 2.1 to 2.4 and 3.8;
// RocksDB table/format.cc, table/block_based/block.cc; LevelDB table/format.cc, table/block.cc.
// This is generator-side bookkeeping; the answers themselves always come from the libraries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace corpus {

struct Handle {
  uint64_t offset = 0;
  uint64_t size = 0;  // without the 5-byte block trailer
};

struct Footer {
  uint32_t format_version = 0;  // 0 for LevelDB and RocksDB's legacy footer
  uint8_t checksum_type = 1;    // kCRC32c unless the footer says otherwise
  Handle metaindex;
  Handle index;
  uint64_t magic = 0;
};

// Parses the last 48 (legacy) or 53 bytes of `file`; fails the run on anything else.
Footer ParseFooter(const std::string& file);

// The contents of the block at `handle`, decompressed when its trailer says Snappy; nullopt when
// it uses another codec (the generator then skips what it wanted from that block).
std::optional<std::string> ReadBlock(const std::string& file, const Handle& handle);

// Entries of a block in key order. `value_delta_encoded` is RocksDB's index format from
// format_version 4 on: no value-length field, a full handle at restarts and a size delta
// elsewhere; such values come back re-encoded as two varints (offset, size).
std::vector<std::pair<std::string, std::string>> BlockEntries(const std::string& block,
                                                              bool value_delta_encoded = false);

Handle DecodeHandle(const std::string& value);

// The metaindex entry named `name`, if any.
std::optional<Handle> FindMeta(const std::string& file, const Footer& footer,
                               const std::string& name);

// The first metaindex entry whose name starts with `prefix`, as (name, handle).
std::optional<std::pair<std::string, Handle>> FindMetaPrefix(const std::string& file,
                                                             const Footer& footer,
                                                             const std::string& prefix);

}  // namespace corpus
