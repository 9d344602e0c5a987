#include "table_layout.h"

#include <snappy.h>

#include <set>

#include "corpus_io.h"

namespace corpus {
namespace {

constexpr uint64_t kLegacyMagic = 0xdb4775248b80fb57ULL;      // LevelDB, RocksDB format_version 0
constexpr uint64_t kBlockBasedMagic = 0x88e241b785f4cff7ULL;  // RocksDB format_version >= 1
constexpr size_t kBlockTrailer = 5;

uint64_t Fixed(const std::string& s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(s[at + i])) << (8 * i);
  return v;
}

uint64_t Varint(const std::string& s, size_t* pos) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= s.size()) Fail("varint runs past its block");
    const uint8_t b = uint8_t(s[(*pos)++]);
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  Fail("varint longer than 10 bytes");
}

std::string EncodeVarint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += char(v | 0x80);
    v >>= 7;
  }
  out += char(v);
  return out;
}

Handle HandleAt(const std::string& s, size_t* pos) {
  Handle h;
  h.offset = Varint(s, pos);
  h.size = Varint(s, pos);
  return h;
}

}  // namespace

Footer ParseFooter(const std::string& file) {
  if (file.size() < 48) Fail("file shorter than a footer");
  Footer f;
  f.magic = Fixed(file, file.size() - 8, 8);
  size_t pos;
  if (f.magic == kLegacyMagic) {
    pos = file.size() - 48;
  } else if (f.magic == kBlockBasedMagic) {
    if (file.size() < 53) Fail("file shorter than a footer");
    pos = file.size() - 53;
    f.checksum_type = uint8_t(file[pos++]);
    f.format_version = uint32_t(Fixed(file, file.size() - 12, 4));
  } else {
    Fail("unknown table magic " + Hex(file.substr(file.size() - 8)));
  }
  f.metaindex = HandleAt(file, &pos);
  f.index = HandleAt(file, &pos);
  return f;
}

std::optional<std::string> ReadBlock(const std::string& file, const Handle& handle) {
  if (handle.offset + handle.size + kBlockTrailer > file.size()) Fail("block beyond file end");
  std::string contents = file.substr(handle.offset, handle.size);
  switch (uint8_t(file[handle.offset + handle.size])) {
    case 0:
      return contents;
    case 1: {
      std::string out;
      if (!snappy::Uncompress(contents.data(), contents.size(), &out)) Fail("bad snappy block");
      return out;
    }
    default:
      return std::nullopt;
  }
}

std::vector<std::pair<std::string, std::string>> BlockEntries(const std::string& block,
                                                              bool value_delta_encoded) {
  if (block.size() < 4) Fail("block shorter than its restart count");
  const uint32_t restarts = uint32_t(Fixed(block, block.size() - 4, 4));
  if (4 * (uint64_t(restarts) + 1) > block.size()) Fail("restart array beyond block");
  const size_t end = block.size() - 4 * (restarts + 1);
  std::set<size_t> restart_offsets;
  for (uint32_t i = 0; i < restarts; ++i) restart_offsets.insert(Fixed(block, end + 4 * i, 4));

  std::vector<std::pair<std::string, std::string>> out;
  std::string key;
  Handle previous;
  for (size_t pos = 0; pos < end;) {
    const bool restart = restart_offsets.count(pos) > 0;
    const uint64_t shared = Varint(block, &pos);
    const uint64_t non_shared = Varint(block, &pos);
    const uint64_t value_len = value_delta_encoded ? 0 : Varint(block, &pos);
    if (shared > key.size() || pos + non_shared > end) Fail("block entry out of bounds");
    key = key.substr(0, shared) + block.substr(pos, non_shared);
    pos += non_shared;
    std::string value;
    if (!value_delta_encoded) {
      if (pos + value_len > end) Fail("block value out of bounds");
      value = block.substr(pos, value_len);
      pos += value_len;
    } else {
      Handle h;
      if (restart) {
        h = HandleAt(block, &pos);
      } else {
        const uint64_t zigzag = Varint(block, &pos);
        const int64_t delta = int64_t(zigzag >> 1) ^ -int64_t(zigzag & 1);
        h.offset = previous.offset + previous.size + kBlockTrailer;
        h.size = uint64_t(int64_t(previous.size) + delta);
      }
      previous = h;
      value = EncodeVarint(h.offset) + EncodeVarint(h.size);
    }
    out.emplace_back(key, std::move(value));
  }
  return out;
}

Handle DecodeHandle(const std::string& value) {
  size_t pos = 0;
  return HandleAt(value, &pos);
}

std::optional<std::pair<std::string, Handle>> FindMetaPrefix(const std::string& file,
                                                             const Footer& footer,
                                                             const std::string& prefix) {
  const std::optional<std::string> block = ReadBlock(file, footer.metaindex);
  if (!block) Fail("metaindex block compressed with an unexpected codec");
  for (const auto& [name, value] : BlockEntries(*block)) {
    if (name.compare(0, prefix.size(), prefix) == 0) {
      return std::make_pair(name, DecodeHandle(value));
    }
  }
  return std::nullopt;
}

std::optional<Handle> FindMeta(const std::string& file, const Footer& footer,
                               const std::string& name) {
  auto found = FindMetaPrefix(file, footer, name);
  if (!found || found->first != name) return std::nullopt;
  return found->second;
}

}  // namespace corpus
