// A table's entries (docs/FORMATS.md 3.3, 3.6.7): their types, TableCursor's walk over the keys or
// entries of an open table in order (by ranges, as sst_dump selects them), the lines sst_dump
// prints for them, and the range deletions of the rocksdb.range_del block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/key_batch.h"
#include "sstfilter/status.h"
#include "sstfilter/table_io.h"
#include "sstfilter/table_reader.h"
#include "sstfilter/values.h"

namespace sstfilter {

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

struct BlockLayout;       // where a block's entries and restarts lie (internal: table/block.h)
class BlockEntryDecoder;  // one block's entries in order (internal: table/block.h)

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
  // bytes each (as stored: little-endian; all zero bytes, the minimum, in a table whose writer
  // stripped them, as RocksDB reads one); empty otherwise.
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
  // Embedded blob tables (docs/FORMATS.md 3.10.3): whether the walk reads the same-file blob record
  // of each entry that holds one. Each record read is checked (trailer checksum unless
  // TableOptions::verify_checksums is off, compression byte); with Content::kEntries its payload
  // then is the entry's value and its type kPut, as RocksDB's Get and iterators return it; a
  // wide-column entity's same-file columns take their payloads and the entity is encoded again,
  // in version 1 when no column is left in a blob file (rocksdb
  // table/block_based/block_based_table_reader.cc MaybeResolveEmbeddedValue). Off, the
  // entry keeps the blob index as stored, as sst_dump prints it. A record that fails its checks
  // fails the batch it belongs to (no entry of it is handed over). Default: on for
  // Content::kEntries, off for kKeys (verify turns it on). Call before the first Advance.
  void SetEmbeddedBlobReads(bool on) { read_blobs_ = on; }
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
  // SetOrderCheck's verdict on the entry `entry` has just decoded (stored user key `key` and `tag`)
  // of the block being read against the entry before it and, for the block's `first`, the
  // separator before the block. The block's own separator is checked once per block
  // (CheckBlockSeparator).
  Status CheckEntryOrder(ByteView key, uint64_t tag, const BlockEntryDecoder& entry, bool first);
  // SetOrderCheck's verdict on the entries of the data block `contents` up to `checked_end` (the
  // end offset of the last entry CheckEntryOrder passed, or of the one it failed on) against the
  // block's index separator; `order_error` is CheckEntryOrder's failure, or Ok. The entries up to
  // it ascend, so when the last is within the separator all are: only then is the block decoded
  // again, to name the first entry beyond it, as a check of every entry would have.
  Status CheckBlockSeparator(const Bytes& contents, const BlockLayout& layout, size_t checked_end,
                             Status order_error);
  // The SetOrderCheck error for the entry at `entry_offset`: what is wrong with it (`problem`).
  Status OrderError(const char* problem, uint64_t entry_offset) const;
  // Whether the entry with this user key is past the range (the walk ends there).
  bool PastRange(ByteView user_key) const;
  // Whether an index entry's block (or partition) lies wholly before the range.
  bool BeforeFrom(const IndexEntry& entry) const;
  Status NextHandle();
  bool BatchReady() const;
  // SetEmbeddedBlobReads: notes the record of the entry just taken when it holds a same-file blob
  // index (`entry`: its place in the batch), charging its size to `budget`.
  Status NoteBlobRecord(ByteView value, size_t entry, EntryBudget* budget, size_t entry_offset);
  // The same for each same-file blob column of a wide-column entity (version 2) just taken.
  Status NoteEntityBlobRecords(ByteView value, size_t entry, EntryBudget* budget,
                               size_t entry_offset);
  // Notes `index`'s record when it names this file: the entry's whole value, or its column
  // `column` (an entity's, by its place among the columns).
  Status NoteSameFileRecord(BlobIndex index, size_t entry, std::optional<size_t> column,
                            EntryBudget* budget, size_t entry_offset);
  // Reads the batch's noted records (Ok with fetcher() waiting while bytes are needed), then
  // puts their payloads in place of the indexes (Content::kEntries).
  Status ReadBlobRecords();
  void SpliceBlobValues();
  // ReadBlobRecords for a batch otherwise complete; an error there drops the batch and stays.
  Status CompleteBatch();

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
  bool read_blobs_;
  // The same-file blob records of the batch's entries, in entry order; those before
  // next_blob_read_ are read (their payloads here with Content::kEntries).
  struct BlobRead {
    size_t entry = 0;
    std::optional<size_t> column;  // an entity's column; none: the entry's whole value
    BlobIndex index;
    Bytes payload;
  };
  std::vector<BlobRead> blob_reads_;
  size_t next_blob_read_ = 0;
  size_t blob_bytes_ = 0;  // payload bytes the batch's records add to its values
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

// How a scan line shows the bytes of keys, timestamps and values.
enum class ShownBytes : uint8_t {
  kRaw,      // as sst_dump prints them: as they are, each field ending at its first NUL (%s)
  kHex,      // --output_hex: two upper-case hex digits per byte
  kEscaped,  // sstfilter's own: as they are where a terminal shows them, else \xNN (one line)
};

// How `sst_dump --command=scan` is asked to print entries.
struct ScanTextOptions {
  ShownBytes bytes = ShownBytes::kRaw;
  // Deprecated: bytes = ShownBytes::kHex. Kept for callers written before `bytes`; true wins.
  bool hex = false;
  bool decode_blob_index = false;  // --decode_blob_index: blob indexes as BlobIndex::DebugString
};

// Appends the line `sst_dump --command=scan` prints for an entry (rocksdb
// table/sst_file_dumper.cc ReadSequential, db/dbformat.cc ParsedInternalKey::DebugString):
// 'KEY' seq:N, type:T => VALUE, key and value shown as `options.bytes` says.
// KEY is the stored user key: `user_key` followed by its `timestamp` (empty without one), as
// sst_dump 7.8.3 prints it. sst_dump prints both halves with %s: raw, each ends at its first NUL
// byte, as there; escaped, every byte is shown and a line is always one line (no byte of a field
// is a newline, a control or a bidirectional override then). With decode_blob_index a blob index's
// VALUE is the decoded index (docs/FORMATS.md 3.10.1); one that does not decode gets sst_dump's
// standard-error line, appended to `errors`. A kTypeValuePreferredSeqno entry (written by
// RocksDB 9.x and later) shows as the newest sst_dump shows it: VALUE, then ", " and the preferred
// sequence number packed at the value's end.
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

}  // namespace sstfilter
