// Varints and block entries: the coding every table structure is made of.
#include "sstfilter/bytes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "base/aligned_buffer.h"
#include "table/block.h"

namespace sstfilter {
namespace {

TEST(Varint, RoundTripsAndRejectsOverlongOrTruncatedInput) {
  for (uint64_t v :
       {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{300}, uint64_t{1} << 35, UINT64_MAX}) {
    Bytes buf;
    PutVarint64(&buf, v);
    size_t pos = 0;
    EXPECT_EQ(GetVarint64(buf, &pos), v);
    EXPECT_EQ(pos, buf.size());
    size_t short_pos = 0;
    EXPECT_FALSE(GetVarint64(ByteView(buf).first(buf.size() - 1), &short_pos).has_value());
    EXPECT_EQ(short_pos, 0u) << "a failed read must not advance";
  }
  Bytes too_wide_32;
  PutVarint64(&too_wide_32, uint64_t{1} << 32);
  size_t pos = 0;
  EXPECT_FALSE(GetVarint32(too_wide_32, &pos).has_value());
  const Bytes eleven_bytes(11, 0x80);
  pos = 0;
  EXPECT_FALSE(GetVarint64(eleven_bytes, &pos).has_value());
}

// Entries "apple"->"1", "apricot"->"2" (shared prefix 2), one restart at 0.
Bytes TwoEntryBlock() {
  Bytes b = {0, 5, 1, 'a', 'p', 'p', 'l', 'e', '1', 2, 5, 1, 'r', 'i', 'c', 'o', 't', '2'};
  PutFixed32(&b, 0);
  PutFixed32(&b, 1);
  return b;
}

// CompareBytes against std::lexicographical_compare over unsigned bytes (memcmp, then the shorter
// first), on pairs differing at every position of keys up to 40 bytes, across the word-sized
// chunks.
TEST(CompareBytes, OrdersAsMemcmpThenLength) {
  auto expected = [](const Bytes& x, const Bytes& y) {
    if (std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end())) return -1;
    return std::lexicographical_compare(y.begin(), y.end(), x.begin(), x.end()) ? 1 : 0;
  };
  size_t pairs = 0;
  for (size_t size = 0; size <= 40; ++size) {
    const Bytes a(size, 0x80);
    for (size_t at = 0; at <= size; ++at) {
      for (int delta : {-0x80, -1, 1, 0x7f}) {
        Bytes b = a;
        if (at < size) b[at] = static_cast<uint8_t>(b[at] + delta);
        if (at == size) b.push_back(static_cast<uint8_t>(0x80 + delta));
        for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}, std::pair{a, a}}) {
          ASSERT_EQ(CompareBytes(x, y), expected(x, y))
              << "sizes " << x.size() << " and " << y.size() << ", differing at " << at;
          ++pairs;
        }
      }
    }
  }
  EXPECT_GT(pairs, 1000u);
}

// Every length up to 40 at every alignment: the run is copied and nothing around it is touched.
TEST(CopyShortBytes, CopiesExactlyTheRunAtAnyAlignment) {
  Bytes source(64);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<uint8_t>(i * 37 + 1);
  for (size_t n = 0; n <= 40; ++n) {
    for (size_t from = 0; from < 8; ++from) {
      for (size_t to = 0; to < 8; ++to) {
        Bytes target(56, 0xee);
        CopyShortBytes(target.data() + to, source.data() + from, n);
        for (size_t i = 0; i < target.size(); ++i) {
          const bool inside = i >= to && i < to + n;
          ASSERT_EQ(target[i], inside ? source[from + i - to] : 0xee)
              << n << " bytes from offset " << from << " to offset " << to << ": byte " << i;
        }
      }
    }
  }
}

TEST(BlockEntries, RebuildsKeysFromSharedPrefixes) {
  std::vector<std::string> seen;
  const Status s = ForEachBlockEntry(TwoEntryBlock(), [&](ByteView key, ByteView value) {
    std::string entry(key.begin(), key.end());
    entry.push_back('=');
    entry.append(value.begin(), value.end());
    seen.push_back(std::move(entry));
    return true;
  });
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(seen, (std::vector<std::string>{"apple=1", "apricot=2"}));
}

TEST(BlockEntries, CorruptBlocksReportCorruptionWithOffset) {
  auto count = [](const Bytes& block) {
    int n = 0;
    Status s = ForEachBlockEntry(block, [&](ByteView, ByteView) { return ++n, true; });
    return s;
  };
  EXPECT_EQ(count({1, 2}).code(), ErrorCode::kCorrupt);
  Bytes huge_restarts = TwoEntryBlock();
  huge_restarts[huge_restarts.size() - 4] = 0xff;
  EXPECT_EQ(count(huge_restarts).code(), ErrorCode::kCorrupt);
  Bytes bad_shared = TwoEntryBlock();
  bad_shared[9] = 9;  // the second entry claims more shared bytes than the first key has
  const Status s = count(bad_shared);
  EXPECT_EQ(s.code(), ErrorCode::kCorrupt);
  EXPECT_EQ(s.offset(), 9);
}

TEST(AlignedBuffer, AlignsInPlaceWhenTheBytesHaveRoomElseCopies) {
  constexpr size_t kPadding = 16;
  for (const bool room : {true, false}) {
    Bytes bytes;
    if (room) bytes.reserve(1000 + AlignedBuffer::SpareFor(kPadding));
    for (int i = 0; i < 1000; ++i) bytes.push_back(static_cast<uint8_t>(i * 7));
    const Bytes expected = bytes;
    const uint8_t* original = bytes.data();
    const AlignedBuffer aligned(std::move(bytes), kPadding);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned.data()) % AlignedBuffer::kAlignment, 0u);
    EXPECT_TRUE(
        std::equal(expected.begin(), expected.end(), aligned.view().begin(), aligned.view().end()));
    for (size_t i = 0; i < kPadding; ++i) EXPECT_EQ(aligned.data()[1000 + i], 0) << i;
    // With room, the bytes moved within their own buffer: no second copy was made.
    const bool in_place = aligned.data() >= original && aligned.data() < original + 64;
    EXPECT_EQ(in_place, room);
  }
}

}  // namespace
}  // namespace sstfilter
