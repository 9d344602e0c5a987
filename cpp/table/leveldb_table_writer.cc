// LevelDB's table as a bare TableBuilder writes it (docs/FORMATS.md 3.11.5; leveldb
// table/table_builder.cc, 1.23): user keys in data blocks cut once their size estimate reaches
// block_size, then the filter block, the metaindex and the index, then the 48-byte footer. Every
// block but the filter block is compressed when Snappy saves an eighth.
#include <optional>
#include <string>

#include "sstfilter/leveldb_filter_block.h"
#include "table/block_builder.h"
#include "table/footer.h"
#include "table/index_builder.h"
#include "table/table_writers.h"

namespace sstfilter {
namespace {

// The metaindex name of LevelDB's Bloom filter block ("filter." + the policy's Name()).
constexpr std::string_view kFilterBlockName = "filter.leveldb.BuiltinBloomFilter2";

class LevelDbTableWriter final : public TableWriter {
 public:
  explicit LevelDbTableWriter(const TableWriteOptions& options)
      : TableWriter(options.comparator),
        options_(options),
        compressor_(options.compression == "snappy" ? BlockCompressor::ForName("snappy") : nullptr),
        data_block_(options.restart_interval),
        index_(TableFamily::kLevelDb, 0, options.comparator.get()) {
    if (options.filter) filter_.emplace(static_cast<int>(options.bits_per_key));
  }

 protected:
  Status AddPoint(Op op, ByteView key, ByteView value) override {
    if (op != Op::kPut) {
      return BadOptions("a LevelDB table written by TableBuilder holds puts only");
    }
    if (pending_index_entry_) {
      index_.AddEntry(last_key_, &key, pending_handle_);
      pending_index_entry_ = false;
    }
    // The filter for the range this block starts in: EndBlock started it after the last block.
    if (filter_) filter_->AddKey(key);
    last_key_.assign(key.begin(), key.end());
    data_block_.Add(key, value);
    if (data_block_.CurrentSizeEstimate() >= options_.block_size) return Flush();
    return Status::Ok();
  }

  Status AddRangeDeletion(ByteView, ByteView) override {
    return BadOptions("LevelDB tables have no range deletions");
  }

  Status FinishTable() override {
    if (Status s = Flush(); !s.ok()) return s;
    BlockBuilder metaindex(options_.restart_interval);
    if (filter_) {
      Bytes filter;
      if (Status s = filter_->Finish(&filter); !s.ok()) return s;
      const BlockHandle handle = WriteBlock(filter, nullptr);
      Bytes value;
      PutBlockHandle(&value, handle.offset, handle.size);
      metaindex.Add(BytesOf(kFilterBlockName), value);
    }
    Bytes contents;
    metaindex.Finish(&contents);
    const BlockHandle metaindex_handle = WriteBlock(contents, compressor_.get());
    if (pending_index_entry_) {
      index_.AddEntry(last_key_, nullptr, pending_handle_);
      pending_index_entry_ = false;
    }
    contents.clear();
    index_.Finish(&contents);
    const BlockHandle index_handle = WriteBlock(contents, compressor_.get());
    Bytes footer;
    AppendLevelDbFooter(metaindex_handle, index_handle, &footer);
    Emit(footer);
    return Status::Ok();
  }

 private:
  Status Flush() {
    if (data_block_.empty()) return Status::Ok();
    Bytes raw;
    data_block_.Finish(&raw);
    pending_handle_ = WriteBlock(raw, compressor_.get());
    pending_index_entry_ = true;
    if (filter_) return filter_->EndBlock(pending_handle_.offset, pending_handle_.size);
    return Status::Ok();
  }

  BlockHandle WriteBlock(ByteView raw, BlockCompressor* compressor) {
    Bytes stored;
    const BlockHandle handle{
        file_size(), AppendBlock(raw, compressor, BlockSealing(), file_size(), &stored).size};
    Emit(stored);
    return handle;
  }

  TableWriteOptions options_;
  std::unique_ptr<BlockCompressor> compressor_;  // Snappy or none
  BlockBuilder data_block_;
  IndexBuilder index_;
  std::optional<LevelDbFilterBlockBuilder> filter_;
  Bytes last_key_;
  bool pending_index_entry_ = false;
  BlockHandle pending_handle_;
};

}  // namespace

Status NewLevelDbTableWriter(const TableWriteOptions& options, std::unique_ptr<TableWriter>* out) {
  if (options.filter && *options.filter != FilterFormat::kLevelDbBloom) {
    return BadOptions("a LevelDB table takes filter \"leveldb\" or none, got \"" +
                      std::string(FilterFormatName(*options.filter)) + "\"");
  }
  if (!options.prefix_extractor.empty() || !options.whole_key_filtering) {
    return BadOptions("prefixExtractor and wholeKeyFiltering are RocksDB options");
  }
  if (options.partition_filters || options.index_type != TableIndexType::kBinarySearch) {
    return BadOptions("partitionFilters and indexType \"two-level\" are RocksDB options");
  }
  if (options.separate_key_value_in_data_block) {
    return BadOptions("separateKeyValueInDataBlock is a RocksDB 11 option");
  }
  if (options.compression != "none" && options.compression != "snappy") {
    return BadOptions("a LevelDB table takes compression \"none\" or \"snappy\", got \"" +
                      options.compression + "\"");
  }
  if (!options.checksum.empty() && options.checksum != "crc32c") {
    return BadOptions("LevelDB tables are checksummed with crc32c, got \"" + options.checksum +
                      "\"");
  }
  if (!options.user_properties.empty()) {
    return BadOptions("LevelDB tables have no properties block");
  }
  *out = std::make_unique<LevelDbTableWriter>(options);
  return Status::Ok();
}

}  // namespace sstfilter
