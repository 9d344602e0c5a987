// Opening a table file, LevelDB .ldb or RocksDB block-based .sst (docs/FORMATS.md 3): TableReader
// reads it from its footer on (footer, metaindex, properties, index, filter: nothing else) and
// answers what the database's lookups get from the table's filter; TableBlockRead reads any block
// of an open table by its handle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sstfilter/block_cache.h"
#include "sstfilter/bytes.h"
#include "sstfilter/comparator.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/status.h"
#include "sstfilter/table_io.h"

namespace sstfilter {

// How a table's keys are to be read.
struct TableOptions {
  // Keys carry the 8-byte internal-key tag, as in every file a database or SstFileWriter writes;
  // false for tables written with a bare TableBuilder.
  bool internal_keys = true;
  // Blocks' trailer checksums are verified (RocksDB's ReadOptions::verify_checksums).
  bool verify_checksums = true;
  // The order of the table's keys, as the database that wrote it was opened with. Unset: a RocksDB
  // table's `rocksdb.comparator` where that is a built-in comparator; a LevelDB table (which does
  // not record its comparator) is read as bytewise when its index separators ascend bytewise.
  // Otherwise the order is unknown (TableKeyOrder). A RocksDB table that names another comparator
  // than this one's Name() is kBadOptions (an empty Name() takes the recorded one); so is a table
  // whose index is out of this order.
  ComparatorRef comparator;
  // The comparator a database's MANIFEST names for the table: a LevelDB table, which records none
  // itself, is then read as a RocksDB table naming it would be (never assumed bytewise).
  std::optional<std::string> manifest_comparator;
};

// How a reader knows the order of a table's keys (docs/FORMATS.md 3.4.2).
enum class KeyOrderSource : uint8_t {
  kRecorded,  // RocksDB: the built-in comparator `rocksdb.comparator` names
  kSupplied,  // TableOptions::comparator
  // LevelDB, none supplied: the index separators ascend bytewise and are not all keys of a known
  // non-bytewise format (Chrome IndexedDB's): read as bytewise
  kSeparators,
  // Neither: a RocksDB comparator that is not built in, or a LevelDB table whose separators do not
  // ascend bytewise. Lookups are conservative: a key is ruled out only when every filter that
  // could hold it says no, and walks by key range are kUnsupported.
  kUnknown,
};
// "recorded", "supplied", "separators", "unknown".
const char* KeyOrderSourceName(KeyOrderSource source);

struct TableKeyOrder {
  // The comparator's name: recorded, supplied, or "leveldb.BytewiseComparator" for kSeparators;
  // for kUnknown the recorded name (RocksDB), "" for LevelDB.
  std::string comparator;
  KeyOrderSource source = KeyOrderSource::kUnknown;
  // LevelDB, kUnknown: the first index entry (counted from 0) whose separator sorts bytewise
  // before the one before it.
  std::optional<uint64_t> first_unordered_separator;
  // LevelDB, kUnknown: the built-in comparator whose key format every separator has (Chrome
  // IndexedDB's "idb_cmp1"), where they all do: supplying it makes the answers exact.
  std::optional<std::string> keys_look_like;
  bool known() const { return source != KeyOrderSource::kUnknown; }
};

// One entry of the metaindex: a meta block's name and where it lies (docs/FORMATS.md 3.6.5).
struct MetaindexEntry {
  std::string name;
  BlockHandle handle;
};

// One entry of a RocksDB properties block (docs/FORMATS.md 3.6.5): predefined numeric properties
// are numbers, printable ASCII is text, anything else binary.
struct TableProperty {
  enum class Kind : uint8_t { kNumber, kText, kBinary };
  std::string name;
  Kind kind = Kind::kBinary;
  uint64_t number = 0;  // kNumber
  Bytes bytes;          // the raw value (all kinds)
  // Offset of the value within the properties block (for the ingested-file checksum quirk).
  size_t value_offset = 0;
};

// What the footer says (docs/FORMATS.md 3.5, 3.6.3).
struct TableFooterInfo {
  uint32_t format_version = 0;
  const char* checksum = "";  // "none", "crc32c", "xxhash", "xxhash64", "xxh3"
  BlockHandle metaindex;
  BlockHandle index;  // from the footer, or the metaindex for format_version >= 6
};

// The table's filter as t.filter reports it (ts/api/table-types.ts TableFilterInfo).
struct TableFilterInfo {
  // rocksdb.filter.policy (the configured policy, e.g. "ribbonfilter") where the table records
  // one, else the metaindex name after "filter." / "fullfilter." / "partitionedfilter.".
  std::string policy;
  std::string kind;  // a FilterKindName, "mixed" for partitions of different kinds, "custom"
  bool partitioned = false;
  size_t partitions = 0;
  bool whole_key_filtering = true;              // rocksdb.block.based.table.whole.key.filtering
  std::optional<std::string> prefix_extractor;  // its name, when the table has one
  bool prefix_extractor_supported = true;       // false for custom extractors
  uint64_t size_bytes = 0;  // filter bytes as stored, without trailers (partitions + their index)
  std::string meta_block;   // the metaindex entry the filter was read from
};

// How a point lookup's filter answer came about (TableReader::MayContain), for tools that show it.
enum class LookupRoute : uint8_t {
  kNoFilter,             // the table has no filter, or holds nothing this key can be checked by
  kOutsidePrefixDomain,  // whole-key filtering is off and the key has no prefix: not filtered
  kAfterLastKey,         // LevelDB: the key sorts after the last index entry, not in the file
  kFullFilter,           // RocksDB: the full filter answered
  kPartition,            // RocksDB: the filter partition `partition` answered
  kBlockFilter,          // LevelDB: the filter of the data block `data_block` answered
  // RocksDB, whole-key filtering off: the table's prefixes are of another extractor than the
  // database's (or the database has none), so they are not probed
  kPrefixExtractorChanged,
  // The key order is unknown (KeyOrderSource::kUnknown): every filter that could hold the key was
  // probed (all of a LevelDB filter block's, every partition), "may match" when any said so
  kAnyFilter,
};

// "no-filter", "outside-prefix-domain", "after-last-key", "full-filter", "partition",
// "block-filter", "prefix-extractor-changed", "any-filter".
const char* LookupRouteName(LookupRoute route);

// How the database reading a RocksDB table is configured, where that decides what a point lookup
// gets from the filter: RocksDB reads every table with the options the database is opened with,
// not those it was written with (docs/FORMATS.md 6.6.1; rocksdb 7.8.3 table/block_based/
// block_based_table_reader.cc PrefetchIndexAndFilterBlocks, FullFilterKeyMayMatch,
// PrefixExtractorChanged). The defaults read the table as it describes itself. LevelDB tables
// ignore them.
struct TableReadOptions {
  // false: the database has no filter policy, and no filter block is read.
  bool use_filter = true;
  // Whole keys are probed only where this and the table's property are both true.
  bool whole_key_filtering = true;
  // The database's prefix extractor by name ("rocksdb.FixedPrefix.3"; "" for none); unset: the
  // table's own. The table's prefixes are probed only under an extractor of the same name.
  std::optional<std::string> prefix_extractor;
  // Where a point lookup (TableGet) finds the data and range-deletion blocks it reads before
  // asking the driver, and keeps those it had to read (sstfilter/block_cache.h); null: none.
  BlockCache* block_cache = nullptr;
  // The table's name in block_cache. Owner 0: an id of the reader's own, taken when it was made,
  // so a file opened twice is cached twice and never mistaken for another (file is then unused).
  BlockCacheTable cache_table;
};

struct LookupTrace {
  LookupRoute route = LookupRoute::kNoFilter;
  // RocksDB: a filter block is in use, so the lookup counts in the filter statistics
  // (BLOOM_FILTER_USEFUL when it said no, else BLOOM_FILTER_FULL_POSITIVE) even where no probe
  // was made. LevelDB: a filter answered.
  bool filter_in_use = false;
  size_t partition = 0;
  // LevelDB: the data block whose filter answered. RocksDB with a single-level index: the data
  // block the lookup reads when the filter says "may match". Unset otherwise.
  std::optional<BlockHandle> data_block;
  // Bytes of the key the filter was probed with: the whole key, or its prefix.
  size_t probed_size = 0;
};

struct OpenedTable;  // what an open table knows (internal: table/table_reader.h)
struct IndexEntry;   // one entry of an index block (internal: table/index_block.h)
class IndexBlock;    // an index block (internal: table/index_block.h)
class EntryBudget;   // bounds what a listing keeps (internal: table/block.h)

// Opens a table lazily from its footer on (docs/FORMATS.md 3.5-3.7): Advance() until is_open().
// Once open it answers what the database's point lookup and prefix seek get from the filter.
class TableReader final : public ResumableRead {
 public:
  // `file_size`: the whole file's; the footer is read first.
  TableReader(uint64_t file_size, TableOptions options);
  ~TableReader() override;
  TableReader(const TableReader&) = delete;
  TableReader& operator=(const TableReader&) = delete;

  // Reads footer, metaindex, properties, index and filter (every partition), nothing else.
  Status Advance() override;
  BlockFetcher& fetcher() const override;
  // Whether Advance() got through; the accessors below describe the table from then on.
  bool is_open() const;

  // Which database wrote the file (for the LevelDB magic, the metaindex decides).
  TableFamily family() const;
  // The footer, with the index handle wherever the format keeps it.
  TableFooterInfo footer() const;
  // The metaindex entries in stored order.
  const std::vector<MetaindexEntry>& metaindex() const;
  // The RocksDB properties block's entries in stored order; none for LevelDB.
  const std::vector<TableProperty>& properties() const;
  // The filter as t.filter reports it; nullopt when the table has none.
  std::optional<TableFilterInfo> filter_info() const;
  // The raw filter contents as stored: the LevelDB block, the full filter, or each partition.
  std::vector<ByteView> filter_bytes() const;
  // The order the reader compares the table's keys in, and how it knows it.
  TableKeyOrder key_order() const;

  // What the database's point lookup of `user_key` gets from this file before reading a data
  // block. RocksDB (BlockBasedTable::Get) consults the filter first: the whole key, or with
  // whole-key filtering off the prefix when the key is in the extractor's domain, else no
  // filtering. LevelDB (Table::InternalGet) seeks the index first: a key after the last index
  // entry is not in the file (false), otherwise the filter of the data block found answers.
  // Without a filter, true. With the key order unknown, "may match" unless every filter that could
  // hold the key says no (route kAnyFilter; LevelDB: no "after the last key" rule). kUnsupported
  // when the filter cannot be reproduced.
  // `trace`, when given, records how the answer came about; `read`: how the database reading the
  // table is configured (RocksDB tables).
  Status MayContain(ByteView user_key, bool* may_match, LookupTrace* trace = nullptr,
                    const TableReadOptions& read = {}) const;
  // results[i] = 1 where MayContain(keys[i]) answers true, else 0. RocksDB tables with whole-key
  // filtering go through the filters' batch kernels (filter.h MayMatchBatch), partition by
  // partition; the others key by key.
  Status MayContainMany(const KeyBatchView& keys, uint8_t* results) const;
  // What a RocksDB prefix Seek(seek_key) (total_order_seek = false) gets from the prefix filter,
  // using the table's own extractor: true without a filter or extractor, or for keys outside its
  // domain. LevelDB has no prefix seek: true.
  Status PrefixMayMatch(ByteView seek_key, bool* may_match) const;

  // Everything the reader parsed, for the library's own code and tests.
  const OpenedTable& table() const;

 private:
  friend class TableCursor;
  friend class TableBlockRead;
  friend class TableLayoutRead;
  friend class TableGet;
  struct State;  // the block read, how far opening got, the filter chosen (table_reader.cc)

  Status OnFooter(const Bytes& tail);
  Status OnMetaindex(const Bytes& contents);
  Status OnProperties(const Bytes& contents);
  Status Configure();
  // Sets the table's key order from the supplied comparator or the recorded name (RocksDB).
  Status ChooseKeyOrder(std::optional<std::string> recorded);
  // LevelDB without a supplied comparator: bytewise when the index separators ascend bytewise.
  // With a supplied comparator: kBadOptions when they do not ascend in its order.
  Status CheckSeparatorOrder();
  Status OnIndex(Bytes contents);
  Status SelectFilter();
  Status OnFilter(Bytes contents);
  Status CheckProbeable() const;
  // Errors about the filter itself (a custom policy's) name the chosen filter block.
  Status AtChosenFilter(Status s) const;

  // Shared with the cursors and block reads made from this reader, which may outlive it.
  std::shared_ptr<OpenedTable> table_;
  std::unique_ptr<State> state_;
};

// Opens a table held whole in memory: a TableReader driven by DriveFromMemory.
Status OpenTableFromMemory(ByteView file, TableOptions options, std::unique_ptr<TableReader>* out);

// Reads one block of an open table by its handle: checksum verified, contents decompressed (for
// tools that verify or show blocks the reader itself never reads, e.g. range deletions).
class TableBlockRead final : public ResumableRead {
 public:
  // `table` must be open; the read keeps what it needs of it.
  TableBlockRead(const TableReader& table, BlockHandle handle);
  ~TableBlockRead() override;
  TableBlockRead(const TableBlockRead&) = delete;
  TableBlockRead& operator=(const TableBlockRead&) = delete;

  // Reads, verifies and decompresses the block.
  Status Advance() override;
  BlockFetcher& fetcher() const override;
  // Set once Advance() finished without a pending need.
  const std::optional<Bytes>& contents() const { return contents_; }

 private:
  std::shared_ptr<const OpenedTable> table_;
  std::unique_ptr<BlockFetcher> fetcher_;
  BlockHandle handle_;
  std::optional<Bytes> contents_;
};

}  // namespace sstfilter
