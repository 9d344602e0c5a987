// Embind bindings for the database Get (sstfilter/db_get.h): the MANIFEST's state kept in wasm
// memory for the lookups (ManifestHandle), and a DbGet TypeScript drives (ts/api/db-get.ts): as
// every IoHandle for the bytes of the table it reads, and through tableNeeded()/setTable() for the
// tables to open, which it opens as AsyncTables. A replay's memtable and a table's reader come by
// the address their handles give (replayAddress(), readerAddress(): Embind cannot pass one
// translation unit's class to another's functions), as the filters' fast paths take readers. Result
// and route in the public shapes of ts/api/db-get.ts (wasm/marshal.h: 64-bit numbers as BigInts).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <charconv>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "binding_support.h"
#include "comparator_bindings.h"
#include "db_marshal.h"
#include "marshal.h"
#include "sstfilter/db_get.h"
#include "sstfilter/wal_recovery.h"
#include "table_handle.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

// A MANIFEST's state (ReadManifest), the column families' files a DbGet reads.
class ManifestHandle {
 public:
  explicit ManifestHandle(ManifestState state) : state_(std::move(state)) {}
  const ColumnFamilyState* Family(uint32_t id) const {
    for (const ColumnFamilyState& cf : state_.column_families) {
      if (cf.id == id) return &cf;
    }
    return nullptr;
  }

 private:
  ManifestState state_;
  LiveHandleCount live_;
};

// `name` or null where the core names nothing ("").
val NameOrNull(const char* name) { return *name == '\0' ? val::null() : val(std::string(name)); }

class DbGetHandle : public IoHandle {
 public:
  DbGetHandle(std::unique_ptr<DbGet> get, const WalReplay* replay, DbFormat format, val present)
      : IoHandle(get.get()), get_(std::move(get)), format_(format), present_(std::move(present)) {
    // The names now: the memtable's steps are listed once the Get is done.
    if (replay != nullptr) {
      for (const RecoveredLog& log : replay->logs()) log_names_[log.number] = log.name;
    }
  }

  bool Done() const { return get_->done(); }
  // The number of the table to open before the next advance() (a BigInt), or null.
  val TableNeeded() const {
    const TableFileMeta* meta = get_->table_needed();
    return meta == nullptr ? val::null() : BigIntOf(meta->number);
  }
  // `reader`: a TableHandle's readerAddress().
  bool SetTable(uintptr_t reader) {
    Status s = get_->SetTable(*reinterpret_cast<const TableReader*>(reader));
    return s.ok() || Fail(std::move(s));
  }
  // GetResult, and valueInBlobFile: the value is a blob index (ts/api/db-blob.ts reads it);
  // entity: the deciding wide-column entity, or null.
  val Result() const {
    const DbGetResult& r = get_->result();
    val out = val::object();
    out.set("outcome", std::string(DbGetOutcomeName(r.outcome)));
    const bool has_value = r.outcome == DbGetResult::Outcome::kFound || r.has_value;
    out.set("value", has_value ? ToUint8Array(r.value) : val::null());
    out.set("operands", ArrayOf(r.operands, [](const Bytes& b) { return ToUint8Array(b); }));
    out.set("sequence", r.sequence ? BigIntOf(*r.sequence) : val::null());
    out.set("valueInBlobFile", r.value_is_blob_index);
    out.set("entity", r.entity ? ToUint8Array(*r.entity) : val::null());
    return out;
  }
  // RouteStep[].
  val Steps() const {
    return ArrayOf(get_->steps(), [&](const DbGetStep& step) {
      const bool memtable = step.where == DbGetStep::Where::kMemTable;
      val out = val::object();
      out.set("where", std::string(memtable ? "memtable" : "table"));
      out.set("file", memtable ? LogName(step.file_number)
                               : TableName(step.file_number, format_, present_));
      out.set("level", memtable ? val::null() : val(step.level));
      out.set("inRange", step.in_range);
      out.set("filter", NameOrNull(DbGetFilterName(step.filter)));
      out.set("entry", NameOrNull(DbGetEntryName(step.entry)));
      out.set("sequence", step.sequence ? BigIntOf(*step.sequence) : val::null());
      out.set("blocksRead", NumberOf(step.blocks_read));
      out.set("blockCacheHits", NumberOf(step.block_cache_hits));
      return out;
    });
  }

 private:
  std::string LogName(uint64_t number) const {
    const auto found = log_names_.find(number);
    return found == log_names_.end() ? std::to_string(number) : found->second;
  }

  std::unique_ptr<DbGet> get_;
  std::map<uint64_t, std::string> log_names_;
  DbFormat format_;
  val present_;
  LiveHandleCount live_;
};

// The state of the MANIFEST at [data, data + size) read as `format`; null on error (last error).
ManifestHandle* CreateManifestHandle(uintptr_t data, size_t size, const std::string& format) {
  ManifestState state;
  if (Status s = ReadManifest(View(data, size), FormatNamed(format), &state); !s.ok()) {
    Fail(std::move(s));
    return nullptr;
  }
  return new ManifestHandle(std::move(state));
}

// A Get of the user key at [key, key + size) in column family `family_id` of `manifest`, the
// memtable of the replay at `replay` (a ReplayHandle's replayAddress(); 0: the tables alone); both
// must outlive it. `comparator` and
// `compare` as ComparatorFrom takes them; `read`: ReadOptionsOf's; table files named as the
// folder's names `present` (a Set) have them; `cache`: a BlockCacheHandle's address() (0: none),
// which must outlive the Get, with its owner(); `read_timestamp`: the timestamp to read at in
// decimal (a u64, which a JavaScript number cannot hold), empty for the newest. Null on bad
// options (last error).
DbGetHandle* CreateDbGet(const ManifestHandle* manifest, uintptr_t replay, uint32_t family_id,
                         const std::string& comparator, val compare, val read,
                         const std::string& format, val present, uintptr_t cache,
                         double cache_owner, const std::string& read_timestamp, uintptr_t key,
                         size_t size) {
  DbGetOptions options;
  if (!read_timestamp.empty()) {
    uint64_t ts = 0;
    const char* end = read_timestamp.data() + read_timestamp.size();
    const std::from_chars_result parsed = std::from_chars(read_timestamp.data(), end, ts);
    if (parsed.ec != std::errc() || parsed.ptr != end) {
      Fail(Status::Error(ErrorCode::kBadOptions,
                         "get: the read timestamp " + read_timestamp + " is no u64 in decimal"));
      return nullptr;
    }
    options.read_timestamp = ts;
  }
  const DbFormat db_format = FormatNamed(format);
  options.format = db_format;
  options.family = manifest->Family(family_id);
  if (options.family == nullptr) {
    Fail(Status::Error(ErrorCode::kBadOptions,
                       "get: no column family of id " + std::to_string(family_id)));
    return nullptr;
  }
  if (!ComparatorFrom(comparator, std::move(compare), &options.comparator)) return nullptr;
  const auto* wal = reinterpret_cast<const WalReplay*>(replay);
  if (wal != nullptr) {
    options.memtable = &wal->memtable();
    for (const RecoveredLog& log : wal->logs()) options.log_numbers.push_back(log.number);
  }
  options.read = ReadOptionsOf(std::move(read));
  options.read.block_cache = reinterpret_cast<BlockCache*>(cache);
  options.read.cache_table.owner = static_cast<uint64_t>(cache_owner);
  auto get = std::make_unique<DbGet>(std::move(options), View(key, size));
  return new DbGetHandle(std::move(get), wal, db_format, std::move(present));
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_db_get) {
  using namespace emscripten;
  using namespace sstfilter::wasm;
  class_<ManifestHandle>("ManifestHandle");
  class_<DbGetHandle, base<IoHandle>>("DbGetHandle")
      .function("done", &DbGetHandle::Done)
      .function("tableNeeded", &DbGetHandle::TableNeeded)
      .function("setTable", &DbGetHandle::SetTable)
      .function("result", &DbGetHandle::Result)
      .function("steps", &DbGetHandle::Steps);
  function("createManifestHandle", &CreateManifestHandle, allow_raw_pointers());
  function("createDbGet", &CreateDbGet, allow_raw_pointers());
}
