#include "table/table_reader.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/enum_names.h"
#include "comparator/stored_without_timestamps.h"
#include "sstfilter/embedded_blobs.h"
#include "table/internal_key.h"

namespace sstfilter {
namespace {

constexpr std::string_view kLevelDbFilterPolicy = "leveldb.BuiltinBloomFilter2";
// The names RocksDB's built-in policies are filed under in the metaindex: CompatibilityName()
// since 7.1, and the Name()s 7.0.x wrote, which v7.8.3 still accepts (table/block_based/
// block_based_table_reader.cc, filter_policy.cc).
constexpr std::array<std::string_view, 6> kRocksDbBuiltinPolicies = {
    "rocksdb.BuiltinBloomFilter",
    "bloomfilter",
    "ribbonfilter",
    "rocksdb.internal.LegacyBloomFilter",
    "rocksdb.internal.FastLocalBloomFilter",
    "rocksdb.internal.Standard128RibbonFilter",
};

// Offsets inside a block become file offsets; inside a decompressed block only the block's own
// offset means anything.
Status InBlock(Status s, BlockHandle handle, bool compressed) {
  if (s.ok()) return s;
  const uint64_t inner = s.offset() < 0 || compressed ? 0 : static_cast<uint64_t>(s.offset());
  return Status::Error(s.code(), s.message(), static_cast<int64_t>(handle.offset + inner));
}

// How far a TableReader got in opening its table.
enum class OpenStage : uint8_t {
  kFooter,
  kMetaindex,
  kProperties,
  kCompressionDictionary,
  kIndex,
  kFilter,
  kPartitions,
  kOpen
};

}  // namespace

const MetaindexEntry* OpenedTable::FindMeta(std::string_view name) const {
  for (const MetaindexEntry& e : metaindex) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const MetaindexEntry* OpenedTable::PropertiesEntry() const {
  const MetaindexEntry* e = FindMeta("rocksdb.properties");
  return e != nullptr ? e : FindMeta("rocksdb.stats");
}

BlockKind OpenedTable::KindOfBlockAt(uint64_t offset) const {
  // RocksDB writes every data block before any other block (table/block_based/
  // block_based_table_builder.cc); rocksdb.data.size is where they end.
  const std::optional<uint64_t> data_size = properties.Number("rocksdb.data.size");
  return data_size && offset < *data_size ? BlockKind::kData : BlockKind::kMeta;
}

int64_t OpenedTable::PropertyOffset(std::string_view name) const {
  const MetaindexEntry* block = PropertiesEntry();
  const TableProperty* p = properties.Find(name);
  if (block == nullptr || p == nullptr) return Status::kNoOffset;
  // The properties block is never compressed: offsets within it are file offsets from its start.
  return static_cast<int64_t>(block->handle.offset + p->value_offset);
}

const char* LookupRouteName(LookupRoute route) {
  // In LookupRoute's order.
  static constexpr const char* kNames[] = {
      "no-filter", "outside-prefix-domain", "after-last-key",           "full-filter",
      "partition", "block-filter",          "prefix-extractor-changed", "any-filter"};
  return EnumName<LookupRoute::kAnyFilter>(route, kNames, "no-filter");
}

struct TableReader::State {
  explicit State(const TableFileFormat* file) : fetcher(file) {}

  BlockFetcher fetcher;
  OpenStage stage = OpenStage::kFooter;
  // The filter SelectFilter chose.
  const MetaindexEntry* filter_entry = nullptr;
  TableFilterLayout filter_layout = TableFilterLayout::kNone;
  bool filter_builtin = false;
  std::string filter_policy;
  size_t next_partition = 0;
};

TableReader::TableReader(uint64_t file_size, TableOptions options)
    : table_(std::make_shared<OpenedTable>()), state_(std::make_unique<State>(&table_->file)) {
  table_->cache_id = BlockCache::NewId();
  table_->options = options;
  table_->file.file_size = file_size;
  table_->file.blocks_end = file_size;
  table_->file.verify_checksums = options.verify_checksums;
  state_->fetcher.PrefetchTail(kTailPrefetchBytes);
}

TableReader::~TableReader() = default;

Status TableReader::AtChosenFilter(Status s) const {
  const MetaindexEntry* filter = state_->filter_entry;
  if (s.ok() || s.offset() >= 0 || filter == nullptr) return s;
  return Status::Error(s.code(), s.message(), static_cast<int64_t>(filter->handle.offset));
}

BlockFetcher& TableReader::fetcher() const { return state_->fetcher; }
bool TableReader::is_open() const { return state_->stage == OpenStage::kOpen; }
const OpenedTable& TableReader::table() const { return *table_; }
TableFamily TableReader::family() const { return table_->family; }

TableFooterInfo TableReader::footer() const {
  const Footer& f = table_->footer;
  return TableFooterInfo{f.format_version, ChecksumTypeName(f.checksum), f.metaindex,
                         table_->index_handle};
}

const std::vector<MetaindexEntry>& TableReader::metaindex() const { return table_->metaindex; }

const std::vector<TableProperty>& TableReader::properties() const {
  return table_->properties.all();
}

std::optional<TableFilterInfo> TableReader::filter_info() const {
  const OpenedTable& t = *table_;
  const TableFilter& f = t.filter;
  if (f.layout() == TableFilterLayout::kNone) return std::nullopt;
  TableFilterInfo info;
  info.policy = f.metaindex_policy();
  // rocksdb.filter.policy names the configured policy (e.g. "ribbonfilter"); the metaindex name is
  // shared by every built-in kind.
  if (auto configured = t.properties.Text("rocksdb.filter.policy");
      configured && !configured->empty()) {
    info.policy = *configured;
  }
  info.kind = f.KindName();
  info.partitioned = f.layout() == TableFilterLayout::kPartitioned;
  info.partitions = f.partitions_count();
  info.whole_key_filtering = t.whole_key_filtering;
  info.prefix_extractor = t.prefix_extractor_name;
  info.prefix_extractor_supported = !t.prefix_extractor_name || t.prefix_extractor.has_value();
  info.size_bytes = f.size_bytes();
  info.meta_block = state_->filter_entry->name;
  return info;
}

std::vector<ByteView> TableReader::filter_bytes() const { return table_->filter.RawFilters(); }

Status TableReader::Advance() {
  for (;;) {
    std::optional<Bytes> bytes;
    Status s;
    BlockFetcher& fetcher = state_->fetcher;
    switch (state_->stage) {
      case OpenStage::kFooter: {
        const uint64_t size = table_->file.file_size;
        s = fetcher.FetchRaw(size - FooterReadSize(size), FooterReadSize(size), &bytes);
        if (s.ok() && bytes) s = OnFooter(*bytes);
        break;
      }
      case OpenStage::kMetaindex:
        s = fetcher.Fetch(table_->footer.metaindex, BlockKind::kMeta, &bytes);
        if (s.ok() && bytes) s = OnMetaindex(*bytes);
        break;
      case OpenStage::kProperties:
        s = fetcher.Fetch(table_->PropertiesEntry()->handle, BlockKind::kMeta, &bytes,
                          /*verify=*/false);
        if (s.ok() && bytes) s = OnProperties(*bytes);
        break;
      case OpenStage::kCompressionDictionary:
        // Stored uncompressed (rocksdb table/block_based/uncompression_dict_reader.cc reads it
        // as a raw block).
        s = fetcher.Fetch(table_->FindMeta(kCompressionDictionaryBlock)->handle, BlockKind::kMeta,
                          &bytes);
        if (s.ok() && bytes) {
          table_->file.compression_dictionary = std::move(*bytes);
          state_->stage = OpenStage::kIndex;
        }
        break;
      case OpenStage::kIndex:
        s = fetcher.Fetch(table_->index_handle, BlockKind::kIndex, &bytes);
        if (s.ok() && bytes) s = OnIndex(std::move(*bytes));
        break;
      case OpenStage::kFilter:
        s = fetcher.Fetch(state_->filter_entry->handle, BlockKind::kMeta, &bytes);
        if (s.ok() && bytes) s = OnFilter(std::move(*bytes));
        break;
      case OpenStage::kPartitions: {
        std::vector<FilterPartition>& partitions = table_->filter.partitions();
        size_t& next = state_->next_partition;
        if (next == partitions.size()) {
          state_->stage = OpenStage::kOpen;
          break;
        }
        s = fetcher.Fetch(partitions[next].handle, BlockKind::kMeta, &bytes);
        if (s.ok() && bytes) table_->filter.SetPartitionContents(next++, std::move(*bytes));
        break;
      }
      case OpenStage::kOpen:
        fetcher.ReleaseWindow();
        return Status::Ok();
    }
    if (!s.ok() || fetcher.need() != IoNeed::kNothing) return s;
  }
}

Status TableReader::OnFooter(const Bytes& tail) {
  Footer& footer = table_->footer;
  if (Status s = DecodeFooter(tail, table_->file.file_size, &footer); !s.ok()) return s;
  TableFileFormat& file = table_->file;
  file.blocks_end = footer.offset;
  file.format_version = footer.format_version;
  file.checksum = footer.checksum;
  file.base_context_checksum = footer.base_context_checksum;
  // With the LevelDB magic the family is known only from the metaindex. RocksDB never
  // compresses its metaindex, so reading it as LevelDB's (type 2 = zstd) is right for both.
  table_->family = footer.legacy_magic ? TableFamily::kLevelDb : TableFamily::kRocksDb;
  file.family = table_->family;
  state_->stage = OpenStage::kMetaindex;
  return Status::Ok();
}

Status TableReader::OnMetaindex(const Bytes& contents) {
  const BlockHandle handle = table_->footer.metaindex;
  const bool compressed = state_->fetcher.trailer()[0] != 0;
  Status bad_entry;
  EntryBudget budget;
  Status s = ForEachBlockEntry(
      contents,
      [&](ByteView key, ByteView value) {
        const auto at = static_cast<size_t>(value.data() - contents.data());
        size_t pos = 0;
        auto h = DecodeBlockHandle(value, &pos);
        if (!h) {
          bad_entry = Status::Error(ErrorCode::kCorrupt, "bad block handle in the metaindex",
                                    static_cast<int64_t>(at));
          return false;
        }
        bad_entry = budget.Charge(key.size(), at);
        if (!bad_entry.ok()) return false;
        table_->metaindex.push_back(MetaindexEntry{std::string(key.begin(), key.end()), *h});
        return true;
      },
      table_->family == TableFamily::kLevelDb ? BlockFlavor::kLevelDb : BlockFlavor::kRocksDb);
  if (s.ok()) s = bad_entry;
  if (!s.ok()) return InBlock(std::move(s), handle, compressed);

  const bool has_properties = table_->PropertiesEntry() != nullptr;
  // Every RocksDB table has a properties block; a LevelDB table never has one.
  if (table_->footer.legacy_magic && has_properties) table_->family = TableFamily::kRocksDb;
  table_->file.family = table_->family;
  if (has_properties) {
    state_->stage = OpenStage::kProperties;
    return Status::Ok();
  }
  return Configure();
}

Status TableReader::OnProperties(const Bytes& contents) {
  const BlockHandle handle = table_->PropertiesEntry()->handle;
  const TableFileFormat& file = table_->file;
  Bytes block = contents;
  block.insert(block.end(), state_->fetcher.trailer().begin(), state_->fetcher.trailer().end());
  Status checksum =
      file.verify_checksums
          ? VerifyBlockChecksum(file.checksum, file.base_context_checksum, handle.offset, block)
          : Status::Ok();
  Status decoded = TableProperties::Decode(contents, &table_->properties);
  if (!checksum.ok()) {
    // An ingested file whose global sequence number RocksDB rewrote in place keeps the checksum
    // of the original bytes: verify again with those 8 bytes zeroed (rocksdb table/
    // meta_blocks.cc ReadTablePropertiesHelper).
    const TableProperty* seqno =
        decoded.ok() ? table_->properties.Find("rocksdb.external_sst_file.global_seqno") : nullptr;
    if (seqno == nullptr || seqno->bytes.size() != 8) return checksum;
    std::fill_n(block.begin() + static_cast<std::ptrdiff_t>(seqno->value_offset), 8, uint8_t{0});
    if (!VerifyBlockChecksum(file.checksum, file.base_context_checksum, handle.offset, block)
             .ok()) {
      return checksum;
    }
  }
  // RocksDB never compresses it and reads it without decompression (meta_blocks.cc). Checked after
  // the checksum, so that a damaged compression-type byte is reported as the damage it is.
  if (state_->fetcher.trailer()[0] != 0) {
    return Status::Error(ErrorCode::kCorrupt, "compressed properties block",
                         static_cast<int64_t>(handle.offset));
  }
  if (!decoded.ok()) return InBlock(std::move(decoded), handle, false);
  return Configure();
}

Status TableReader::Configure() {
  OpenedTable& t = *table_;
  const TableProperties& props = t.properties;
  const bool rocksdb = t.family == TableFamily::kRocksDb;
  std::string recorded = std::string(kBytewiseComparatorName);
  if (rocksdb) {
    if (auto name = props.Text("rocksdb.comparator")) recorded = *name;
    if (const TableProperty* p = props.Find("rocksdb.block.based.table.index.type");
        p != nullptr && p->bytes.size() == 4) {
      t.index_type = DecodeFixed32(p->bytes.data());
    }
    t.whole_key_filtering = props.Text("rocksdb.block.based.table.whole.key.filtering") != "0";
    if (auto compression = props.Text("rocksdb.compression")) {
      t.file.compression_manager = CompressionManagerName(t.file.format_version, *compression);
    }
    t.embedded_blobs = props.Find(kEmbeddedBlobStatsProperty) != nullptr;
    auto extractor = props.Text("rocksdb.prefix.extractor.name");
    if (extractor && !extractor->empty() && *extractor != "nullptr") {
      t.prefix_extractor_name = *extractor;
      t.prefix_extractor = PrefixExtractor::FromName(*extractor);
    }
  }
  const std::optional<std::string> named =
      rocksdb ? std::optional(recorded) : t.options.manifest_comparator;
  if (Status s = ChooseKeyOrder(named); !s.ok()) {
    return s;
  }
  // RocksDB records the property only when it is 0 (table/meta_blocks.cc); its table reader takes
  // the flag from the file's MANIFEST entry, which says the same (db/table_cache.cc).
  if (rocksdb && t.comparator_ref && t.comparator_ref->timestamp_size() != 0 &&
      props.Number("rocksdb.user.defined.timestamps.persisted") == 0) {
    t.stripped_timestamp_size = t.comparator_ref->timestamp_size();
    t.comparator_ref = OrderOfKeysStoredWithoutTimestamps(std::move(t.comparator_ref));
  }
  if (t.index_type > kBinarySearchWithFirstKey) {
    return Status::Error(ErrorCode::kUnsupported,
                         "index type " + std::to_string(t.index_type) + " is not supported",
                         t.PropertyOffset("rocksdb.block.based.table.index.type"));
  }
  IndexFormat& index = t.index_format;
  index.flavor = rocksdb ? BlockFlavor::kRocksDb : BlockFlavor::kLevelDb;
  index.keys_have_tag =
      t.options.internal_keys && (!rocksdb || props.Number("rocksdb.index.key.is.user.key") != 1);
  index.values_delta_encoded = props.Number("rocksdb.index.value.is.delta.encoded") == 1;
  index.values_have_first_key = t.index_type == kBinarySearchWithFirstKey;
  // Until the order is known (or for good, when it stays unknown) separators compare bytewise:
  // only the order checks and walks in index order use the index then, never a seek.
  index.comparator = t.comparator_ref ? t.comparator_ref.get() : &BytewiseComparator();

  if (t.footer.index) {
    t.index_handle = *t.footer.index;
  } else if (const MetaindexEntry* e = t.FindMeta("rocksdb.index")) {
    t.index_handle = e->handle;
  } else {
    return Status::Error(ErrorCode::kCorrupt, "the metaindex has no rocksdb.index entry",
                         static_cast<int64_t>(t.footer.metaindex.offset));
  }
  state_->stage = t.FindMeta(kCompressionDictionaryBlock) != nullptr
                      ? OpenStage::kCompressionDictionary
                      : OpenStage::kIndex;
  return Status::Ok();
}

Status TableReader::OnIndex(Bytes contents) {
  const bool compressed = state_->fetcher.trailer()[0] != 0;
  if (Status s = IndexBlock::Open(std::move(contents), table_->index_format,
                                  table_->index_handle.offset, compressed, &table_->index);
      !s.ok()) {
    return s;
  }
  if (Status s = CheckSeparatorOrder(); !s.ok()) return s;
  table_->index_format.comparator =
      table_->comparator_ref ? table_->comparator_ref.get() : &BytewiseComparator();
  table_->index.set_comparator(table_->index_format.comparator);
  return SelectFilter();
}

Status TableReader::SelectFilter() {
  const OpenedTable& t = *table_;
  auto find = [&](std::string_view prefix, TableFilterLayout layout) {
    for (const MetaindexEntry& e : t.metaindex) {
      if (e.name.substr(0, prefix.size()) != prefix) continue;
      const std::string policy = e.name.substr(prefix.size());
      const bool builtin =
          t.family == TableFamily::kLevelDb
              ? policy == kLevelDbFilterPolicy
              : std::find(kRocksDbBuiltinPolicies.begin(), kRocksDbBuiltinPolicies.end(), policy) !=
                    kRocksDbBuiltinPolicies.end();
      // A built-in policy wins over custom ones filed under the same prefix.
      if (state_->filter_entry == nullptr || (builtin && !state_->filter_builtin)) {
        state_->filter_entry = &e;
        state_->filter_policy = policy;
        state_->filter_builtin = builtin;
        state_->filter_layout = layout;
      }
    }
    return state_->filter_entry != nullptr;
  };
  if (t.family == TableFamily::kLevelDb) {
    find("filter.", TableFilterLayout::kLevelDbBlock);
  } else {
    // BlockBasedTable::PrefetchIndexAndFilterBlocks looks for full, then partitioned filters.
    // Block-based "filter." blocks (RocksDB < 7.0) have been ignored since 7.4: no filter.
    find("fullfilter.", TableFilterLayout::kFull) ||
        find("partitionedfilter.", TableFilterLayout::kPartitioned);
  }
  state_->stage = state_->filter_entry != nullptr ? OpenStage::kFilter : OpenStage::kOpen;
  return Status::Ok();
}

Status TableReader::OnFilter(Bytes contents) {
  OpenedTable& t = *table_;
  const State& chosen = *state_;
  if (chosen.filter_layout == TableFilterLayout::kLevelDbBlock) {
    t.filter.SetLevelDbBlock(chosen.filter_policy, chosen.filter_builtin, std::move(contents));
    state_->stage = OpenStage::kOpen;
    return Status::Ok();
  }
  if (chosen.filter_layout == TableFilterLayout::kFull) {
    t.filter.SetFull(chosen.filter_policy, chosen.filter_builtin, std::move(contents));
    state_->stage = OpenStage::kOpen;
    return Status::Ok();
  }
  // The partition index is an index block keyed like the table's index, without first keys.
  t.filter.SetPartitioned(chosen.filter_policy, chosen.filter_builtin, contents.size(),
                          t.comparator_ref.get(), t.index_format.keys_have_tag);
  state_->stage = OpenStage::kPartitions;
  // The partitions lie one after another before their index: read them in large pieces.
  state_->fetcher.EnableReadahead();
  if (contents.empty()) return Status::Ok();  // no partitions: everything may match
  IndexFormat format = t.index_format;
  format.values_have_first_key = false;
  IndexBlock partitions;
  const bool compressed = state_->fetcher.trailer()[0] != 0;
  if (Status s = IndexBlock::Open(std::move(contents), format, chosen.filter_entry->handle.offset,
                                  compressed, &partitions);
      !s.ok()) {
    return s;
  }
  // Partitions are blocks of their own, so together they fit in the file: a hostile index that
  // repeats one large handle must not make us read and keep that block again and again.
  const uint64_t blocks_end = t.file.blocks_end;
  uint64_t partition_bytes = 0;
  EntryBudget budget;
  IndexBlock::Iterator it = partitions.Begin();
  for (;;) {
    IndexEntry entry;
    bool end = false;
    if (Status s = it.Next(&entry, &end); !s.ok()) return s;
    if (end) return Status::Ok();
    partition_bytes += std::min(entry.handle.size, blocks_end) + kBlockTrailerSize;
    if (partition_bytes > blocks_end) {
      return Status::Error(ErrorCode::kCorrupt,
                           "the filter partitions add up to more than the file",
                           static_cast<int64_t>(chosen.filter_entry->handle.offset));
    }
    if (Status s = budget.Charge(entry.user_key.size(), 0); !s.ok()) {
      return InBlock(std::move(s), chosen.filter_entry->handle, compressed);
    }
    t.filter.AddPartition(std::move(entry.user_key), entry.tag, entry.handle);
  }
}

Status OpenTableFromMemory(ByteView file, TableOptions options, std::unique_ptr<TableReader>* out) {
  *out = std::make_unique<TableReader>(file.size(), options);
  return DriveFromMemory(**out, file);
}

TableBlockRead::TableBlockRead(const TableReader& table, BlockHandle handle)
    : table_(table.table_),
      fetcher_(std::make_unique<BlockFetcher>(&table_->file)),
      handle_(handle) {}

TableBlockRead::~TableBlockRead() = default;

BlockFetcher& TableBlockRead::fetcher() const { return *fetcher_; }

Status TableBlockRead::Advance() {
  while (!contents_) {
    if (Status s = fetcher_->Fetch(handle_, table_->KindOfBlockAt(handle_.offset), &contents_);
        !s.ok()) {
      return s;
    }
    if (fetcher_->need() != IoNeed::kNothing) return Status::Ok();
  }
  return Status::Ok();
}

}  // namespace sstfilter
