// The Chromium profile sample (/work/chromium-sample, or $SSTFILTER_CHROMIUM_SAMPLE): its LevelDB
// folders read into the latest version of every key (tables and logs merged by sequence number),
// for the IndexedDB and Chrome store tests. Header-only test support.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sstfilter/db.h"
#include "sstfilter/table.h"

namespace sstfilter::testing {

inline std::filesystem::path ChromiumSampleDir() {
  if (const char* dir = std::getenv("SSTFILTER_CHROMIUM_SAMPLE")) return dir;
  return "/work/chromium-sample";
}

inline bool ChromiumSampleReady() { return std::filesystem::exists(ChromiumSampleDir() / "READY"); }

inline Bytes ReadWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct SampleEntry {
  uint64_t sequence = 0;
  bool deleted = false;
  Bytes value;
};

struct SampleTable {
  std::string name;
  Bytes file;
  std::vector<Bytes> keys;         // user keys in file order
  std::vector<size_t> block_ends;  // data block i holds keys [block_ends[i - 1], block_ends[i])
  std::vector<Bytes> separators;   // the index block's user keys, one per data block
};

// Bytewise order of keys (a string_view comparison: GCC 12 misreads std::vector's operator<).
struct BytewiseLess {
  bool operator()(const Bytes& a, const Bytes& b) const {
    return std::string_view(reinterpret_cast<const char*>(a.data()), a.size()) <
           std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
  }
};

struct SampleFolder {
  std::map<Bytes, SampleEntry, BytewiseLess> latest;  // every key's newest version
  std::vector<SampleTable> tables;
  std::string error;
};

inline void Offer(SampleFolder* folder, const Bytes& key, uint64_t sequence, bool deleted,
                  ByteView value) {
  SampleEntry& entry = folder->latest[key];
  if (entry.sequence > sequence) return;
  entry.sequence = sequence;
  entry.deleted = deleted;
  entry.value.assign(value.begin(), value.end());
}

// Reads every .ldb and .log of a LevelDB folder.
inline SampleFolder ReadLevelDbFolder(const std::filesystem::path& dir) {
  SampleFolder folder;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    const std::string ext = path.extension().string();
    if (ext == ".ldb" || ext == ".sst") {
      SampleTable table;
      table.name = path.filename().string();
      table.file = ReadWholeFile(path);
      std::unique_ptr<TableReader> reader;
      if (Status s = OpenTableFromMemory(table.file, TableOptions{}, &reader); !s.ok()) {
        folder.error += table.name + ": " + s.message() + "\n";
        continue;
      }
      TableCursor cursor(*reader, TableCursor::Content::kEntries);
      while (!cursor.at_end()) {
        if (Status s = DriveFromMemory(cursor, table.file); !s.ok()) {
          folder.error += table.name + ": " + s.message() + "\n";
          break;
        }
        for (const TableCursor::BatchBlock& block : cursor.key_blocks()) {
          table.block_ends.push_back(table.keys.size() + block.keys_end);
        }
        const auto& ko = cursor.key_offsets();
        const auto& vo = cursor.value_offsets();
        for (size_t i = 0; i + 1 < ko.size(); ++i) {
          Bytes key(cursor.key_data().begin() + ko[i], cursor.key_data().begin() + ko[i + 1]);
          const uint64_t tag = cursor.tags()[i];
          ByteView value(cursor.value_data().data() + vo[i], vo[i + 1] - vo[i]);
          Offer(&folder, key, tag >> 8, (tag & 0xff) == 0, value);
          table.keys.push_back(std::move(key));
        }
        cursor.ClearBatch();
      }
      TableLayoutRead layout(*reader);
      if (Status s = DriveFromMemory(layout, table.file); !s.ok()) {
        folder.error += table.name + " layout: " + s.message() + "\n";
      }
      for (const TableRegion& region : layout.regions()) {
        if (region.kind == TableRegionKind::kData && region.separator) {
          table.separators.push_back(*region.separator);
        }
      }
      folder.tables.push_back(std::move(table));
    } else if (ext == ".log") {
      const Bytes file = ReadWholeFile(path);
      const uint64_t number = std::stoull(path.stem().string());
      const WalContents wal = ReadWriteAheadLog(file, DbFormat::kLevelDb, number);
      for (const WriteBatch& batch : wal.batches) {
        for (const WalRecord& record : batch.records) {
          Offer(&folder, record.key, record.sequence, record.kind == WalRecordKind::kDelete,
                record.value);
        }
      }
    }
  }
  return folder;
}

}  // namespace sstfilter::testing
