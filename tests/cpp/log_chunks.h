// Reading a log fed in chunks against reading it whole (sstfilter/db.h: LogReader and
// WriteAheadLogReader, ForEachWriteBatch over the whole file): each reading is written out as one
// text (every record or batch with its offsets, the end, the status, the drops), so that a test
// compares them whole and shows where they part.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sstfilter/bytes.h"
#include "sstfilter/db.h"
#include "sstfilter/hash.h"

namespace sstfilter::log_chunks {

// Chunks that split headers and payloads byte by byte, and end just before, at and after a block.
inline const std::vector<size_t> kChunkSizes = {
    1, 7, 4096, kLogBlockSize - 1, kLogBlockSize, kLogBlockSize + 1};
inline constexpr size_t kWhole = 0;  // the whole-file API

struct Reading {
  std::string text;
  size_t peak_held = 0;       // the most bytes the reader held between chunks
  size_t largest_record = 0;  // the largest record: read, torn off by the end, or dropped
};

inline std::string StatusText(const Status& s) {
  return std::string(ErrorCodeName(s.code())) + "@" + std::to_string(s.offset()) + " " +
         s.message();
}

inline std::string BytesText(ByteView b) {
  return std::to_string(b.size()) + "#" + std::to_string(Crc32c(b));
}

inline std::string EndText(const LogEnd& end) {
  return std::string("end ") + LogEndKindName(end.kind) + "@" + std::to_string(end.offset) + " " +
         end.what + "\n";
}

inline std::string DropsText(const std::vector<LogDrop>& drops, uint64_t unlisted) {
  std::string out;
  for (const LogDrop& d : drops) {
    out += "drop " + std::to_string(d.offset) + "+" + std::to_string(d.size) + " " +
           StatusText(d.status) + "\n";
  }
  return out + "unlisted " + std::to_string(unlisted) + "\n";
}

// `log` in chunks of `chunk` bytes (kWhole: LogReader's whole-file constructor).
inline Reading ReadLog(ByteView log, DbFormat format, uint64_t number, LogDamage damage,
                       size_t chunk) {
  Reading out;
  LogRecord r;
  const auto add = [&](const LogRecord& record) {
    out.text += "record " + std::to_string(static_cast<int>(record.kind)) + " type " +
                std::to_string(record.type) + " @" + std::to_string(record.offset) +
                (record.recyclable ? " recyclable " : " ") + BytesText(record.payload) + " [";
    for (const LogFragment& f : record.fragments) {
      out.text += std::to_string(f.payload_offset) + "+" + std::to_string(f.size) + " ";
    }
    out.text += "]\n";
    out.largest_record = std::max(out.largest_record, record.payload.size());
  };
  const auto finish = [&](const LogReader& reader) {
    // A record being reassembled is held too, whether it is then torn or dropped.
    if (reader.end().kind == LogEnd::Kind::kTorn) {
      out.largest_record = std::max<size_t>(out.largest_record, log.size() - reader.end().offset);
    }
    for (const LogDrop& d : reader.drops()) {
      out.largest_record = std::max<size_t>(out.largest_record, d.size);
    }
    out.text += "status " + StatusText(reader.status()) + "\n" + EndText(reader.end()) +
                DropsText(reader.drops(), reader.unlisted_drops());
  };
  if (chunk == kWhole) {
    LogReader reader(log, format, number, damage);
    while (reader.Next(&r)) add(r);
    finish(reader);
    return out;
  }
  LogReader reader(format, number, damage);
  for (size_t at = 0;; at += chunk) {
    if (at < log.size()) {
      reader.Feed(log.subspan(at, std::min(chunk, log.size() - at)));
    } else {
      reader.EndOfFile();
    }
    LogReader::ReadResult result;
    while ((result = reader.Read(&r)) == LogReader::ReadResult::kRecord) add(r);
    out.peak_held = std::max(out.peak_held, reader.held_bytes());
    if (result == LogReader::ReadResult::kDone) break;
    if (at >= log.size()) {
      out.text += "needs input after the end of the file\n";
      break;
    }
  }
  finish(reader);
  return out;
}

// The write batches of `log` as ForEachWriteBatch reads them (kWhole), or WriteAheadLogReader fed
// in chunks of `chunk` bytes.
inline Reading ReadWal(ByteView log, DbFormat format, uint64_t number, LogDamage damage,
                       size_t chunk) {
  Reading out;
  const WriteBatchSink sink = [&](WriteBatch&& batch) {
    out.text += "batch @" + std::to_string(batch.offset) + " seq " +
                std::to_string(batch.sequence) + " count " + std::to_string(batch.count) + "\n";
    for (const WalRecord& r : batch.records) {
      out.text += "  " + std::string(WalRecordKindName(r.kind)) + " cf " +
                  std::to_string(r.column_family) + " seq " + std::to_string(r.sequence) + " @" +
                  std::to_string(r.offset) + " " + BytesText(r.key) + " " + BytesText(r.value) +
                  "\n";
    }
    for (const WalMarker& m : batch.markers) {
      out.text += "  " + std::string(WalMarkerKindName(m.kind)) + " @" + std::to_string(m.offset) +
                  " before " + std::to_string(m.position) + " " + BytesText(m.data) + " " +
                  BytesText(m.timestamp) + "\n";
    }
    return true;
  };
  WalContents contents;
  if (chunk == kWhole) {
    contents = ForEachWriteBatch(log, format, number, damage, sink);
  } else {
    WriteAheadLogReader reader(format, number, damage);
    for (size_t at = 0; at < log.size(); at += chunk) {
      reader.Append(log.subspan(at, std::min(chunk, log.size() - at)), sink);
      out.peak_held = std::max(out.peak_held, reader.held_bytes());
    }
    contents = reader.Finish(sink);
  }
  out.text += "status " + StatusText(contents.status) +
              (contents.malformed_batch ? " malformed" : "") + "\n" + EndText(contents.end) +
              DropsText(contents.drops, contents.unlisted_drops);
  if (contents.predecessor) {
    const PredecessorWal& p = contents.predecessor->wal;
    out.text += "predecessor @" + std::to_string(contents.predecessor->offset) + " log " +
                std::to_string(p.log_number) + " size " + std::to_string(p.size_bytes) +
                " last seq " + std::to_string(p.last_sequence) + "\n";
  }
  return out;
}

// Every chunking of `log` reads as the whole file does, record for record and batch for batch;
// the bytes held between chunks stay within a block and the largest record. Returns the
// comparisons made.
inline size_t ExpectChunkingsAgree(ByteView log, DbFormat format, uint64_t number, LogDamage damage,
                                   const std::string& where) {
  const Reading whole_log = ReadLog(log, format, number, damage, kWhole);
  const Reading whole_wal = ReadWal(log, format, number, damage, kWhole);
  size_t compared = 0;
  for (const size_t chunk : kChunkSizes) {
    const std::string at = where + " (" + DbFormatName(format) +
                           (damage == LogDamage::kSkip ? ", skip" : ", stop") + ") in chunks of " +
                           std::to_string(chunk);
    const Reading log_chunks = ReadLog(log, format, number, damage, chunk);
    EXPECT_EQ(log_chunks.text, whole_log.text) << at << ": LogReader";
    EXPECT_LE(log_chunks.peak_held, kLogBlockSize + whole_log.largest_record) << at;
    const Reading wal_chunks = ReadWal(log, format, number, damage, chunk);
    EXPECT_EQ(wal_chunks.text, whole_wal.text) << at << ": WriteAheadLogReader";
    EXPECT_LE(wal_chunks.peak_held, kLogBlockSize + whole_log.largest_record) << at;
    compared += 2;
  }
  return compared;
}

}  // namespace sstfilter::log_chunks
