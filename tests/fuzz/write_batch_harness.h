// The harness of write_batch_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>

#include "harness_support.h"
#include "log_builder.h"
#include "sstfilter/write_batch.h"

namespace sstfilter::fuzz {

// Write batches (docs/FORMATS.md 6.4). Byte 0: bit 0 decodes as RocksDB (else LevelDB); the rest
// is one batch, decoded alone and then read as the one record of a WAL. Errors name a byte inside
// the batch (or the log); records carry their sequence, lie inside the batch, and number as many
// as the header's count; the WAL reading agrees with the batch alone.
inline void FuzzWriteBatch(const uint8_t* data, size_t size) {
  Input in(data, size);
  const DbFormat format = (in.Byte() & 1) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  const ByteView record = in.Rest();
  WriteBatch batch;
  const Status s = DecodeWriteBatch(record, format, &batch);
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt);
    FUZZ_CHECK(s.offset() >= 0 &&
               static_cast<uint64_t>(s.offset()) < std::max<size_t>(record.size(), 1));
  } else {
    FUZZ_CHECK(batch.records.size() == batch.count);
  }
  size_t total = 0;
  for (size_t i = 0; i < batch.records.size(); ++i) {
    const WalRecord& r = batch.records[i];
    FUZZ_CHECK(r.sequence == batch.sequence + i && r.offset >= 12 && r.offset < record.size());
    total += r.key.size() + r.value.size();
  }
  FUZZ_CHECK(total <= record.size());
  for (const WalMarker& m : batch.markers) {
    FUZZ_CHECK(m.offset >= 12 && m.offset < record.size() && m.position <= batch.records.size());
  }
  if (record.empty()) return;  // a log record of no bytes is no batch
  LogBuilder log;
  log.Add(record);
  const WalContents wal = ReadWriteAheadLog(log.bytes(), format, 0);
  FUZZ_CHECK(wal.end.kind == LogEnd::Kind::kClean);
  const bool has_header = record.size() >= 12;
  if (s.ok()) {
    FUZZ_CHECK(wal.status.ok() && wal.drops.empty());
    FUZZ_CHECK(wal.batches.size() == 1 && wal.batches[0].records.size() == batch.records.size());
  } else if (format == DbFormat::kLevelDb) {
    // LevelDB's recovery keeps the records before the bad one and reads on.
    FUZZ_CHECK(wal.status.ok() && wal.drops.size() == 1 && wal.drops[0].status.code() == s.code());
    FUZZ_CHECK(wal.batches.size() == (has_header ? 1u : 0u));
    FUZZ_CHECK(!has_header || wal.batches[0].records.size() == batch.records.size());
  } else {
    FUZZ_CHECK(wal.batches.empty() && wal.status.code() == s.code());
    FUZZ_CHECK(wal.malformed_batch == has_header);
    FUZZ_CHECK(static_cast<uint64_t>(wal.status.offset()) < log.bytes().size());
    // Skipping, RocksDB passes over a short record but still refuses a malformed batch.
    const WalContents skipped = ReadWriteAheadLog(log.bytes(), format, 0, LogDamage::kSkip);
    FUZZ_CHECK(skipped.status.ok() == !has_header && skipped.malformed_batch == has_header);
    FUZZ_CHECK(skipped.batches.empty() && skipped.drops.size() == (has_header ? 0u : 1u));
  }
}

}  // namespace sstfilter::fuzz
