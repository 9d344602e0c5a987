// RocksDB 11 data blocks with values apart from their keys (docs/FORMATS.md 3.3.1): read as the
// entries they hold, and every size a hostile block can lie about answered with kCorrupt and the
// offset of the lie, never a read outside the block.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sstfilter/bytes.h"
#include "table/block.h"
#include "table/index_block.h"

namespace sstfilter {
namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

constexpr uint32_t kValuesApartBit = 1u << 28;
constexpr uint32_t kUniformKeysBit = 1u << 29;

// A block laid out as block_builder.cc lays one out with separate_key_value_in_data_block: keys
// prefix-compressed within each interval of `interval` entries, a value offset in each restart
// entry, then the values, the restarts, the values-section offset and the footer word.
struct ApartBlock {
  Bytes bytes;
  size_t values_offset_at = 0;  // where the fixed32 values-section offset lies
  std::vector<size_t> entry_offsets;
};

ApartBlock BuildApartBlock(const Entries& entries, size_t interval, uint32_t extra_flags = 0) {
  ApartBlock out;
  Bytes values;
  std::vector<uint32_t> restarts;
  std::string previous;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& [key, value] = entries[i];
    const bool restart = i % interval == 0;
    size_t shared = 0;
    if (restart) {
      restarts.push_back(static_cast<uint32_t>(out.bytes.size()));
    } else {
      while (shared < key.size() && shared < previous.size() && key[shared] == previous[shared]) {
        ++shared;
      }
    }
    out.entry_offsets.push_back(out.bytes.size());
    PutVarint64(&out.bytes, shared);
    PutVarint64(&out.bytes, key.size() - shared);
    PutVarint64(&out.bytes, value.size());
    if (restart) PutVarint64(&out.bytes, values.size());
    out.bytes.insert(out.bytes.end(), key.begin() + static_cast<std::ptrdiff_t>(shared), key.end());
    values.insert(values.end(), value.begin(), value.end());
    previous = key;
  }
  const auto values_offset = static_cast<uint32_t>(out.bytes.size());
  out.bytes.insert(out.bytes.end(), values.begin(), values.end());
  for (uint32_t r : restarts) PutFixed32(&out.bytes, r);
  out.values_offset_at = out.bytes.size();
  PutFixed32(&out.bytes, values_offset);
  PutFixed32(&out.bytes, static_cast<uint32_t>(restarts.size()) | kValuesApartBit | extra_flags);
  return out;
}

const Entries kEntries = {{"apple", "red"},     {"apricot", "orange"}, {"avocado", ""},
                          {"banana", "yellow"}, {"blueberry", "blue"}, {"cherry", "dark red"}};

Status ReadAll(ByteView block, Entries* seen) {
  seen->clear();
  return ForEachBlockEntry(
      block,
      [&](ByteView key, ByteView value) {
        seen->emplace_back(std::string(key.begin(), key.end()),
                           std::string(value.begin(), value.end()));
        return true;
      },
      BlockFlavor::kRocksDb);
}

TEST(ValuesApartBlock, ReadsEveryEntryForEachRestartInterval) {
  for (size_t interval : {1u, 2u, 4u, 16u}) {
    const ApartBlock block = BuildApartBlock(kEntries, interval);
    Entries seen;
    const Status s = ReadAll(block.bytes, &seen);
    ASSERT_TRUE(s.ok()) << "interval " << interval << ": " << s.message() << " at " << s.offset();
    EXPECT_EQ(seen, kEntries) << "interval " << interval;
    BlockLayout layout;
    ASSERT_TRUE(ParseBlockLayout(block.bytes, BlockFlavor::kRocksDb, &layout).ok());
    EXPECT_TRUE(layout.values_apart);
  }
}

TEST(ValuesApartBlock, UniformKeysBitIsReadPast) {
  const ApartBlock block = BuildApartBlock(kEntries, 2, kUniformKeysBit);
  Entries seen;
  const Status s = ReadAll(block.bytes, &seen);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(seen, kEntries);
}

TEST(ValuesApartBlock, ValuesSectionPastTheRestartsIsCorrupt) {
  ApartBlock block = BuildApartBlock(kEntries, 2);
  const uint32_t restarts_at = static_cast<uint32_t>(block.values_offset_at - 3 * 4);
  for (uint32_t bad : {restarts_at + 1, uint32_t{0xffffffff}}) {
    Bytes bytes = block.bytes;
    bytes[block.values_offset_at] = static_cast<uint8_t>(bad);
    bytes[block.values_offset_at + 1] = static_cast<uint8_t>(bad >> 8);
    bytes[block.values_offset_at + 2] = static_cast<uint8_t>(bad >> 16);
    bytes[block.values_offset_at + 3] = static_cast<uint8_t>(bad >> 24);
    Entries seen;
    const Status s = ReadAll(bytes, &seen);
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << "values offset " << bad;
    EXPECT_EQ(s.offset(), static_cast<int64_t>(block.values_offset_at)) << "values offset " << bad;
  }
}

TEST(ValuesApartBlock, BlockTooShortForItsValuesOffsetIsCorrupt) {
  Bytes bytes;
  PutFixed32(&bytes, kValuesApartBit);
  Entries seen;
  EXPECT_EQ(ReadAll(bytes, &seen).code(), ErrorCode::kCorrupt);
}

TEST(ValuesApartBlock, ValueOutsideTheValuesSectionIsCorruptAtItsEntry) {
  const ApartBlock block = BuildApartBlock(kEntries, 2);
  // The restart entry of the second interval ("avocado"): its value offset is the fourth byte of
  // its header. Pointing it past the values section must fail at that entry.
  {
    Bytes bytes = block.bytes;
    bytes[block.entry_offsets[2] + 3] = 0x7f;
    Entries seen;
    const Status s = ReadAll(bytes, &seen);
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
    EXPECT_EQ(s.offset(), static_cast<int64_t>(block.entry_offsets[2]));
  }
  // The last entry is not a restart entry; a length past the section's end fails there.
  {
    Bytes bytes = block.bytes;
    bytes[block.entry_offsets[5] + 2] = 0x7f;
    Entries seen;
    const Status s = ReadAll(bytes, &seen);
    EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
    EXPECT_EQ(s.offset(), static_cast<int64_t>(block.entry_offsets[5]));
  }
}

TEST(ValuesApartBlock, KeyRunningIntoTheValuesSectionIsCorrupt) {
  const ApartBlock block = BuildApartBlock(kEntries, 2);
  Bytes bytes = block.bytes;
  bytes[block.entry_offsets[5] + 1] = 0x7f;  // the last key claims 127 bytes
  Entries seen;
  const Status s = ReadAll(bytes, &seen);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), static_cast<int64_t>(block.entry_offsets[5]));
}

TEST(ValuesApartBlock, EveryTruncationFailsTypedWithinTheBlock) {
  const ApartBlock block = BuildApartBlock(kEntries, 2);
  size_t failures = 0;
  for (size_t size = 0; size < block.bytes.size(); ++size) {
    const ByteView cut = ByteView(block.bytes).first(size);
    Entries seen;
    const Status s = ReadAll(cut, &seen);
    if (s.ok()) continue;
    ++failures;
    // The last four bytes left become the footer word: bit 30 there is a flag of a newer RocksDB.
    EXPECT_TRUE(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kUnsupported)
        << "cut at " << size << ": " << s.message();
    EXPECT_GE(s.offset(), 0) << "cut at " << size;
    EXPECT_LE(s.offset(), static_cast<int64_t>(size)) << "cut at " << size;
  }
  EXPECT_GT(failures, 0u);
}

TEST(ValuesApartBlock, DeltaEncodedIndexBlockWithValuesApartIsUnsupported) {
  const ApartBlock block = BuildApartBlock({{"a", "x"}}, 1);
  IndexFormat format;
  format.values_delta_encoded = true;
  IndexBlock index;
  const Status s = IndexBlock::Open(block.bytes, format, 0, false, &index);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupported) << s.message();
}

}  // namespace
}  // namespace sstfilter
