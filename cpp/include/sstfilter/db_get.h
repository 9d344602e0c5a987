// A point lookup through a whole database (docs/FORMATS.md 6.6), as DB::Get takes it, without
// doing I/O: the memtable recovery rebuilt from the write-ahead logs (sstfilter/wal_recovery.h),
// log by log newest first, then level 0's files newest first, then on each deeper level the one
// file whose key range can hold the key; in each file its covering range deletions, the filter,
// then the index and data blocks (sstfilter/table_get.h). Sources: rocksdb db/db_impl/db_impl.cc
// DBImpl::GetImpl, db/memtable.cc MemTable::Get, db/version_set.cc Version::Get and FilePicker,
// db/table_cache.cc TableCache::Get, table/get_context.cc GetContext::SaveValue; leveldb
// db/version_set.cc Version::Get. ts/api/db-get.ts drives it (wasm/db_get_bindings.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/comparator.h"
#include "sstfilter/manifest.h"
#include "sstfilter/memtable.h"
#include "sstfilter/status.h"
#include "sstfilter/table_reader.h"

namespace sstfilter {

struct DbGetResult {
  enum class Outcome : uint8_t { kFound, kDeleted, kNotFound, kMergeOperands };
  Outcome outcome = Outcome::kNotFound;
  // kFound: the value. kMergeOperands: the base value the chain ends at, when that is a value
  // (has_value); else empty.
  bool has_value = false;
  Bytes value;
  // The deciding value is a blob index (values.h): the value itself lies in a blob file, which
  // the driver reads (ReadBlobValue); `value` holds the index.
  bool value_is_blob_index = false;
  // The deciding value is a wide-column entity's default column (empty when it has none); `entity`
  // holds the whole entity (values.h DecodeWideColumns), its columns in a table's own blob records
  // read, those in blob files still blob indexes: what GetEntity answers from.
  std::optional<Bytes> entity;
  // kMergeOperands: the chain's operands, newest first. No merge operator runs here.
  std::vector<Bytes> operands;
  // The deciding entry's sequence number: the value's or the deletion's, the covering range
  // deletion's, or for kMergeOperands the newest operand's. None for kNotFound.
  std::optional<uint64_t> sequence;
};

// "found", "deleted", "not-found", "merge-operands".
const char* DbGetOutcomeName(DbGetResult::Outcome outcome);

// One memtable log or table file the lookup consulted, in order.
struct DbGetStep {
  enum class Where : uint8_t { kMemTable, kTable };
  // What RocksDB's filter statistics count for the step: kNo (BLOOM_FILTER_USEFUL), kMaybe
  // (BLOOM_FILTER_FULL_POSITIVE: "may match", or a filter in use that could not probe the key),
  // kNone (no filter in use); kNotConsulted: out of range, or the memtable. LevelDB's index
  // ruling out a key after the file's last counts as kNo.
  enum class Filter : uint8_t { kNotConsulted, kNo, kMaybe, kNone };
  // The entry that ended the step (a merge operand when the chain goes on), kRangeDeletion when a
  // range deletion covers what is left, kNone when nothing of the key was found; kNotRead: out of
  // range, or the filter said no and no range deletion covers the key.
  enum class Entry : uint8_t {
    kNotRead,
    kValue,
    kDeletion,
    kSingleDeletion,
    kMerge,
    kRangeDeletion,
    kNone,
  };
  Where where = Where::kMemTable;
  uint64_t file_number = 0;  // the log's or the table's
  int level = -1;            // the table's level; -1 for the memtable
  bool in_range = true;      // table: smallest <= key <= largest (user keys)
  Filter filter = Filter::kNotConsulted;
  Entry entry = Entry::kNotRead;
  std::optional<uint64_t> sequence;  // the entry's
  // Blocks the step read as RocksDB's PerfContext block_read_count counts them ("total number of
  // block reads (with IO)", rocksdb include/rocksdb/perf_context.h; table/block_fetcher.cc counts
  // it on each read from the file): the filter partition probed, the data blocks BlockBasedTable::
  // Get reads until the key is decided (LevelDB's Table::InternalGet: the one data block), less
  // those the block cache served. The filter partitions are held by the reader since it opened
  // the table, so they are never looked up in the cache and count here as RocksDB reading one
  // would.
  uint64_t blocks_read = 0;
  // Of those data blocks, the ones the block cache (TableReadOptions::block_cache) served, as
  // PerfContext block_cache_hit_count counts them (rocksdb table/block_based/
  // block_based_table_reader.cc UpdateCacheHitMetrics): a block is counted once, in one of the
  // two.
  uint64_t block_cache_hits = 0;
};

// "no", "maybe", "none", "" (not consulted); "value", "deletion", "single-deletion", "merge",
// "range-deletion", "none", "" (not read): the names ts/api/db-get.ts RouteStep gives them.
const char* DbGetFilterName(DbGetStep::Filter filter);
const char* DbGetEntryName(DbGetStep::Entry entry);

struct DbGetOptions {
  DbFormat format = DbFormat::kRocksDb;
  // The column family and its files, as ReadManifest gives them. Must outlive the lookup.
  const ColumnFamilyState* family = nullptr;
  // The family's key order. Null: the built-in comparator the family names (kUnsupported for
  // another name).
  ComparatorRef comparator;
  // The memtable WalReplay built (null: none, the tables alone), and the logs it was replayed
  // from (RecoveredLog::number); logs numbered below the family's log_number are skipped. Must
  // outlive the lookup.
  const MemTable* memtable = nullptr;
  std::vector<uint64_t> log_numbers;
  // How the database reads its tables (TableReader::MayContain), and its block cache. With a
  // cache, name the database by read.cache_table.owner (BlockCache::NewId(), taken once when it
  // is opened): each table is then cached under that owner and its file number, so that the
  // blocks of a table reopened for the next lookup are found again (owner 0: under the id of
  // each reader, found again only through the same reader).
  TableReadOptions read;
  // For a family with user-defined timestamps: the timestamp read at (ReadOptions::timestamp;
  // absent: the newest, every version visible). Versions and range deletions at newer timestamps
  // are skipped, in the memtable and in the tables that keep their keys' timestamps; a table
  // written without them (persist_user_defined_timestamps = false) has its keys read as at the
  // minimum timestamp, all visible. kBadOptions for a family without timestamps.
  std::optional<uint64_t> read_timestamp;
};

// Resolves one user key: Advance() until done(). In between, either table_needed() names a table
// file to open (the driver opens it, from its footer on, as TableReader asks, and hands it over
// with SetTable), or need() asks for bytes of that table's file (ResumableRead, sstfilter/
// table.h). Errors: kUnsupported for an entry a Get cannot resolve here (a wide-column entity
// whose default column is a blob reference) and for a comparator it does not have; kCorrupt for a
// TimedPut value too short for its preferred sequence number and an entity that does not decode;
// the tables' errors as TableGet gives them. Messages name the file.
//
// `user_key` is looked up in the memtable by the stored key's bytes (MemTable::Versions), in the
// tables as TableGet takes it. With user-defined timestamps it comes without one: the memtable's
// versions at every timestamp up to the read timestamp count, newest timestamp first
// (MemTable::VersionsAtEveryTimestamp), then the tables' as TableGet lists them, those at newer
// timestamps than the read's skipped (DbGetOptions::read_timestamp). Checked against RocksDB
// 11.8.1 on a database whose tables were written without timestamps (fixture
// v11-db/udt-memtable-only) and against RocksDB 7.8.3 on databases whose one table keeps them
// (corpus section rocksdb_timestamp).
class DbGet final : public ResumableRead {
 public:
  DbGet(DbGetOptions options, ByteView user_key);
  ~DbGet() override;
  DbGet(const DbGet&) = delete;
  DbGet& operator=(const DbGet&) = delete;

  // Runs until the answer is complete or the driver is needed.
  Status Advance() override;
  BlockFetcher& fetcher() const override;
  bool done() const;

  // The table to open before the next Advance(), and its level; null when none is wanted. need()
  // bytes are of this file too.
  const TableFileMeta* table_needed() const;
  int table_level() const;
  // Hands over the table table_needed() names, open (is_open()); the lookup keeps what it needs
  // of it, so the reader may go once this returns.
  Status SetTable(const TableReader& table);

  // Complete once done().
  const DbGetResult& result() const;
  const std::vector<DbGetStep>& steps() const;

 private:
  struct State;  // the resolution and where the lookup is (db_get.cc)
  std::unique_ptr<State> state_;
};

// Runs a DbGet over files the caller reads whole: `table_file(meta, &bytes)` gives the bytes of a
// table file (they must stay valid until the call returns), and each is opened with
// `table_options` (the caller sets the family's comparator there, as the database opens them).
using TableFileSource = std::function<Status(const TableFileMeta& meta, ByteView* bytes)>;
Status DbGetFromMemory(DbGet& get, const TableFileSource& table_file,
                       const TableOptions& table_options = {});

}  // namespace sstfilter
