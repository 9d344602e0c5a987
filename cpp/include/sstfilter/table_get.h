// A table's point lookup (docs/FORMATS.md 3.8), without doing I/O: what a database's Get finds in
// one table file for a user key. The model is LevelDB's Table::InternalGet (leveldb
// table/table.cc) and RocksDB's BlockBasedTable::Get (rocksdb table/block_based/
// block_based_table_reader.cc): the filter first, then the index, then the data block the index
// names, and the blocks after it while the key's versions run on; the range deletions of the
// table's rocksdb.range_del block that cover the key come with the answer, as TableCache::Get
// consults them before the filter (rocksdb db/table_cache.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/status.h"
#include "sstfilter/table_cursor.h"

namespace sstfilter {

// Finds the entries of one user key in an open table: Advance() until done(), supplying the file
// bytes need() asks for in between (sstfilter/table.h ResumableRead). Reads the range-deletion
// block (where the table has one), then, unless the filter rules the key out, the data block the
// index names and each next one while the block just read ends at or before the key. With the key
// order unknown (KeyOrderSource::kUnknown) every data block is read, as the filter allows, and a
// table with range deletions is kUnsupported (which of them cover the key needs the order).
class TableGet final : public ResumableRead {
 public:
  // A block read for the lookup, in the order read. Entries [entries_end of the block before,
  // entries_end) of the answer came from it (none for a block that held no version of the key).
  struct BlockRead {
    BlockHandle handle;
    size_t entries_end = 0;
    bool from_cache = false;  // served by TableReadOptions::block_cache, not asked of the driver
  };

  // `table` must be open; the lookup keeps what it needs of it. `user_key` is without a timestamp
  // (with user-defined timestamps every version is found, the newest timestamp first, as a read
  // at the largest timestamp sees them). `read`: how the database reading the table is configured
  // (TableReader::MayContain), and the block cache the lookup takes blocks from and fills: a block
  // it holds is not asked of the driver.
  TableGet(const TableReader& table, ByteView user_key, const TableReadOptions& read = {});
  ~TableGet() override;
  TableGet(const TableGet&) = delete;
  TableGet& operator=(const TableGet&) = delete;

  // Runs until the answer is complete or the driver is needed.
  Status Advance() override;
  BlockFetcher& fetcher() const override;
  // Whether Advance() got through; the answer below is complete from then on.
  bool done() const;

  // The filter (or, for LevelDB, the index: a key after the file's last) ruled the key out, so no
  // data block was read; `trace()` says how (TableReader::MayContain's trace).
  bool filtered_out() const { return filtered_out_; }
  const LookupTrace& trace() const { return trace_; }

  // The entries of the key in stored order (newest first), packed as TableCursor's entries are:
  // the stored user keys without their timestamps (equal to the key under the table's comparator,
  // not necessarily in bytes), tags (tables of internal keys only), timestamps (timestamp_size()
  // bytes each) and values.
  const Bytes& key_data() const { return key_data_; }
  const std::vector<uint32_t>& key_offsets() const { return key_offsets_; }
  const std::vector<uint64_t>& tags() const { return tags_; }
  const Bytes& timestamps() const { return timestamps_; }
  size_t timestamp_size() const { return timestamp_size_; }
  const Bytes& value_data() const { return value_data_; }
  const std::vector<uint32_t>& value_offsets() const { return value_offsets_; }
  size_t entry_count() const { return key_offsets_.size() - 1; }

  // The range deletions whose [start, end) holds the key (compared without timestamps), newest
  // first.
  const std::vector<RangeDeletion>& covering() const { return covering_; }
  // The data blocks read, in order.
  const std::vector<BlockRead>& blocks_read() const { return blocks_read_; }

 private:
  struct Steps;  // the range-deletion read and the cursor over the key's blocks (table_get.cc)

  // `compressed`: the file stored the block compressed (errors then name the block).
  Status OnRangeDeletions(const Bytes& contents, bool compressed);
  // Reads the range-deletion block, from the cache where it is held.
  Status ReadRangeDeletions();
  // Moves the cursor's batch into the answer.
  void TakeBatch();

  std::shared_ptr<const OpenedTable> table_;
  Bytes user_key_;
  std::unique_ptr<Steps> steps_;
  Status filter_status_;
  bool filtered_out_ = false;
  LookupTrace trace_;
  size_t timestamp_size_ = 0;
  Bytes key_data_;
  std::vector<uint32_t> key_offsets_{0};
  std::vector<uint64_t> tags_;
  Bytes timestamps_;
  Bytes value_data_;
  std::vector<uint32_t> value_offsets_{0};
  std::vector<RangeDeletion> covering_;
  std::vector<BlockRead> blocks_read_;
};

// Runs a TableGet of `user_key` over a table held whole in memory (DriveFromMemory).
Status GetFromMemory(const TableReader& table, ByteView file, ByteView user_key,
                     std::unique_ptr<TableGet>* out, const TableReadOptions& read = {});

}  // namespace sstfilter
