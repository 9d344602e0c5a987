// The harness of block_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "harness_support.h"
#include "sstfilter/comparator.h"
#include "table/block.h"
#include "table/codecs/codecs.h"
#include "table/compression.h"
#include "table/footer.h"
#include "table/index_block.h"
#include "table/internal_key.h"
#include "table/properties.h"

namespace sstfilter::fuzz {

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

}  // namespace sstfilter::fuzz
