// The harness of wal_replay_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "harness_support.h"
#include "log_builder.h"
#include "sstfilter/comparator.h"
#include "sstfilter/log.h"
#include "sstfilter/wal_recovery.h"

namespace sstfilter::fuzz {

// What a replay did, as one text: each log's records, stop, end, status and drops, the prepared
// transactions, the next sequence number and the memtable's size.
inline std::string ReplayOutcome(const WalReplay& r, const Status& s) {
  std::string out = std::to_string(static_cast<int>(s.code())) + s.message();
  for (const RecoveredLog& log : r.logs()) {
    out += "|" + std::to_string(log.records) + " " +
           std::to_string(static_cast<int>(log.end.kind)) + "@" + std::to_string(log.end.offset) +
           log.end.what + " " + log.status.message() + " " + std::to_string(log.status.offset()) +
           (log.malformed_batch ? " malformed" : "");
    if (log.stopped) out += " stop@" + std::to_string(log.stopped->offset) + log.stopped->what;
    for (const LogDrop& d : log.drops) {
      out +=
          " drop " + std::to_string(d.offset) + "+" + std::to_string(d.size) + d.status.message();
    }
    out += " +" + std::to_string(log.unlisted_drops);
  }
  for (const PreparedTransaction& t : r.PreparedUncommitted()) {
    out += "|prepared " + XidText(t.xid) + "@" + std::to_string(t.offset) + "x" +
           std::to_string(t.records.size());
  }
  out += "|next " + (r.next_sequence() ? std::to_string(*r.next_sequence()) : std::string("-"));
  return out + " " + std::to_string(r.memtable().entry_count()) + " " +
         std::to_string(r.memtable().record_bytes());
}

// The replay of write-ahead logs into the memtable (sstfilter/wal_recovery.h). Byte 0: bit 0
// RocksDB (else LevelDB), bits 1-2 the recovery mode, bit 3 paranoid_checks off, bit 4 column
// family 0 timestamped (leveldb.BytewiseComparator.u64ts), bit 5 logs built from write batches
// with valid checksums (each [u16 size][batch]) rather than taken raw, bit 6 a recyclable log,
// bit 7 track_and_verify_wals (predecessor records checked).
// Byte 1: the chunk sizes the logs are fed in: the first chunk byte 1 + 1 bytes, each next one
// the previous times 3 modulo 32771, plus 1 (so sizes wander from 1 byte to past a block); u16:
// where the input splits into two logs; byte: the size of the probe key, then the key; the rest:
// the logs. A replay fails only with kCorrupt or kUnsupported; fed in chunks it does exactly what
// it does fed each log whole, and holds no more than a block and the log between chunks; its
// stops name offsets inside their log; the memtable holds no more record bytes than the logs; the
// versions of the probe key are the same when the replay keeps only that key.
inline void FuzzWalReplay(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  const size_t first_chunk = size_t{in.Byte()} + 1;
  const uint16_t split = in.U16();
  const ByteView probe = in.Take(in.Byte());
  const ByteView rest = in.Rest();
  const ByteView halves[2] = {rest.first(std::min<size_t>(split, rest.size())),
                              rest.subspan(std::min<size_t>(split, rest.size()))};
  Bytes logs[2];
  for (int i = 0; i < 2; ++i) {
    if ((mode & 32) == 0) {
      logs[i].assign(halves[i].begin(), halves[i].end());
      continue;
    }
    LogBuilder b((mode & 64) != 0, static_cast<uint32_t>(5 + i));
    Input records(halves[i].data(), halves[i].size());
    while (records.remaining() > 0) b.Add(records.Take(records.U16()));
    logs[i] = std::move(b.bytes());
  }
  WalReplayOptions options;
  options.format = (mode & 1) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  options.mode = static_cast<WalRecoveryMode>((mode >> 1) & 3);
  options.paranoid_checks = (mode & 8) == 0;
  options.track_and_verify_wals = (mode & 128) != 0;
  options.column_families = {{0, 0,
                              BuiltinComparator((mode & 16) != 0 ? kBytewiseU64TsComparatorName
                                                                 : kBytewiseComparatorName)},
                             {1, 6, nullptr}};
  // chunked: each log in chunks of the fuzzed sizes; else whole (ReplayLog).
  const auto replay = [&](WalReplay* r, bool chunked) {
    size_t chunk = first_chunk;
    for (int i = 0; i < 2; ++i) {
      if (!chunked) {
        if (Status s = r->ReplayLog(std::to_string(5 + i) + ".log", 5 + i, logs[i]); !s.ok()) {
          return s;
        }
        continue;
      }
      r->BeginLog(std::to_string(5 + i) + ".log", static_cast<uint64_t>(5 + i));
      for (size_t at = 0; at < logs[i].size();) {
        const size_t n = std::min(chunk, logs[i].size() - at);
        r->Append(ByteView(logs[i]).subspan(at, n));
        FUZZ_CHECK(r->held_bytes() <= kLogBlockSize + logs[i].size());
        at += n;
        chunk = chunk * 3 % 32771 + 1;
      }
      if (Status s = r->EndLog(); !s.ok()) return s;
    }
    return r->Finish({{1, "one", 6}});
  };
  WalReplay all(options);
  const Status s = replay(&all, true);
  WalReplay whole(options);
  const Status whole_status = replay(&whole, false);
  FUZZ_CHECK(ReplayOutcome(all, s) == ReplayOutcome(whole, whole_status));
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kUnsupported);
    return;
  }
  FUZZ_CHECK(all.logs().size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const RecoveredLog& log = all.logs()[i];
    if (log.stopped) FUZZ_CHECK(log.stopped->offset <= logs[i].size());
    for (const LogDrop& d : log.drops) FUZZ_CHECK(d.offset < logs[i].size());
  }
  FUZZ_CHECK(all.memtable().record_bytes() <= logs[0].size() + logs[1].size());
  options.only_key = Bytes(probe.begin(), probe.end());
  WalReplay one(options);
  FUZZ_CHECK(replay(&one, true).ok());
  for (uint32_t family = 0; family < 2; ++family) {
    const auto want = all.memtable().Versions(family, probe);
    const auto got = one.memtable().Versions(family, probe);
    const auto whole_versions = whole.memtable().Versions(family, probe);
    FUZZ_CHECK(got.size() == (family == 0 ? want.size() : 0));
    FUZZ_CHECK(whole_versions.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      FUZZ_CHECK(got[i].sequence == want[i].sequence && got[i].kind == want[i].kind &&
                 got[i].log_number == want[i].log_number &&
                 std::equal(got[i].value.begin(), got[i].value.end(), want[i].value.begin(),
                            want[i].value.end()));
    }
    for (size_t i = 0; i < want.size(); ++i) {
      FUZZ_CHECK(whole_versions[i].sequence == want[i].sequence &&
                 std::equal(whole_versions[i].value.begin(), whole_versions[i].value.end(),
                            want[i].value.begin(), want[i].value.end()));
    }
    FUZZ_CHECK(one.memtable().CoveringTombstone(0, probe) ==
               all.memtable().CoveringTombstone(0, probe));
  }
}

}  // namespace sstfilter::fuzz
