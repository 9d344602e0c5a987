// Blob indexes (docs/FORMATS.md 3.10.1): the value of a kTypeBlobIndex entry, a kind byte and
// varints (rocksdb db/blob/blob_index.h BlobIndex::DecodeFrom, the same in 7.8.3 and main).
#include <initializer_list>
#include <string>
#include <utility>

#include "base/enum_names.h"
#include "sstfilter/values.h"

namespace sstfilter {

const char* BlobIndexTypeName(BlobIndex::Type type) {
  // In BlobIndex::Type's order.
  static constexpr const char* kNames[] = {"inlined-ttl", "blob", "blob-ttl"};
  return EnumName<BlobIndex::Type::kBlobTtl>(type, kNames, "unknown");
}

Status DecodeBlobIndex(ByteView value, BlobIndex* out) {
  *out = BlobIndex();
  auto corrupt = [](std::string message, size_t at) {
    return Status::Error(ErrorCode::kCorrupt, "blob index: " + std::move(message),
                         static_cast<int64_t>(at));
  };
  if (value.empty()) return corrupt("empty value", 0);
  if (value[0] > static_cast<uint8_t>(BlobIndex::Type::kBlobTtl)) {
    return corrupt("unknown kind " + std::to_string(value[0]), 0);
  }
  out->type = static_cast<BlobIndex::Type>(value[0]);
  size_t pos = 1;
  auto varint = [&](const char* what, uint64_t* field) {
    const size_t at = pos;
    const auto v = GetVarint64(value, &pos);
    if (!v) return corrupt(std::string("bad ") + what + " varint", at);
    *field = *v;
    return Status::Ok();
  };
  if (out->type != BlobIndex::Type::kBlob) {
    if (Status s = varint("expiration", &out->expiration); !s.ok()) return s;
  }
  if (out->type == BlobIndex::Type::kInlinedTtl) {
    out->value = value.subspan(pos);
    return Status::Ok();
  }
  for (auto [what, field] : {std::pair{"file number", &out->file_number},
                             std::pair{"offset", &out->offset}, std::pair{"size", &out->size}}) {
    if (Status s = varint(what, field); !s.ok()) return s;
  }
  // Exactly one byte must be left: the compression type.
  if (pos == value.size()) return corrupt("no compression byte", pos);
  if (pos + 1 != value.size()) return corrupt("bytes after the compression byte", pos + 1);
  out->compression = value[pos];
  return Status::Ok();
}

}  // namespace sstfilter
