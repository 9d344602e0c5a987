// LevelDB Bloom filters and filter blocks against the golden corpus written by LevelDB 1.23.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "golden.h"
#include "packed_keys.h"
#include "sstfilter/filter.h"
#include "sstfilter/leveldb_bloom.h"
#include "sstfilter/leveldb_filter_block.h"
#include "table/block.h"

namespace sstfilter {
namespace {

using golden::ReadFileBytes;
using golden::ReadJson;
using golden::ReadKeysFile;
using testing::PackedKeys;

TEST(LevelDbBloomGolden, BuiltBytesAndEveryAnswerMatchLevelDb) {
  int cases = 0;
  for (const auto& [corpus, manifest] : golden::Sections("leveldb_filter")) {
    for (const auto& c : manifest.at("cases")) {
      const std::string id = corpus->name + ":" + c.at("id").get<std::string>();
      const auto keys = corpus->ReadKeys(c.at("keys"));
      const auto expected = corpus->ReadBytes(c.at("filter"));
      const auto probes = corpus->ReadKeys(c.at("probes"));
      const auto answers = corpus->ReadBytes(c.at("probe_results"));
      ASSERT_EQ(probes.size(), answers.size()) << id;

      BuildOptions options;
      options.format = FilterFormat::kLevelDbBloom;
      options.bits_per_key = c.at("bits_per_key").get<int>();
      Bytes built;
      const PackedKeys packed(keys);
      ASSERT_TRUE(BuildFilter(packed.view(), options, &built).ok()) << id;
      ASSERT_EQ(built, expected) << id << ": built filter differs from LevelDB's";

      const auto reader = OpenLevelDbFilter(expected);
      for (size_t i = 0; i < keys.size(); ++i) {
        ASSERT_TRUE(reader->MayMatch(keys[i])) << id << ": false negative for key " << i;
      }
      const PackedKeys packed_probes(probes);
      std::vector<uint8_t> batch(probes.size());
      reader->MayMatchBatch(packed_probes.view(), batch.data());
      for (size_t i = 0; i < probes.size(); ++i) {
        ASSERT_EQ(reader->MayMatch(probes[i]) ? 1 : 0, answers[i]) << id << ": probe " << i;
        ASSERT_EQ(batch[i], answers[i]) << id << ": batched probe " << i;
      }
      ++cases;
    }
  }
  EXPECT_GT(cases, 0) << "no leveldb_filter cases in " << golden::CorporaSummary();
  std::cout << "[golden] leveldb-filter: " << cases << " cases, bytes and answers identical\n";
}

// Keys per data block of a LevelDB table, read through its index block. Uncompressed tables only
// (compressed blocks are the table reader's business).
struct DataBlock {
  uint64_t offset;
  uint64_t size;  // without the trailer
  std::vector<std::vector<uint8_t>> keys;
};

std::vector<DataBlock> ReadDataBlocks(const std::vector<uint8_t>& file, const nlohmann::json& c) {
  const auto index_handle = c.at("footer").at("index_handle");
  const uint64_t index_offset = index_handle.at(0), index_size = index_handle.at(1);
  const bool internal_keys = c.at("internal_keys");
  std::vector<DataBlock> blocks;
  const ByteView index(file.data() + index_offset, index_size);
  const Status s = ForEachBlockEntry(index, [&](ByteView, ByteView value) {
    size_t pos = 0;
    const auto handle = DecodeBlockHandle(value, &pos);
    EXPECT_TRUE(handle.has_value());
    DataBlock block{handle->offset, handle->size, {}};
    EXPECT_EQ(file.at(handle->offset + handle->size), 0) << "compressed data block";
    const ByteView contents(file.data() + handle->offset, handle->size);
    const Status data_status = ForEachBlockEntry(contents, [&](ByteView key, ByteView) {
      block.keys.emplace_back(key.begin(), key.end() - (internal_keys ? 8 : 0));
      return true;
    });
    EXPECT_TRUE(data_status.ok()) << data_status.message();
    blocks.push_back(std::move(block));
    return true;
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return blocks;
}

TEST(LevelDbFilterBlockGolden, ReaderGivesLevelDbsAnswerForEveryConsultedProbe) {
  int cases = 0, probes_checked = 0;
  for (const auto& [corpus, manifest] : golden::Sections("leveldb_table")) {
    for (const auto& c : manifest.at("cases")) {
      const std::string id = corpus->name + ":" + c.at("id").get<std::string>();
      // Cases answered through a DB record no filter index; table_golden_test.cc checks them.
      if (!c.contains("probe_filter_index")) continue;
      const LevelDbFilterBlockReader reader(corpus->ReadBytes(c.at("filter_block")));
      EXPECT_EQ(reader.num_filters(), c.at("filter_block").at("num_filters").get<size_t>()) << id;
      const auto probes = corpus->ReadKeys(c.at("probes"));
      const auto answers = corpus->ReadBytes(c.at("get_results"));
      const auto index_bytes = corpus->ReadBytes(c.at("probe_filter_index"));
      ASSERT_EQ(index_bytes.size(), probes.size() * 4) << id;
      for (size_t i = 0; i < probes.size(); ++i) {
        const uint32_t filter_index = DecodeFixed32(index_bytes.data() + 4 * i);
        if (filter_index == UINT32_MAX) {
          ASSERT_EQ(answers[i], 2) << id << ": probe " << i;
          continue;
        }
        const uint64_t block_offset = uint64_t{filter_index} << kLevelDbFilterBaseLg;
        ASSERT_EQ(reader.KeyMayMatch(block_offset, probes[i]) ? 1 : 0, answers[i])
            << id << ": probe " << i << " against filter " << filter_index;
        ++probes_checked;
      }
      ++cases;
    }
  }
  EXPECT_GT(cases, 0) << "no leveldb_table cases in " << golden::CorporaSummary();
  EXPECT_GT(probes_checked, 0);
  std::cout << "[golden] leveldb-table filter blocks: " << cases << " cases, " << probes_checked
            << " consulted probes identical\n";
}

TEST(LevelDbFilterBlockGolden, BuilderWritesLevelDbsBytes) {
  int built = 0, skipped_compressed = 0;
  for (const auto& [corpus, manifest] : golden::Sections("leveldb_table")) {
    for (const auto& c : manifest.at("cases")) {
      const std::string id = corpus->name + ":" + c.at("id").get<std::string>();
      if (c.at("options").at("compression") != "kNoCompression") {
        ++skipped_compressed;
        continue;
      }
      const auto file = corpus->ReadBytes(c.at("file"));
      const auto blocks = ReadDataBlocks(file, c);
      ASSERT_EQ(blocks.size(), c.at("num_data_blocks").get<size_t>()) << id;
      LevelDbFilterBlockBuilder builder(c.at("options").at("filter_policy").at("bits_per_key"));
      for (const auto& block : blocks) {
        ASSERT_TRUE(builder.StartBlock(block.offset).ok()) << id;
        for (const auto& key : block.keys) builder.AddKey(key);
        ASSERT_TRUE(builder.EndBlock(block.offset, block.size).ok()) << id;
      }
      Bytes out;
      ASSERT_TRUE(builder.Finish(&out).ok()) << id;
      const auto expected = corpus->ReadBytes(c.at("filter_block"));
      ASSERT_EQ(out, expected) << id << ": filter block differs from LevelDB's";
      ++built;
    }
  }
  EXPECT_GE(built, 10);
  std::cout << "[golden] leveldb-table filter blocks built: " << built << " identical ("
            << skipped_compressed << " snappy tables need the table reader)\n";
}

TEST(LevelDbBloom, NumProbesFollowLevelDb) {
  EXPECT_EQ(LevelDbBloomNumProbes(1), 1);
  EXPECT_EQ(LevelDbBloomNumProbes(10), 6);
  EXPECT_EQ(LevelDbBloomNumProbes(16), 11);
  EXPECT_EQ(LevelDbBloomNumProbes(20), 13);
  EXPECT_EQ(LevelDbBloomNumProbes(100), 30);
}

TEST(LevelDbBloom, ShortAndReservedFiltersGiveLevelDbsAnswers) {
  const std::vector<uint8_t> key = {'k'};
  EXPECT_FALSE(LevelDbBloomMayMatch({}, key));
  EXPECT_FALSE(LevelDbBloomMayMatch(std::vector<uint8_t>{6}, key));
  // k above 30 is reserved: everything may match, even with all bits clear.
  EXPECT_TRUE(LevelDbBloomMayMatch(std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 31}, key));
  // k == 0 probes nothing and so matches.
  EXPECT_TRUE(LevelDbBloomMayMatch(std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 0}, key));
  EXPECT_EQ(OpenLevelDbFilter({})->kind(), FilterKind::kNeverMatch);
  EXPECT_EQ(OpenLevelDbFilter({0, 0, 0, 0, 0, 0, 0, 0, 200})->kind(), FilterKind::kAlwaysMatch);
  EXPECT_EQ(OpenLevelDbFilter({0, 0, 0, 0, 0, 0, 0, 0, 6})->kind(), FilterKind::kLevelDbBloom);
  EXPECT_FALSE(OpenLevelDbFilter({0, 0, 0, 0, 0, 0, 0, 0, 6})->MayMatch(key));
}

TEST(LevelDbFilterBlock, MalformedBlocksMayMatchAndEmptyFiltersDoNot) {
  const std::vector<uint8_t> key = {'a', 'b'};
  EXPECT_TRUE(LevelDbFilterBlockReader({}).KeyMayMatch(0, key));
  EXPECT_TRUE(LevelDbFilterBlockReader({1, 2, 3, 4}).KeyMayMatch(0, key));
  // Array offset past the end.
  EXPECT_TRUE(LevelDbFilterBlockReader({0xff, 0, 0, 0, 11}).KeyMayMatch(0, key));
  // A block with no filters at all (the builder's output for zero blocks).
  LevelDbFilterBlockBuilder empty_builder(10);
  Bytes empty;
  ASSERT_TRUE(empty_builder.Finish(&empty).ok());
  EXPECT_EQ(empty, (Bytes{0, 0, 0, 0, 11}));
  EXPECT_TRUE(LevelDbFilterBlockReader(empty).KeyMayMatch(0, key));

  // Blocks at 0 and 6000: filter 0 has the key, filters 1 and 2 are empty.
  LevelDbFilterBlockBuilder builder(10);
  ASSERT_TRUE(builder.StartBlock(0).ok());
  builder.AddKey(key);
  ASSERT_TRUE(builder.StartBlock(6000).ok());
  builder.AddKey(std::vector<uint8_t>{'z'});
  Bytes block;
  ASSERT_TRUE(builder.Finish(&block).ok());
  const LevelDbFilterBlockReader reader(block);
  EXPECT_EQ(reader.num_filters(), 3u);
  EXPECT_TRUE(reader.KeyMayMatch(0, key));
  EXPECT_FALSE(reader.KeyMayMatch(2048, key));  // empty filter: no match
  EXPECT_TRUE(reader.KeyMayMatch(4096, std::vector<uint8_t>{'z'}));
  EXPECT_TRUE(reader.KeyMayMatch(1 << 20, key));  // past the last filter: may match

  // base_lg of 64 or more cannot be shifted by: treated as corrupt, so may match.
  Bytes bad_base = block;
  bad_base.back() = 64;
  EXPECT_TRUE(LevelDbFilterBlockReader(bad_base).KeyMayMatch(0, std::vector<uint8_t>{'q'}));
}

TEST(LevelDbFilterBlock, BuilderRejectsDecreasingAndHostileOffsets) {
  LevelDbFilterBlockBuilder builder(10);
  ASSERT_TRUE(builder.StartBlock(4096).ok());
  EXPECT_EQ(builder.StartBlock(0).code(), ErrorCode::kBadOptions);
  LevelDbFilterBlockBuilder hostile(10);
  EXPECT_EQ(hostile.StartBlock(uint64_t{1} << 50).code(), ErrorCode::kResourceLimit);
  // An end past 2^64 is as far out of reach, not a wrapped small offset.
  EXPECT_EQ(hostile.EndBlock(~uint64_t{0} - 8, 10).code(), ErrorCode::kResourceLimit);
}

TEST(BuildOptionsValidation, RejectsBadBitsPerKey) {
  const std::vector<std::vector<uint8_t>> keys = {{'a'}};
  const PackedKeys packed(keys);
  Bytes out;
  for (double bad : {0.0, -1.0, 1001.0, std::nan(""), 1.0 / 0.0, 10.5}) {
    BuildOptions options{FilterFormat::kLevelDbBloom, bad};
    EXPECT_EQ(BuildFilter(packed.view(), options, &out).code(), ErrorCode::kBadOptions) << bad;
  }
  BuildOptions rocks{FilterFormat::kRocksDbFastLocalBloom, 0.4};
  EXPECT_EQ(BuildFilter(packed.view(), rocks, &out).code(), ErrorCode::kBadOptions);
}

TEST(KeyBatch, ValidateRejectsBadOffsets) {
  const uint8_t data[4] = {1, 2, 3, 4};
  const uint32_t decreasing[3] = {0, 3, 2};
  EXPECT_EQ(KeyBatchView(data, 4, decreasing, 2).Validate().code(), ErrorCode::kBadKey);
  const uint32_t past_end[2] = {0, 5};
  EXPECT_EQ(KeyBatchView(data, 4, past_end, 1).Validate().code(), ErrorCode::kBadKey);
  const uint32_t fine[3] = {0, 2, 4};
  EXPECT_TRUE(KeyBatchView(data, 4, fine, 2).Validate().ok());
}

}  // namespace
}  // namespace sstfilter
