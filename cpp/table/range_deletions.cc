// The rocksdb.range_del meta block (docs/FORMATS.md 3.6.7): one entry per range deletion, keyed by
// the start's internal key (type kRangeDelete), its value the end user key (rocksdb
// table/block_based/block_based_table_builder.cc, db/range_tombstone_fragmenter.h). Written with a
// restart interval of 1, it is an ordinary block.
#include <string>

#include "sstfilter/table.h"
#include "table/block.h"
#include "table/internal_key.h"

namespace sstfilter {

Status DecodeRangeDeletions(ByteView block, std::vector<RangeDeletion>* out) {
  out->clear();
  return ForEachKeptBlockEntry(
      block, BlockFlavor::kRocksDb, [&](ByteView key, ByteView value, size_t entry_offset) {
        const auto at = static_cast<int64_t>(entry_offset);
        const auto start = StripInternalKeyTag(key);
        if (!start) {
          return Status::Error(ErrorCode::kCorrupt, "range deletion key shorter than a tag", at);
        }
        const uint64_t tag = DecodeFixed64(key.data() + start->size());
        if ((tag & 0xff) != static_cast<uint64_t>(EntryType::kRangeDelete)) {
          return Status::Error(ErrorCode::kCorrupt,
                               "range_del entry of type " + std::to_string(tag & 0xff), at);
        }
        out->push_back(RangeDeletion{Bytes(start->begin(), start->end()),
                                     Bytes(value.begin(), value.end()), TagSequence(tag)});
        return Status::Ok();
      });
}

}  // namespace sstfilter
