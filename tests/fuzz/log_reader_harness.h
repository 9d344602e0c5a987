// The harness of log_reader_fuzz (harness_support.h says how harnesses are built and replayed).
#pragma once

#include <algorithm>
#include <cstdint>

#include "harness_support.h"
#include "log_builder.h"
#include "sstfilter/db_format.h"
#include "sstfilter/log.h"

namespace sstfilter::fuzz {

// Log files. Byte 0: bit 0 reads as RocksDB (else LevelDB); bit 1 builds the log from records
// (else the rest is the raw file); bit 2 recyclable headers; bit 3 reads past damage
// (LogDamage::kSkip: never fails but on compressed records). Byte 1: the log number. Built logs:
// a u16 cut (bytes dropped from the end), then records of a type byte and a u16 length with that
// many payload bytes: type 0xff is a whole record LogBuilder fragments, any other one physical
// record with that type and a valid checksum. Every record's fragments lie in the file and make
// its payload; errors and torn tails name an offset inside the file.
inline void FuzzLogReader(const uint8_t* data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.Byte();
  const DbFormat format = (mode & 1) != 0 ? DbFormat::kRocksDb : DbFormat::kLevelDb;
  const uint32_t log_number = in.Byte();
  Bytes built;
  ByteView log;
  if ((mode & 2) != 0) {
    const uint16_t cut = in.U16();
    LogBuilder b((mode & 4) != 0, log_number);
    while (in.remaining() > 0) {
      const uint8_t type = in.Byte();
      const ByteView payload = in.Take(in.U16());
      if (type == 0xff) {
        b.Add(payload);
      } else {
        b.Physical(type, payload);
      }
    }
    built = std::move(b.bytes());
    built.resize(built.size() - std::min<size_t>(cut, built.size()));
    log = built;
  } else {
    log = in.Rest();
  }
  // Bit 3: skip mode, which reads past damage.
  const LogDamage damage = (mode & 8) != 0 ? LogDamage::kSkip : LogDamage::kStop;
  LogReader reader(log, format, log_number, damage);
  LogRecord r;
  uint64_t previous = 0;
  bool first = true;
  while (reader.Next(&r)) {
    FUZZ_CHECK(r.offset < log.size() && (first || r.offset > previous));
    size_t at = 0;
    for (const LogFragment& f : r.fragments) {
      FUZZ_CHECK(f.payload_offset + f.size <= log.size() && at + f.size <= r.payload.size());
      FUZZ_CHECK(std::equal(r.payload.begin() + static_cast<ptrdiff_t>(at),
                            r.payload.begin() + static_cast<ptrdiff_t>(at + f.size),
                            log.begin() + static_cast<ptrdiff_t>(f.payload_offset)));
      at += f.size;
    }
    FUZZ_CHECK(at == r.payload.size());
    previous = r.offset;
    first = false;
  }
  const Status& s = reader.status();
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == ErrorCode::kCorrupt || s.code() == ErrorCode::kChecksumMismatch ||
               s.code() == ErrorCode::kUnsupported);
    FUZZ_CHECK(s.offset() >= 0 && static_cast<uint64_t>(s.offset()) < log.size());
  } else {
    FUZZ_CHECK(reader.end().offset <= log.size());
  }
  // Skip mode fails only on what it cannot read (compressed records); its drops lie in the file.
  FUZZ_CHECK(damage == LogDamage::kStop ? reader.drops().empty()
                                        : s.ok() || s.code() == ErrorCode::kUnsupported);
  for (const LogDrop& d : reader.drops()) {
    FUZZ_CHECK(d.offset < log.size() && d.size <= log.size());
    FUZZ_CHECK(d.status.code() == ErrorCode::kCorrupt ||
               d.status.code() == ErrorCode::kChecksumMismatch);
    FUZZ_CHECK(d.status.offset() == static_cast<int64_t>(d.offset));
  }
}

}  // namespace sstfilter::fuzz
