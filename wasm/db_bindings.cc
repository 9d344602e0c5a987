// Embind bindings for whole databases (sstfilter/db.h): a MANIFEST's state, CURRENT's line and a
// write-ahead log's batches as plain objects for ts/api/db.ts and ts/api/wal.ts. 64-bit numbers
// cross as decimal strings; the TypeScript side makes them bigints.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "binding_support.h"
#include "sstfilter/db.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

std::string Number(uint64_t v) { return std::to_string(v); }

val TableFileObject(const TableFileMeta& f) {
  val out = val::object();
  out.set("number", Number(f.number));
  out.set("pathId", f.path_id);
  out.set("size", Number(f.size));
  out.set("smallestKey", ToUint8Array(f.smallest_user_key()));
  out.set("largestKey", ToUint8Array(f.largest_user_key()));
  out.set("smallestInternalKey", ToUint8Array(f.smallest));
  out.set("largestInternalKey", ToUint8Array(f.largest));
  if (f.has_seqnos) {
    out.set("smallestSeqno", Number(f.smallest_seqno));
    out.set("largestSeqno", Number(f.largest_seqno));
  }
  out.set("markedForCompaction", f.marked_for_compaction);
  out.set("oldestBlobFileNumber", Number(f.oldest_blob_file_number));
  out.set("oldestAncesterTime", Number(f.oldest_ancester_time));
  out.set("fileCreationTime", Number(f.file_creation_time));
  out.set("epochNumber", Number(f.epoch_number));
  out.set("fileChecksum", ToUint8Array(f.file_checksum));
  out.set("fileChecksumFuncName", f.file_checksum_func_name);
  out.set("temperature", f.temperature);
  if (f.unique_id) {
    val id = val::array();
    id.call<void>("push", Number((*f.unique_id)[0]));
    id.call<void>("push", Number((*f.unique_id)[1]));
    out.set("uniqueId", id);
  }
  return out;
}

val ColumnFamilyObject(const ColumnFamilyState& cf) {
  val out = val::object();
  out.set("id", cf.id);
  out.set("name", cf.name);
  out.set("comparator", cf.comparator);
  out.set("logNumber", Number(cf.log_number));
  val levels = val::array();
  for (const auto& level : cf.files) {
    val files = val::array();
    for (const TableFileMeta& f : level) files.call<void>("push", TableFileObject(f));
    levels.call<void>("push", files);
  }
  out.set("levels", levels);
  val blobs = val::array();
  for (const BlobFileState& b : cf.blob_files) {
    val blob = val::object();
    blob.set("number", Number(b.addition.number));
    blob.set("totalBlobCount", Number(b.addition.total_blob_count));
    blob.set("totalBlobBytes", Number(b.addition.total_blob_bytes));
    blob.set("garbageBlobCount", Number(b.garbage_blob_count));
    blob.set("garbageBlobBytes", Number(b.garbage_blob_bytes));
    blob.set("checksumMethod", b.addition.checksum_method);
    blob.set("checksumValue", ToUint8Array(b.addition.checksum_value));
    blobs.call<void>("push", blob);
  }
  out.set("blobFiles", blobs);
  return out;
}

val LogEndObject(const LogEnd& end) {
  val out = val::object();
  out.set("kind", std::string(LogEndKindName(end.kind)));
  out.set("offset", Number(end.offset));
  out.set("what", end.what);
  return out;
}

// The state of the MANIFEST at [data, data + size) read as `format` ("leveldb" | "rocksdb"); null
// on error (last error).
val ReadManifestAt(uintptr_t data, size_t size, const std::string& format) {
  ManifestState state;
  const DbFormat f = format == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb;
  if (Status s = ReadManifest(View(data, size), f, &state); !s.ok()) {
    Fail(std::move(s));
    return val::null();
  }
  val out = val::object();
  out.set("format", std::string(DbFormatName(state.format)));
  if (state.db_id) out.set("dbId", *state.db_id);
  out.set("nextFileNumber", Number(state.next_file_number));
  out.set("lastSequence", Number(state.last_sequence));
  out.set("prevLogNumber", Number(state.prev_log_number));
  out.set("minLogNumberToKeep", Number(state.min_log_number_to_keep));
  out.set("maxColumnFamily", state.max_column_family);
  out.set("editCount", state.edit_count);
  out.set("end", LogEndObject(state.end));
  out.set("unfinishedAtomicGroup", state.unfinished_atomic_group);
  val families = val::array();
  for (const ColumnFamilyState& cf : state.column_families) {
    families.call<void>("push", ColumnFamilyObject(cf));
  }
  out.set("columnFamilies", families);
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

val WriteBatchObject(const WriteBatch& batch) {
  val out = val::object();
  out.set("sequence", Number(batch.sequence));
  out.set("count", batch.count);
  out.set("offset", Number(batch.offset));
  val records = val::array();
  for (const WalRecord& r : batch.records) {
    val record = val::object();
    record.set("kind", std::string(WalRecordKindName(r.kind)));
    record.set("columnFamily", r.column_family);
    record.set("sequence", Number(r.sequence));
    record.set("offset", Number(r.offset));
    record.set("key", ToUint8Array(r.key));
    record.set("value", ToUint8Array(r.value));
    records.call<void>("push", record);
  }
  out.set("records", records);
  val markers = val::array();
  for (const WalMarker& m : batch.markers) {
    val marker = val::object();
    marker.set("kind", std::string(WalMarkerKindName(m.kind)));
    marker.set("offset", Number(m.offset));
    marker.set("position", m.position);
    marker.set("data", ToUint8Array(m.data));
    marker.set("timestamp", ToUint8Array(m.timestamp));
    markers.call<void>("push", marker);
  }
  out.set("markers", markers);
  return out;
}

// A status as {code, message, offset}.
val ErrorObject(const Status& status) {
  val error = val::object();
  error.set("code", std::string(ErrorCodeName(status.code())));
  error.set("message", status.message());
  error.set("offset", Number(static_cast<uint64_t>(status.offset())));
  return error;
}

// The write batches of the WAL at [data, data + size) numbered `log_number` (decimal), read past
// damage or stopping at it (LogDamage); never null. A bad record that ends the batches is "error"
// ({code, message, offset}); what a read past damage dropped is "dropped" ({offset, size,
// error}), at most kMaxLogDrops of them, and "unlistedDrops" counts the rest.
val ReadWriteAheadLogAt(uintptr_t data, size_t size, const std::string& format,
                        const std::string& log_number, bool read_past_damage) {
  const DbFormat f = format == "leveldb" ? DbFormat::kLevelDb : DbFormat::kRocksDb;
  const WalContents wal = ReadWriteAheadLog(View(data, size), f, DecimalNumber(log_number),
                                            read_past_damage ? LogDamage::kSkip : LogDamage::kStop);
  val out = val::object();
  val batches = val::array();
  for (const WriteBatch& b : wal.batches) batches.call<void>("push", WriteBatchObject(b));
  out.set("batches", batches);
  out.set("end", LogEndObject(wal.end));
  if (!wal.status.ok()) out.set("error", ErrorObject(wal.status));
  out.set("malformedBatch", wal.malformed_batch);
  val drops = val::array();
  for (const LogDrop& d : wal.drops) {
    val drop = val::object();
    drop.set("offset", Number(d.offset));
    drop.set("size", Number(d.size));
    drop.set("error", ErrorObject(d.status));
    drops.call<void>("push", drop);
  }
  out.set("dropped", drops);
  out.set("unlistedDrops", Number(wal.unlisted_drops));
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
