// Logs read chunk by chunk (sstfilter/db.h LogReader::Feed, WriteAheadLogReader; wal_recovery.h
// WalReplay::Append): every log file of the corpora, fed in chunks from one byte to just past a
// block, reads as the whole file does under both formats and both damage modes, and a replay of a
// large log holds no more than a block and its largest record between chunks.
#include "log_chunks.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "../fuzz/log_builder.h"
#include "golden.h"
#include "sstfilter/db.h"
#include "sstfilter/wal_recovery.h"

namespace sstfilter {
namespace {

namespace fs = std::filesystem;

// Whether `text` is one or more decimal digits.
bool AllDigits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

TEST(LogChunks, EveryCorpusLogReadsInChunksAsWhole) {
  // WALs are named by their number ("000012.log"); MANIFESTs ("MANIFEST-000005") carry no
  // recyclable records (number 0). Matched by hand: GCC 12 warns inside <regex> under the
  // sanitizers (-Wmaybe-uninitialized).
  const std::string_view wal_suffix = ".log", manifest_prefix = "MANIFEST-";
  size_t files = 0, wals = 0, compared = 0;
  for (const golden::Corpus& corpus : golden::Corpora()) {
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(corpus.dir)) {
      if (!entry.is_regular_file()) continue;
      const std::string name = entry.path().filename().string();
      const std::string_view view = name;
      const bool is_wal = view.size() > wal_suffix.size() && view.ends_with(wal_suffix) &&
                          AllDigits(view.substr(0, view.size() - wal_suffix.size()));
      const bool is_manifest =
          view.starts_with(manifest_prefix) && AllDigits(view.substr(manifest_prefix.size()));
      if (!is_wal && !is_manifest) continue;
      const Bytes log = golden::ReadFileBytes(entry.path());
      const uint64_t log_number =
          is_wal ? std::stoull(std::string(view.substr(0, view.size() - wal_suffix.size()))) : 0;
      const std::string where = corpus.name + ":" + fs::relative(entry.path(), corpus.dir).string();
      // Both formats and both damage modes: a file read as the other format is damage too.
      for (const DbFormat format : {DbFormat::kLevelDb, DbFormat::kRocksDb}) {
        for (const LogDamage damage : {LogDamage::kStop, LogDamage::kSkip}) {
          compared += log_chunks::ExpectChunkingsAgree(log, format, log_number, damage, where);
        }
      }
      ++files;
      wals += is_wal ? 1 : 0;
    }
  }
  std::cout << "[ chunks   ] " << files << " logs (" << wals << " WALs), " << compared
            << " chunked readings compared (" << golden::CorporaSummary() << ")\n";
  EXPECT_GE(wals, 20u);
  EXPECT_GE(files, 50u);
}

// A write batch of `count` puts of `key` + i, each value `value_size` bytes of `fill`.
Bytes PutBatch(uint64_t sequence, uint32_t count, const std::string& key, size_t value_size,
               uint8_t fill) {
  Bytes batch;
  PutFixed64(&batch, sequence);
  PutFixed32(&batch, count);
  for (uint32_t i = 0; i < count; ++i) {
    const std::string k = key + std::to_string(i);
    batch.push_back(1);  // kTypeValue (rocksdb db/dbformat.h)
    PutVarint64(&batch, k.size());
    batch.insert(batch.end(), k.begin(), k.end());
    PutVarint64(&batch, value_size);
    batch.insert(batch.end(), value_size, fill);
  }
  return batch;
}

// A replay of a 24 MiB log keeping one key holds, between chunks, at most the current block and
// the largest record (a 200 KB batch spanning seven blocks): not the log. And it replays what a
// replay of the whole file replays.
TEST(LogChunks, AReplayOfALargeLogHoldsABlockAndARecord) {
  fuzz::LogBuilder log;
  uint64_t sequence = 1;
  size_t largest = 0;
  for (int i = 0; log.bytes().size() < (size_t{24} << 20); ++i) {
    // Mostly small batches, every 97th a large one that spans blocks.
    // The key built with append: GCC 12 warns (-Wrestrict) on "literal" + std::string&&.
    const bool big = i % 97 == 0;
    const std::string key = std::string(big ? "big" : "k").append(std::to_string(i));
    const Bytes batch =
        big ? PutBatch(sequence, 2, key, 100000, 'b') : PutBatch(sequence, 5, key, 100, 'v');
    sequence += big ? 2 : 5;
    largest = std::max(largest, batch.size());
    log.Add(batch);
  }
  WalReplayOptions options;
  options.column_families = {{0, 0, nullptr}};
  options.only_key = Bytes{'k', '4', '2', '3'};
  WalReplay whole(options);
  ASSERT_TRUE(whole.ReplayLog("000009.log", 9, log.bytes()).ok());
  ASSERT_TRUE(whole.Finish().ok());
  for (const size_t chunk : {size_t{1} << 20, size_t{65536} + 3, size_t{4096}}) {
    WalReplay chunked(options);
    chunked.BeginLog("000009.log", 9);
    size_t peak = 0;
    const ByteView bytes = log.bytes();
    for (size_t at = 0; at < bytes.size(); at += chunk) {
      chunked.Append(bytes.subspan(at, std::min(chunk, bytes.size() - at)));
      peak = std::max(peak, chunked.held_bytes());
    }
    ASSERT_TRUE(chunked.EndLog().ok()) << chunk;
    ASSERT_TRUE(chunked.Finish().ok()) << chunk;
    EXPECT_LE(peak, kLogBlockSize + largest) << "chunks of " << chunk;
    EXPECT_GT(peak, 0u) << "chunks of " << chunk;
    EXPECT_EQ(chunked.held_bytes(), 0u);
    EXPECT_EQ(chunked.next_sequence(), whole.next_sequence()) << chunk;
    EXPECT_EQ(chunked.next_sequence(), sequence) << chunk;
    EXPECT_EQ(chunked.logs()[0].records, whole.logs()[0].records) << chunk;
    EXPECT_EQ(chunked.logs()[0].end.kind, LogEnd::Kind::kClean) << chunk;
    const auto versions = chunked.memtable().Versions(0, *options.only_key);
    ASSERT_EQ(versions.size(), 1u) << chunk;
    EXPECT_EQ(versions[0].sequence, whole.memtable().Versions(0, *options.only_key)[0].sequence);
    EXPECT_EQ(chunked.memtable().entry_count(), 1u) << chunk;
  }
}

}  // namespace
}  // namespace sstfilter
