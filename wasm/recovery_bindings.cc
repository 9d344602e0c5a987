// Embind bindings for the recovery replay (sstfilter/wal_recovery.h): a WalReplay fed log by log,
// chunk by chunk, from TypeScript (ts/api/wal-recovery.ts), its memtable kept in wasm memory until
// the handle is deleted, and what it reports in the public shapes of ts/api/wal-recovery.ts
// (wasm/marshal.h: 64-bit numbers as BigInts).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "binding_support.h"
#include "comparator_bindings.h"
#include "db_marshal.h"
#include "marshal.h"
#include "sstfilter/wal_recovery.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

class ReplayHandle {
 public:
  // `listing`: keep every record replayed, per log, as a WalRecord for logs() (recoverLogs's
  // listing); without it a log's records are only counted.
  ReplayHandle(WalReplayOptions options, bool listing) {
    if (listing) {
      options.on_record = [this](const WalRecord& record) {
        records_.back().call<void>("push", WalRecordOf(record));
      };
    }
    listing_ = listing;
    replay_ = std::make_unique<WalReplay>(std::move(options));
  }

  void BeginLog(const std::string& name, uint64_t number) {
    if (listing_) records_.push_back(val::array());
    replay_->BeginLog(name, number);
  }
  void Append(uintptr_t data, size_t size) { replay_->Append(View(data, size)); }
  // False on error (last error): where DB::Open refuses the database, or what cannot be replayed.
  bool EndLog() {
    Status s = replay_->EndLog();
    return s.ok() || Fail(std::move(s));
  }
  // `families`: [{ id, name, logNumber: bigint }] of the column families holding tables.
  bool Finish(const val& families) {
    std::vector<WalReplay::FamilyWithTables> with_tables;
    const size_t count = families["length"].as<size_t>();
    for (size_t i = 0; i < count; ++i) {
      const val f = families[i];
      with_tables.push_back(
          {f["id"].as<uint32_t>(), f["name"].as<std::string>(), f["logNumber"].as<uint64_t>()});
    }
    Status s = replay_->Finish(with_tables);
    return s.ok() || Fail(std::move(s));
  }

  // ReplayStop (ts/api/wal-recovery.ts), or null when the replay read all of the log.
  static val StopOf(const RecoveredLog& log) {
    if (!log.stopped) return val::null();
    val stop = val::object();
    stop.set("reason", std::string(ReplayStopReasonName(log.stopped->reason)));
    stop.set("offset", NumberOf(log.stopped->offset));
    stop.set("what", log.stopped->what);
    return stop;
  }

  // RecoveredLog[] (ts/api/wal-recovery.ts): `records` as listed (empty without listing).
  val Logs() const {
    val out = val::array();
    const std::vector<RecoveredLog>& logs = replay_->logs();
    for (size_t i = 0; i < logs.size(); ++i) {
      const RecoveredLog& log = logs[i];
      val entry = val::object();
      entry.set("name", log.name);
      entry.set("number", BigIntOf(log.number));
      entry.set("records", i < records_.size() ? records_[i] : val::array());
      entry.set("stopped", StopOf(log));
      out.call<void>("push", entry);
    }
    return out;
  }
  // MemtableLog[] (ts/api/wal-recovery.ts): each log's record count and end, without records.
  val Summaries() const {
    return ArrayOf(replay_->logs(), [](const RecoveredLog& log) {
      val entry = val::object();
      entry.set("name", log.name);
      entry.set("number", BigIntOf(log.number));
      entry.set("records", NumberOf(log.records));
      entry.set("end", std::string(LogEndKindName(log.end.kind)));
      entry.set("stopped", StopOf(log));
      return entry;
    });
  }
  // PreparedTransaction[].
  val PreparedUncommitted() const {
    return ArrayOf(replay_->PreparedUncommitted(), [](const PreparedTransaction& t) {
      val out = val::object();
      out.set("xid", ToUint8Array(t.xid));
      out.set("log", t.log);
      out.set("offset", NumberOf(t.offset));
      out.set("records", ArrayOf(t.records, WalRecordOf));
      return out;
    });
  }
  // { log, number } or null.
  val UnresumedDamage() const {
    const auto damage = replay_->UnresumedDamage();
    if (!damage) return val::null();
    val out = val::object();
    out.set("log", damage->first);
    out.set("number", BigIntOf(damage->second));
    return out;
  }
  // What the memtable holds in memory, in bytes.
  double MemoryUsage() const { return static_cast<double>(replay_->memtable().memory_usage()); }

  // Where the replay is, for the database Gets over its memtable (wasm/db_get_bindings.cc): the
  // handle lives as long as they do (ts/api/db.ts).
  uintptr_t ReplayAddress() const { return reinterpret_cast<uintptr_t>(replay_.get()); }

 private:
  std::unique_ptr<WalReplay> replay_;
  bool listing_ = false;
  std::vector<val> records_;  // per log, when listing
  LiveHandleCount live_;
};

// A replay from { format, mode (WalRecoveryModeName's), paranoidChecks, trackAndVerifyWals,
// columnFamilies: [{ id,
// logNumber: bigint, comparator: name, compare: function | null }], onlyKey?: Uint8Array,
// onlyColumnFamily?, listRecords } (validated by ts/api/wal-recovery.ts). A family's comparator
// as ComparatorFrom takes it ("" and no function: bytewise). Null on a bad option (last error).
ReplayHandle* CreateWalReplay(const val& options) {
  WalReplayOptions o;
  o.format = FormatNamed(options["format"].as<std::string>());
  const std::string mode = options["mode"].as<std::string>();
  bool known = false;
  for (WalRecoveryMode m :
       {WalRecoveryMode::kTolerateCorruptedTailRecords, WalRecoveryMode::kAbsoluteConsistency,
        WalRecoveryMode::kPointInTimeRecovery, WalRecoveryMode::kSkipAnyCorruptedRecords}) {
    if (mode == WalRecoveryModeName(m)) {
      o.mode = m;
      known = true;
    }
  }
  if (!known) {
    Fail(Status::Error(ErrorCode::kUnsupported,
                       "wal_recovery_mode " + mode + " is not one RocksDB has"));
    return nullptr;
  }
  o.paranoid_checks = options["paranoidChecks"].as<bool>();
  o.track_and_verify_wals = options["trackAndVerifyWals"].as<bool>();
  const val families = options["columnFamilies"];
  const size_t count = families["length"].as<size_t>();
  for (size_t i = 0; i < count; ++i) {
    const val f = families[i];
    ReplayColumnFamily family;
    family.id = f["id"].as<uint32_t>();
    family.log_number = f["logNumber"].as<uint64_t>();
    if (!ComparatorFrom(f["comparator"].as<std::string>(), f["compare"], &family.comparator)) {
      return nullptr;
    }
    o.column_families.push_back(std::move(family));
  }
  if (const val key = options["onlyKey"]; !key.isUndefined() && !key.isNull()) {
    o.only_key = emscripten::vecFromJSArray<uint8_t>(key);
    o.only_column_family = options["onlyColumnFamily"].as<uint32_t>();
  }
  return new ReplayHandle(std::move(o), options["listRecords"].as<bool>());
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_recovery) {
  using namespace emscripten;
  using namespace sstfilter::wasm;
  class_<ReplayHandle>("ReplayHandle")
      .function("beginLog", &ReplayHandle::BeginLog)
      .function("append", &ReplayHandle::Append)
      .function("endLog", &ReplayHandle::EndLog)
      .function("finish", &ReplayHandle::Finish)
      .function("logs", &ReplayHandle::Logs)
      .function("summaries", &ReplayHandle::Summaries)
      .function("preparedUncommitted", &ReplayHandle::PreparedUncommitted)
      .function("unresumedDamage", &ReplayHandle::UnresumedDamage)
      .function("memoryUsage", &ReplayHandle::MemoryUsage)
      .function("replayAddress", &ReplayHandle::ReplayAddress);
  function("createWalReplay", &CreateWalReplay, allow_raw_pointers());
}
