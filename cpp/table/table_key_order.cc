// How a table reader knows the order of the table's keys (docs/FORMATS.md 3.4.2): a RocksDB
// table's recorded comparator, the MANIFEST's, the caller's (checked against the index), or, for a
// LevelDB table read alone, a judgement from its index separators; and the order check verify's
// walk makes (table_cursor.cc CheckEntryOrder) names what it found here.
#include <optional>
#include <string>
#include <utility>

#include "base/enum_names.h"
#include "comparator/indexeddb_coding.h"
#include "sstfilter/table.h"
#include "table/index_block.h"
#include "table/table_reader.h"

namespace sstfilter {

const char* KeyOrderSourceName(KeyOrderSource source) {
  static constexpr const char* kNames[] = {"recorded", "supplied", "separators", "unknown"};
  return EnumName<KeyOrderSource::kUnknown>(source, kNames, "unknown");
}

std::string UnknownOrderText(const OpenedTable& table) {
  const std::string& name = table.key_order.comparator;
  return (name.empty() ? std::string("LevelDB tables do not record their comparator")
                       : "the comparator \"" + name + "\" is not built in") +
         "; supply it as the comparator option";
}

TableKeyOrder TableReader::key_order() const { return table_->key_order; }

Status TableReader::ChooseKeyOrder(std::optional<std::string> recorded) {
  OpenedTable& t = *table_;
  TableKeyOrder& order = t.key_order;
  if (const ComparatorRef& supplied = t.options.comparator) {
    // An unnamed comparator (a bare function from TypeScript) takes the table's recorded name.
    const std::string_view name = supplied->Name();
    if (recorded && !name.empty() && *recorded != name) {
      // A RocksDB table without the property is bytewise: the error then names the properties
      // block that lacks it, or the metaindex that lists no properties block.
      int64_t where = t.PropertyOffset("rocksdb.comparator");
      if (where == Status::kNoOffset) {
        const MetaindexEntry* block = t.PropertiesEntry();
        where = static_cast<int64_t>(block != nullptr ? block->handle.offset
                                                      : t.footer.metaindex.offset);
      }
      return Status::Error(ErrorCode::kBadOptions,
                           "the table's keys are ordered by \"" + *recorded + "\" (" +
                               (t.family == TableFamily::kRocksDb ? "rocksdb.comparator"
                                                                  : "the database's MANIFEST") +
                               "), not by the comparator supplied, \"" +
                               std::string(supplied->Name()) + "\"",
                           where);
    }
    t.comparator_ref = supplied;
    order = TableKeyOrder{!name.empty() ? std::string(name) : recorded.value_or("custom"),
                          KeyOrderSource::kSupplied, std::nullopt, std::nullopt};
    return Status::Ok();
  }
  if (recorded) {
    t.comparator_ref = BuiltinComparator(*recorded);
    order.comparator = *recorded;
    order.source = t.comparator_ref ? KeyOrderSource::kRecorded : KeyOrderSource::kUnknown;
    return Status::Ok();
  }
  // LevelDB: OnIndex decides from the separators.
  order.source = KeyOrderSource::kUnknown;
  return Status::Ok();
}

Status TableReader::CheckSeparatorOrder() {
  OpenedTable& t = *table_;
  TableKeyOrder& order = t.key_order;
  const bool supplied = order.source == KeyOrderSource::kSupplied;
  // Built-in orders a RocksDB table or a MANIFEST names are taken on their word, as the databases
  // do; a name that is not built in leaves the order unknown.
  if (!supplied && (t.family == TableFamily::kRocksDb || t.options.manifest_comparator)) {
    return Status::Ok();
  }
  const Comparator& comparator = supplied ? *t.comparator_ref : BytewiseComparator();
  const bool has_tag = t.index.keys_have_tag();
  IndexBlock::Iterator it = t.index.Begin();
  std::optional<IndexEntry> previous;
  // Whether every separator is a whole Chrome IndexedDB key: idb_cmp1 does not shorten them, and
  // a Chrome table's separators can ascend bytewise while the keys within its blocks do not (a
  // Chromium 156 profile's 705-block table does), so such a table is not taken for bytewise.
  bool indexeddb_keys = true;
  for (uint64_t n = 0;; ++n) {
    IndexEntry entry;
    bool end = false;
    if (Status s = it.Next(&entry, &end); !s.ok()) return s;
    if (end) break;
    if (indexeddb_keys) {
      indexeddb::ParsedKey parsed;
      indexeddb_keys = indexeddb::ParseKey(entry.user_key, &parsed).ok();
    }
    if (previous && CompareSeparators(comparator, *previous, entry, has_tag) > 0) {
      if (supplied) {
        return Status::Error(ErrorCode::kBadOptions,
                             "index entry " + std::to_string(n) +
                                 " sorts before the one before it under the comparator \"" +
                                 order.comparator +
                                 "\": the table was written in another order (or the comparator "
                                 "is inconsistent)",
                             static_cast<int64_t>(t.index_handle.offset));
      }
      order.first_unordered_separator = n;
      return Status::Ok();
    }
    previous = std::move(entry);
  }
  if (supplied) return Status::Ok();
  if (indexeddb_keys && previous) {
    order.keys_look_like = std::string(kIndexedDbComparatorName);
    return Status::Ok();
  }
  t.comparator_ref = BuiltinComparator(kBytewiseComparatorName);
  order = TableKeyOrder{std::string(kBytewiseComparatorName), KeyOrderSource::kSeparators,
                        std::nullopt, std::nullopt};
  return Status::Ok();
}

}  // namespace sstfilter
