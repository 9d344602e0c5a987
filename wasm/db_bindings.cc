// Embind bindings for whole databases (sstfilter/db.h): a MANIFEST's state, CURRENT's line and a
// write-ahead log's batches in the public shapes of ts/api/db-types.ts and ts/api/wal.ts, built
// through wasm/marshal.h (64-bit numbers as BigInts).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "binding_support.h"
#include "db_marshal.h"
#include "marshal.h"
#include "sstfilter/db.h"

namespace sstfilter::wasm {

using emscripten::val;

DbFormat FormatNamed(const std::string& format) {
  return format == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb;
}

// LevelDB 1.23 writes .ldb and still reads the older .sst (leveldb db/filename.cc TableFileName,
// SSTTableFileName).
std::string TableName(uint64_t number, DbFormat format, const val& present) {
  std::string base = std::to_string(number);
  if (base.size() < 6) base.insert(0, 6 - base.size(), '0');
  if (format == DbFormat::kLevelDb && !present.call<bool>("has", base + ".ldb") &&
      present.call<bool>("has", base + ".sst")) {
    return base + ".sst";
  }
  return base + (format == DbFormat::kLevelDb ? ".ldb" : ".sst");
}

val WalRecordOf(const WalRecord& r) {
  val out = val::object();
  out.set("sequence", BigIntOf(r.sequence));
  out.set("columnFamily", r.column_family);
  out.set("kind", std::string(WalRecordKindName(r.kind)));
  out.set("key", ToUint8Array(r.key));
  out.set("value", ToUint8Array(r.value));
  return out;
}

namespace {

// A DatabaseFile (ts/api/db-types.ts).
val DatabaseFileOf(const TableFileMeta& f, DbFormat format, const val& present) {
  val out = val::object();
  out.set("number", BigIntOf(f.number));
  out.set("name", TableName(f.number, format, present));
  out.set("pathId", f.path_id);
  out.set("size", NumberOf(f.size));
  out.set("smallestKey", ToUint8Array(f.smallest_user_key()));
  out.set("largestKey", ToUint8Array(f.largest_user_key()));
  out.set("smallestInternalKey", ToUint8Array(f.smallest));
  out.set("largestInternalKey", ToUint8Array(f.largest));
  out.set("smallestSeqno", f.has_seqnos ? BigIntOf(f.smallest_seqno) : val::null());
  out.set("largestSeqno", f.has_seqnos ? BigIntOf(f.largest_seqno) : val::null());
  out.set("markedForCompaction", f.marked_for_compaction);
  out.set("oldestBlobFileNumber", BigIntOf(f.oldest_blob_file_number));
  out.set("oldestAncesterTime", BigIntOf(f.oldest_ancester_time));
  out.set("fileCreationTime", BigIntOf(f.file_creation_time));
  out.set("epochNumber", BigIntOf(f.epoch_number));
  out.set("fileChecksum", ToUint8Array(f.file_checksum));
  out.set("fileChecksumFuncName", f.file_checksum_func_name);
  out.set("temperature", f.temperature);
  if (f.unique_id) {
    out.set("uniqueId", ArrayOf(*f.unique_id, BigIntOf));
  } else {
    out.set("uniqueId", val::null());
  }
  return out;
}

// A DatabaseBlobFile.
val DatabaseBlobFileOf(const BlobFileState& b) {
  val out = val::object();
  out.set("number", BigIntOf(b.addition.number));
  out.set("totalBlobCount", BigIntOf(b.addition.total_blob_count));
  out.set("totalBlobBytes", BigIntOf(b.addition.total_blob_bytes));
  out.set("garbageBlobCount", BigIntOf(b.garbage_blob_count));
  out.set("garbageBlobBytes", BigIntOf(b.garbage_blob_bytes));
  out.set("checksumMethod", b.addition.checksum_method);
  out.set("checksumValue", ToUint8Array(b.addition.checksum_value));
  return out;
}

// A ColumnFamily, its levels as DatabaseLevels.
val ColumnFamilyOf(const ColumnFamilyState& cf, DbFormat format, const val& present) {
  val out = val::object();
  out.set("id", cf.id);
  out.set("name", cf.name);
  out.set("comparator", cf.comparator);
  out.set("logNumber", BigIntOf(cf.log_number));
  val levels = val::array();
  for (size_t level = 0; level < cf.files.size(); level++) {
    uint64_t bytes = 0;
    for (const TableFileMeta& f : cf.files[level]) bytes += f.size;
    val out_level = val::object();
    out_level.set("level", level);
    out_level.set("files", ArrayOf(cf.files[level], [&](const TableFileMeta& f) {
                    return DatabaseFileOf(f, format, present);
                  }));
    out_level.set("bytes", NumberOf(bytes));
    levels.call<void>("push", out_level);
  }
  out.set("levels", levels);
  out.set("blobFiles", ArrayOf(cf.blob_files, DatabaseBlobFileOf));
  return out;
}

// A ManifestEnd, or a WalEnd of a log read to its end.
val LogEndOf(const LogEnd& end) {
  val out = val::object();
  out.set("kind", std::string(LogEndKindName(end.kind)));
  out.set("offset", NumberOf(end.offset));
  out.set("what", end.what);
  return out;
}

// The state of the MANIFEST at [data, data + size) read as `format` ("leveldb" | "rocksdb"), as
// ts/api/db.ts's ManifestState: table file names as the folder's names `present` (a Set) have
// them. Null on error (last error).
val ReadManifestAt(uintptr_t data, size_t size, const std::string& format, const val& present) {
  ManifestState state;
  if (Status s = ReadManifest(View(data, size), FormatNamed(format), &state); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  val out = val::object();
  out.set("format", std::string(DbFormatName(state.format)));
  out.set("dbId", state.db_id ? val(*state.db_id) : val::null());
  out.set("nextFileNumber", BigIntOf(state.next_file_number));
  out.set("lastSequence", BigIntOf(state.last_sequence));
  out.set("prevLogNumber", BigIntOf(state.prev_log_number));
  out.set("minLogNumberToKeep", BigIntOf(state.min_log_number_to_keep));
  out.set("maxColumnFamily", state.max_column_family);
  out.set("editCount", state.edit_count);
  out.set("manifestEnd", LogEndOf(state.end));
  out.set("unfinishedAtomicGroup", state.unfinished_atomic_group);
  out.set("columnFamilies", ArrayOf(state.column_families, [&](const ColumnFamilyState& cf) {
            return ColumnFamilyOf(cf, state.format, present);
          }));
  return out;
}

// The MANIFEST file name CURRENT at [data, data + size) names; null on error (last error).
val ParseCurrentAt(uintptr_t data, size_t size) {
  std::string name;
  if (Status s = ParseCurrentFile(View(data, size), &name); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  return val(name);
}

// A WalMarker.
val WalMarkerOf(const WalMarker& m) {
  val out = val::object();
  out.set("kind", std::string(WalMarkerKindName(m.kind)));
  out.set("position", m.position);
  out.set("data", ToUint8Array(m.data));
  out.set("timestamp", ToUint8Array(m.timestamp));
  return out;
}

// The WalFile (ts/api/wal.ts) of the WAL at [data, data + size) named `name` (its number
// `log_number`), read past damage or stopping at it (LogDamage); never null. Its errors are
// `make_error(code, message, offset)`'s (ErrorOf): ts/api's SstFilterErrors naming the file. A bad
// record that ends the batches is `error` and ends the file as "corrupt" (or "malformed-batch");
// what a read past damage dropped is `dropped`, at most kMaxLogDrops of them, and `unlistedDrops`
// counts the rest; `predecessor` is the log's predecessor record or null.
val ReadWriteAheadLogAt(uintptr_t data, size_t size, const std::string& format,
                        const std::string& name, uint64_t log_number, bool read_past_damage,
                        const val& make_error) {
  const WalContents wal = ReadWriteAheadLog(View(data, size), FormatNamed(format), log_number,
                                            read_past_damage ? LogDamage::kSkip : LogDamage::kStop);
  val records = val::array();
  val batches = val::array();
  for (const WriteBatch& b : wal.batches) {
    val batch = val::object();
    batch.set("sequence", BigIntOf(b.sequence));
    batch.set("count", b.count);
    batch.set("offset", NumberOf(b.offset));
    batch.set("firstRecord", records["length"]);
    batch.set("recordCount", b.records.size());
    for (const WalRecord& r : b.records) records.call<void>("push", WalRecordOf(r));
    batch.set("markers", ArrayOf(b.markers, WalMarkerOf));
    batches.call<void>("push", batch);
  }
  val out = val::object();
  out.set("name", name);
  out.set("number", BigIntOf(log_number));
  out.set("records", records);
  out.set("batches", batches);
  if (wal.status.ok()) {
    out.set("end", LogEndOf(wal.end));
    out.set("error", val::null());
  } else {
    val end = val::object();
    end.set("kind", std::string(wal.malformed_batch ? "malformed-batch" : "corrupt"));
    end.set("offset", static_cast<double>(static_cast<uint64_t>(wal.status.offset())));
    end.set("what", wal.status.message());
    out.set("end", end);
    out.set("error", ErrorOf(wal.status, make_error));
  }
  out.set("dropped", ArrayOf(wal.drops, [&](const LogDrop& d) {
            val drop = val::object();
            drop.set("offset", NumberOf(d.offset));
            drop.set("size", NumberOf(d.size));
            drop.set("error", ErrorOf(d.status, make_error));
            return drop;
          }));
  out.set("unlistedDrops", NumberOf(wal.unlisted_drops));
  val predecessor = val::null();
  if (wal.predecessor) {
    const PredecessorWal& p = wal.predecessor->wal;
    predecessor = val::object();
    predecessor.set("offset", NumberOf(wal.predecessor->offset));
    predecessor.set("number", BigIntOf(p.log_number));
    predecessor.set("size", BigIntOf(p.size_bytes));
    predecessor.set("lastSequence", BigIntOf(p.last_sequence));
  }
  out.set("predecessor", predecessor);
  return out;
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_db) {
  using namespace sstfilter::wasm;
  emscripten::function("readManifest", &ReadManifestAt);
  emscripten::function("parseCurrentFile", &ParseCurrentAt);
  emscripten::function("readWriteAheadLog", &ReadWriteAheadLogAt);
}
