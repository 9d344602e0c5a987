// Writing table files (docs/FORMATS.md 3.11): the bytes RocksDB's SstFileWriter (block-based
// tables: format_version 2 to 5 as 7.8.3 writes them, 6 and 7 as 11.9 does) or LevelDB's
// TableBuilder would write for the same entries and
// options. Entries go in ascending key order; finished bytes come out as they are ready
// (TakeOutput), so a file larger than memory can stream: the writer holds one data block, the
// index, the filter's key hashes (or finished partitions) and the range deletions, never the data
// written before.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/filter.h"
#include "sstfilter/status.h"
#include "sstfilter/table.h"

namespace sstfilter {

// The properties of a RocksDB table that name who wrote it and when: no second writer can know
// them, so a caller that wants the bytes of a given SstFileWriter run hands them over. An empty
// string is not written (RocksDB's PropertyBlockBuilder skips empty ones), nor is
// file_creation_time 0. The defaults are what SstFileWriter writes apart from its random session
// id and the host's name.
struct TableIdentity {
  std::string db_id = "SST Writer";  // rocksdb.creating.db.identity
  std::string db_session_id;         // rocksdb.creating.session.identity
  std::string db_host_id;            // rocksdb.creating.host.identity
  uint64_t creation_time = 0;        // rocksdb.creation.time
  uint64_t file_creation_time = 0;   // rocksdb.file.creation.time
  uint64_t oldest_key_time = 0;      // rocksdb.oldest.key.time
  uint64_t newest_key_time = 0;      // rocksdb.newest.key.time (format_version >= 6)
  uint64_t orig_file_number = 1;     // rocksdb.original.file.number (SstFileWriter's first file)
  // format_version >= 6: the footer's base_context_checksum, which RocksDB draws at random per
  // file (BlockBasedTableBuilder::Rep). 0 derives a non-zero one from db_session_id and
  // orig_file_number, so that the same inputs give the same file.
  uint32_t base_context_checksum = 0;
};

// RocksDB's BlockBasedTableOptions::index_type, of the kinds the writer builds.
enum class TableIndexType : uint8_t {
  kBinarySearch,  // one index block (kBinarySearch, the default)
  kTwoLevel,      // index partitions and a top-level index over them (kTwoLevelIndexSearch)
};

struct TableWriteOptions {
  // kRocksDb: SstFileWriter (internal keys with sequence number 0). kLevelDb: a bare TableBuilder
  // (user keys, puts only).
  TableFamily format = TableFamily::kRocksDb;
  // RocksDB 2 to 7 (7.8.3's default is 5, 11.9's is 7). 2 to 5 give what 7.8.3's SstFileWriter
  // writes; 6 and 7, which only RocksDB >= 8.6 and >= 10.4 read, what 11.9's writes: its footer,
  // context checksums, compression rule and property set (docs/FORMATS.md 3.11.7).
  uint32_t format_version = 5;
  // No filter, or the filter to build: kLevelDbBloom for LevelDB (its filter block), one of the
  // RocksDB formats for RocksDB (a full or partitioned filter: NewBloomFilterPolicy writes the
  // legacy Bloom below format_version 5 and FastLocalBloom from 5 on; Ribbon is
  // NewRibbonFilterPolicy).
  std::optional<FilterFormat> filter;
  double bits_per_key = 10;
  // RocksDB: "" (none), "fixed:N" / "capped:N" or their rocksdb.FixedPrefix.N /
  // rocksdb.CappedPrefix.N names. The filter then holds prefixes too (or only them without
  // whole-key filtering).
  std::string prefix_extractor;
  bool whole_key_filtering = true;
  // "none" or "snappy" (both libraries' default); RocksDB also "zlib", "bzip2", "lz4", "lz4hc" and
  // "zstd", each as 7.8.3 compresses with its default CompressionOptions.
  std::string compression = "snappy";
  // RocksDB: "none", "crc32c", "xxhash", "xxhash64" or "xxh3"; LevelDB: "crc32c". "": the
  // format's default (xxh3, BlockBasedTableOptions::checksum in 7.8.3's include/rocksdb/table.h;
  // crc32c for LevelDB).
  std::string checksum;
  uint64_t block_size = 4096;      // >= 1
  uint32_t restart_interval = 16;  // >= 1
  // RocksDB: the index, and with partition_filters (which needs the two-level index) a filter
  // per index partition instead of one full filter. metadata_block_size (>= 1) is the size at
  // which index partitions are cut; filter partitions ask for a cut at 90% of it.
  TableIndexType index_type = TableIndexType::kBinarySearch;
  bool partition_filters = false;
  uint64_t metadata_block_size = 4096;
  // format_version >= 6 (RocksDB 11.x's decouple_partitioned_filters, its default): filter
  // partitions are cut by the hashes they hold rather than with the index partitions. Older
  // format_versions always cut them together (7.8.3 has no such option).
  bool decouple_partitioned_filters = true;
  // format_version >= 6 (RocksDB 11's separate_key_value_in_data_block): data blocks keep their
  // values in a section apart from the keys (docs/FORMATS.md 3.3.1), and the table records
  // rocksdb.separate.key.value.in.data.block = 1.
  bool separate_key_value_in_data_block = false;
  // The order the keys are added in, as the database's comparator (a RocksDB table records its
  // name in rocksdb.comparator). Bytewise comparators' separators are shortened by each library's
  // own rules; any other comparator's by its FindShortestSeparator / FindShortSuccessor.
  ComparatorRef comparator = BuiltinComparator(kBytewiseComparatorName);
  TableIdentity identity;  // RocksDB only
  // RocksDB: further properties, as a user's TablePropertiesCollector adds them: name -> raw
  // value. Names starting with "rocksdb." are RocksDB's own and not accepted here.
  std::vector<std::pair<std::string, Bytes>> user_properties;
};

// Largest key and value one entry may have (every block must stay readable: kMaxBlockBytes).
inline constexpr size_t kMaxWriteKeyBytes = size_t{64} << 20;
inline constexpr size_t kMaxWriteValueBytes = size_t{128} << 20;

class TableWriter {
 public:
  // kBadOptions names the option that is out of range or unknown.
  static Status Create(const TableWriteOptions& options, std::unique_ptr<TableWriter>* out);
  virtual ~TableWriter() = default;

  // Point entries: user keys strictly ascending (in options.comparator's order) across all three. A
  // key that does not sort after the one before, or that is too large, is kBadKey; its message
  // names the entry's position
  // ("entry N": 0-based, counting every call that added an entry). LevelDB tables take Put only.
  Status Put(ByteView key, ByteView value);
  Status Delete(ByteView key);
  Status Merge(ByteView key, ByteView value);
  // RocksDB: deletes user keys [start, end); any order relative to the point entries, stored in
  // the order given. end < start is kBadKey.
  Status DeleteRange(ByteView start, ByteView end);

  // Writes the meta blocks, metaindex and footer. A RocksDB table needs at least one entry (as
  // SstFileWriter does). After an error, every later call returns that error, and a writer that
  // failed is never finished.
  Status Finish();
  bool finished() const { return finished_; }

  // The bytes finished since the last call; the file is all of them in order.
  Bytes TakeOutput();
  size_t pending_output_bytes() const { return output_.size(); }
  // Bytes of the file produced so far (taken or not).
  uint64_t file_size() const { return offset_; }
  uint64_t entries() const { return entries_; }

 protected:
  explicit TableWriter(ComparatorRef comparator) : comparator_(std::move(comparator)) {}

  enum class Op : uint8_t { kPut, kDelete, kMerge };
  virtual Status AddPoint(Op op, ByteView key, ByteView value) = 0;
  virtual Status AddRangeDeletion(ByteView start, ByteView end) = 0;
  virtual Status FinishTable() = 0;

  // Appends finished file bytes.
  void Emit(ByteView bytes) {
    output_.insert(output_.end(), bytes.begin(), bytes.end());
    offset_ += bytes.size();
  }

 private:
  Status Add(Op op, ByteView key, ByteView value);
  Status Latch(Status s);

  ComparatorRef comparator_;
  Bytes output_;
  uint64_t offset_ = 0;
  uint64_t entries_ = 0;
  bool has_point_key_ = false;
  Bytes last_point_key_;
  Status error_;
  bool finished_ = false;
};

}  // namespace sstfilter
