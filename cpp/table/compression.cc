#include "table/compression.h"

#include <iterator>
#include <string>

#include "base/enum_names.h"
#include "sstfilter/values.h"
#include "table/block_builder.h"
#include "table/codecs/codecs.h"

namespace sstfilter {
namespace {

// The block trailer's compression type byte (RocksDB include/rocksdb/compression_type.h; LevelDB
// include/leveldb/options.h).
enum CompressionType : uint8_t {
  kSnappyType = 0x01,
  kZlibOrLevelDbZstdType = 0x02,
  kBZip2Type,
  kLz4Type,
  kLz4HcType,
  kXpressType,
  kZstdType,
  kZstdNotFinalType = 0x40,  // v7.8.3 kZSTDNotFinalCompression, framed as 0x07
  kFirstCustomType = 0x80,   // HEAD format_version 7 CompressionManager types
};

Status Error(ErrorCode code, std::string message, const FramingContext& context) {
  return Status::Error(code, std::move(message), static_cast<int64_t>(context.block_offset));
}

// The content size a zstd frame header (RFC 8878 3.1.1.1) records, if any. Returns false when the
// bytes are no zstd frame header.
bool ParseZstdContentSize(ByteView in, std::optional<uint64_t>* content_size) {
  constexpr uint32_t kZstdMagic = 0xFD2FB528;
  if (in.size() < 5 || DecodeFixed32(in.data()) != kZstdMagic) return false;
  const uint8_t descriptor = in[4];
  const int fcs_flag = descriptor >> 6;
  const bool single_segment = (descriptor >> 5) & 1;
  const int dict_flag = descriptor & 3;
  if (descriptor & 0x08) return false;  // reserved bit
  size_t pos = 5 + (single_segment ? 0 : 1);
  static constexpr size_t kDictBytes[4] = {0, 1, 2, 4};
  static constexpr size_t kFcsBytes[4] = {0, 2, 4, 8};
  const size_t dict_bytes = kDictBytes[dict_flag];
  const size_t fcs_bytes = fcs_flag == 0 && single_segment ? 1 : kFcsBytes[fcs_flag];
  if (in.size() < pos + dict_bytes + fcs_bytes) return false;
  pos += dict_bytes;  // the dictionary id: the decompressor checks it against the table's
  content_size->reset();
  if (fcs_bytes == 0) return true;
  uint64_t size = 0;
  for (size_t i = 0; i < fcs_bytes; ++i) size |= uint64_t{in[pos + i]} << (8 * i);
  *content_size = fcs_bytes == 2 ? size + 256 : size;
  return true;
}

}  // namespace

const char* CodecName(Codec codec) {
  // In Codec's order.
  static constexpr const char* kNames[] = {"none", "snappy", "zlib", "bzip2", "lz4", "zstd"};
  return EnumName<Codec::kZstd>(codec, kNames, "unknown");
}

const char* CompressionTypeName(uint8_t type) {
  // rocksdb util/compression.h CompressionTypeToString (7.8.3): blob indexes name their blob's
  // codec by it. Its default branch asserts and returns "" (release builds: "").
  static constexpr const char* kNames[] = {"NoCompression", "Snappy", "Zlib",   "BZip2",
                                           "LZ4",           "LZ4HC",  "Xpress", "ZSTD"};
  if (type < std::size(kNames)) return kNames[type];
  if (type == kZstdNotFinalType) return "ZSTDNotFinal";
  if (type == 0xff) return "DisableOption";  // kDisableCompressionOption
  return "";
}

std::string_view CompressionManagerName(uint32_t format_version, std::string_view compression) {
  // FormatVersionUsesCompressionManagerName (rocksdb table/format.h): format_version 7 on.
  if (format_version < 7) return {};
  const size_t end = compression.find(';');
  return end == std::string_view::npos ? std::string_view() : compression.substr(0, end);
}

Status UnframeCompressedBlock(const FramingContext& context, uint8_t type, ByteView contents,
                              CompressedFrame* frame) {
  *frame = CompressedFrame();
  // A manager other than the builtin one owns the meaning of every id it writes, builtin ids
  // included (RocksDB opens such a table only through a manager of that compatibility name,
  // CompressionManager::FindCompatibleCompressionManager): no id of its blocks is ours to decode.
  const bool foreign_manager = !context.compression_manager.empty() &&
                               context.compression_manager != kBuiltinCompressionManager;
  if (foreign_manager || type >= kFirstCustomType) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string message;
    if (context.compression_manager.empty()) {
      message = "no compression manager named";
    } else {
      message = "compression manager ";
      message.append(context.compression_manager);
    }
    message.append(", codec 0x");
    message.push_back(kDigits[type >> 4]);
    message.push_back(kDigits[type & 15]);
    message.append(": not a codec of this reader");
    return Error(ErrorCode::kUnsupported, std::move(message), context);
  }
  const bool rocksdb = context.family == TableFamily::kRocksDb;
  // compress_format_version 2 (RocksDB format_version >= 2) prefixes most codecs' streams with
  // the uncompressed size (rocksdb util/compression.h, GetCompressFormatForVersion).
  const bool size_prefixed = rocksdb && context.format_version >= 2;
  size_t pos = 0;
  auto read_size_prefix = [&]() -> Status {
    // HEAD parses the prefix as a varint64; writers emit values below 2^32.
    auto size = GetVarint64(contents, &pos);
    if (!size) return Error(ErrorCode::kCorrupt, "bad uncompressed-size prefix", context);
    frame->uncompressed_size = *size;
    return Status::Ok();
  };

  if (type == kSnappyType) {
    frame->codec = Codec::kSnappy;
    // The Snappy stream starts with its own varint32 uncompressed length.
    size_t p = 0;
    auto size = GetVarint32(contents, &p);
    if (!size) return Error(ErrorCode::kCorrupt, "bad Snappy length preamble", context);
    frame->uncompressed_size = *size;
  } else if (!rocksdb) {
    if (type != kZlibOrLevelDbZstdType) {
      return Error(ErrorCode::kUnsupported,
                   "unknown LevelDB compression type " + std::to_string(type), context);
    }
    frame->codec = Codec::kZstd;  // LevelDB main: a bare zstd frame, no size prefix
  } else if (type == kZlibOrLevelDbZstdType) {
    frame->codec = Codec::kDeflateRaw;
    if (size_prefixed) {
      if (Status s = read_size_prefix(); !s.ok()) return s;
    }
  } else if (type == kLz4Type || type == kLz4HcType) {
    frame->codec = Codec::kLz4Block;
    if (size_prefixed) {
      if (Status s = read_size_prefix(); !s.ok()) return s;
    } else {
      // compress_format_version 1: an 8-byte header whose first 4 bytes hold the size.
      if (contents.size() < 8) return Error(ErrorCode::kCorrupt, "LZ4 header truncated", context);
      frame->uncompressed_size = DecodeFixed32(contents.data());
      pos = 8;
    }
  } else if (type == kZstdType || type == kZstdNotFinalType) {
    frame->codec = Codec::kZstd;
    if (Status s = read_size_prefix(); !s.ok()) return s;  // every format_version
  } else if (type == kBZip2Type) {
    frame->codec = Codec::kBZip2;
    if (size_prefixed) {
      if (Status s = read_size_prefix(); !s.ok()) return s;
    }
  } else if (type == kXpressType) {
    // Windows' XPRESS: RocksDB builds it only on Windows, and no portable decoder exists.
    return Error(ErrorCode::kUnsupported, "XPRESS compressed blocks are not supported", context);
  } else {
    return Error(ErrorCode::kUnsupported, "unknown compression type " + std::to_string(type),
                 context);
  }

  frame->payload_offset = pos;
  frame->payload_size = contents.size() - pos;
  const ByteView payload = contents.subspan(pos);
  if (frame->codec == Codec::kZstd) {
    std::optional<uint64_t> content_size;
    if (!ParseZstdContentSize(payload, &content_size)) {
      return Error(ErrorCode::kCorrupt, "not a zstd frame", context);
    }
    // A frame that records another size than the block's prefix cannot decompress to the size the
    // block must have; rejecting it here also keeps a decompressor from allocating what such a
    // frame claims.
    if (frame->uncompressed_size && content_size && *frame->uncompressed_size != *content_size) {
      return Error(ErrorCode::kCorrupt,
                   "zstd frame of " + std::to_string(*content_size) + " bytes in a block of " +
                       std::to_string(*frame->uncompressed_size),
                   context);
    }
    if (!frame->uncompressed_size) frame->uncompressed_size = content_size;
    // The decompressor writes into a buffer of the recorded size (codecs/zstd.cc); LevelDB's
    // zstd writer always records it in the frame.
    if (!frame->uncompressed_size) {
      return Error(ErrorCode::kUnsupported, "zstd frame that does not record its size", context);
    }
  }
  if (frame->uncompressed_size && *frame->uncompressed_size > kMaxBlockBytes) {
    return Error(ErrorCode::kResourceLimit,
                 "block claims " + std::to_string(*frame->uncompressed_size) +
                     " uncompressed bytes, more than the limit of " +
                     std::to_string(kMaxBlockBytes),
                 context);
  }
  return Status::Ok();
}

namespace {

struct CompressorName {
  std::string_view option;   // the writer's option value
  const char* rocksdb_name;  // rocksdb.compression
  uint8_t type;              // the trailer's compression-type byte
};
// In BlockCompressor::Kind's order.
constexpr CompressorName kCompressorNames[] = {
    {"snappy", "Snappy", kSnappyType}, {"zlib", "Zlib", kZlibOrLevelDbZstdType},
    {"bzip2", "BZip2", kBZip2Type},    {"lz4", "LZ4", kLz4Type},
    {"lz4hc", "LZ4HC", kLz4HcType},    {"zstd", "ZSTD", kZstdType},
};

}  // namespace

std::unique_ptr<BlockCompressor> BlockCompressor::ForName(std::string_view name, bool rocksdb11) {
  for (size_t i = 0; i < std::size(kCompressorNames); ++i) {
    if (kCompressorNames[i].option == name) {
      return std::unique_ptr<BlockCompressor>(new BlockCompressor(static_cast<Kind>(i), rocksdb11));
    }
  }
  return nullptr;
}

BlockCompressor::BlockCompressor(Kind kind, bool rocksdb11) : kind_(kind), rocksdb11_(rocksdb11) {
  if (kind == Kind::kZstd) zstd_ = std::make_unique<ZstdCompressor>();
}
BlockCompressor::~BlockCompressor() = default;

const char* BlockCompressor::rocksdb_name() const {
  return kCompressorNames[static_cast<size_t>(kind_)].rocksdb_name;
}

uint8_t BlockCompressor::type() const { return kCompressorNames[static_cast<size_t>(kind_)].type; }

bool BlockCompressor::Compress(ByteView raw, Bytes* out, uint8_t* type) {
  *type = this->type();
  out->clear();
  if (kind_ == Kind::kSnappy) {
    SnappyCompress(raw, out);
    return true;
  }
  // RocksDB compresses nothing of 4 GiB or more (and no block here is that large).
  if (raw.size() > UINT32_MAX) return false;
  Bytes stream;
  bool ok = false;
  switch (kind_) {
    case Kind::kZlib:
      ok = ZlibCompress(raw, &stream);
      break;
    case Kind::kBZip2:
      ok = Bzip2Compress(raw, &stream);
      break;
    case Kind::kLz4:
    case Kind::kLz4Hc:
      ok = kind_ == Kind::kLz4Hc ? Lz4HcCompress(raw, &stream)
                                 : Lz4Compress(raw, /*fresh_stream=*/!rocksdb11_, &stream);
      break;
    case Kind::kZstd:
      ok = zstd_->Compress(raw, &stream);
      break;
    case Kind::kSnappy:
      break;
  }
  if (!ok) return false;
  PutVarint32(out, static_cast<uint32_t>(raw.size()));
  out->insert(out->end(), stream.begin(), stream.end());
  return true;
}

}  // namespace sstfilter
