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
#include <optional>
#include <vector>

#include "simd/bloom_kernels.h"
#include "simd/ribbon_kernels.h"
#include "sstfilter/block.h"
#include "sstfilter/block_checksum.h"
#include "sstfilter/bytes.h"
#include "sstfilter/compression.h"
#include "sstfilter/filter.h"
#include "sstfilter/footer.h"
#include "sstfilter/hash.h"
#include "sstfilter/index_block.h"
#include "sstfilter/leveldb_filter_block.h"
#include "sstfilter/properties.h"
#include "sstfilter/table_key_cursor.h"
#include "sstfilter/table_reader.h"

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
// empty key always comes first.
inline std::vector<ByteView> SplitKeys(ByteView region) {
  std::vector<ByteView> keys{ByteView()};
  Input in(region.data(), region.size());
  while (in.remaining() > 0) {
    const uint8_t n = in.Byte();
    keys.push_back(in.Take(n));
  }
  return keys;
}

// Keys as one packed KeyBatch (data + n + 1 offsets).
struct PackedKeys {
  Bytes data;
  std::vector<uint32_t> offsets{0};

  explicit PackedKeys(const std::vector<ByteView>& keys) {
    for (ByteView k : keys) {
      data.insert(data.end(), k.begin(), k.end());
      offsets.push_back(static_cast<uint32_t>(data.size()));
    }
  }
  KeyBatchView view() const {
    return KeyBatchView(data.data(), data.size(), offsets.data(), offsets.size() - 1);
  }
};

// Answers of `reader` for `keys` through every path and every kernel this build has; all must
// agree. Returns the single-key answers of the default kernels.
inline std::vector<bool> ProbeEveryWay(const FilterReader& reader,
                                       const std::vector<ByteView>& keys) {
  const PackedKeys packed(keys);
  std::vector<uint64_t> hashes;
  for (ByteView k : keys) hashes.push_back(Xxph3Hash64(k, 0));
  const char* default_bloom = simd::ActiveFastLocalBloomKernel().name;
  const char* default_ribbon = simd::ActiveRibbonKernel().name;

  // A filter uses kernels of one family only: the i-th kernel of each family run together covers
  // every kernel against the scalar reference (the first).
  const auto blooms = simd::AvailableFastLocalBloomKernels();
  const auto ribbons = simd::AvailableRibbonKernels();
  std::optional<std::vector<bool>> reference;
  for (size_t kernel = 0; kernel < std::max(blooms.size(), ribbons.size()); ++kernel) {
    simd::SelectFastLocalBloomKernel(blooms[std::min(kernel, blooms.size() - 1)]->name);
    simd::SelectRibbonKernel(ribbons[std::min(kernel, ribbons.size() - 1)]->name);
    std::vector<bool> single;
    for (ByteView k : keys) single.push_back(reader.MayMatch(k));
    std::vector<uint8_t> batch(keys.size(), 2);
    reader.MayMatchBatch(packed.view(), batch.data());
    std::vector<uint8_t> by_hash(keys.size(), 2);
    const bool hashed = reader.MayMatchHashes(hashes.data(), hashes.size(), by_hash.data());
    for (size_t i = 0; i < keys.size(); ++i) {
      FUZZ_CHECK(batch[i] == (single[i] ? 1 : 0));
      if (hashed) FUZZ_CHECK(by_hash[i] == (single[i] ? 1 : 0));
    }
    if (reference) FUZZ_CHECK(*reference == single);
    reference = std::move(single);
  }
  simd::SelectFastLocalBloomKernel(default_bloom);
  simd::SelectRibbonKernel(default_ribbon);
  return *reference;
}

// ---- filter_fuzz: [family u8][probe-key bytes u16][filter bytes][probe keys] ----
// family bit 0: RocksDB (OpenRocksDbFilter, dispatch on the metadata trailer), else LevelDB.
inline void FuzzFilter(const uint8_t* data, size_t size) {
  Input in(data, size);
  const bool rocksdb = (in.Byte() & 1) != 0;
  const size_t key_bytes = in.U16();
  const size_t filter_size = in.remaining() > key_bytes ? in.remaining() - key_bytes : 0;
  const ByteView filter = in.Take(filter_size);
  const std::vector<ByteView> keys = SplitKeys(in.Rest());

  Bytes copy(filter.begin(), filter.end());
  const std::unique_ptr<FilterReader> reader =
      rocksdb ? OpenRocksDbFilter(std::move(copy)) : OpenLevelDbFilter(std::move(copy));
  const FilterInfo info = reader->info();
  FUZZ_CHECK(info.data_bytes <= filter.size());
  const bool probeable = reader->ProbeSupport().ok();
  const std::vector<bool> answers = ProbeEveryWay(*reader, keys);
  for (bool a : answers) {
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
// flags bit 0: keys are bare user keys (TableOptions::internal_keys = false); bit 1: give every
// block the trailer checksum it needs, so mutations reach the parsers behind the checksum; bit 2:
// "decompress" compressed blocks by taking their payload as the contents (cut or zero-padded to
// the recorded size), so compressed index, filter and data blocks get parsed too.
struct TableFuzzFlags {
  bool fix_checksums = false;
  bool decompress = false;
};

// Advances `op` to completion over `file` as DriveFromMemory does, with the two fuzzing aids of
// TableFuzzFlags. `file_format` is where the operation's table records its checksum type; the
// first read of a TableReader is the raw footer, which has no trailer (`first_read_raw`).
inline Status DriveForFuzzing(ResumableRead& op, Bytes& file, const TableFileFormat& file_format,
                              TableFuzzFlags flags, bool first_read_raw) {
  bool raw = first_read_raw;
  for (int steps = 0;; ++steps) {
    // A read never makes more than a few block requests per block it parses; far more means the
    // operation loops.
    FUZZ_CHECK(steps < 1000000);
    if (Status s = op.Advance(); !s.ok()) return s;
    BlockFetcher& fetcher = op.fetcher();
    Status s;
    switch (fetcher.need()) {
      case IoNeed::kNothing:
        return Status::Ok();
      case IoNeed::kBytes: {
        const uint64_t offset = fetcher.need_offset();
        const uint64_t length = fetcher.need_length();
        FUZZ_CHECK(offset <= file.size() && length <= file.size() - offset);
        if (flags.fix_checksums && !raw && length >= kBlockTrailerSize) {
          uint8_t* block = file.data() + offset;
          const size_t covered = static_cast<size_t>(length) - 4;
          const uint32_t checksum =
              ComputeBlockChecksum(file_format.checksum, ByteView(block, covered)) +
              ChecksumModifierForContext(file_format.base_context_checksum, offset);
          for (int i = 0; i < 4; ++i)
            block[covered + i] = static_cast<uint8_t>(checksum >> (8 * i));
        }
        raw = false;
        s = fetcher.Supply(ByteView(file).subspan(offset, length));
        break;
      }
      case IoNeed::kDecompression: {
        const auto at = static_cast<int64_t>(fetcher.block_offset());
        if (!flags.decompress) return Status::Error(ErrorCode::kUnsupported, "no codec", at);
        const ByteView payload = fetcher.payload();
        Bytes out(payload.begin(), payload.end());
        // Sizes the fetcher accepts go up to kMaxBlockBytes; allocating them would only slow the
        // fuzzer down.
        constexpr uint64_t kMaxFuzzBlock = 1 << 20;
        const uint64_t wanted = fetcher.uncompressed_size().value_or(out.size());
        if (wanted > kMaxFuzzBlock) return Status::Error(ErrorCode::kResourceLimit, "fuzz", at);
        out.resize(static_cast<size_t>(wanted));
        s = fetcher.Supply(out);
        break;
      }
    }
    if (!s.ok()) return s;
  }
}

// Users are told where in the file a table is broken.
inline bool InFile(const Status& s, const Bytes& file) {
  return s.offset() >= 0 && static_cast<uint64_t>(s.offset()) <= file.size();
}

inline void FuzzTable(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t flag_bits = in.Byte();
  TableOptions options;
  options.internal_keys = (flag_bits & 1) == 0;
  TableFuzzFlags flags;
  flags.fix_checksums = (flag_bits & 2) != 0;
  flags.decompress = (flag_bits & 4) != 0;
  const std::vector<ByteView> keys = SplitKeys(in.Take(in.U16()));
  const ByteView bytes = in.Rest();
  Bytes file(bytes.begin(), bytes.end());

  TableReader reader(file.size(), options);
  const Status opened = DriveForFuzzing(reader, file, reader.table().file, flags, true);
  if (!opened.ok()) {
    FUZZ_CHECK(InFile(opened, file));
    return;
  }
  FUZZ_CHECK(reader.is_open());
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

  // Walk the keys of at most 64 data blocks.
  TableKeyCursor cursor(reader.shared_table());
  for (int blocks = 0; blocks < 64; ++blocks) {
    const Status s = DriveForFuzzing(cursor, file, t.file, flags, false);
    if (!s.ok()) FUZZ_CHECK(InFile(s, file));
    if (!s.ok() || cursor.at_end()) break;
    const std::vector<uint32_t>& offsets = cursor.key_offsets();
    FUZZ_CHECK(offsets.size() >= 2);
    FUZZ_CHECK(offsets.back() == cursor.key_data().size());
    cursor.ClearKeys();
  }

  // Blocks by handle, as tools read the ones the reader skips.
  size_t reads = 0;
  for (const MetaindexEntry& e : t.metaindex) {
    if (++reads > 8) break;
    TableBlockRead read(reader.shared_table(), e.handle);
    const Status s = DriveForFuzzing(read, file, t.file, flags, false);
    FUZZ_CHECK(s.ok() ? read.contents().has_value() : InFile(s, file));
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
  format.order = (flag_bits & 16) ? KeyOrder::kReverseBytewise : KeyOrder::kBytewise;
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
    if (index.Seek(key, &found).ok() && found) {
      FUZZ_CHECK(CompareUserKeys(format.order, found->user_key, key) >= 0);
    }
    (void)index.Last(&found);  // any error is fine; reading past the block is not
  }

  Footer footer;
  (void)DecodeFooter(block.last(std::min<size_t>(block.size(), kFooterSize)), block.size(),
                     &footer);

  FramingContext context;
  context.family = (flag_bits & 64) ? TableFamily::kLevelDb : TableFamily::kRocksDb;
  context.format_version = flag_bits >> 5;
  context.dictionary_possible = (flag_bits & 128) != 0;
  CompressedFrame frame;
  if (UnframeCompressedBlock(context, key.empty() ? 0 : key[0], block, &frame).ok()) {
    FUZZ_CHECK(frame.payload_offset + frame.payload_size == block.size());
    if (frame.uncompressed_size) FUZZ_CHECK(*frame.uncompressed_size <= kMaxBlockBytes);
  }

  size_t pos = 0;
  while (DecodeBlockHandle(block, &pos)) FUZZ_CHECK(pos <= block.size());
}

// ---- roundtrip_fuzz: [format u8][bits u8][keys] ----
// Builds a filter of every format from arbitrary keys (length-prefixed as SplitKeys reads them)
// and checks that it matches each of them, through every probe path and kernel; LevelDB keys also
// go through a filter block, spread over data blocks at offsets the key lengths spell.
inline void FuzzRoundTrip(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t format_byte = in.Byte();
  const uint8_t bits = in.Byte();
  std::vector<ByteView> keys = SplitKeys(in.Rest());
  if ((format_byte & 0x80) == 0) keys.erase(keys.begin());  // with or without the empty key
  const PackedKeys packed(keys);

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
  for (bool a : ProbeEveryWay(*reader, keys)) FUZZ_CHECK(a);

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

}  // namespace sstfilter::fuzz
