// The names of EntryType (sstfilter/table.h), which TypeScript reads through the constants binding.
#include "sstfilter/table.h"

namespace sstfilter {

const char* EntryTypeName(EntryType type) {
  switch (type) {
    case EntryType::kDelete:
      return "delete";
    case EntryType::kPut:
      return "put";
    case EntryType::kMerge:
      return "merge";
    case EntryType::kSingleDelete:
      return "single-delete";
    case EntryType::kRangeDelete:
      return "range-delete";
    case EntryType::kBlobIndex:
      return "blob-index";
    case EntryType::kDeleteWithTimestamp:
      return "delete-with-timestamp";
    case EntryType::kWideColumnEntity:
      return "wide-column-entity";
    case EntryType::kValuePreferredSeqno:
      return "value-preferred-seqno";
  }
  return nullptr;
}

}  // namespace sstfilter
