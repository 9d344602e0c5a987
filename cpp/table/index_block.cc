#include "table/index_block.h"

#include <string>

namespace sstfilter {
namespace {

Status Corrupt(std::string message, size_t offset) {
  return Status::Error(ErrorCode::kCorrupt, std::move(message), static_cast<int64_t>(offset));
}

// util/coding.h GetVarsignedint64: zigzag-encoded varint64.
std::optional<int64_t> GetVarsigned64(ByteView in, size_t* pos) {
  auto u = GetVarint64(in, pos);
  if (!u) return std::nullopt;
  return static_cast<int64_t>(*u >> 1) ^ -static_cast<int64_t>(*u & 1);
}

}  // namespace

Status IndexBlock::Open(Bytes contents, const IndexFormat& format, uint64_t file_offset,
                        bool compressed, IndexBlock* out) {
  out->contents_ = std::move(contents);
  out->format_ = format;
  out->file_offset_ = file_offset;
  out->compressed_ = compressed;
  if (Status s = ParseBlockLayout(out->contents_, format.flavor, &out->layout_); !s.ok()) {
    return out->Located(std::move(s));
  }
  // RocksDB lays out only data blocks with values apart; an index block so laid out whose values
  // also lack lengths would need IndexBlockIter's own reading of the values section.
  if (out->layout_.values_apart && format.values_delta_encoded) {
    return out->Located(Status::Error(ErrorCode::kUnsupported,
                                      "index block with values apart from its keys",
                                      static_cast<int64_t>(out->contents_.size() - 4)));
  }
  return Status::Ok();
}

Status IndexBlock::Located(Status s) const {
  if (s.ok()) return s;
  // Offsets inside a decompressed block mean nothing in the file: name the block instead.
  const uint64_t inner = s.offset() < 0 || compressed_ ? 0 : static_cast<uint64_t>(s.offset());
  return Status::Error(s.code(), s.message() + " (index block)",
                       static_cast<int64_t>(file_offset_ + inner));
}

IndexBlock::Iterator::Iterator(const IndexBlock* block)
    : block_(block),
      decoder_(block->contents_, block->layout_, !block->format_.values_delta_encoded) {}

Status IndexBlock::Iterator::DecodeCurrent(IndexEntry* entry) {
  const IndexFormat& format = block_->format_;
  const size_t at = decoder_.entry_offset();
  ByteView key = decoder_.key();
  if (format.keys_have_tag) {
    auto user_key = StripInternalKeyTag(key);
    if (!user_key) return Corrupt("index key shorter than an internal-key tag", at);
    entry->tag = DecodeFixed64(key.data() + user_key->size());
    key = *user_key;
  }
  entry->user_key.assign(key.begin(), key.end());

  const ByteView value = decoder_.value();
  size_t pos = 0;
  // IndexValue::DecodeFrom: entries that share key bytes with their predecessor carry only the
  // size delta; the block follows the previous one directly (after its trailer).
  if (format.values_delta_encoded && decoder_.shared() != 0) {
    auto delta = GetVarsigned64(value, &pos);
    if (!delta || !previous_) return Corrupt("bad delta-encoded index value", at);
    entry->handle.offset = previous_->offset + previous_->size + kBlockTrailerSize;
    entry->handle.size = previous_->size + static_cast<uint64_t>(*delta);
  } else {
    auto handle = DecodeBlockHandle(value, &pos);
    if (!handle) return Corrupt("bad block handle in an index entry", at);
    entry->handle = *handle;
  }
  if (format.values_have_first_key) {
    auto length = GetVarint32(value, &pos);
    if (!length || value.size() - pos < *length) return Corrupt("bad first key in index value", at);
    pos += *length;
  }
  if (format.values_delta_encoded) decoder_.ConsumeValue(pos);
  previous_ = entry->handle;
  return Status::Ok();
}

Status IndexBlock::Iterator::Next(IndexEntry* entry, bool* end) {
  *end = decoder_.AtEnd();
  if (*end) return Status::Ok();
  Status s = decoder_.Next();
  if (s.ok()) s = DecodeCurrent(entry);
  return block_->Located(std::move(s));
}

template <typename Before>
Status IndexBlock::IteratorAfterLastRestartBefore(Before before,
                                                  std::optional<Iterator>* out) const {
  *out = Iterator(this);
  if (empty()) return Status::Ok();
  Iterator& it = **out;
  IndexEntry current;
  bool end = false;
  // Restart points hold whole keys and whole handles: binary search for the last one whose entry
  // lies before the target (IndexBlockIter::Seek's BinarySeek).
  auto restart_offset = [&](uint32_t i, uint32_t* offset) -> Status {
    *offset = RestartOffset(contents_, layout_, i);
    if (*offset >= layout_.entries_size) {
      return Located(Corrupt("restart point past the entries", layout_.restarts_offset + 4 * i));
    }
    return Status::Ok();
  };
  uint32_t left = 0;
  uint32_t right = layout_.num_restarts - 1;
  while (left < right) {
    const uint32_t mid = left + (right - left + 1) / 2;
    uint32_t offset = 0;
    if (Status s = restart_offset(mid, &offset); !s.ok()) return s;
    it.decoder_.SeekTo(offset);
    it.previous_.reset();
    if (Status s = it.Next(&current, &end); !s.ok()) return s;
    if (before(current)) {
      left = mid;
    } else {
      right = mid - 1;
    }
  }
  uint32_t offset = 0;
  if (Status s = restart_offset(left, &offset); !s.ok()) return s;
  it.decoder_.SeekTo(offset);
  it.previous_.reset();
  return Status::Ok();
}

Status IndexBlock::IteratorNear(const LookupKey& lookup, std::optional<Iterator>* out) const {
  return IteratorAfterLastRestartBefore(
      [&](const IndexEntry& entry) {
        return CompareIndexKeyWithLookup(*format_.comparator, entry.user_key, format_.keys_have_tag,
                                         entry.tag, lookup) < 0;
      },
      out);
}

Status IndexBlock::IteratorNearOffset(uint64_t block_offset, std::optional<Iterator>* out) const {
  return IteratorAfterLastRestartBefore(
      [&](const IndexEntry& entry) { return entry.handle.offset < block_offset; }, out);
}

Status IndexBlock::Seek(const LookupKey& lookup, std::optional<IndexEntry>* entry) const {
  entry->reset();
  std::optional<Iterator> it;
  if (Status s = IteratorNear(lookup, &it); !s.ok()) return s;
  IndexEntry current;
  for (bool end = false;;) {
    if (Status s = it->Next(&current, &end); !s.ok() || end) return s;
    if (CompareIndexKeyWithLookup(*format_.comparator, current.user_key, format_.keys_have_tag,
                                  current.tag, lookup) >= 0) {
      *entry = std::move(current);
      return Status::Ok();
    }
  }
}

Status IndexBlock::Last(std::optional<IndexEntry>* entry) const {
  entry->reset();
  if (empty()) return Status::Ok();
  Iterator it(this);
  const uint32_t offset = RestartOffset(contents_, layout_, layout_.num_restarts - 1);
  if (offset >= layout_.entries_size) {
    return Located(Corrupt("restart point past the entries", layout_.restarts_offset));
  }
  it.decoder_.SeekTo(offset);
  IndexEntry current;
  bool end = false;
  for (;;) {
    if (Status s = it.Next(&current, &end); !s.ok()) return s;
    if (end) return Status::Ok();
    *entry = current;
  }
}

int CompareSeparators(const Comparator& comparator, const IndexEntry& a, const IndexEntry& b,
                      bool has_tag) {
  return CompareInternalKeys(comparator, a.user_key, a.tag, b.user_key, b.tag, has_tag);
}

}  // namespace sstfilter
