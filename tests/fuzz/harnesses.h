// The bodies of the libFuzzer targets (tests/fuzz/*_fuzz.cc), header-only so that the GoogleTest
// suite (tests/cpp/fuzz_regression_test.cc) replays committed crash inputs through exactly the same
// code. Each harness reads its input in a fixed layout (documented per harness; the seed generator
// scripts/fuzz-seeds.mjs writes golden files in it), drives the public core API, and aborts through
// FUZZ_CHECK when an answer breaks an invariant that holds for every input: kernels and batch paths
// agree with the single-key path, a filter built from keys matches every one of them, errors
// reading a table say where, and readers answer "may match" where they cannot tell.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "blob_builder.h"
#include "filter/kernels/bloom_kernels.h"
#include "filter/kernels/ribbon_kernels.h"
#include "log_builder.h"
#include "sstfilter/block_cache.h"
#include "sstfilter/bytes.h"
#include "sstfilter/db.h"
#include "sstfilter/db_get.h"
#include "sstfilter/filter.h"
#include "sstfilter/hash.h"
#include "sstfilter/leveldb_filter_block.h"
#include "sstfilter/table.h"
#include "sstfilter/table_get.h"
#include "sstfilter/table_writer.h"
#include "sstfilter/values.h"
#include "sstfilter/wal_recovery.h"
#include "table/block.h"
#include "table/codecs/codecs.h"
#include "table/compression.h"
#include "table/footer.h"
#include "table/index_block.h"
#include "table/properties.h"
#include "table/table_reader.h"

namespace sstfilter::fuzz {

[[noreturn]] inline void InvariantBroken(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: fuzz invariant broken: %s\n", file, line, what);
  std::abort();
}

#define FUZZ_CHECK(condition) \
  ((condition) ? (void)0 : ::sstfilter::fuzz::InvariantBroken(#condition, __FILE__, __LINE__))

// A cursor over the fuzz input; reads past the end give zeros and empty views, so every input is
// valid for every layout.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : rest_(data, size) {}

  uint8_t Byte() {
    if (rest_.empty()) return 0;
    const uint8_t b = rest_[0];
    rest_ = rest_.subspan(1);
    return b;
  }
  uint16_t U16() {
    const uint16_t lo = Byte();
    return static_cast<uint16_t>(lo | (Byte() << 8));
  }
  ByteView Take(size_t n) {
    const ByteView out = rest_.first(std::min(n, rest_.size()));
    rest_ = rest_.subspan(out.size());
    return out;
  }
  ByteView Rest() { return Take(rest_.size()); }
  size_t remaining() const { return rest_.size(); }

 private:
  ByteView rest_;
};

// Probe keys: a length byte, then that many bytes, repeated (the last key may be cut short). The
// empty key always comes first; at most `max_keys` in all (the rest of `region` is ignored).
inline std::vector<ByteView> SplitKeys(ByteView region, size_t max_keys = SIZE_MAX) {
  std::vector<ByteView> keys{ByteView()};
  keys.reserve(std::min(region.size() + 1, max_keys));
  Input in(region.data(), region.size());
  while (in.remaining() > 0 && keys.size() < max_keys) {
    const uint8_t n = in.Byte();
    keys.push_back(in.Take(n));
  }
  return keys;
}

// Keys probed through every path and kernel per input. Probing costs keys x kernels x paths, so
// this bounds the work per execution; it is still more than the batch paths' internal strides
// (FastLocalBloom prefetches 64 keys ahead, Ribbon checks groups of 32, and both hash batches in
// chunks of 256 keys), so every stride boundary and tail is crossed.
inline constexpr size_t kMaxProbeKeys = 300;

// Keys as one packed KeyBatch (data + n + 1 offsets).
struct PackedKeys {
  Bytes data;
  std::vector<uint32_t> offsets;

  explicit PackedKeys(const std::vector<ByteView>& keys) : offsets(keys.size() + 1, 0) {
    for (size_t i = 0; i < keys.size(); ++i) {
      offsets[i + 1] = offsets[i] + static_cast<uint32_t>(keys[i].size());
    }
    data.resize(offsets.back());
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!keys[i].empty()) std::memcpy(data.data() + offsets[i], keys[i].data(), keys[i].size());
    }
  }
  KeyBatchView view() const {
    return KeyBatchView(data.data(), data.size(), offsets.data(), offsets.size() - 1);
  }
};

// Answers of `reader` for `keys` through every path and every kernel this build has; all must
// agree. Returns the single-key answers (1 or 0) of the scalar reference kernels.
inline std::vector<uint8_t> ProbeEveryWay(const FilterReader& reader,
                                          const std::vector<ByteView>& keys) {
  const PackedKeys packed(keys);
  std::vector<uint64_t> hashes(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) hashes[i] = Xxph3Hash64(keys[i], 0);
  const char* default_bloom = simd::ActiveKernel<simd::FastLocalBloomKernel>().name;
  const char* default_ribbon = simd::ActiveKernel<simd::RibbonKernel>().name;

  // A filter uses kernels of one family only: the i-th kernel of each family run together covers
  // every kernel against the scalar reference (the first). Filters of other kinds (LevelDB,
  // legacy Bloom, constant) use none, and are probed once.
  const auto blooms = simd::AvailableKernels<simd::FastLocalBloomKernel>();
  const auto ribbons = simd::AvailableKernels<simd::RibbonKernel>();
  const FilterKind kind = reader.kind();
  const size_t kernels = kind == FilterKind::kRocksDbFastLocalBloom ? blooms.size()
                         : kind == FilterKind::kRocksDbRibbon       ? ribbons.size()
                                                                    : 1;
  // Byte vectors, not vector<bool>: under the fuzzer's instrumentation bit iterators cost more
  // than the probes.
  std::vector<uint8_t> reference;
  std::vector<uint8_t> single(keys.size());
  std::vector<uint8_t> batch(keys.size());
  std::vector<uint8_t> by_hash(keys.size());
  for (size_t kernel = 0; kernel < kernels; ++kernel) {
    simd::SelectKernel<simd::FastLocalBloomKernel>(
        blooms[std::min(kernel, blooms.size() - 1)]->name);
    simd::SelectKernel<simd::RibbonKernel>(ribbons[std::min(kernel, ribbons.size() - 1)]->name);
    for (size_t i = 0; i < keys.size(); ++i) single[i] = reader.MayMatch(keys[i]) ? 1 : 0;
    std::fill(batch.begin(), batch.end(), 2);
    reader.MayMatchBatch(packed.view(), batch.data());
    std::fill(by_hash.begin(), by_hash.end(), 2);
    const bool hashed = reader.MayMatchHashes(hashes.data(), hashes.size(), by_hash.data());
    for (size_t i = 0; i < keys.size(); ++i) {
      FUZZ_CHECK(batch[i] == single[i]);
      if (hashed) FUZZ_CHECK(by_hash[i] == single[i]);
    }
    if (kernel == 0) {
      reference = single;
    } else {
      FUZZ_CHECK(reference == single);
    }
  }
  simd::SelectKernel<simd::FastLocalBloomKernel>(default_bloom);
  simd::SelectKernel<simd::RibbonKernel>(default_ribbon);
  return reference;
}

// ---- filter_fuzz: [family u8][probe-key bytes u16][filter bytes][probe keys] ----
// family bit 0: RocksDB (OpenRocksDbFilter, dispatch on the metadata trailer), else LevelDB.
inline void FuzzFilter(const uint8_t* data, size_t size) {
  Input in(data, size);
  const bool rocksdb = (in.Byte() & 1) != 0;
  const size_t key_bytes = in.U16();
  const size_t filter_size = in.remaining() > key_bytes ? in.remaining() - key_bytes : 0;
  const ByteView filter = in.Take(filter_size);
  const std::vector<ByteView> keys = SplitKeys(in.Rest(), kMaxProbeKeys);

  Bytes copy(filter.begin(), filter.end());
  const std::unique_ptr<FilterReader> reader =
      rocksdb ? OpenRocksDbFilter(std::move(copy)) : OpenLevelDbFilter(std::move(copy));
  const FilterInfo info = reader->info();
  FUZZ_CHECK(info.data_bytes <= filter.size());
  const bool probeable = reader->ProbeSupport().ok();
  const std::vector<uint8_t> answers = ProbeEveryWay(*reader, keys);
  for (uint8_t a : answers) {
    if (info.kind == FilterKind::kAlwaysMatch || !probeable) FUZZ_CHECK(a);
    if (info.kind == FilterKind::kNeverMatch) FUZZ_CHECK(!a);
  }
}

// ---- leveldb_filter_block_fuzz: [probe-key bytes u16][filter block][probe keys] ----
// Each key is probed at the start of every filter's range, just past the last one, and at offsets
// spelled by the key's own bytes.
inline void FuzzLevelDbFilterBlock(const uint8_t* data, size_t size) {
  Input in(data, size);
  const size_t key_bytes = in.U16();
  const size_t block_size = in.remaining() > key_bytes ? in.remaining() - key_bytes : 0;
  const ByteView block = in.Take(block_size);
  const std::vector<ByteView> keys = SplitKeys(in.Rest());

  const LevelDbFilterBlockReader reader(Bytes(block.begin(), block.end()));
  const int base_lg = reader.base_lg();
  FUZZ_CHECK(reader.num_filters() <= block.size() / 4);
  for (uint64_t i = 0; i <= reader.num_filters() + 1; ++i) {
    const std::optional<ByteView> filter = reader.FilterAt(i);
    FUZZ_CHECK(i < reader.num_filters() || !filter);
    if (filter) FUZZ_CHECK(filter->size() <= block.size());
  }
  std::vector<uint64_t> offsets = {0, 1, UINT64_MAX};
  const size_t filters = std::min<size_t>(reader.num_filters(), 64);
  for (size_t i = 0; i <= filters; ++i) {
    if (base_lg < 64) offsets.push_back(uint64_t{i} << base_lg);
  }
  for (ByteView k : keys) {
    uint64_t spelled = 0;
    for (size_t i = 0; i < k.size() && i < 8; ++i) spelled |= uint64_t{k[i]} << (8 * i);
    offsets.push_back(spelled);
    for (uint64_t offset : offsets) {
      const bool a = reader.KeyMayMatch(offset, k);
      // Offsets past the last filter, and blocks too malformed to index, match everything.
      if (base_lg >= 64 || (offset >> base_lg) >= reader.num_filters()) FUZZ_CHECK(a);
    }
    offsets.pop_back();
  }
}

// ---- table_fuzz: [flags u8][probe-key bytes u16][probe keys][table file] ----
// flags bit 0: keys are bare user keys (TableOptions::internal_keys = false); bit 1: checksums are
// not verified (TableOptions::verify_checksums = false), so mutations reach the parsers and codecs
// behind them. Compressed blocks go through the real codecs either way.

// A ResumableRead that passes `op` through, checking each read it is about to make of `file`
// before DriveFromMemory supplies it: no read may pass the end (a reader is told the file's size,
// so it must never ask for more; DriveFromMemory would answer with a short read), and no operation
// may loop.
class CheckedFuzzRead final : public ResumableRead {
 public:
  CheckedFuzzRead(ResumableRead& op, ByteView file) : op_(op), file_(file) {}

  Status Advance() override {
    // A read never makes more than a few block requests per block it parses; far more means the
    // operation loops.
    FUZZ_CHECK(++steps_ < 1000000);
    Status s = op_.Advance();
    if (!s.ok() || op_.need() != IoNeed::kBytes) return s;
    const uint64_t offset = op_.need_offset();
    const uint64_t length = op_.need_length();
    FUZZ_CHECK(offset <= file_.size() && length <= file_.size() - offset);
    return s;
  }
  BlockFetcher& fetcher() const override { return op_.fetcher(); }

 private:
  ResumableRead& op_;
  ByteView file_;
  int steps_ = 0;
};

// Advances `op` to completion over `file` with DriveFromMemory, through CheckedFuzzRead.
inline Status DriveForFuzzing(ResumableRead& op, ByteView file) {
  CheckedFuzzRead checked(op, file);
  return DriveFromMemory(checked, file);
}

// Runs a codec: it decodes to exactly the recorded size, or fails with a typed error. Outputs above
// kMaxFuzzOutput only slow the fuzzer down (the real limit is kMaxBlockBytes).
inline constexpr uint64_t kMaxFuzzOutput = uint64_t{1} << 20;

inline void DecompressForFuzzing(Codec codec, const CodecInput& input) {
  if (codec == Codec::kNone || input.size.value_or(0) > kMaxFuzzOutput) return;
  Decompressor decompressor;
  Bytes out;
  const Status s = decompressor.Decompress(codec, input, &out);
  if (s.ok()) {
    FUZZ_CHECK(!input.size || out.size() == *input.size);
    FUZZ_CHECK(out.size() <= kMaxBlockBytes);
  } else {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kResourceLimit);
  }
}

// Users are told where in the file a table is broken.
inline bool InFile(const Status& s, ByteView file) {
  return s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= file.size();
}

// Per input: probe keys (the seeds carry 16: scripts/fuzz-seeds.mjs), and data blocks whose keys
// the cursor walks. Each probe seeks the index (and its partitions) anew and each block is parsed
// whole; more keys or blocks repeat the same parsing, so these bound the work per execution.
inline constexpr size_t kMaxTableProbeKeys = 1 + 16;  // the empty key, then 16
inline constexpr int kMaxWalkedBlocks = 16;
inline constexpr size_t kFuzzKeyBatchBytes = 1;  // a batch per data block

// ---- table_fuzz and table_get_fuzz: [flags u8][keys length u16][probe keys][file] ----
// The table opened from the input as its flags say; nullopt when opening failed (with an error
// inside the file, checked here).
struct FuzzedTable {
  uint8_t flag_bits = 0;
  std::vector<ByteView> keys;
  ByteView file;
  std::unique_ptr<TableReader> reader;
};

inline std::optional<FuzzedTable> OpenFuzzedTable(const uint8_t* data, size_t size) {
  Input in(data, size);
  FuzzedTable out;
  out.flag_bits = in.Byte();
  TableOptions options;
  options.internal_keys = (out.flag_bits & 1) == 0;
  options.verify_checksums = (out.flag_bits & 2) == 0;
  // The order: the table's own, a MANIFEST naming one this library lacks (unknown: conservative
  // answers), or a supplied one (checked against the index).
  if (out.flag_bits & 4) options.manifest_comparator = "fuzz.Unknown";
  if (out.flag_bits & 8) options.comparator = BuiltinComparator(kReverseBytewiseComparatorName);
  out.keys = SplitKeys(in.Take(in.U16()), kMaxTableProbeKeys);
  out.file = in.Rest();
  out.reader = std::make_unique<TableReader>(out.file.size(), options);
  const Status opened = DriveForFuzzing(*out.reader, out.file);
  if (!opened.ok()) {
    FUZZ_CHECK(InFile(opened, out.file));
    return std::nullopt;
  }
  FUZZ_CHECK(out.reader->is_open());
  return out;
}

inline void FuzzTable(const uint8_t* data, size_t size) {
  const std::optional<FuzzedTable> opened = OpenFuzzedTable(data, size);
  if (!opened) return;
  const uint8_t flag_bits = opened->flag_bits;
  const std::vector<ByteView>& keys = opened->keys;
  const ByteView file = opened->file;
  const TableReader& reader = *opened->reader;
  const OpenedTable& t = reader.table();
  const TableFilter& filter = t.filter;
  // What t.filter reports, computed for whatever was opened.
  (void)filter.KindName();
  (void)filter.size_bytes();
  for (ByteView raw : filter.RawFilters()) FUZZ_CHECK(raw.size() <= kMaxBlockBytes);

  for (ByteView k : keys) {
    bool may_match = false;
    LookupTrace trace;
    const Status s = reader.MayContain(k, &may_match, &trace);
    if (!s.ok()) FUZZ_CHECK(may_match && InFile(s, file));
    bool traced_answer = false;
    if (reader.MayContain(k, &traced_answer).ok())
      FUZZ_CHECK(traced_answer == may_match || !s.ok());
    bool prefix_match = false;
    if (const Status p = reader.PrefixMayMatch(k, &prefix_match); !p.ok()) {
      FUZZ_CHECK(prefix_match && InFile(p, file));
    }
  }

  // Walk the entries of at most kMaxWalkedBlocks data blocks (a batch at a time: a batch is at
  // least one block), from the first probe key on when the table's order allows a range.
  TableCursor cursor(reader, TableCursor::Content::kEntries, kFuzzKeyBatchBytes);
  cursor.SetOrderCheck((flag_bits & 16) != 0);
  if (keys.size() > 1) {
    EntryRange range;
    range.from = Bytes(keys[1].begin(), keys[1].end());
    range.limit = 1000;
    if (!cursor.SetEntryRange(std::move(range)).ok()) FUZZ_CHECK(t.comparator_ref == nullptr);
  }
  for (int batches = 0; batches < kMaxWalkedBlocks; ++batches) {
    const Status s = DriveForFuzzing(cursor, file);
    if (!s.ok()) FUZZ_CHECK(InFile(s, file));
    if (!s.ok() || cursor.at_end()) break;
    const std::vector<uint32_t>& offsets = cursor.key_offsets();
    FUZZ_CHECK(!cursor.key_blocks().empty());
    FUZZ_CHECK(cursor.key_blocks().back().keys_end == offsets.size() - 1);
    FUZZ_CHECK(offsets.back() == cursor.key_data().size());
    FUZZ_CHECK(cursor.value_offsets().size() == offsets.size());
    FUZZ_CHECK(cursor.value_offsets().back() == cursor.value_data().size());
    FUZZ_CHECK(cursor.tags().size() == (t.options.internal_keys ? offsets.size() - 1 : 0));
    cursor.ClearBatch();
  }

  // The layout: every handle inside the file or a located error; listed in offset order, ending
  // with the footer at the file's end.
  TableLayoutRead layout(reader);
  if (const Status s = DriveForFuzzing(layout, file); !s.ok()) {
    FUZZ_CHECK(InFile(s, file));
  } else {
    FUZZ_CHECK(layout.done());
    const std::vector<TableRegion>& regions = layout.regions();
    FUZZ_CHECK(!regions.empty() && regions.back().kind == TableRegionKind::kFooter);
    FUZZ_CHECK(regions.back().handle.offset + regions.back().span() == file.size());
    for (size_t i = 1; i < regions.size(); ++i) {
      FUZZ_CHECK(regions[i - 1].handle.offset <= regions[i].handle.offset);
      FUZZ_CHECK(regions[i].handle.offset + regions[i].span() <= file.size());
    }
  }

  // Blocks by handle, as tools read the ones the reader skips.
  size_t reads = 0;
  for (const MetaindexEntry& e : t.metaindex) {
    if (++reads > 8) break;
    TableBlockRead read(reader, e.handle);
    const Status s = DriveForFuzzing(read, file);
    FUZZ_CHECK(s.ok() ? read.contents().has_value() : InFile(s, file));
    // Any block's contents as range deletions: decoded or refused, within the block.
    std::vector<RangeDeletion> deletions;
    if (s.ok()) {
      const Status d = DecodeRangeDeletions(*read.contents(), &deletions);
      FUZZ_CHECK(d.ok() ||
                 (d.offset() >= 0 && static_cast<size_t>(d.offset()) <= read.contents()->size()));
    }
  }
}

// Each probe key looked up in the table (TableGet): the filter's "no" is MayContain's and reads
// no block; the blocks read follow one another and hold every entry found, each of the key (under
// the table's order, or in bytes where it is unknown); the covering range deletions hold the key.
// A failure is a typed error inside the file, or kUnsupported (range deletions, order unknown).
// Whether two lookups of one key answered alike: the same error (code and offset), or the same
// entries, range deletions and blocks (where each block came from aside). Messages are not
// compared: zlib words a broken stream differently depending on the output buffer it is handed,
// and a fetcher reuses the last block's buffer unless the block went into a cache.
inline bool SameTableGetAnswer(const TableGet& a, const Status& a_status, const TableGet& b,
                               const Status& b_status) {
  if (a_status.ok() != b_status.ok()) return false;
  if (!a_status.ok()) {
    return a_status.code() == b_status.code() && a_status.offset() == b_status.offset();
  }
  auto same_deletions = [](const RangeDeletion& x, const RangeDeletion& y) {
    return x.start == y.start && x.end == y.end && x.sequence == y.sequence;
  };
  auto same_blocks = [](const TableGet::BlockRead& x, const TableGet::BlockRead& y) {
    return x.handle.offset == y.handle.offset && x.handle.size == y.handle.size &&
           x.entries_end == y.entries_end;
  };
  return a.filtered_out() == b.filtered_out() && a.key_data() == b.key_data() &&
         a.key_offsets() == b.key_offsets() && a.tags() == b.tags() &&
         a.timestamps() == b.timestamps() && a.value_data() == b.value_data() &&
         a.value_offsets() == b.value_offsets() &&
         std::equal(a.covering().begin(), a.covering().end(), b.covering().begin(),
                    b.covering().end(), same_deletions) &&
         std::equal(a.blocks_read().begin(), a.blocks_read().end(), b.blocks_read().begin(),
                    b.blocks_read().end(), same_blocks);
}

// A block cache budget that holds a few of the fuzzed tables' blocks, so that lookups evict.
inline constexpr uint64_t kFuzzBlockCacheBytes = 4 * (1024 + BlockCache::kEntryOverhead);

inline void FuzzTableGet(const uint8_t* data, size_t size) {
  const std::optional<FuzzedTable> opened = OpenFuzzedTable(data, size);
  if (!opened) return;
  const TableReader& reader = *opened->reader;
  const Comparator* order = reader.table().comparator_ref.get();
  // Every lookup again through a block cache shared by all of them, twice: each answer, error
  // included, is the one read without it, and the cache stays within its budget.
  BlockCache cache(kFuzzBlockCacheBytes);
  TableReadOptions cached_read;
  cached_read.block_cache = &cache;
  for (ByteView k : opened->keys) {
    TableGet get(reader, k);
    const Status s = DriveForFuzzing(get, opened->file);
    for (int pass = 0; pass < 2; ++pass) {
      TableGet cached(reader, k, cached_read);
      const Status cached_status = DriveForFuzzing(cached, opened->file);
      FUZZ_CHECK(SameTableGetAnswer(get, s, cached, cached_status));
      const BlockCacheStats stats = cache.stats();
      FUZZ_CHECK(stats.bytes_held <= stats.capacity);
    }
    if (!s.ok()) {
      FUZZ_CHECK(InFile(s, opened->file) || s.code() == ErrorCode::kUnsupported ||
                 s.code() == ErrorCode::kResourceLimit);
      continue;
    }
    FUZZ_CHECK(get.done());
    bool may_match = true;
    if (reader.MayContain(k, &may_match).ok()) FUZZ_CHECK(may_match == !get.filtered_out());
    const std::vector<TableGet::BlockRead>& blocks = get.blocks_read();
    FUZZ_CHECK(!get.filtered_out() || (blocks.empty() && get.entry_count() == 0));
    FUZZ_CHECK(blocks.empty() ? get.entry_count() == 0
                              : blocks.back().entries_end == get.entry_count());
    for (size_t b = 0; b < blocks.size(); ++b) {
      FUZZ_CHECK(blocks[b].handle.offset + blocks[b].handle.size <= opened->file.size());
      if (b > 0) FUZZ_CHECK(blocks[b - 1].entries_end <= blocks[b].entries_end);
    }
    const std::vector<uint32_t>& offsets = get.key_offsets();
    FUZZ_CHECK(offsets.back() == get.key_data().size());
    FUZZ_CHECK(get.value_offsets().size() == offsets.size());
    FUZZ_CHECK(get.tags().size() ==
               (reader.table().options.internal_keys ? offsets.size() - 1 : 0));
    for (size_t i = 0; i + 1 < offsets.size(); ++i) {
      const ByteView found =
          ByteView(get.key_data()).subspan(offsets[i], offsets[i + 1] - offsets[i]);
      FUZZ_CHECK(order != nullptr ? order->Compare(found, k) == 0
                                  : std::equal(found.begin(), found.end(), k.begin(), k.end()));
    }
    FUZZ_CHECK(get.covering().empty() || order != nullptr);
  }
}

// ---- block_fuzz: [flags u8][seek-key length u8][seek key][block] ----
// The block is decoded as a key/value block, a properties block and an index block (flags choose
// the flavor and index format), its tail as a footer, and the whole as a compressed block's
// contents with compression type = the seek key's first byte.
inline void FuzzBlock(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t flag_bits = in.Byte();
  const ByteView key = in.Take(in.Byte());
  const ByteView block = in.Rest();
  const BlockFlavor flavor = (flag_bits & 1) ? BlockFlavor::kRocksDb : BlockFlavor::kLevelDb;

  const Status visited = ForEachBlockEntry(
      block,
      [&](ByteView, ByteView v) {
        FUZZ_CHECK(v.data() >= block.data() && v.data() + v.size() <= block.data() + block.size());
        return true;
      },
      flavor);
  FUZZ_CHECK(visited.ok() || visited.offset() >= 0);

  TableProperties properties;
  if (TableProperties::Decode(block, &properties).ok()) {
    for (const TableProperty& p : properties.all()) {
      FUZZ_CHECK(p.value_offset + p.bytes.size() <= block.size());
    }
  }

  IndexFormat format;
  format.flavor = flavor;
  format.keys_have_tag = (flag_bits & 2) != 0;
  format.values_delta_encoded = (flag_bits & 4) != 0;
  format.values_have_first_key = (flag_bits & 8) != 0;
  format.comparator = (flag_bits & 16) ? &ReverseBytewiseComparator() : &BytewiseComparator();
  IndexBlock index;
  const uint64_t file_offset = flag_bits & 32 ? 1000 : 0;
  if (IndexBlock::Open(Bytes(block.begin(), block.end()), format, file_offset, false, &index)
          .ok()) {
    IndexBlock::Iterator it = index.Begin();
    for (;;) {
      IndexEntry entry;
      bool end = false;
      if (!it.Next(&entry, &end).ok() || end) break;
    }
    std::optional<IndexEntry> found;
    const LookupKey lookup{key, flag_bits & 64 ? kMaxSequenceNumber : kLatestReadSequence};
    if (index.Seek(lookup, &found).ok() && found) {
      FUZZ_CHECK(CompareIndexKeyWithLookup(*format.comparator, found->user_key,
                                           format.keys_have_tag, found->tag, lookup) >= 0);
    }
    (void)index.Last(&found);  // any error is fine; reading past the block is not
  }

  Footer footer;
  (void)DecodeFooter(block.last(std::min<size_t>(block.size(), kFooterSize)), block.size(),
                     &footer);

  FramingContext context;
  context.family = (flag_bits & 64) ? TableFamily::kLevelDb : TableFamily::kRocksDb;
  context.format_version = flag_bits >> 5;
  CompressedFrame frame;
  if (UnframeCompressedBlock(context, key.empty() ? 0 : key[0], block, &frame).ok()) {
    FUZZ_CHECK(frame.payload_offset + frame.payload_size == block.size());
    if (frame.uncompressed_size) FUZZ_CHECK(*frame.uncompressed_size <= kMaxBlockBytes);
    CodecInput input;
    input.payload = block.subspan(frame.payload_offset, frame.payload_size);
    input.size = frame.uncompressed_size;
    // The seek key after its first byte is the dictionary.
    if ((flag_bits & 128) != 0 && !key.empty()) input.dictionary = key.subspan(1);
    DecompressForFuzzing(frame.codec, input);
  }

  // Handles decoded back to back from the start (at most 64: every later one is the same parse),
  // and from near the end, where varints get cut short.
  size_t pos = 0;
  for (int handles = 0; handles < 64 && DecodeBlockHandle(block, &pos); ++handles) {
    FUZZ_CHECK(pos <= block.size());
  }
  constexpr size_t kTail = 40;  // two handles of two 10-byte varints
  pos = block.size() - std::min(block.size(), kTail);
  while (DecodeBlockHandle(block, &pos)) FUZZ_CHECK(pos <= block.size());
}

// ---- roundtrip_fuzz: [format u8][bits u8][keys] ----
// Builds a filter of every format from arbitrary keys (length-prefixed as SplitKeys reads them)
// and checks that it matches each of them (the first kMaxRoundTripProbeKeys through every probe
// path and kernel, all of them through the batch path); LevelDB keys also go through a filter
// block, spread over data blocks at offsets the key lengths spell.
inline constexpr size_t kMaxRoundTripProbeKeys = 100;

// Log files. Byte 0: bit 0 reads as RocksDB (else LevelDB); bit 1 builds the log from records
// (else the rest is the raw file); bit 2 recyclable headers; bit 3 reads past damage
// (LogDamage::kSkip: never fails but on compressed records). Byte 1: the log number. Built logs:
// a u16 cut (bytes dropped from the end), then records of a type byte and a u16 length with that
// many payload bytes: type 0xff is a whole record LogBuilder fragments, any other one physical
// record with that type and a valid checksum. Every record's fragments lie in the file and make
// its payload; errors and torn tails name an offset inside the file.
inline void FuzzLogReader(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  const DbFormat format = (mode & 1) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  const uint32_t log_number = in.Byte();
  Bytes built;
  ByteView log;
  if ((mode & 2) != 0) {
    const uint16_t cut = in.U16();
    LogBuilder b((mode & 4) != 0, log_number);
    while (in.remaining() > 0) {
      const uint8_t type = in.Byte();
      const ByteView payload = in.Take(in.U16());
      if (type == 0xff) {
        b.Add(payload);
      } else {
        b.Physical(type, payload);
      }
    }
    built = std::move(b.bytes());
    built.resize(built.size() - std::min<size_t>(cut, built.size()));
    log = built;
  } else {
    log = in.Rest();
  }
  // Bit 3: skip mode, which reads past damage.
  const LogDamage damage = (mode & 8) != 0 ? LogDamage::kSkip : LogDamage::kStop;
  LogReader reader(log, format, log_number, damage);
  LogRecord r;
  uint64_t previous = 0;
  bool first = true;
  while (reader.Next(&r)) {
    FUZZ_CHECK(r.offset < log.size() && (first || r.offset > previous));
    size_t at = 0;
    for (const LogFragment& f : r.fragments) {
      FUZZ_CHECK(f.payload_offset + f.size <= log.size() && at + f.size <= r.payload.size());
      FUZZ_CHECK(std::equal(r.payload.begin() + static_cast<ptrdiff_t>(at),
                            r.payload.begin() + static_cast<ptrdiff_t>(at + f.size),
                            log.begin() + static_cast<ptrdiff_t>(f.payload_offset)));
      at += f.size;
    }
    FUZZ_CHECK(at == r.payload.size());
    previous = r.offset;
    first = false;
  }
  const Status& s = reader.status();
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kChecksumMismatch ||
               s.code() == ErrorCode::kUnsupported);
    FUZZ_CHECK(s.offset() >= 0 && static_cast<uint64_t>(s.offset()) < log.size());
  } else {
    FUZZ_CHECK(reader.end().offset <= log.size());
  }
  // Skip mode fails only on what it cannot read (compressed records); its drops lie in the file.
  FUZZ_CHECK(damage == LogDamage::kStop ? reader.drops().empty()
                                        : s.ok() || s.code() == ErrorCode::kUnsupported);
  for (const LogDrop& d : reader.drops()) {
    FUZZ_CHECK(d.offset < log.size() && d.size <= log.size());
    FUZZ_CHECK(d.status.code() == ErrorCode::kCorrupt ||
               d.status.code() == ErrorCode::kChecksumMismatch);
    FUZZ_CHECK(d.status.offset() == static_cast<int64_t>(d.offset));
  }
}

// What a replay did, as one text: each log's records, stop, end, status and drops, the prepared
// transactions, the next sequence number and the memtable's size.
inline std::string ReplayOutcome(const WalReplay& r, const Status& s) {
  std::string out = std::to_string(static_cast<int>(s.code())) + s.message();
  for (const RecoveredLog& log : r.logs()) {
    out += "|" + std::to_string(log.records) + " " +
           std::to_string(static_cast<int>(log.end.kind)) + "@" + std::to_string(log.end.offset) +
           log.end.what + " " + log.status.message() + " " + std::to_string(log.status.offset()) +
           (log.malformed_batch ? " malformed" : "");
    if (log.stopped) out += " stop@" + std::to_string(log.stopped->offset) + log.stopped->what;
    for (const LogDrop& d : log.drops) {
      out +=
          " drop " + std::to_string(d.offset) + "+" + std::to_string(d.size) + d.status.message();
    }
    out += " +" + std::to_string(log.unlisted_drops);
  }
  for (const PreparedTransaction& t : r.PreparedUncommitted()) {
    out += "|prepared " + XidText(t.xid) + "@" + std::to_string(t.offset) + "x" +
           std::to_string(t.records.size());
  }
  out += "|next " + (r.next_sequence() ? std::to_string(*r.next_sequence()) : std::string("-"));
  return out + " " + std::to_string(r.memtable().entry_count()) + " " +
         std::to_string(r.memtable().record_bytes());
}

// The replay of write-ahead logs into the memtable (sstfilter/wal_recovery.h). Byte 0: bit 0
// RocksDB (else LevelDB), bits 1-2 the recovery mode, bit 3 paranoid_checks off, bit 4 column
// family 0 timestamped (leveldb.BytewiseComparator.u64ts), bit 5 logs built from write batches
// with valid checksums (each [u16 size][batch]) rather than taken raw, bit 6 a recyclable log.
// Byte 1: the chunk sizes the logs are fed in: the first chunk byte 1 + 1 bytes, each next one
// the previous times 3 modulo 32771, plus 1 (so sizes wander from 1 byte to past a block); u16:
// where the input splits into two logs; byte: the size of the probe key, then the key; the rest:
// the logs. A replay fails only with kCorrupt or kUnsupported; fed in chunks it does exactly what
// it does fed each log whole, and holds no more than a block and the log between chunks; its
// stops name offsets inside their log; the memtable holds no more record bytes than the logs; the
// versions of the probe key are the same when the replay keeps only that key.
inline void FuzzWalReplay(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  const size_t first_chunk = size_t{in.Byte()} + 1;
  const uint16_t split = in.U16();
  const ByteView probe = in.Take(in.Byte());
  const ByteView rest = in.Rest();
  const ByteView halves[2] = {rest.first(std::min<size_t>(split, rest.size())),
                              rest.subspan(std::min<size_t>(split, rest.size()))};
  Bytes logs[2];
  for (int i = 0; i < 2; ++i) {
    if ((mode & 32) == 0) {
      logs[i].assign(halves[i].begin(), halves[i].end());
      continue;
    }
    LogBuilder b((mode & 64) != 0, static_cast<uint32_t>(5 + i));
    Input records(halves[i].data(), halves[i].size());
    while (records.remaining() > 0) b.Add(records.Take(records.U16()));
    logs[i] = std::move(b.bytes());
  }
  WalReplayOptions options;
  options.format = (mode & 1) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  options.mode = static_cast<WalRecoveryMode>((mode >> 1) & 3);
  options.paranoid_checks = (mode & 8) == 0;
  options.column_families = {{0, 0,
                              BuiltinComparator((mode & 16) != 0 ? kBytewiseU64TsComparatorName
                                                                 : kBytewiseComparatorName)},
                             {1, 6, nullptr}};
  // chunked: each log in chunks of the fuzzed sizes; else whole (ReplayLog).
  const auto replay = [&](WalReplay* r, bool chunked) {
    size_t chunk = first_chunk;
    for (int i = 0; i < 2; ++i) {
      if (!chunked) {
        if (Status s = r->ReplayLog(std::to_string(5 + i) + ".log", 5 + i, logs[i]); !s.ok()) {
          return s;
        }
        continue;
      }
      r->BeginLog(std::to_string(5 + i) + ".log", static_cast<uint64_t>(5 + i));
      for (size_t at = 0; at < logs[i].size();) {
        const size_t n = std::min(chunk, logs[i].size() - at);
        r->Append(ByteView(logs[i]).subspan(at, n));
        FUZZ_CHECK(r->held_bytes() <= kLogBlockSize + logs[i].size());
        at += n;
        chunk = chunk * 3 % 32771 + 1;
      }
      if (Status s = r->EndLog(); !s.ok()) return s;
    }
    return r->Finish({{1, "one", 6}});
  };
  WalReplay all(options);
  const Status s = replay(&all, true);
  WalReplay whole(options);
  const Status whole_status = replay(&whole, false);
  FUZZ_CHECK(ReplayOutcome(all, s) == ReplayOutcome(whole, whole_status));
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kUnsupported);
    return;
  }
  FUZZ_CHECK(all.logs().size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const RecoveredLog& log = all.logs()[i];
    if (log.stopped) FUZZ_CHECK(log.stopped->offset <= logs[i].size());
    for (const LogDrop& d : log.drops) FUZZ_CHECK(d.offset < logs[i].size());
  }
  FUZZ_CHECK(all.memtable().record_bytes() <= logs[0].size() + logs[1].size());
  options.only_key = Bytes(probe.begin(), probe.end());
  WalReplay one(options);
  FUZZ_CHECK(replay(&one, true).ok());
  for (uint32_t family = 0; family < 2; ++family) {
    const auto want = all.memtable().Versions(family, probe);
    const auto got = one.memtable().Versions(family, probe);
    const auto whole_versions = whole.memtable().Versions(family, probe);
    FUZZ_CHECK(got.size() == (family == 0 ? want.size() : 0));
    FUZZ_CHECK(whole_versions.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      FUZZ_CHECK(got[i].sequence == want[i].sequence && got[i].kind == want[i].kind &&
                 got[i].log_number == want[i].log_number &&
                 std::equal(got[i].value.begin(), got[i].value.end(), want[i].value.begin(),
                            want[i].value.end()));
    }
    for (size_t i = 0; i < want.size(); ++i) {
      FUZZ_CHECK(whole_versions[i].sequence == want[i].sequence &&
                 std::equal(whole_versions[i].value.begin(), whole_versions[i].value.end(),
                            want[i].value.begin(), want[i].value.end()));
    }
    FUZZ_CHECK(one.memtable().CoveringTombstone(0, probe) ==
               all.memtable().CoveringTombstone(0, probe));
  }
}

// ---- db_get_fuzz: [mode u8][WAL length u16][WAL][table input as table_get_fuzz's] ----
// A one-family database held in memory: a WAL built from the write batches of the WAL region
// ([u16 size][batch]..., valid checksums) replayed into the memtable, and the table opened from
// the rest (when it opens), listed on level 0 or 1 (mode bit 0) with the smallest and largest of
// the probe keys as its range (mode bit 1: RocksDB, else LevelDB). Each probe key goes through
// DbGet with the memtable: errors are typed, and an answer is consistent with its route.
inline void FuzzDbGet(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  const ByteView wal_region = in.Take(in.U16());
  const ByteView table_input = in.Rest();
  const DbFormat format = (mode & 2) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  LogBuilder log;
  Input batches(wal_region.data(), wal_region.size());
  while (batches.remaining() > 0) log.Add(batches.Take(batches.U16()));
  const std::optional<FuzzedTable> table = OpenFuzzedTable(table_input.data(), table_input.size());

  ColumnFamilyState family;
  ComparatorRef order = BuiltinComparator(kBytewiseComparatorName);
  if (table && (table->flag_bits & 8) != 0)
    order = BuiltinComparator(kReverseBytewiseComparatorName);
  family.comparator = std::string(order->Name());
  WalReplayOptions replay_options;
  replay_options.format = format;
  replay_options.column_families = {{0, 0, order}};
  WalReplay replay(replay_options);
  if (const Status s = replay.ReplayLog("000005.log", 5, log.bytes()); !s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kUnsupported);
    return;
  }
  FUZZ_CHECK(replay.Finish().ok());
  std::vector<ByteView> keys = table ? table->keys : SplitKeys(ByteView(), 1);
  if (table && table->reader->table().options.internal_keys) {
    std::vector<ByteView> sorted = keys;
    std::sort(sorted.begin(), sorted.end(),
              [&](ByteView a, ByteView b) { return order->Compare(a, b) < 0; });
    TableFileMeta meta;
    meta.number = 7;
    meta.size = table->file.size();
    const Bytes trailer(8, 0);
    meta.smallest.assign(sorted.front().begin(), sorted.front().end());
    meta.smallest.insert(meta.smallest.end(), trailer.begin(), trailer.end());
    meta.largest.assign(sorted.back().begin(), sorted.back().end());
    meta.largest.insert(meta.largest.end(), trailer.begin(), trailer.end());
    family.files.resize(2);
    family.files[mode & 1].push_back(std::move(meta));
  }
  for (ByteView k : keys) {
    DbGetOptions options;
    options.format = format;
    options.family = &family;
    options.memtable = &replay.memtable();
    options.log_numbers = {5};
    DbGet get(std::move(options), k);
    Status s;
    while ((s = get.Advance()).ok() && !get.done()) {
      if (get.need() == IoNeed::kBytes) {
        s = DriveForFuzzing(get, table->file);
      } else {
        FUZZ_CHECK(get.table_needed() != nullptr && get.table_needed()->number == 7);
        s = get.SetTable(*table->reader);
      }
      if (!s.ok()) break;
    }
    if (!s.ok()) {
      FUZZ_CHECK(s.code() != ErrorCode::kOk && s.code() != ErrorCode::kBadOptions);
      continue;
    }
    const DbGetResult& r = get.result();
    FUZZ_CHECK(get.steps().size() <= 2);
    FUZZ_CHECK(r.sequence.has_value() == (r.outcome != DbGetResult::Outcome::kNotFound));
    FUZZ_CHECK(r.operands.empty() == (r.outcome != DbGetResult::Outcome::kMergeOperands));
    FUZZ_CHECK(!r.has_value || r.outcome == DbGetResult::Outcome::kFound ||
               r.outcome == DbGetResult::Outcome::kMergeOperands);
    for (const DbGetStep& step : get.steps()) {
      if (step.where == DbGetStep::Where::kTable) {
        FUZZ_CHECK(step.in_range || (step.filter == DbGetStep::Filter::kNotConsulted &&
                                     step.entry == DbGetStep::Entry::kNotRead));
      }
    }
  }
}

// Blob files. Byte 0: bit 0 builds a file (BlobFileBuilder) from records of [u8 key size][u16
// value size] bytes with valid CRCs, then cuts the last u16 bytes off; otherwise the rest is the
// file as it is. A sound file's records and header and footer make up exactly the file; errors
// are typed and name an offset inside it.
inline void FuzzBlobFile(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  Bytes built;
  ByteView file;
  if ((mode & 1) != 0) {
    const uint16_t cut = in.U16();
    BlobFileBuilder b;
    while (in.remaining() > 0) {
      const ByteView key = in.Take(in.Byte());
      b.Add(key, in.Take(in.U16()));
    }
    built = b.Finish();
    built.erase(built.end() - static_cast<ptrdiff_t>(std::min<size_t>(cut, built.size())),
                built.end());
    file = built;
  } else {
    file = in.Rest();
  }
  BlobFileCheck check;
  const Status s = CheckBlobFile(file, &check);
  if (s.ok()) {
    FUZZ_CHECK(kBlobFileHeaderSize + check.blob_bytes + kBlobFileFooterSize == file.size());
  } else {
    FUZZ_CHECK(s.code() == ErrorCode::kTruncated || s.code() == ErrorCode::kCorrupt ||
               s.code() == ErrorCode::kChecksumMismatch);
    FUZZ_CHECK(s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= file.size());
  }
  // The first blob read back as Get reads it, at the offset its record's header announces: a
  // sound uncompressed file gives the blob itself; any file a value or a typed error inside it.
  if (file.size() < kBlobFileHeaderSize + kBlobRecordHeaderSize) return;
  const uint64_t key_size = DecodeFixed64(file.data() + kBlobFileHeaderSize);
  const uint64_t value_size = DecodeFixed64(file.data() + kBlobFileHeaderSize + 8);
  const size_t room = file.size() - kBlobFileHeaderSize - kBlobRecordHeaderSize;
  if (key_size > room || value_size > room - key_size) return;
  const ByteView record =
      file.subspan(kBlobFileHeaderSize, kBlobRecordHeaderSize + key_size + value_size);
  const ByteView key = record.subspan(kBlobRecordHeaderSize, key_size);
  const BlobPointer pointer{kBlobFileHeaderSize + kBlobRecordHeaderSize + key_size, value_size,
                            file[13], DecodeFixed32(file.data() + 8)};
  Bytes value;
  const Status read =
      ReadBlobValue(file.first(kBlobFileHeaderSize), file.size(), record, key, pointer, &value);
  if (s.ok() && check.blob_count > 0 && check.compression == 0 && !check.has_ttl) {
    FUZZ_CHECK(read.ok());
    FUZZ_CHECK(value.size() == value_size);
  }
  if (!read.ok()) {
    FUZZ_CHECK(read.code() == ErrorCode::kTruncated || read.code() == ErrorCode::kCorrupt ||
               read.code() == ErrorCode::kChecksumMismatch ||
               read.code() == ErrorCode::kUnsupported || read.code() == ErrorCode::kResourceLimit);
    FUZZ_CHECK(read.offset() >= 0 && static_cast<uint64_t>(read.offset()) <= file.size());
  }
}

// VersionEdit records. Byte 0: bit 0 decodes as RocksDB (else LevelDB); the rest is one record,
// decoded alone and then read as the second edit of a MANIFEST whose first names the comparator
// and the next file number. Errors name a byte inside the record (alone) or the file (MANIFEST);
// decoded files have internal keys; applied state keeps its levels bounded.
inline void FuzzVersionEdit(const uint8_t* data, size_t size) {
  Input in(data, size);
  const DbFormat format = (in.Byte() & 1) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  const ByteView record = in.Rest();
  VersionEdit edit;
  const Status s = DecodeVersionEdit(record, format, &edit);
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kUnsupported);
    FUZZ_CHECK(s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= record.size());
  } else {
    for (const VersionEdit::NewFile& f : edit.new_files) {
      FUZZ_CHECK(f.meta.smallest.size() >= 8 && f.meta.largest.size() >= 8);
      FUZZ_CHECK(f.level >= 0 && f.level <= kMaxDbLevel);
    }
    // What the encoder writes of it decodes back to what encodes the same again.
    Bytes encoded;
    const Status e = EncodeVersionEdit(edit, format, &encoded);
    if (e.ok()) {
      VersionEdit back;
      FUZZ_CHECK(DecodeVersionEdit(encoded, format, &back).ok());
      Bytes again;
      FUZZ_CHECK(EncodeVersionEdit(back, format, &again).ok() && again == encoded);
    } else {
      FUZZ_CHECK(e.code() == ErrorCode::kUnsupported || e.code() == ErrorCode::kBadOptions);
    }
  }
  // tag 1 (comparator), tag 3 (next file number) 2
  constexpr std::string_view kFirstEdit = "\x01\x1aleveldb.BytewiseComparator\x03\x02";
  LogBuilder log;
  log.Add(BytesOf(kFirstEdit));
  log.Add(record);
  ManifestState state;
  const Status m = ReadManifest(log.bytes(), format, &state);
  if (!m.ok()) {
    FUZZ_CHECK(m.offset() >= 0 && static_cast<uint64_t>(m.offset()) <= log.bytes().size());
    FUZZ_CHECK(!s.ok() || m.code() == ErrorCode::kCorrupt);
  } else {
    FUZZ_CHECK(s.ok() && state.edit_count == 2);
    for (const ColumnFamilyState& cf : state.column_families) {
      FUZZ_CHECK(cf.files.size() <= static_cast<size_t>(kMaxDbLevel) + 1);
    }
  }
}

// Write batches (docs/FORMATS.md 6.4). Byte 0: bit 0 decodes as RocksDB (else LevelDB); the rest
// is one batch, decoded alone and then read as the one record of a WAL. Errors name a byte inside
// the batch (or the log); records carry their sequence, lie inside the batch, and number as many
// as the header's count; the WAL reading agrees with the batch alone.
inline void FuzzWriteBatch(const uint8_t* data, size_t size) {
  Input in(data, size);
  const DbFormat format = (in.Byte() & 1) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  const ByteView record = in.Rest();
  WriteBatch batch;
  const Status s = DecodeWriteBatch(record, format, &batch);
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt);
    FUZZ_CHECK(s.offset() >= 0 &&
               static_cast<uint64_t>(s.offset()) < std::max<size_t>(record.size(), 1));
  } else {
    FUZZ_CHECK(batch.records.size() == batch.count);
  }
  size_t total = 0;
  for (size_t i = 0; i < batch.records.size(); ++i) {
    const WalRecord& r = batch.records[i];
    FUZZ_CHECK(r.sequence == batch.sequence + i && r.offset >= 12 && r.offset < record.size());
    total += r.key.size() + r.value.size();
  }
  FUZZ_CHECK(total <= record.size());
  for (const WalMarker& m : batch.markers) {
    FUZZ_CHECK(m.offset >= 12 && m.offset < record.size() && m.position <= batch.records.size());
  }
  if (record.empty()) return;  // a log record of no bytes is no batch
  LogBuilder log;
  log.Add(record);
  const WalContents wal = ReadWriteAheadLog(log.bytes(), format, 0);
  FUZZ_CHECK(wal.end.kind == LogEnd::Kind::kClean);
  const bool has_header = record.size() >= 12;
  if (s.ok()) {
    FUZZ_CHECK(wal.status.ok() && wal.drops.empty());
    FUZZ_CHECK(wal.batches.size() == 1 && wal.batches[0].records.size() == batch.records.size());
  } else if (format == DbFormat::kLevelDb) {
    // LevelDB's recovery keeps the records before the bad one and reads on.
    FUZZ_CHECK(wal.status.ok() && wal.drops.size() == 1 && wal.drops[0].status.code() == s.code());
    FUZZ_CHECK(wal.batches.size() == (has_header ? 1u : 0u));
    FUZZ_CHECK(!has_header || wal.batches[0].records.size() == batch.records.size());
  } else {
    FUZZ_CHECK(wal.batches.empty() && wal.status.code() == s.code());
    FUZZ_CHECK(wal.malformed_batch == has_header);
    FUZZ_CHECK(static_cast<uint64_t>(wal.status.offset()) < log.bytes().size());
    // Skipping, RocksDB passes over a short record but still refuses a malformed batch.
    const WalContents skipped = ReadWriteAheadLog(log.bytes(), format, 0, LogDamage::kSkip);
    FUZZ_CHECK(skipped.status.ok() == !has_header && skipped.malformed_batch == has_header);
    FUZZ_CHECK(skipped.batches.empty() && skipped.drops.size() == (has_header ? 0u : 1u));
  }
}

inline void FuzzRoundTrip(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t format_byte = in.Byte();
  const uint8_t bits = in.Byte();
  std::vector<ByteView> keys = SplitKeys(in.Rest());
  if ((format_byte & 0x80) == 0) keys.erase(keys.begin());  // with or without the empty key
  const PackedKeys packed(keys);
  // Every kernel and path for the first kMaxRoundTripProbeKeys keys (more than the batch paths'
  // prefetch distance and group size); every key through the batch path of the default kernels
  // below (crossing its 256-key hash chunks), so that no key may be a false negative.
  const std::vector<ByteView> probed(keys.begin(),
                                     keys.begin() + std::min(keys.size(), kMaxRoundTripProbeKeys));

  BuildOptions options;
  options.format = static_cast<FilterFormat>(format_byte % 4);
  // LevelDB takes whole bits per key; RocksDB 0.5 and up in eighths (below 0.5 it writes none).
  options.bits_per_key =
      options.format == FilterFormat::kLevelDbBloom ? 1 + bits % 64 : 0.5 + bits / 8.0;
  Bytes built;
  FUZZ_CHECK(BuildFilter(packed.view(), options, &built).ok());
  const std::unique_ptr<FilterReader> reader = options.format == FilterFormat::kLevelDbBloom
                                                   ? OpenLevelDbFilter(std::move(built))
                                                   : OpenRocksDbFilter(std::move(built));
  FUZZ_CHECK(reader->ProbeSupport().ok());
  const FilterKind kind = reader->kind();
  switch (options.format) {
    case FilterFormat::kLevelDbBloom:
      FUZZ_CHECK(kind == FilterKind::kLevelDbBloom);
      break;
    case FilterFormat::kRocksDbLegacyBloom:
      FUZZ_CHECK(kind ==
                 (keys.empty() ? FilterKind::kNeverMatch : FilterKind::kRocksDbLegacyBloom));
      break;
    case FilterFormat::kRocksDbFastLocalBloom:
      FUZZ_CHECK(kind ==
                 (keys.empty() ? FilterKind::kNeverMatch : FilterKind::kRocksDbFastLocalBloom));
      break;
    case FilterFormat::kRocksDbRibbon:
      // Small key sets fall back to FastLocalBloom where it is smaller.
      FUZZ_CHECK(keys.empty() ? kind == FilterKind::kNeverMatch
                              : kind == FilterKind::kRocksDbRibbon ||
                                    kind == FilterKind::kRocksDbFastLocalBloom);
      break;
  }
  for (uint8_t a : ProbeEveryWay(*reader, probed)) FUZZ_CHECK(a == 1);
  std::vector<uint8_t> all(keys.size(), 2);
  reader->MayMatchBatch(packed.view(), all.data());
  for (uint8_t a : all) FUZZ_CHECK(a == 1);

  if (options.format != FilterFormat::kLevelDbBloom) return;
  LevelDbFilterBlockBuilder builder(static_cast<int>(options.bits_per_key));
  std::vector<uint64_t> block_of_key;
  uint64_t offset = 0;
  for (ByteView k : keys) {
    // A new data block every few keys, at an offset that grows by the key's length times 97
    // (crossing 2 KiB filter ranges now and then, skipping some entirely).
    if (block_of_key.empty() || k.size() % 3 == 0) {
      offset += k.size() * 97;
      FUZZ_CHECK(builder.StartBlock(offset).ok());
    }
    builder.AddKey(k);
    block_of_key.push_back(offset);
  }
  Bytes block;
  FUZZ_CHECK(builder.Finish(&block).ok());
  const LevelDbFilterBlockReader block_reader(std::move(block));
  for (size_t i = 0; i < keys.size(); ++i) {
    FUZZ_CHECK(block_reader.KeyMayMatch(block_of_key[i], keys[i]));
  }
}

// ---- values_fuzz: [flags u8][value] ----
// The value is decoded as a blob index and as a wide-column entity, and shown as sst_dump's
// --decode_blob_index scan line (flags bit 0: --output_hex). Errors must point inside the value;
// what decodes must lie within it, re-encode to the same bytes (blob indexes; the layout has one
// encoding per index) and have strictly ascending column names.
inline bool Within(ByteView part, ByteView whole) {
  return part.empty() ||
         (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

inline Bytes EncodeBlobIndex(const BlobIndex& index) {
  Bytes out = {static_cast<uint8_t>(index.type)};
  if (index.type != BlobIndex::Type::kBlob) PutVarint64(&out, index.expiration);
  if (index.type == BlobIndex::Type::kInlinedTtl) {
    out.insert(out.end(), index.value.begin(), index.value.end());
    return out;
  }
  PutVarint64(&out, index.file_number);
  PutVarint64(&out, index.offset);
  PutVarint64(&out, index.size);
  out.push_back(index.compression);
  return out;
}

inline void FuzzValues(const uint8_t* data, size_t size) {
  Input in(data, size);
  const bool hex = (in.Byte() & 1) != 0;
  const ByteView value = in.Rest();
  auto error_inside = [&](const Status& s) {
    return s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= value.size();
  };
  BlobIndex index;
  const Status blob = DecodeBlobIndex(value, &index);
  if (blob.ok()) {
    FUZZ_CHECK(Within(index.value, value));
    const Bytes again = EncodeBlobIndex(index);
    // Varints may carry redundant continuation bytes (0x80 0x00), which decode the same: compare
    // the re-encoding's decoding instead of the bytes then.
    BlobIndex reread;
    FUZZ_CHECK(DecodeBlobIndex(again, &reread).ok());
    FUZZ_CHECK(EncodeBlobIndex(reread) == again);
    FUZZ_CHECK(again.size() <= value.size());
  } else {
    FUZZ_CHECK(blob.code() == ErrorCode::kCorrupt && error_inside(blob));
  }
  std::vector<WideColumn> columns;
  const Status entity = DecodeWideColumns(value, &columns);
  if (entity.ok()) {
    for (size_t i = 0; i < columns.size(); ++i) {
      FUZZ_CHECK(Within(columns[i].name, value) && Within(columns[i].value, value));
      if (i > 0) {
        FUZZ_CHECK(std::lexicographical_compare(columns[i - 1].name.begin(),
                                                columns[i - 1].name.end(), columns[i].name.begin(),
                                                columns[i].name.end()));
      }
    }
  } else {
    FUZZ_CHECK(entity.code() == ErrorCode::kCorrupt && error_inside(entity) && columns.empty());
  }
  Bytes out, errors;
  const uint64_t blob_index_tag = static_cast<uint64_t>(EntryType::kBlobIndex);
  AppendScanLine(value, {}, blob_index_tag, value,
                 ScanTextOptions{.hex = hex, .decode_blob_index = true}, &out, &errors);
  FUZZ_CHECK(out.empty() != blob.ok() && errors.empty() == blob.ok());
}

// ---- table writer round trips (writer_fuzz, tests/cpp/table_writer_test.cc) ----

// One entry as a table holds it: the user key, the RocksDB value type (0 delete, 1 put, 2 merge,
// 0x0f range deletion, whose value is the end key) and the value.
struct TableEntry {
  Bytes key;
  uint8_t type = 1;
  Bytes value;
  bool operator==(const TableEntry&) const = default;
};

// Every entry of a table file held in memory, read back through the reader: the data blocks'
// entries in order, then the range deletions in stored order. Tables of user keys (LevelDB's bare
// TableBuilder) come back as puts.
inline Status ReadBackTable(ByteView file, bool internal_keys, std::vector<TableEntry>* out,
                            std::unique_ptr<TableReader>* opened = nullptr) {
  out->clear();
  TableOptions options;
  options.internal_keys = internal_keys;
  std::unique_ptr<TableReader> reader;
  if (Status s = OpenTableFromMemory(file, options, &reader); !s.ok()) return s;
  TableCursor cursor(*reader, TableCursor::Content::kEntries);
  for (;;) {
    if (Status s = DriveFromMemory(cursor, file); !s.ok()) return s;
    if (cursor.at_end()) break;
    const auto& keys = cursor.key_offsets();
    const auto& values = cursor.value_offsets();
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
      TableEntry e;
      e.key.assign(cursor.key_data().begin() + keys[i], cursor.key_data().begin() + keys[i + 1]);
      e.value.assign(cursor.value_data().begin() + values[i],
                     cursor.value_data().begin() + values[i + 1]);
      if (internal_keys) e.type = static_cast<uint8_t>(cursor.tags()[i] & 0xff);
      out->push_back(std::move(e));
    }
    cursor.ClearBatch();
  }
  for (const MetaindexEntry& meta : reader->metaindex()) {
    if (meta.name != "rocksdb.range_del") continue;
    TableBlockRead read(*reader, meta.handle);
    if (Status s = DriveFromMemory(read, file); !s.ok()) return s;
    std::vector<RangeDeletion> deletions;
    if (Status s = DecodeRangeDeletions(*read.contents(), &deletions); !s.ok()) return s;
    for (RangeDeletion& d : deletions) {
      out->push_back({std::move(d.start), 0x0f, std::move(d.end)});
    }
  }
  if (opened) *opened = std::move(reader);
  return Status::Ok();
}

// ---- writer_fuzz: [format u8][filter u8][block size u8][restart interval, codec u8][entries]
// ---- Entries: an op byte (low two bits: put, delete, merge, range deletion), a key and a value
// as SplitKeys reads them; keys are sorted and made unique (range deletions take two of them).
// The table is written with options the four bytes pick, read back, and must hold exactly the
// entries; the filter must answer "may match" for every key. Hostile sizes and orders come from
// the unit tests; here every call must succeed.
inline constexpr size_t kMaxWriterEntries = 2000;

inline void FuzzTableWriter(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t format = in.Byte();
  const uint8_t filter = in.Byte();
  const uint8_t block = in.Byte();
  const uint8_t restart = in.Byte();
  const bool leveldb = format & 0x80;
  std::vector<ByteView> parts = SplitKeys(in.Rest(), 3 * kMaxWriterEntries);
  parts.erase(parts.begin());
  // Triples of (op, key, value): the op is the first byte of its part.
  std::vector<std::pair<ByteView, ByteView>> points;
  std::vector<uint8_t> ops;
  for (size_t i = 0; i + 2 < parts.size(); i += 3) {
    ops.push_back(parts[i].empty() ? 0 : parts[i][0] & 3);
    points.emplace_back(parts[i + 1], parts[i + 2]);
  }
  std::vector<size_t> order(points.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto key_less = [&](size_t a, size_t b) {
    return std::lexicographical_compare(points[a].first.begin(), points[a].first.end(),
                                        points[b].first.begin(), points[b].first.end());
  };
  std::stable_sort(order.begin(), order.end(), key_less);

  TableWriteOptions options;
  options.format = leveldb ? TableFamily::kLevelDb : TableFamily::kRocksDb;
  options.format_version = 2 + format % 6;
  static const char* const kChecksums[] = {"none", "crc32c", "xxhash", "xxhash64", "xxh3"};
  if (!leveldb) options.checksum = kChecksums[(format >> 2) % 5];
  // RocksDB: every codec, by the restart byte's top three bits; LevelDB: Snappy or none.
  static const char* const kCodecs[] = {"none", "snappy", "zlib", "bzip2",
                                        "lz4",  "lz4hc",  "zstd", "snappy"};
  options.compression = leveldb ? (format & 0x40 ? "snappy" : "none") : kCodecs[restart >> 5];
  switch (filter % 4) {
    case 0:
      break;
    case 1:
      options.filter = leveldb ? FilterFormat::kLevelDbBloom : FilterFormat::kRocksDbLegacyBloom;
      break;
    case 2:
      options.filter = leveldb ? FilterFormat::kLevelDbBloom : FilterFormat::kRocksDbFastLocalBloom;
      break;
    case 3:
      options.filter = leveldb ? FilterFormat::kLevelDbBloom : FilterFormat::kRocksDbRibbon;
      break;
  }
  options.bits_per_key = 1 + (filter >> 2) % 20;
  if (!leveldb && (filter & 0x40))
    options.prefix_extractor = filter & 0x20 ? "capped:2" : "fixed:2";
  if (!leveldb && !options.prefix_extractor.empty()) options.whole_key_filtering = filter & 0x10;
  options.block_size = 1 + size_t{block} * 16;
  options.restart_interval = 1 + restart % 32;
  // RocksDB: the two-level index by the format byte's bit 6 (LevelDB's Snappy bit), a partitioned
  // filter with it by the filter byte's top bit, partitions of 1 to 2041 bytes.
  if (!leveldb && (format & 0x40)) {
    options.index_type = TableIndexType::kTwoLevel;
    options.partition_filters = filter & 0x80;
    options.metadata_block_size = 1 + size_t{static_cast<uint8_t>(block * 7 + restart)} * 8;
  }
  std::unique_ptr<TableWriter> writer;
  FUZZ_CHECK(TableWriter::Create(options, &writer).ok());

  std::vector<TableEntry> expected, ranges;
  Bytes file;
  const ByteView* last = nullptr;
  for (size_t i : order) {
    const auto& [key, value] = points[i];
    if (last && std::ranges::equal(*last, key)) continue;
    const uint8_t op = leveldb ? 0 : ops[i];  // LevelDB: puts only
    if (op == 3) {
      // A range from the key to the key followed by the value's bytes: never backwards.
      Bytes end(key.begin(), key.end());
      end.insert(end.end(), value.begin(), value.end());
      FUZZ_CHECK(writer->DeleteRange(key, end).ok());
      ranges.push_back({Bytes(key.begin(), key.end()), 0x0f, std::move(end)});
      continue;
    }
    const uint8_t type = op == 0 ? 1 : op == 1 ? 0 : 2;
    const Status s = type == 1   ? writer->Put(key, value)
                     : type == 0 ? writer->Delete(key)
                                 : writer->Merge(key, value);
    FUZZ_CHECK(s.ok());
    expected.push_back({Bytes(key.begin(), key.end()), type,
                        type == 0 ? Bytes() : Bytes(value.begin(), value.end())});
    last = &points[i].first;
    const Bytes chunk = writer->TakeOutput();
    file.insert(file.end(), chunk.begin(), chunk.end());
  }
  const Status finished = writer->Finish();
  if (!leveldb && expected.empty() && ranges.empty()) {
    FUZZ_CHECK(finished.code() == ErrorCode::kBadOptions);  // SstFileWriter wants an entry
    return;
  }
  FUZZ_CHECK(finished.ok());
  const Bytes chunk = writer->TakeOutput();
  file.insert(file.end(), chunk.begin(), chunk.end());
  FUZZ_CHECK(file.size() == writer->file_size());
  expected.insert(expected.end(), ranges.begin(), ranges.end());

  std::vector<TableEntry> read;
  std::unique_ptr<TableReader> reader;
  FUZZ_CHECK(ReadBackTable(file, !leveldb, &read, &reader).ok());
  FUZZ_CHECK(read == expected);
  if (reader->filter_info()) {
    FUZZ_CHECK(reader->filter_info()->partitioned == options.partition_filters);
  }
  for (const TableEntry& e : expected) {
    if (e.type == 0x0f) continue;
    bool may_match = false;
    FUZZ_CHECK(reader->MayContain(e.key, &may_match).ok());
    FUZZ_CHECK(may_match);
  }
}

}  // namespace sstfilter::fuzz
