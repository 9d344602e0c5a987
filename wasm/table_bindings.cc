// Embind surface for table files. Opening and walking keys are resumable operations
// (sstfilter/table.h ResumableRead): TypeScript calls advance(), reads the file range it reports
// straight into the buffer supplyBuffer() points at, announces it with supplied(), and calls
// advance() again, so the same core serves synchronous bytes and asynchronous sources. Blocks are
// verified and decompressed in the core. Conventions in binding_support.h.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binding_support.h"
#include "block_cache_bindings.h"
#include "comparator_bindings.h"
#include "marshal.h"
#include "sstfilter/table.h"
#include "sstfilter/table_get.h"
#include "table_handle.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

constexpr double kMaxSafeInteger = 9007199254740991.0;

std::string HexOf(ByteView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

val HandleValue(BlockHandle h) {
  val out = val::array();
  out.call<void>("push", static_cast<double>(h.offset));
  out.call<void>("push", static_cast<double>(h.size));
  return out;
}

// Entries packed as TableCursor and TableGet hold them: { keys: `keys` (KeyBatch), tags:
// Uint8Array of 8 little-endian bytes per entry (sequence << 8 | type; null for tables of user
// keys), timestamps: Uint8Array of timestampSize bytes per entry (null without user-defined
// timestamps), timestampSize, values: KeyBatch layout } (ts/api/entries.ts EntryBatchRaw).
template <class Packed>
val EntriesValue(const Packed& packed, val keys) {
  val out = val::object();
  out.set("keys", keys);
  const std::vector<uint64_t>& tags = packed.tags();
  if (tags.size() != packed.key_offsets().size() - 1) {
    out.set("tags", val::null());
  } else {
    out.set("tags", ToUint8Array(ByteView(reinterpret_cast<const uint8_t*>(tags.data()),
                                          tags.size() * sizeof(uint64_t))));
  }
  const size_t ts_size = packed.timestamp_size();
  out.set("timestamps", ts_size == 0 ? val::null() : ToUint8Array(packed.timestamps()));
  out.set("timestampSize", static_cast<double>(ts_size));
  val values = val::object();
  values.set("data", ToUint8Array(packed.value_data()));
  values.set("offsets", ToTypedArray(std::span<const uint32_t>(packed.value_offsets())));
  out.set("values", values);
  return out;
}

// How scan lines show bytes for the TypeScript options hex and escape (ts/api/table-types.ts
// ScanTextOptions): hex digits need no escaping, so hex wins.
ShownBytes ScanBytesShown(bool hex, bool escape) {
  if (hex) return ShownBytes::kHex;
  return escape ? ShownBytes::kEscaped : ShownBytes::kRaw;
}

// Range deletions: [{ start, end: Uint8Array, seq: bigint }] (ts/api/entries.ts RangeDeletion).
val RangeDeletionsValue(const std::vector<RangeDeletion>& deletions) {
  val out = val::array();
  for (const RangeDeletion& d : deletions) {
    val entry = val::object();
    entry.set("start", ToUint8Array(d.start));
    entry.set("end", ToUint8Array(d.end));
    entry.set("seq", wasm::BigIntOf(d.sequence));
    out.call<void>("push", entry);
  }
  return out;
}

// A walk of a table's keys or entries (TableCursor), a batch of data blocks at a time.
class TableCursorHandle : public IoHandle {
 public:
  explicit TableCursorHandle(std::unique_ptr<TableCursor> cursor)
      : IoHandle(cursor.get()), cursor_(std::move(cursor)) {}

  bool AtEnd() const { return cursor_->at_end(); }
  // The batch just gathered: { data: Uint8Array, offsets: Uint32Array } (KeyBatch) and blocks:
  // Float64Array of [offset, size, keysEnd] per data block (keys [previous keysEnd, keysEnd)).
  val TakeKeys() {
    val out = KeysOf();
    out.set("blocks", TakeBlocks());
    return out;
  }
  // A walk of entries: EntriesValue of the batch, and its blocks as TakeKeys gives them.
  val TakeEntries() {
    val out = EntriesValue(*cursor_, KeysOf());
    out.set("blocks", TakeBlocks());
    return out;
  }
  // A walk of entries: the batch as the lines `sst_dump --command=scan` prints for it (hex: with
  // --output_hex; escape: bytes escaped, ScanBytesShown; decodeBlobIndex: with
  // --decode_blob_index), then drops it: { out: Uint8Array, errors: Uint8Array } (the lines
  // sst_dump prints on standard output and standard error).
  val TakeScanText(bool hex, bool escape, bool decode_blob_index) {
    Bytes text;
    Bytes errors;
    const std::vector<uint32_t>& keys = cursor_->key_offsets();
    const std::vector<uint32_t>& values = cursor_->value_offsets();
    const std::vector<uint64_t>& tags = cursor_->tags();
    const size_t ts_size = cursor_->timestamp_size();
    const ScanTextOptions options{.bytes = ScanBytesShown(hex, escape),
                                  .decode_blob_index = decode_blob_index};
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
      const ByteView key = ByteView(cursor_->key_data()).subspan(keys[i], keys[i + 1] - keys[i]);
      const ByteView value =
          ByteView(cursor_->value_data()).subspan(values[i], values[i + 1] - values[i]);
      const ByteView timestamp = ByteView(cursor_->timestamps()).subspan(i * ts_size, ts_size);
      AppendScanLine(key, timestamp, i < tags.size() ? tags[i] : 0, value, options, &text, &errors);
    }
    cursor_->ClearBatch();
    val out = val::object();
    out.set("out", ToUint8Array(text));
    out.set("errors", ToUint8Array(errors));
    return out;
  }
  // The batch's blocks as TakeKeys gives them, without its keys (which are dropped).
  val TakeBlocks() {
    std::vector<double> blocks;
    blocks.reserve(cursor_->key_blocks().size() * 3);
    for (const TableCursor::BatchBlock& b : cursor_->key_blocks()) {
      blocks.push_back(static_cast<double>(b.handle.offset));
      blocks.push_back(static_cast<double>(b.handle.size));
      blocks.push_back(b.keys_end);
    }
    cursor_->ClearBatch();
    return ToTypedArray(std::span<const double>(blocks));
  }
  // Key `i` of the batch; null past its last.
  val Key(size_t i) const { return i < KeyCount() ? ToUint8Array(Keys()[i]) : val::null(); }
  size_t KeyCount() const { return cursor_->key_offsets().size() - 1; }
  // The batch's keys where they are, for probes that stay in the core.
  KeyBatchView Keys() const {
    return KeyBatchView(cursor_->key_data().data(), cursor_->key_data().size(),
                        cursor_->key_offsets().data(), KeyCount());
  }

 private:
  val KeysOf() const {
    val out = val::object();
    out.set("data", ToUint8Array(cursor_->key_data()));
    out.set("offsets", ToTypedArray(std::span<const uint32_t>(cursor_->key_offsets())));
    return out;
  }

  std::unique_ptr<TableCursor> cursor_;
  LiveHandleCount live_;
};

// One block read by handle (TableBlockRead): checksum verified, decompressed.
class BlockReadHandle : public IoHandle {
 public:
  explicit BlockReadHandle(std::unique_ptr<TableBlockRead> read)
      : IoHandle(read.get()), read_(std::move(read)) {}

  // The contents once advance() returned 0.
  val Contents() const {
    return read_->contents() ? ToUint8Array(*read_->contents()) : val::null();
  }

 private:
  std::unique_ptr<TableBlockRead> read_;
  LiveHandleCount live_;
};

// The layout listing of a table (TableLayoutRead).
class LayoutHandle : public IoHandle {
 public:
  explicit LayoutHandle(std::unique_ptr<TableLayoutRead> read)
      : IoHandle(read.get()), read_(std::move(read)) {}

  // Once advance() returned 0, packed: { kinds: Uint8Array (TableRegionKind), handles:
  // Float64Array of [offset, size, trailer size] per region, separators: KeyBatch layout (empty
  // where none), hasSeparator: Uint8Array, names: [region index, metaindex name][] for the named
  // ones }.
  val Regions() const {
    const std::vector<TableRegion>& regions = read_->regions();
    std::vector<uint8_t> kinds;
    std::vector<double> handles;
    Bytes separators;
    std::vector<uint32_t> separator_offsets{0};
    std::vector<uint8_t> has_separator;
    val names = val::array();
    for (size_t i = 0; i < regions.size(); ++i) {
      const TableRegion& r = regions[i];
      kinds.push_back(static_cast<uint8_t>(r.kind));
      handles.push_back(static_cast<double>(r.handle.offset));
      handles.push_back(static_cast<double>(r.handle.size));
      handles.push_back(static_cast<double>(r.span() - r.handle.size));
      has_separator.push_back(r.separator ? 1 : 0);
      if (r.separator)
        separators.insert(separators.end(), r.separator->begin(), r.separator->end());
      separator_offsets.push_back(static_cast<uint32_t>(separators.size()));
      if (!r.name.empty()) {
        val named = val::array();
        named.call<void>("push", static_cast<double>(i));
        named.call<void>("push", r.name);
        names.call<void>("push", named);
      }
    }
    val out = val::object();
    out.set("kinds", ToUint8Array(kinds));
    out.set("handles", ToTypedArray(std::span<const double>(handles)));
    val keys = val::object();
    keys.set("data", ToUint8Array(separators));
    keys.set("offsets", ToTypedArray(std::span<const uint32_t>(separator_offsets)));
    out.set("separators", keys);
    out.set("hasSeparator", ToUint8Array(has_separator));
    out.set("names", names);
    return out;
  }

 private:
  std::unique_ptr<TableLayoutRead> read_;
  LiveHandleCount live_;
};

// A table's point lookup (TableGet).
// { mayContain, route, filterInUse, partition, dataBlock, probedSize }: how a lookup's filter
// answered (ts/core/core-module.ts LookupExplanationRaw), for explain() and a TableGet's answer.
val TraceValue(bool may_match, const LookupTrace& trace) {
  val out = val::object();
  out.set("mayContain", may_match);
  out.set("route", std::string(LookupRouteName(trace.route)));
  out.set("filterInUse", trace.filter_in_use);
  out.set("partition", trace.route == LookupRoute::kPartition
                           ? val(static_cast<double>(trace.partition))
                           : val::null());
  out.set("dataBlock", trace.data_block ? HandleValue(*trace.data_block) : val::null());
  out.set("probedSize", static_cast<double>(trace.probed_size));
  return out;
}

class TableGetHandle : public IoHandle {
 public:
  // `cache`: the block cache the lookup uses, kept alive with it (null: none).
  TableGetHandle(std::unique_ptr<TableGet> get, std::shared_ptr<BlockCache> cache)
      : IoHandle(get.get()), cache_(std::move(cache)), get_(std::move(get)) {}

  // Once advance() returned 0: { entries: EntriesValue, covering: RangeDeletionsValue (newest
  // first), blocks: Float64Array of [offset, size, entriesEnd] per data block read,
  // blocksFromCache: Uint8Array, 1 per block the block cache served, filter: TraceValue of the
  // filter's answer (MayContain's, which the lookup asked first) }.
  val Answer() const {
    val keys = val::object();
    keys.set("data", ToUint8Array(get_->key_data()));
    keys.set("offsets", ToTypedArray(std::span<const uint32_t>(get_->key_offsets())));
    val out = val::object();
    out.set("entries", EntriesValue(*get_, keys));
    out.set("covering", RangeDeletionsValue(get_->covering()));
    std::vector<double> blocks;
    std::vector<uint8_t> from_cache;
    for (const TableGet::BlockRead& b : get_->blocks_read()) {
      blocks.push_back(static_cast<double>(b.handle.offset));
      blocks.push_back(static_cast<double>(b.handle.size));
      blocks.push_back(static_cast<double>(b.entries_end));
      from_cache.push_back(b.from_cache ? 1 : 0);
    }
    out.set("blocks", ToTypedArray(std::span<const double>(blocks)));
    out.set("blocksFromCache", ToUint8Array(from_cache));
    out.set("filter", TraceValue(!get_->filtered_out(), get_->trace()));
    return out;
  }

 private:
  std::shared_ptr<BlockCache> cache_;
  std::unique_ptr<TableGet> get_;
  LiveHandleCount live_;
};

class TableHandle : public IoHandle {
 public:
  explicit TableHandle(std::unique_ptr<TableReader> reader)
      : IoHandle(reader.get()), reader_(std::move(reader)) {}

  std::string Family() const {
    return reader_->family() == TableFamily::kLevelDb ? "leveldb" : "rocksdb";
  }

  val Footer() const {
    const TableFooterInfo footer = reader_->footer();
    val out = val::object();
    out.set("formatVersion", footer.format_version);
    out.set("checksum", std::string(footer.checksum));
    out.set("metaindexHandle", HandleValue(footer.metaindex));
    out.set("indexHandle", HandleValue(footer.index));
    return out;
  }

  val Metaindex() const {
    val out = val::object();
    for (const MetaindexEntry& e : reader_->metaindex()) out.set(e.name, HandleValue(e.handle));
    return out;
  }

  // Numbers as numbers (BigInt above 2^53 - 1), printable text as strings, other bytes as
  // { hex } (the golden corpus' convention).
  val Properties() const {
    val out = val::object();
    for (const TableProperty& p : reader_->properties()) {
      switch (p.kind) {
        case TableProperty::Kind::kNumber:
          if (static_cast<double>(p.number) <= kMaxSafeInteger) {
            out.set(p.name, static_cast<double>(p.number));
          } else {
            out.set(p.name, val(p.number));
          }
          break;
        case TableProperty::Kind::kText:
          out.set(p.name, std::string(p.bytes.begin(), p.bytes.end()));
          break;
        case TableProperty::Kind::kBinary: {
          val hex = val::object();
          hex.set("hex", HexOf(p.bytes));
          out.set(p.name, hex);
          break;
        }
      }
    }
    return out;
  }

  // null, or what t.filter reports (ts/api/table-types.ts TableFilterInfo).
  val Filter() const {
    const std::optional<TableFilterInfo> info = reader_->filter_info();
    if (!info) return val::null();
    val out = val::object();
    out.set("policy", info->policy);
    out.set("kind", info->kind);
    out.set("partitioned", info->partitioned);
    out.set("partitions", static_cast<double>(info->partitions));
    out.set("wholeKeyFiltering", info->whole_key_filtering);
    out.set("prefixExtractor", info->prefix_extractor ? val(*info->prefix_extractor) : val::null());
    out.set("prefixExtractorSupported", info->prefix_extractor_supported);
    out.set("sizeBytes", static_cast<double>(info->size_bytes));
    out.set("metaBlock", info->meta_block);
    return out;
  }

  // { comparator, source, known, firstUnorderedSeparator, keysLookLike } (ts/api/table-types.ts
  // TableKeyOrder).
  val KeyOrder() const {
    const TableKeyOrder order = reader_->key_order();
    val out = val::object();
    out.set("comparator", order.comparator);
    out.set("source", std::string(KeyOrderSourceName(order.source)));
    out.set("known", order.known());
    out.set("keysLookLike", order.keys_look_like ? val(*order.keys_look_like) : val::null());
    out.set("firstUnorderedSeparator",
            order.first_unordered_separator
                ? val(static_cast<double>(*order.first_unordered_separator))
                : val::null());
    return out;
  }

  val FilterBytes() const {
    val out = val::array();
    for (ByteView raw : reader_->filter_bytes()) out.call<void>("push", ToUint8Array(raw));
    return out;
  }

  // 1 = may match, 0 = definitely not, -1 = error (last-error slot).
  int MayContain(uintptr_t key, size_t size) const {
    bool may_match = true;
    if (Status s = reader_->MayContain(View(key, size), &may_match); !s.ok()) {
      Fail(std::move(s));
      return -1;
    }
    return may_match ? 1 : 0;
  }
  int PrefixMayMatch(uintptr_t key, size_t size) const {
    bool may_match = true;
    if (Status s = reader_->PrefixMayMatch(View(key, size), &may_match); !s.ok()) {
      Fail(std::move(s));
      return -1;
    }
    return may_match ? 1 : 0;
  }
  // TraceValue of MayContain's answer (ts/api/table-types.ts LookupExplanation before the key bytes
  // are attached), or null on error (last-error slot). `read`: ReadOptionsOf's.
  val Explain(uintptr_t key, size_t size, val read) const {
    const TableReadOptions options = ReadOptionsOf(std::move(read));
    bool may_match = true;
    LookupTrace trace;
    if (Status s = reader_->MayContain(View(key, size), &may_match, &trace, options); !s.ok()) {
      Fail(std::move(s));
      return val::null();
    }
    return TraceValue(may_match, trace);
  }

  // results[i] as MayContain(keys[i]); false on error.
  bool MayContainBatch(uintptr_t data, size_t data_size, uintptr_t offsets, size_t count,
                       uintptr_t results) const {
    const KeyBatchView keys = Batch(data, data_size, offsets, count);
    if (Status s = keys.Validate(); !s.ok()) return Fail(std::move(s));
    Status s = reader_->MayContainMany(keys, reinterpret_cast<uint8_t*>(results));
    return s.ok() || Fail(std::move(s));
  }

  // results[i] as MayContain for key i of the batch `cursor` (a walk of this table) holds, without
  // the keys leaving the core; false on error.
  bool MayContainCursorKeys(const TableCursorHandle& cursor, uintptr_t results) const {
    Status s = reader_->MayContainMany(cursor.Keys(), reinterpret_cast<uint8_t*>(results));
    return s.ok() || Fail(std::move(s));
  }

  // The data blocks at offsets [begin, end); end < 0: to the last. Whole numbers below 2^53
  // (validated by ts/api/table.ts).
  // `check_order`: verify's walk, which checks the keys' order (TableCursor::SetOrderCheck) and
  // reads the embedded blob records the entries point at (SetEmbeddedBlobReads).
  TableCursorHandle* Keys(double begin, double end, bool check_order) const {
    auto cursor = std::make_unique<TableCursor>(*reader_);
    cursor->SetBlockRange(static_cast<uint64_t>(begin),
                          end < 0 ? UINT64_MAX : static_cast<uint64_t>(end));
    cursor->SetOrderCheck(check_order);
    cursor->SetEmbeddedBlobReads(check_order);
    return new TableCursorHandle(std::move(cursor));
  }

  // The entries in `range`: { from?, to?, prefix?: Uint8Array; exact?: boolean; limit?: number;
  // embeddedBlobs?: "resolve" | "index" } (validated by ts/api/entries.ts); null on error.
  TableCursorHandle* Entries(val range) const {
    EntryRange r;
    auto key = [&](const char* name) -> std::optional<Bytes> {
      const val v = range[name];
      if (v.isUndefined() || v.isNull()) return std::nullopt;
      return emscripten::vecFromJSArray<uint8_t>(v);
    };
    r.from = key("from");
    r.to = key("to");
    r.prefix = key("prefix");
    r.exact = range["exact"].isTrue();
    const val limit = range["limit"];
    if (!limit.isUndefined()) r.limit = static_cast<uint64_t>(limit.as<double>());
    auto cursor = std::make_unique<TableCursor>(*reader_, TableCursor::Content::kEntries);
    const val blobs = range["embeddedBlobs"];
    if (!blobs.isUndefined()) cursor->SetEmbeddedBlobReads(blobs.as<std::string>() != "index");
    if (Status s = cursor->SetEntryRange(std::move(r)); !s.ok()) {
      Fail(std::move(s));
      return nullptr;
    }
    return new TableCursorHandle(std::move(cursor));
  }

  // The point lookup of the key at [key, key + size), the filter consulted as `read`
  // (ReadOptionsOf) says.
  TableGetHandle* Get(uintptr_t key, size_t size, val read) const {
    return GetThrough(key, size, std::move(read), nullptr);
  }
  // The same through `cache` (null: none).
  TableGetHandle* GetThrough(uintptr_t key, size_t size, val read, BlockCacheHandle* cache) const {
    TableReadOptions options = ReadOptionsOf(std::move(read));
    std::shared_ptr<BlockCache> shared = cache != nullptr ? cache->cache() : nullptr;
    options.block_cache = shared.get();
    return new TableGetHandle(std::make_unique<TableGet>(*reader_, View(key, size), options),
                              std::move(shared));
  }

  LayoutHandle* Layout() const {
    return new LayoutHandle(std::make_unique<TableLayoutRead>(*reader_));
  }

  // Where the reader is, for a database Get that reads this table (wasm/db_get_bindings.cc): the
  // handle lives as long as the Get (ts/api/db.ts keeps its tables open).
  uintptr_t ReaderAddress() const { return reinterpret_cast<uintptr_t>(reader_.get()); }

  // offset and size: whole numbers below 2^53 (validated by ts/api/table.ts).
  BlockReadHandle* ReadBlock(double offset, double size) const {
    const BlockHandle handle{static_cast<uint64_t>(offset), static_cast<uint64_t>(size)};
    return new BlockReadHandle(std::make_unique<TableBlockRead>(*reader_, handle));
  }

 private:
  std::unique_ptr<TableReader> reader_;
  LiveHandleCount live_;
};

}  // namespace

TableReadOptions ReadOptionsOf(val read) {
  TableReadOptions options;
  options.use_filter = read["useFilter"].as<bool>();
  options.whole_key_filtering = read["wholeKeyFiltering"].as<bool>();
  if (val prefix = read["prefixExtractor"]; prefix.isString()) {
    options.prefix_extractor = prefix.as<std::string>();
  }
  return options;
}

namespace {

// The range deletions of a rocksdb.range_del block's contents: [{ start, end: Uint8Array, seq:
// decimal string }]; null on error.
val RangeDeletionsOf(uintptr_t contents, size_t size) {
  std::vector<RangeDeletion> deletions;
  if (Status s = DecodeRangeDeletions(View(contents, size), &deletions); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  return RangeDeletionsValue(deletions);
}

// The line sst_dump --command=scan prints for an entry (AppendScanLine): `seq` a decimal sequence
// number below 2^56, `type` a byte (validated by ts/api/api.ts), `timestamp` empty without one;
// `hex` and `escape` as TakeScanText's.
val FormatScanLine(val key, val timestamp, uint64_t sequence, int type, val value, bool hex,
                   bool escape) {
  Bytes line;
  Bytes errors;  // none: blob indexes are shown as stored
  AppendScanLine(emscripten::vecFromJSArray<uint8_t>(key),
                 emscripten::vecFromJSArray<uint8_t>(timestamp), (sequence << 8) | (type & 0xff),
                 emscripten::vecFromJSArray<uint8_t>(value),
                 ScanTextOptions{.bytes = ScanBytesShown(hex, escape)}, &line, &errors);
  return ToUint8Array(line);
}

// file_size: a whole number below 2^53 (validated by ts/api/table.ts). `comparator_name` and
// `compare`: as ComparatorFrom takes them; `manifest_comparator`: TableOptions's, "" for none. Null
// on bad options (last error).
TableHandle* CreateTable(double file_size, bool internal_keys, const std::string& comparator_name,
                         val compare, const std::string& manifest_comparator) {
  TableOptions options;
  options.internal_keys = internal_keys;
  if (!manifest_comparator.empty()) options.manifest_comparator = manifest_comparator;
  if (!ComparatorFrom(comparator_name, std::move(compare), &options.comparator)) return nullptr;
  return new TableHandle(std::make_unique<TableReader>(static_cast<uint64_t>(file_size), options));
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_tables) {
  using namespace emscripten;
  using namespace sstfilter::wasm;

  class_<IoHandle>("IoHandle")
      .function("advance", &IoHandle::Advance)
      .function("needOffset", &IoHandle::NeedOffset)
      .function("needLength", &IoHandle::NeedLength)
      .function("needAheadLength", &IoHandle::NeedAheadLength)
      .function("supplyBuffer", &IoHandle::SupplyBuffer)
      .function("supplied", &IoHandle::Supplied);
  class_<TableCursorHandle, base<IoHandle>>("TableCursorHandle")
      .function("atEnd", &TableCursorHandle::AtEnd)
      .function("takeKeys", &TableCursorHandle::TakeKeys)
      .function("takeBlocks", &TableCursorHandle::TakeBlocks)
      .function("key", &TableCursorHandle::Key)
      .function("keyCount", &TableCursorHandle::KeyCount)
      .function("takeEntries", &TableCursorHandle::TakeEntries)
      .function("takeScanText", &TableCursorHandle::TakeScanText);
  class_<BlockReadHandle, base<IoHandle>>("BlockReadHandle")
      .function("contents", &BlockReadHandle::Contents);
  class_<TableGetHandle, base<IoHandle>>("TableGetHandle")
      .function("answer", &TableGetHandle::Answer);
  class_<LayoutHandle, base<IoHandle>>("LayoutHandle").function("regions", &LayoutHandle::Regions);
  class_<TableHandle, base<IoHandle>>("TableHandle")
      .function("family", &TableHandle::Family)
      .function("readerAddress", &TableHandle::ReaderAddress)
      .function("footer", &TableHandle::Footer)
      .function("metaindex", &TableHandle::Metaindex)
      .function("properties", &TableHandle::Properties)
      .function("filter", &TableHandle::Filter)
      .function("filterBytes", &TableHandle::FilterBytes)
      .function("keyOrder", &TableHandle::KeyOrder)
      .function("mayContain", &TableHandle::MayContain)
      .function("prefixMayMatch", &TableHandle::PrefixMayMatch)
      .function("explain", &TableHandle::Explain)
      .function("mayContainBatch", &TableHandle::MayContainBatch)
      .function("mayContainCursorKeys", &TableHandle::MayContainCursorKeys)
      .function("keys", &TableHandle::Keys, allow_raw_pointers())
      .function("entries", &TableHandle::Entries, allow_raw_pointers())
      .function("readBlock", &TableHandle::ReadBlock, allow_raw_pointers())
      .function("get", &TableHandle::Get, allow_raw_pointers())
      .function("get", &TableHandle::GetThrough, allow_raw_pointers())
      .function("layout", &TableHandle::Layout, allow_raw_pointers());
  function("createTable", &CreateTable, allow_raw_pointers());
  function("rangeDeletionsOf", &RangeDeletionsOf);
  function("formatScanLine", &FormatScanLine);
}
