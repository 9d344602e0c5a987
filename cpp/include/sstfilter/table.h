// Table files: LevelDB .ldb and RocksDB block-based .sst (docs/FORMATS.md 3), read without doing
// I/O. Every read is a ResumableRead that says which file bytes it needs next (blocks are
// checksum-verified and decompressed in the core); a driver supplies them (the TypeScript layer
// over a ByteSource, or DriveFromMemory for a file held in memory) and advances it again.
// TableReader opens a table from its footer on (footer, metaindex, properties, index, filter:
// nothing else) and answers what the database's lookups get from the table's filter; TableCursor
// walks its keys; TableBlockRead reads any block by its handle.
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

namespace sstfilter {

// ---- Blocks (docs/FORMATS.md 3.1, 3.2) ----

// Every block in a table file is followed by 1 compression-type byte and 4 checksum bytes.
inline constexpr uint64_t kBlockTrailerSize = 5;

// Where a block lies in the file.
struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;  // without the 5-byte trailer
};

// Largest uncompressed block accepted, so that a hostile size prefix cannot make anyone allocate.
inline constexpr uint64_t kMaxBlockBytes = uint64_t{256} << 20;

// Which database wrote the table (compression type 2 is zlib in RocksDB, zstd in newer LevelDB).
enum class TableFamily : uint8_t { kLevelDb, kRocksDb };

// The codec a compressed block's payload needs (docs/FORMATS.md 3.2); the core decompresses with
// the reference libraries (Snappy, zlib, bzip2, LZ4, Zstandard).
enum class Codec : uint8_t {
  kNone,
  kSnappy,      // raw Snappy block format
  kDeflateRaw,  // raw deflate (RocksDB's zlib with its default window_bits = -14)
  kBZip2,       // one bzip2 stream
  kLz4Block,    // raw LZ4 block (not frame); also LZ4HC
  kZstd,        // zstd frames
};

// "none", "snappy", "zlib", "bzip2", "lz4", "zstd".
const char* CodecName(Codec codec);

// ---- Resumable reads ----

// What the driver must do before a read can make progress. The numbering is what the bindings'
// advance() returns to TypeScript.
enum class IoNeed : uint8_t {
  kNothing = 0,
  kBytes = 1,  // supply file bytes [need_offset, need_offset + need_length)
};

class BlockFetcher;  // the state of one block read (internal: table/block_fetcher.h)

// An operation on a table that makes progress by fetching blocks: opening it, walking its keys,
// reading a block. Advance() until need() is kNothing, doing what need() asks in between.
class ResumableRead {
 public:
  virtual ~ResumableRead() = default;

  // Runs until the operation is done or needs the driver.
  virtual Status Advance() = 0;

  // What the driver must do now.
  IoNeed need() const;
  // kBytes: the file range to supply (reads are coalesced: a range may hold many blocks).
  uint64_t need_offset() const;
  uint64_t need_length() const;
  // How much the read after this one will likely ask for, from need_offset() + need_length() on (0
  // when none is expected): a driver may read it ahead while the operation works.
  uint64_t need_ahead_length() const;
  // The driver's answer to need(): the file bytes, copied in by Supply, or written by the driver
  // into SupplyBuffer() (need_length() bytes; nullptr when nothing is needed) and announced by
  // Supplied.
  Status Supply(ByteView bytes);
  uint8_t* SupplyBuffer();
  Status Supplied(size_t size);

  // The block read behind the calls above, for the library's own code and tests.
  virtual BlockFetcher& fetcher() const = 0;
};

// Advances `op` until it needs nothing more, answering its reads from `file`.
Status DriveFromMemory(ResumableRead& op, ByteView file);

// ---- Tables ----

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

// The table's filter as t.filter reports it (ts/api/table.ts TableFilterInfo).
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

  // Shared with the cursors and block reads made from this reader, which may outlive it.
  std::shared_ptr<OpenedTable> table_;
  std::unique_ptr<State> state_;
};

// Opens a table held whole in memory: a TableReader driven by DriveFromMemory.
Status OpenTableFromMemory(ByteView file, TableOptions options, std::unique_ptr<TableReader>* out);

// The types of the entries a table holds: RocksDB's ValueType values that can sit in a data block
// or the range-deletion block (rocksdb db/dbformat.h); LevelDB writes the first two only.
enum class EntryType : uint8_t {
  kDelete = 0x0,
  kPut = 0x1,
  kMerge = 0x2,
  kSingleDelete = 0x7,
  kRangeDelete = 0xF,
  kBlobIndex = 0x11,
  kDeleteWithTimestamp = 0x14,
  kWideColumnEntity = 0x16,
  kValuePreferredSeqno = 0x18,
};
inline constexpr EntryType kEntryTypes[] = {
    EntryType::kDelete,
    EntryType::kPut,
    EntryType::kMerge,
    EntryType::kSingleDelete,
    EntryType::kRangeDelete,
    EntryType::kBlobIndex,
    EntryType::kDeleteWithTimestamp,
    EntryType::kWideColumnEntity,
    EntryType::kValuePreferredSeqno,
};
// The TypeScript EntryType name: "delete", "put", "merge", "single-delete", "range-delete",
// "blob-index", "delete-with-timestamp", "wide-column-entity", "value-preferred-seqno".
const char* EntryTypeName(EntryType type);

// Which entries a cursor walks, by user key (sst_dump --from/--to/--prefix/--read_num; rocksdb
// table/sst_file_dumper.cc ReadSequential).
struct EntryRange {
  std::optional<Bytes> from;    // from the first entry whose user key is >= from
  std::optional<Bytes> to;      // up to the first entry whose user key is >= to, excluded
  std::optional<Bytes> prefix;  // from the prefix on, up to the first user key without it
  bool exact = false;           // only entries whose user key equals `from` (a point lookup)
  uint64_t limit = 0;           // at most this many entries; 0: all
};

// Walks the entries of an open table in order, many data blocks per Advance: data blocks and index
// partitions come through their own block reads (reading ahead, so a sequential walk reads the
// file in pieces of up to a few MiB), so several cursors and the table's own probes never share a
// pending read. Memory: the table's index and filter, the read windows and one batch.
class TableCursor final : public ResumableRead {
 public:
  // Bytes of keys (and values) a batch gathers before Advance returns it (the block that reaches
  // it is whole).
  static constexpr size_t kDefaultBatchBytes = size_t{1} << 20;
  enum class Content : uint8_t {
    kKeys,     // user keys only
    kEntries,  // user keys, tags (internal keys only) and values
  };

  // `table` must be open; the cursor keeps what it needs of it.
  explicit TableCursor(const TableReader& table, Content content = Content::kKeys,
                       size_t batch_bytes = kDefaultBatchBytes);
  ~TableCursor() override;
  TableCursor(const TableCursor&) = delete;
  TableCursor& operator=(const TableCursor&) = delete;

  // Runs until a batch is ready (from one or more data blocks), the end is reached, or the driver
  // is needed. An error in a data block comes after the entries of the blocks before it.
  Status Advance() override;
  BlockFetcher& fetcher() const override;

  // Past the last data block (or the range's end), with nothing waiting.
  bool at_end() const { return at_end_ && key_offsets_.size() == 1; }
  // The user keys of the batch, packed (KeyBatch layout: n keys, n + 1 offsets), in file order
  // (versions of one key repeat it); empty while none are ready. With user-defined timestamps
  // (comparator leveldb.BytewiseComparator.u64ts) the keys are without them.
  const Bytes& key_data() const { return key_data_; }
  const std::vector<uint32_t>& key_offsets() const { return key_offsets_; }
  // Content::kEntries: each entry's tag (sequence << 8 | type; tables of internal keys only) and
  // value, packed as the keys are.
  const std::vector<uint64_t>& tags() const { return tags_; }
  // Content::kEntries with user-defined timestamps: each entry's timestamp, timestamp_size()
  // bytes each (as stored: little-endian); empty otherwise.
  const Bytes& timestamps() const { return timestamps_; }
  size_t timestamp_size() const;
  const Bytes& value_data() const { return value_data_; }
  const std::vector<uint32_t>& value_offsets() const { return value_offsets_; }
  // The data blocks of the batch in order: block i holds entries [keys_end of block i - 1,
  // keys_end). Blocks without entries (in the range) are listed too.
  struct BatchBlock {
    BlockHandle handle;
    uint32_t keys_end = 0;
    bool from_cache = false;  // served by the block cache (SetBlockCache), not read
  };
  const std::vector<BatchBlock>& key_blocks() const { return key_blocks_; }
  // Called once the batch was consumed; the next Advance gathers the next.
  void ClearBatch();
  // Walks only the data blocks whose offset lies in [begin, end) (data blocks lie in the file in
  // index order, so this is a contiguous run of them): several cursors can share a table's walk.
  // Call before the first Advance.
  void SetBlockRange(uint64_t begin, uint64_t end) {
    range_begin_ = begin;
    range_end_ = end;
  }
  // Checks the order of the keys as the walk goes (verify, docs/FORMATS.md 3.4.2): each entry sorts
  // after the one before it (internal-key order under the table's comparator: versions newest
  // first), no entry of a block sorts after the block's index separator, and none before the
  // separator of the block before. A violation ends the walk at that block with kCorrupt naming
  // the entry, or, where the order was only assumed (KeyOrderSource::kSeparators), with
  // kUnsupported: the keys are not bytewise after all, and the comparator is unknown. Nothing is
  // checked while the order is unknown. Call before the first Advance.
  void SetOrderCheck(bool on) { check_order_ = on; }
  // Walks only the entries `range` names, skipping the index entries (and partitions) before it.
  // kUnsupported when the range needs an order the table's comparator does not give. Call before
  // the first Advance.
  Status SetEntryRange(EntryRange range);
  // Looks each data block up in `cache` (as `table`'s) before reading it, and puts in those it
  // read and decoded without error. Call before the first Advance.
  void SetBlockCache(BlockCache* cache, BlockCacheTable table) {
    cache_ = cache;
    cache_table_ = table;
  }

 private:
  struct Walk;  // the block reads and the index iterators (table_cursor.cc)

  // `compressed`: the file stored the block compressed (errors then name the block).
  Status OnDataBlock(const Bytes& contents, bool compressed, bool from_cache);
  // Reads the pending data block, from the cache where it is held.
  Status ReadDataBlock();
  // SetOrderCheck's verdict on the entry at `entry_offset` (stored user key and tag) of the block
  // being read; `first`: whether it is the block's first entry.
  Status CheckEntryOrder(ByteView key, uint64_t tag, uint64_t entry_offset, bool first);
  // Whether the entry with this user key is past the range (the walk ends there).
  bool PastRange(ByteView user_key) const;
  // Whether an index entry's block (or partition) lies wholly before the range.
  bool BeforeFrom(const IndexEntry& entry) const;
  Status NextHandle();
  bool BatchReady() const;

  std::shared_ptr<const OpenedTable> table_;
  std::unique_ptr<Walk> walk_;
  Content content_;
  size_t batch_bytes_;
  bool at_end_ = false;
  uint64_t range_begin_ = 0;
  uint64_t range_end_ = UINT64_MAX;
  EntryRange entries_;
  bool from_reached_ = true;      // no entry before the range's start is left to skip
  bool unordered_exact_ = false;  // an exact range over keys in an unknown order: every block
  bool check_order_ = false;
  BlockCache* cache_ = nullptr;
  BlockCacheTable cache_table_;
  uint64_t entries_taken_ = 0;
  Status deferred_error_;  // met after the batch's blocks: reported once they are taken
  Bytes key_data_;
  std::vector<uint32_t> key_offsets_{0};
  std::vector<uint64_t> tags_;
  Bytes timestamps_;
  Bytes value_data_;
  std::vector<uint32_t> value_offsets_{0};
  std::vector<BatchBlock> key_blocks_;
};

// How `sst_dump --command=scan` is asked to print entries.
struct ScanTextOptions {
  bool hex = false;                // --output_hex: keys and values in upper-case hex
  bool decode_blob_index = false;  // --decode_blob_index: blob indexes as BlobIndex::DebugString
};

// Appends the line `sst_dump --command=scan` prints for an entry (rocksdb
// table/sst_file_dumper.cc ReadSequential, db/dbformat.cc ParsedInternalKey::DebugString):
// 'KEY' seq:N, type:T => VALUE, key and value raw or, with `hex` (--output_hex), in upper-case hex.
// KEY is the stored user key: `user_key` followed by its `timestamp` (empty without one), as
// sst_dump 7.8.3 prints it. sst_dump prints both halves with %s: each ends at its first NUL byte,
// as there. With decode_blob_index a blob index's VALUE is the decoded index (docs/FORMATS.md
// 3.10.1); one that does not decode gets sst_dump's standard-error line, appended to `errors`. A
// kTypeValuePreferredSeqno entry (written by RocksDB 9.x and later) shows as the newest sst_dump
// shows it: VALUE, then ", " and the preferred sequence number packed at the value's end.
void AppendScanLine(ByteView user_key, ByteView timestamp, uint64_t tag, ByteView value,
                    ScanTextOptions options, Bytes* out, Bytes* errors);

// One range deletion of a table's rocksdb.range_del block: user keys [start, end) deleted at
// `sequence` (rocksdb db/range_tombstone_fragmenter.h; the entry's key is the start's internal key
// of type kRangeDelete, its value the end).
struct RangeDeletion {
  Bytes start;
  Bytes end;
  uint64_t sequence = 0;
};
// The range deletions of a range_del block's contents, in stored order. Errors carry the offset
// within the block.
Status DecodeRangeDeletions(ByteView block, std::vector<RangeDeletion>* out);

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

// ---- Layout (docs/FORMATS.md 3.5, 3.6.1) ----

// What a region of a table file holds, as Pebble's `sstable layout` names its blocks where it has
// a name for them.
enum class TableRegionKind : uint8_t {
  kData,
  kIndex,            // the index block, or one partition of a partitioned index
  kTopIndex,         // the top-level index of a partitioned index (kTwoLevelIndexSearch)
  kFilter,           // a full filter, or LevelDB's filter block
  kFilterPartition,  // one partition of a partitioned filter
  kFilterTopIndex,   // the index over a partitioned filter's partitions
  kProperties,
  kMetaindex,
  kRangeDeletions,         // rocksdb.range_del
  kCompressionDictionary,  // rocksdb.compression_dict
  kMeta,                   // any other meta block the metaindex names
  kFooter,
  kGap,  // bytes no handle names (block_align padding, or blocks only a newer writer knows)
};
// "data", "index", "top-index", "filter", "filter-partition", "filter-top-index", "properties",
// "metaindex", "range-del", "compression-dict", "meta", "footer", "gap".
const char* TableRegionKindName(TableRegionKind kind);

struct TableRegion {
  TableRegionKind kind = TableRegionKind::kGap;
  // Blocks: the handle (size without the 5-byte trailer that follows). The footer and gaps: their
  // bytes, without a trailer.
  BlockHandle handle;
  std::string name;  // the metaindex entry that names the block, if one does
  // Data blocks, index and filter partitions: the user key of the index entry that points here
  // (a separator: at or after every key of the block, before every key of the next).
  std::optional<Bytes> separator;

  bool has_trailer() const {
    return kind != TableRegionKind::kFooter && kind != TableRegionKind::kGap;
  }
  // The file bytes the region covers.
  uint64_t span() const { return handle.size + (has_trailer() ? kBlockTrailerSize : 0); }
};

// Lists where every block of an open table lies, in file order, from offset 0 to the end of the
// footer: the blocks the reader knows (metaindex, index, filter, properties, meta blocks), the data
// blocks from the index (without reading them: only the partitions of a partitioned index are
// read), and gaps where no handle names the bytes. Handles outside the file are kCorrupt.
class TableLayoutRead final : public ResumableRead {
 public:
  // `table` must be open; the read keeps what it needs of it.
  explicit TableLayoutRead(const TableReader& table);
  ~TableLayoutRead() override;
  TableLayoutRead(const TableLayoutRead&) = delete;
  TableLayoutRead& operator=(const TableLayoutRead&) = delete;

  // Reads the index partitions, if any, then sorts the regions.
  Status Advance() override;
  BlockFetcher& fetcher() const override;
  // Whether Advance() got through; regions() is complete from then on.
  bool done() const { return done_; }
  // In file order (by offset; overlapping handles of a damaged file are listed as found).
  const std::vector<TableRegion>& regions() const { return regions_; }

 private:
  Status AddBlock(TableRegion region, uint64_t named_at);
  Status ListIndexEntries(const IndexBlock& index, TableRegionKind kind, uint64_t index_offset);
  void Finish();

  std::shared_ptr<const OpenedTable> table_;
  std::unique_ptr<BlockFetcher> fetcher_;
  std::unique_ptr<EntryBudget> budget_;        // what the listing keeps
  std::vector<BlockHandle> index_partitions_;  // of a partitioned index, in order
  size_t next_partition_ = 0;
  Status listed_;  // how listing the blocks known without I/O went
  bool done_ = false;
  std::vector<TableRegion> regions_;
};

}  // namespace sstfilter
