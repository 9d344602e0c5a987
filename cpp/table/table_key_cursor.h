// Walks the user keys of an open table in order, one data block at a time (reading index
// partitions and data blocks on demand through its own BlockFetcher, so several cursors and the
// table's own probes never share a pending read).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "table/block_fetcher.h"
#include "table/index_block.h"
#include "table/table_reader.h"

namespace sstfilter {

class TableKeyCursor final : public ResumableRead {
 public:
  explicit TableKeyCursor(std::shared_ptr<const OpenedTable> table);

  // Runs until the keys of the next non-empty data block are ready, the end is reached, or the
  // fetcher needs the driver.
  Status Advance() override;
  BlockFetcher& fetcher() override { return fetcher_; }

  bool at_end() const { return at_end_; }
  // The keys of the block just read, packed (KeyBatch layout: n keys, n + 1 offsets); empty while
  // none are ready. Each entry's user key, in file order (versions of one key repeat it).
  const Bytes& key_data() const { return key_data_; }
  const std::vector<uint32_t>& key_offsets() const { return key_offsets_; }
  // The data block the keys of key_data() come from.
  BlockHandle keys_block() const { return keys_block_; }
  // Called once the keys were consumed; the next Advance moves on.
  void ClearKeys();

 private:
  Status OnDataBlock(const Bytes& contents);
  Status NextHandle();

  std::shared_ptr<const OpenedTable> table_;
  BlockFetcher fetcher_;
  bool two_level_;
  std::optional<IndexBlock::Iterator> top_;  // over the partitions of a partitioned index
  std::unique_ptr<IndexBlock> partition_;
  std::optional<IndexBlock::Iterator> blocks_;  // over data-block handles
  std::optional<BlockHandle> pending_partition_;
  std::optional<BlockHandle> pending_block_;
  bool at_end_ = false;
  BlockHandle keys_block_;
  Bytes key_data_;
  std::vector<uint32_t> key_offsets_{0};
};

}  // namespace sstfilter
