// Embedded blob tables (docs/FORMATS.md 3.10.3; RocksDB 11.6+ SstFileWriter::OpenWithEmbeddedBlobs)
// natively, on the v11-blob fixtures: a point lookup (TableGet) of every probe gives the value
// RocksDB 11.8.1's Get gave (a wide-column entity: GetEntity's columns, each resolved); a byte
// flipped inside a blob record's payload fails both a lookup of its key and verify's walk with
// kChecksumMismatch naming the record; rocksdb.embedded.blob.stats counts the records the entries
// name, and malformed values of it are kCorrupt as upstream.
#include "sstfilter/embedded_blobs.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "golden.h"
#include "sstfilter/table_cursor.h"
#include "sstfilter/table_get.h"
#include "sstfilter/values.h"
#include "table/table_reader.h"

namespace sstfilter {
namespace {

struct BlobTable {
  std::string id;
  Bytes file;
  nlohmann::json probes;  // { key, getValue (hex, null when Get found nothing) }
};

std::vector<BlobTable> LoadBlobTables() {
  std::vector<BlobTable> out;
  for (const auto& [corpus, manifest] : golden::Sections("v11_blob")) {
    for (const auto& c : manifest.at("cases")) {
      out.push_back(BlobTable{
          corpus->name + ":v11-blob/" + c.at("id").get<std::string>(),
          golden::ReadFileBytes(corpus->Path("v11-blob/" + c.at("file").get<std::string>())),
          c.at("probes")});
    }
  }
  return out;
}

std::unique_ptr<TableReader> Open(const Bytes& file, Status* status) {
  std::unique_ptr<TableReader> reader;
  *status = OpenTableFromMemory(file, TableOptions{}, &reader);
  return reader;
}

std::string Describe(const Status& s) {
  return std::string(ErrorCodeName(s.code())) + " " + s.message() + " at " +
         std::to_string(s.offset());
}

// A same-file blob index as stored (not resolved): an entry's, or a column's of its entity.
struct StoredBlob {
  Bytes key;
  uint64_t offset = 0;
  uint64_t size = 0;
};

std::vector<StoredBlob> SameFileBlobs(const TableReader& reader, const Bytes& file,
                                      Status* status) {
  std::vector<StoredBlob> out;
  TableCursor cursor(reader, TableCursor::Content::kEntries);
  cursor.SetEmbeddedBlobReads(false);
  for (;;) {
    *status = DriveFromMemory(cursor, file);
    if (!status->ok() || cursor.at_end()) return out;
    const auto& keys = cursor.key_offsets();
    const auto& values = cursor.value_offsets();
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
      const auto type = static_cast<EntryType>(cursor.tags()[i] & 0xff);
      const ByteView value =
          ByteView(cursor.value_data()).subspan(values[i], values[i + 1] - values[i]);
      std::vector<BlobIndex> indexes(1);
      if (type == EntryType::kBlobIndex) {
        if (*status = DecodeBlobIndex(value, &indexes[0]); !status->ok()) return out;
      } else if (type == EntryType::kWideColumnEntity) {
        std::vector<WideColumn> columns;
        if (*status = DecodeWideColumns(value, &columns); !status->ok()) return out;
        indexes.clear();
        for (const WideColumn& c : columns) {
          if (c.blob_index) indexes.push_back(*c.blob_index);
        }
      } else {
        continue;
      }
      const auto key = cursor.key_data().begin();
      for (const BlobIndex& index : indexes) {
        if (!IsSameFileBlobIndex(index)) continue;
        out.push_back(
            StoredBlob{Bytes(key + keys[i], key + keys[i + 1]), index.offset, index.size});
      }
    }
    cursor.ClearBatch();
  }
}

std::vector<BlobTable> NonEmpty() {
  std::vector<BlobTable> tables = LoadBlobTables();
  EXPECT_FALSE(tables.empty()) << "no v11_blob tables in " << golden::CorporaSummary();
  return tables;
}

TEST(EmbeddedBlobs, GetGivesRocksDbValueForEveryProbe) {
  size_t found = 0;
  size_t entities = 0;
  for (const BlobTable& t : NonEmpty()) {
    Status s;
    const auto reader = Open(t.file, &s);
    ASSERT_TRUE(s.ok()) << t.id << ": " << Describe(s);
    for (const auto& probe : t.probes) {
      const std::string key_hex = probe.at("key").get<std::string>();
      const Bytes key = golden::HexDecode(key_hex);
      std::unique_ptr<TableGet> get;
      s = GetFromMemory(*reader, t.file, key, &get);
      ASSERT_TRUE(s.ok()) << t.id << " probe " << key_hex << ": " << Describe(s);
      const auto type = get->entry_count() == 0 ? EntryType::kDelete
                                                : static_cast<EntryType>(get->tags()[0] & 0xff);
      const bool put = type == EntryType::kPut;
      const bool entity = type == EntryType::kWideColumnEntity;
      if (probe.at("getValue").is_null()) {
        EXPECT_FALSE(put || entity)
            << t.id << " probe " << key_hex << ": a value where RocksDB found none";
        continue;
      }
      ASSERT_TRUE(put || entity) << t.id << " probe " << key_hex << ": " << get->entry_count()
                                 << " entries, the newest neither a put nor an entity";
      const auto& v = get->value_offsets();
      const ByteView value = ByteView(get->value_data()).subspan(v[0], v[1] - v[0]);
      // Get's value for an entity is its default column; GetEntity's are all its columns, every
      // same-file one read from its record.
      std::string answer = golden::HexEncode(value);
      if (entity) {
        std::vector<WideColumn> columns;
        s = DecodeWideColumns(value, &columns);
        ASSERT_TRUE(s.ok()) << t.id << " probe " << key_hex << ": " << Describe(s);
        nlohmann::json pairs = nlohmann::json::array();
        for (const WideColumn& c : columns) {
          EXPECT_FALSE(c.blob_index) << t.id << " probe " << key_hex << ": a column unresolved";
          pairs.push_back({golden::HexEncode(c.name), golden::HexEncode(c.value)});
        }
        EXPECT_EQ(pairs, probe.at("getEntity")) << t.id << " probe " << key_hex;
        answer =
            !columns.empty() && columns[0].name.empty() ? golden::HexEncode(columns[0].value) : "";
        ++entities;
      }
      EXPECT_EQ(answer, probe.at("getValue").get<std::string>()) << t.id << " probe " << key_hex;
      ++found;
    }
  }
  EXPECT_GT(found, 0u);
  EXPECT_GT(entities, 0u) << "no probe of a wide-column entity";
}

TEST(EmbeddedBlobs, StatsPropertyCountsTheRecordsTheEntriesName) {
  for (const BlobTable& t : NonEmpty()) {
    Status s;
    const auto reader = Open(t.file, &s);
    ASSERT_TRUE(s.ok()) << t.id << ": " << Describe(s);
    const std::vector<StoredBlob> blobs = SameFileBlobs(*reader, t.file, &s);
    ASSERT_TRUE(s.ok()) << t.id << ": " << Describe(s);
    ASSERT_FALSE(blobs.empty()) << t.id << ": no entry holds a same-file blob index";
    uint64_t bytes = 0;
    for (const StoredBlob& b : blobs) bytes += b.size;
    const TableProperty* property = nullptr;
    for (const TableProperty& p : reader->properties()) {
      if (p.name == kEmbeddedBlobStatsProperty) property = &p;
    }
    ASSERT_NE(property, nullptr) << t.id << ": no " << kEmbeddedBlobStatsProperty;
    EmbeddedBlobStats stats;
    s = DecodeEmbeddedBlobStats(property->bytes, &stats);
    ASSERT_TRUE(s.ok()) << t.id << ": " << Describe(s);
    EXPECT_EQ(stats.blob_count, blobs.size()) << t.id;
    EXPECT_EQ(stats.payload_bytes, bytes) << t.id;
  }
}

TEST(EmbeddedBlobs, FlippedPayloadByteIsChecksumMismatchOnGetAndVerify) {
  for (const BlobTable& t : NonEmpty()) {
    Status s;
    const auto sound = Open(t.file, &s);
    ASSERT_TRUE(s.ok()) << t.id << ": " << Describe(s);
    const std::vector<StoredBlob> blobs = SameFileBlobs(*sound, t.file, &s);
    ASSERT_TRUE(s.ok()) << t.id << ": " << Describe(s);
    const StoredBlob* blob = nullptr;
    for (const StoredBlob& b : blobs) {
      if (b.size > 0 && blob == nullptr) blob = &b;
    }
    ASSERT_NE(blob, nullptr) << t.id << ": no blob record with a payload";
    Bytes damaged = t.file;
    const uint64_t flipped = blob->offset + blob->size / 2;
    damaged[flipped] ^= 0x01;
    const std::string what = t.id + " (byte " + std::to_string(flipped) + " flipped)";
    // Opening reads no blob record: the damage shows only where a record is read.
    const auto reader = Open(damaged, &s);
    ASSERT_TRUE(s.ok()) << what << ": open: " << Describe(s);

    std::unique_ptr<TableGet> get;
    s = GetFromMemory(*reader, damaged, blob->key, &get);
    EXPECT_EQ(s.code(), ErrorCode::kChecksumMismatch) << what << ": get: " << Describe(s);
    EXPECT_EQ(s.offset(), static_cast<int64_t>(blob->offset)) << what << ": get: " << Describe(s);

    // verify's walk (wasm/table_bindings.cc Keys with check_order).
    TableCursor walk(*reader);
    walk.SetOrderCheck(true);
    walk.SetEmbeddedBlobReads(true);
    for (s = DriveFromMemory(walk, damaged); s.ok() && !walk.at_end();
         s = DriveFromMemory(walk, damaged)) {
      walk.ClearBatch();
    }
    EXPECT_EQ(s.code(), ErrorCode::kChecksumMismatch) << what << ": verify: " << Describe(s);
    EXPECT_EQ(s.offset(), static_cast<int64_t>(blob->offset))
        << what << ": verify: " << Describe(s);
  }
}

TEST(EmbeddedBlobs, StatsDecodeAsRocksDbDoes) {
  struct Case {
    Bytes value;
    bool ok;
    uint64_t count;
    uint64_t bytes;
    int64_t offset;  // of the error
  };
  const std::vector<Case> cases = {
      {{0x03, 0x90, 0x01}, true, 3, 144, -1},
      {{0x02, 0x10, 0xff}, true, 2, 16, -1},  // bytes after the two varints are ignored
      {{0x00, 0x00}, true, 0, 0, -1},
      {{}, false, 0, 0, 0},            // no count
      {{0x80}, false, 0, 0, 0},        // truncated count
      {{0x05}, false, 0, 0, 1},        // no bytes
      {{0x05, 0x80}, false, 0, 0, 1},  // truncated bytes
      {{0x00, 0x01}, false, 0, 0, 1},  // bytes counted without a record
  };
  for (const Case& c : cases) {
    const std::string hex = golden::HexEncode(c.value);
    EmbeddedBlobStats stats;
    const Status s = DecodeEmbeddedBlobStats(c.value, &stats);
    if (c.ok) {
      ASSERT_TRUE(s.ok()) << hex << ": " << Describe(s);
      EXPECT_EQ(stats.blob_count, c.count) << hex;
      EXPECT_EQ(stats.payload_bytes, c.bytes) << hex;
    } else {
      EXPECT_EQ(s.code(), ErrorCode::kCorrupt) << hex << ": " << Describe(s);
      EXPECT_EQ(s.offset(), c.offset) << hex << ": " << Describe(s);
    }
  }
}

}  // namespace
}  // namespace sstfilter
