// RocksDB's block-based table as SstFileWriter writes it (docs/FORMATS.md 3.11; rocksdb
// table/sst_file_writer.cc and table/block_based/block_based_table_builder.cc, 7.8.3 for
// format_version 2 to 5, main (11.9) for 6 and 7): point entries as internal keys with sequence
// number 0 in data blocks cut by FlushBlockBySizePolicy, then the full filter, the index, the
// range deletions, the properties and the metaindex, each followed by its trailer, then the
// footer.
#include <optional>
#include <string>

#include "sstfilter/hash.h"
#include "table/block_builder.h"
#include "table/footer.h"
#include "table/full_filter_builder.h"
#include "table/index_builder.h"
#include "table/partitioned_filter_builder.h"
#include "table/partitioned_index_builder.h"
#include "table/prefix_extractor.h"
#include "table/properties_builder.h"
#include "table/table_writers.h"

namespace sstfilter {
namespace {

// CompressionOptionsToString of the default CompressionOptions (rocksdb util/compression.cc), as
// every SstFileWriter run without compression options records it.
constexpr std::string_view kDefaultCompressionOptions =
    "window_bits=-14; level=32767; strategy=0; max_dict_bytes=0; zstd_max_train_bytes=0; "
    "enabled=0; max_dict_buffer_bytes=0; use_zstd_dict_trainer=1; ";

// TablePropertiesCollectorFactory::Context::kUnknownColumnFamily: SstFileWriter without a
// column family handle.
constexpr uint64_t kUnknownColumnFamily = 0x7fffffff;

// ExternalSstFilePropertyNames (rocksdb table/sst_file_writer_collectors.h): SstFileWriter's
// own collector records its version 2 (fixed32) and a global sequence number 0 (fixed64).
constexpr uint32_t kExternalSstFileVersion = 2;

// What 11.9 appends to CompressionOptionsToString (util/compression.cc at main): the
// per-KiB limit and the zstd checksum flag of the default options, then the configured type.
std::string NewerCompressionOptions(uint8_t configured_type) {
  return std::string(kDefaultCompressionOptions) +
         "max_compressed_bytes_per_kb=" + std::to_string(kMaxCompressedBytesPerKb) +
         "; checksum=0; _type=" + std::to_string(configured_type) + "; ";
}

// RocksDB draws base_context_checksum at random; without one given, a non-zero value the
// identity determines.
uint32_t BaseContextChecksum(const TableIdentity& id) {
  if (id.base_context_checksum != 0) return id.base_context_checksum;
  Bytes seed(id.db_session_id.begin(), id.db_session_id.end());
  PutFixed64(&seed, id.orig_file_number);
  const auto derived = static_cast<uint32_t>(Xxh3Hash64(seed, 0));
  return derived != 0 ? derived : 1;
}

std::optional<ChecksumType> ChecksumFromName(const std::string& name) {
  for (uint8_t t = 0; t <= kMaxChecksumType; ++t) {
    if (name == ChecksumTypeName(static_cast<ChecksumType>(t))) {
      return static_cast<ChecksumType>(t);
    }
  }
  return std::nullopt;
}

class RocksDbTableWriter final : public TableWriter {
 public:
  RocksDbTableWriter(const TableWriteOptions& options, ChecksumType checksum,
                     std::optional<PrefixExtractor> prefix_extractor,
                     std::unique_ptr<BlockCompressor> compressor)
      : TableWriter(options.comparator),
        options_(options),
        checksum_(checksum),
        prefix_extractor_(prefix_extractor),
        compressor_(std::move(compressor)),
        sealing_{checksum, options.format_version >= 6 ? BaseContextChecksum(options.identity) : 0,
                 options.format_version >= 6},
        data_block_policy_(options.block_size),
        data_block_(options.restart_interval, /*delta_keys=*/true, /*values_have_length=*/true,
                    options.separate_key_value_in_data_block),
        range_deletions_(1) {
    if (options.index_type == TableIndexType::kTwoLevel) {
      two_level_index_.emplace(options.format_version, options.metadata_block_size,
                               options.comparator.get());
    } else {
      index_.emplace(TableFamily::kRocksDb, options.format_version, options.comparator.get());
    }
    if (!options.filter) return;
    const BuildOptions filter{*options.filter, options.bits_per_key};
    if (options.partition_filters) {
      partitioned_filter_.emplace(filter, prefix_extractor, options.whole_key_filtering,
                                  options.format_version, options.metadata_block_size,
                                  options.decouple_partitioned_filters, &*two_level_index_);
    } else {
      filter_.emplace(filter, prefix_extractor, options.whole_key_filtering,
                      options.format_version >= 6);
    }
  }

 protected:
  Status AddPoint(Op op, ByteView key, ByteView value) override {
    // ValueType: kTypeValue 1, kTypeDeletion 0, kTypeMerge 2 (rocksdb db/dbformat.h).
    const uint8_t type = op == Op::kPut ? 1 : op == Op::kDelete ? 0 : 2;
    Bytes internal_key(key.begin(), key.end());
    PutFixed64(&internal_key, type);  // sequence number 0
    if (data_block_policy_.ShouldFlush(data_block_, internal_key, value)) {
      const BlockHandle handle = FlushDataBlock();
      const ByteView next = internal_key;
      AddIndexEntry(&next, handle);
    }
    // A partitioned filter takes the key after the index entry of the block before it: that
    // entry may have cut a partition.
    if (partitioned_filter_) {
      if (Status s = partitioned_filter_->Add(key); !s.ok()) return s;
    } else if (filter_) {
      filter_->Add(key);
    }
    data_block_.Add(internal_key, value);
    last_key_.swap(internal_key);
    raw_key_size_ += last_key_.size();
    raw_value_size_ += value.size();
    if (op == Op::kDelete) ++num_deletions_;
    if (op == Op::kMerge) ++num_merge_operands_;
    ++num_entries_;
    return Status::Ok();
  }

  Status AddRangeDeletion(ByteView start, ByteView end) override {
    // RangeTombstone::Serialize: the start as an internal key of type kTypeRangeDeletion (0x0f),
    // the end as the value.
    Bytes internal_key(start.begin(), start.end());
    PutFixed64(&internal_key, 0x0f);
    range_deletions_.Add(internal_key, end);
    raw_key_size_ += internal_key.size();
    raw_value_size_ += end.size();
    ++num_deletions_;
    ++num_range_deletions_;
    ++num_entries_;
    return Status::Ok();
  }

  Status FinishTable() override {
    if (num_entries_ == 0) {
      return BadOptions("a RocksDB table needs at least one entry (as SstFileWriter has it)");
    }
    if (!data_block_.empty()) {
      const BlockHandle handle = FlushDataBlock();
      AddIndexEntry(nullptr, handle);
    }
    tail_start_offset_ = file_size();
    // Meta blocks in BlockBasedTableBuilder::Finish's order; the metaindex sorts their names.
    // Both Bloom policies and Ribbon share the compatibility name rocksdb.BuiltinBloomFilter.
    std::map<std::string, BlockHandle> metaindex;
    MetaSizes sizes;
    if (filter_ && !filter_->empty()) {
      sizes.filter_entries = filter_->entries();
      Bytes filter;
      if (Status s = filter_->Finish(&filter); !s.ok()) return s;
      sizes.filter_bytes = filter.size();
      metaindex["fullfilter.rocksdb.BuiltinBloomFilter"] = WriteBlock(filter, nullptr);
      filter_.reset();
    }
    if (partitioned_filter_ && !partitioned_filter_->empty()) {
      sizes.filter_entries = partitioned_filter_->entries();
      PartitionedFilterBuilder::Written filter;
      const auto write = [this](ByteView block) { return WriteBlock(block, nullptr); };
      if (Status s = partitioned_filter_->Finish(write, &filter); !s.ok()) return s;
      sizes.filter_bytes = filter.bytes;
      metaindex["partitionedfilter.rocksdb.BuiltinBloomFilter"] = filter.partition_index;
      partitioned_filter_.reset();
    }
    // The index, compressed as data blocks are (enable_index_compression); rocksdb.index.size
    // counts the contents before compression and one trailer.
    BlockHandle index_handle;
    if (two_level_index_) {
      const auto write = [this](ByteView block) { return WriteBlock(block, compressor_.get()); };
      const PartitionedIndexBuilder::Written index = two_level_index_->Finish(write);
      index_handle = index.top_level;
      sizes.index_bytes = index.contents_bytes + kBlockTrailerSize;
      sizes.index_partitions = index.partitions;
      sizes.top_level_index_bytes = index.top_level_bytes;
    } else {
      Bytes index;
      index_->Finish(&index);
      sizes.index_bytes = index.size() + kBlockTrailerSize;
      index_handle = WriteBlock(index, compressor_.get());
    }
    // format_version >= 6 names the index in the metaindex instead of the footer.
    if (options_.format_version >= 6) metaindex["rocksdb.index"] = index_handle;
    if (num_range_deletions_ > 0) {
      Bytes block;
      range_deletions_.Finish(&block);
      metaindex["rocksdb.range_del"] = WriteBlock(block, nullptr);
    }
    Bytes properties;
    Properties(sizes).Finish(&properties);
    metaindex["rocksdb.properties"] = WriteBlock(properties, nullptr);
    BlockBuilder metaindex_block(1);
    for (const auto& [name, handle] : metaindex) {
      Bytes value;
      PutBlockHandle(&value, handle.offset, handle.size);
      metaindex_block.Add(BytesOf(name), value);
    }
    Bytes contents;
    metaindex_block.Finish(&contents);
    const BlockHandle metaindex_handle = WriteBlock(contents, nullptr);
    Bytes footer;
    AppendRocksDbFooter(options_.format_version, checksum_, sealing_.base_context_checksum,
                        file_size(), metaindex_handle, index_handle, &footer);
    Emit(footer);
    return Status::Ok();
  }

 private:
  // What the properties record of the meta blocks.
  struct MetaSizes {
    uint64_t filter_bytes = 0;
    size_t filter_entries = 0;
    uint64_t index_bytes = 0;
    uint64_t index_partitions = 0;  // two-level index only
    uint64_t top_level_index_bytes = 0;
  };

  void AddIndexEntry(const ByteView* next_key, BlockHandle handle) {
    if (two_level_index_) {
      two_level_index_->AddEntry(last_key_, next_key, handle);
    } else {
      index_->AddEntry(last_key_, next_key, handle);
    }
  }

  BlockHandle FlushDataBlock() {
    Bytes raw;
    data_block_.Finish(&raw);
    const uint64_t offset = file_size();
    const SealedBlock sealed = WriteSealed(raw, compressor_.get());
    if (!compressor_) ++num_data_blocks_compression_bypassed_;
    if (sealed.compression_rejected) ++num_data_blocks_compression_rejected_;
    data_size_ = file_size();
    ++num_data_blocks_;
    return {offset, sealed.size};
  }

  BlockHandle WriteBlock(ByteView raw, BlockCompressor* compressor) {
    const uint64_t offset = file_size();
    return {offset, WriteSealed(raw, compressor).size};
  }

  SealedBlock WriteSealed(ByteView raw, BlockCompressor* compressor) {
    Bytes stored;
    const SealedBlock sealed = AppendBlock(raw, compressor, sealing_, file_size(), &stored);
    if (sealed.type != 0) any_block_compressed_ = true;
    Emit(stored);
    return sealed;
  }

  // PropertyBlockBuilder::AddTableProperty and the collectors SstFileWriter runs
  // (BlockBasedTablePropertiesCollector, SstFileWriterPropertiesCollector), in 7.8.3 and, for
  // format_version >= 6, with what 11.9 adds (table/meta_blocks.cc at main).
  PropertiesBuilder Properties(const MetaSizes& sizes) const {
    const TableIdentity& id = options_.identity;
    const bool newer = options_.format_version >= 6;
    PropertiesBuilder p;
    p.AddNumber("rocksdb.original.file.number", id.orig_file_number);
    p.AddNumber("rocksdb.raw.key.size", raw_key_size_);
    p.AddNumber("rocksdb.raw.value.size", raw_value_size_);
    p.AddNumber("rocksdb.data.size", data_size_);
    p.AddNumber("rocksdb.index.size", sizes.index_bytes);
    if (sizes.index_partitions != 0) {
      p.AddNumber("rocksdb.index.partitions", sizes.index_partitions);
      p.AddNumber("rocksdb.top-level.index.size", sizes.top_level_index_bytes);
    }
    // Both indexes key by user keys from format_version 3 on and leave out handle lengths from 4.
    const bool user_keys =
        two_level_index_ ? two_level_index_->keys_are_user_keys() : index_->keys_are_user_keys();
    const bool delta_values = two_level_index_ ? two_level_index_->values_delta_encoded()
                                               : index_->values_delta_encoded();
    p.AddNumber("rocksdb.index.key.is.user.key", user_keys ? 1 : 0);
    p.AddNumber("rocksdb.index.value.is.delta.encoded", delta_values ? 1 : 0);
    p.AddNumber("rocksdb.num.entries", num_entries_);
    p.AddNumber("rocksdb.num.filter_entries", sizes.filter_entries);
    p.AddNumber("rocksdb.deleted.keys", num_deletions_);
    p.AddNumber("rocksdb.merge.operands", num_merge_operands_);
    p.AddNumber("rocksdb.num.range-deletions", num_range_deletions_);
    p.AddNumber("rocksdb.num.data.blocks", num_data_blocks_);
    p.AddNumber("rocksdb.filter.size", sizes.filter_bytes);
    // 7.8.3 fills TableProperties::format_version for plain tables only (block-based ones record
    // 0); 9.8 and later record the table's.
    p.AddNumber("rocksdb.format.version", newer ? options_.format_version : 0);
    p.AddNumber("rocksdb.fixed.key.length", 0);
    p.AddNumber("rocksdb.column.family.id", kUnknownColumnFamily);
    p.AddNumber("rocksdb.creation.time", id.creation_time);
    p.AddNumber("rocksdb.oldest.key.time", id.oldest_key_time);
    if (id.file_creation_time > 0) {
      p.AddNumber("rocksdb.file.creation.time", id.file_creation_time);
    }
    const auto add_text = [&](const char* name, const std::string& value) {
      if (!value.empty()) p.AddText(name, value);
    };
    add_text("rocksdb.creating.db.identity", id.db_id);
    add_text("rocksdb.creating.session.identity", id.db_session_id);
    add_text("rocksdb.creating.host.identity", id.db_host_id);
    if (options_.filter) {
      add_text("rocksdb.filter.policy",
               *options_.filter == FilterFormat::kRocksDbRibbon ? "ribbonfilter" : "bloomfilter");
    }
    p.AddText("rocksdb.comparator", std::string(options_.comparator->Name()));
    p.AddText("rocksdb.merge.operator", "nullptr");
    p.AddText("rocksdb.prefix.extractor.name",
              prefix_extractor_ ? prefix_extractor_->Name() : "nullptr");
    p.AddText("rocksdb.property.collectors", "[]");
    if (options_.format_version >= 7) {
      // FormatVersionUsesCompressionManagerName: the manager's name (none without compression),
      // then the compression types blocks were stored with, as uppercase hex bytes.
      std::string name = compressor_ ? "BuiltinV2;" : ";";
      if (any_block_compressed_) {
        static constexpr char kHex[] = "0123456789ABCDEF";
        name += kHex[compressor_->type() >> 4];
        name += kHex[compressor_->type() & 15];
      }
      p.AddText("rocksdb.compression", name + ";");
    } else {
      p.AddText("rocksdb.compression", compressor_ ? compressor_->rocksdb_name() : "NoCompression");
    }
    p.AddText("rocksdb.compression_options",
              newer ? NewerCompressionOptions(compressor_ ? compressor_->type() : 0)
                    : std::string(kDefaultCompressionOptions));
    if (newer) {
      p.AddNumber("rocksdb.newest.key.time", id.newest_key_time);
      if (num_data_blocks_compression_rejected_ > 0) {
        p.AddNumber("rocksdb.num.data.blocks.compression.rejected",
                    num_data_blocks_compression_rejected_);
      }
      if (num_data_blocks_compression_bypassed_ > 0) {
        p.AddNumber("rocksdb.num.data.blocks.compression.bypassed",
                    num_data_blocks_compression_bypassed_);
      }
      // Index blocks judged uniform (IndexBuilder::NumUniformIndexBlocks): none without
      // uniform_cv_threshold, which SstFileWriter leaves off.
      p.AddNumber("rocksdb.num.uniform.blocks", 0);
      p.AddNumber("rocksdb.tail.start.offset", tail_start_offset_);
      // Every entry has sequence number 0.
      p.AddNumber("rocksdb.key.largest.seqno", 0);
      p.AddNumber("rocksdb.key.smallest.seqno", 0);
      p.AddNumber("rocksdb.data.block.restart.interval", options_.restart_interval);
      p.AddNumber("rocksdb.index.block.restart.interval", 1);  // index_block_restart_interval
      // meta_blocks.cc writes it only when set.
      if (options_.separate_key_value_in_data_block) {
        p.AddNumber("rocksdb.separate.key.value.in.data.block", 1);
      }
    }
    // User-collected properties: SstFileWriter's collector, the table's own, the caller's.
    Bytes version, seqno;
    PutFixed32(&version, kExternalSstFileVersion);
    PutFixed64(&seqno, 0);
    p.AddBytes("rocksdb.external_sst_file.version", version);
    p.AddBytes("rocksdb.external_sst_file.global_seqno", seqno);
    Bytes index_type;  // BlockBasedTableOptions::IndexType: kBinarySearch 0, kTwoLevelIndexSearch 2
    PutFixed32(&index_type, two_level_index_ ? 2 : 0);
    p.AddBytes("rocksdb.block.based.table.index.type", index_type);
    p.AddText("rocksdb.block.based.table.whole.key.filtering",
              options_.whole_key_filtering ? "1" : "0");
    p.AddText("rocksdb.block.based.table.prefix.filtering", prefix_extractor_ ? "1" : "0");
    // 11.9's collector records decouple_partitioned_filters when set (its default).
    if (newer && options_.decouple_partitioned_filters) {
      p.AddText("rocksdb.block.based.table.decoupled.partitioned.filters", "1");
    }
    for (const auto& [name, value] : options_.user_properties) p.AddBytes(name, value);
    return p;
  }

  TableWriteOptions options_;
  ChecksumType checksum_;
  std::optional<PrefixExtractor> prefix_extractor_;
  std::unique_ptr<BlockCompressor> compressor_;  // null: no compression
  BlockSealing sealing_;
  FlushBySizePolicy data_block_policy_;
  BlockBuilder data_block_;
  BlockBuilder range_deletions_;
  std::optional<IndexBuilder> index_;                       // binary search
  std::optional<PartitionedIndexBuilder> two_level_index_;  // or two-level
  std::optional<FullFilterBuilder> filter_;
  // Partitioned: cut together with two_level_index_, which it refers to.
  std::optional<PartitionedFilterBuilder> partitioned_filter_;
  Bytes last_key_;  // the internal key added last
  uint64_t data_size_ = 0;
  uint64_t num_data_blocks_ = 0;
  uint64_t num_entries_ = 0;
  uint64_t num_deletions_ = 0;
  uint64_t num_merge_operands_ = 0;
  uint64_t num_range_deletions_ = 0;
  uint64_t raw_key_size_ = 0;
  uint64_t raw_value_size_ = 0;
  // format_version >= 6 records these too.
  uint64_t num_data_blocks_compression_bypassed_ = 0;
  uint64_t num_data_blocks_compression_rejected_ = 0;
  bool any_block_compressed_ = false;
  uint64_t tail_start_offset_ = 0;
};

}  // namespace

Status NewRocksDbTableWriter(const TableWriteOptions& options, std::unique_ptr<TableWriter>* out) {
  if (options.format_version < 2 || options.format_version > 7) {
    return BadOptions("formatVersion must be 2 to 7, got " +
                      std::to_string(options.format_version));
  }
  const std::optional<ChecksumType> checksum =
      options.checksum.empty() ? ChecksumType::kXxh3 : ChecksumFromName(options.checksum);
  if (!checksum) {
    return BadOptions(
        "checksum must be \"none\", \"crc32c\", \"xxhash\", \"xxhash64\" or "
        "\"xxh3\", got \"" +
        options.checksum + "\"");
  }
  if (options.filter == FilterFormat::kLevelDbBloom) {
    return BadOptions(
        "filter \"leveldb\" is LevelDB's: a RocksDB table takes "
        "\"rocksdb-legacy-bloom\", \"rocksdb-bloom\" or \"rocksdb-ribbon\"");
  }
  if (options.partition_filters && options.index_type != TableIndexType::kTwoLevel) {
    // RocksDB quietly writes a full filter then; say so instead.
    return BadOptions("partitionFilters needs indexType \"two-level\" (kTwoLevelIndexSearch)");
  }
  if (options.separate_key_value_in_data_block && options.format_version < 6) {
    // The writer writes format_version 2 to 5 as 7.8.3 does, which has no such layout.
    return BadOptions("separateKeyValueInDataBlock needs formatVersion 6 or 7 (RocksDB 11)");
  }
  if (options.metadata_block_size == 0 || options.metadata_block_size > kMaxBlockBytes) {
    return BadOptions("metadataBlockSize must be 1 to " + std::to_string(kMaxBlockBytes) +
                      ", got " + std::to_string(options.metadata_block_size));
  }
  std::optional<PrefixExtractor> prefix_extractor;
  if (!options.prefix_extractor.empty()) {
    prefix_extractor = PrefixExtractor::FromName(options.prefix_extractor);
    if (!prefix_extractor) {
      return BadOptions("prefixExtractor must be \"fixed:N\" or \"capped:N\", got \"" +
                        options.prefix_extractor + "\"");
    }
  }
  for (const auto& [name, value] : options.user_properties) {
    if (name.rfind("rocksdb.", 0) == 0) {
      return BadOptions("property \"" + name + "\" is RocksDB's own: the writer sets it");
    }
  }
  std::unique_ptr<BlockCompressor> compressor;
  if (options.compression != "none") {
    compressor = BlockCompressor::ForName(options.compression, options.format_version >= 6);
    if (!compressor) {
      return BadOptions(
          "compression must be \"none\", \"snappy\", \"zlib\", \"bzip2\", "
          "\"lz4\", \"lz4hc\" or \"zstd\", got \"" +
          options.compression + "\"");
    }
  }
  *out = std::make_unique<RocksDbTableWriter>(options, *checksum, prefix_extractor,
                                              std::move(compressor));
  return Status::Ok();
}

}  // namespace sstfilter
