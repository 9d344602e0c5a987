#include "table/index_builder.h"

#include "table/internal_key.h"
#include "table/key_shortening.h"

namespace sstfilter {

IndexBuilder::IndexBuilder(TableFamily family, uint32_t format_version,
                           const Comparator* comparator)
    : family_(family),
      comparator_(comparator),
      internal_keys_(family == TableFamily::kRocksDb),
      strip_tag_(family == TableFamily::kRocksDb && format_version >= 3),
      values_have_length_(family == TableFamily::kLevelDb || format_version < 4),
      block_(1, true, values_have_length_) {}

Bytes IndexBuilder::AddEntry(ByteView last_key, const ByteView* next_key, BlockHandle handle) {
  Bytes separator(last_key.begin(), last_key.end());
  if (!comparator_->is_bytewise()) {
    if (family_ == TableFamily::kLevelDb) {
      if (next_key) {
        comparator_->FindShortestSeparator(&separator, *next_key);
      } else {
        comparator_->FindShortSuccessor(&separator);
      }
    } else if (next_key) {
      ShortenInternalKeySeparator(*comparator_, &separator, *next_key,
                                  EntryType::kWideColumnEntity);
    }
  } else if (family_ == TableFamily::kLevelDb) {
    if (next_key) {
      ShortenSeparator(ShorteningRules::kLevelDb, &separator, *next_key);
    } else {
      ShortSuccessor(&separator);
    }
  } else if (next_key) {
    // RocksDB 7.8.3's kValueTypeForSeek is kTypeWideColumnEntity (db/dbformat.cc).
    ShortenInternalKeySeparator(ShorteningRules::kRocksDb, &separator, *next_key,
                                EntryType::kWideColumnEntity);
  }
  AddSeparator(separator, handle);
  return separator;
}

void IndexBuilder::AddSeparator(ByteView separator, BlockHandle handle) {
  if (strip_tag_) separator = separator.first(separator.size() - kInternalKeyTagSize);
  // With a restart at every entry the value is the whole handle, also where RocksDB would
  // delta-encode it (only entries that share key bytes are).
  Bytes value;
  PutBlockHandle(&value, handle.offset, handle.size);
  block_.Add(separator, value);
}

}  // namespace sstfilter
