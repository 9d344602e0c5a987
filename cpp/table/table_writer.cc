#include "sstfilter/table_writer.h"

#include <algorithm>
#include <string>

#include "table/internal_key.h"
#include "table/table_writers.h"

namespace sstfilter {

Status BadOptions(std::string message) {
  return Status::Error(ErrorCode::kBadOptions, std::move(message));
}

Status ValidateCommonWriteOptions(const TableWriteOptions& options) {
  if (options.block_size == 0 || options.block_size > kMaxBlockBytes) {
    return BadOptions("blockSize must be 1 to " + std::to_string(kMaxBlockBytes) + ", got " +
                      std::to_string(options.block_size));
  }
  if (options.restart_interval == 0 || options.restart_interval > (1u << 20)) {
    return BadOptions("restartInterval must be 1 to 1048576, got " +
                      std::to_string(options.restart_interval));
  }
  if (options.filter) {
    if (Status s = ValidateBuildOptions({*options.filter, options.bits_per_key}); !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

SealedBlock AppendBlock(ByteView raw, BlockCompressor* compressor, const BlockSealing& sealing,
                        uint64_t offset, Bytes* out) {
  SealedBlock sealed;
  ByteView contents = raw;
  Bytes compressed;
  uint8_t compressed_type = 0;
  if (compressor) {
    const bool pays_off =
        compressor->Compress(raw, &compressed, &compressed_type) &&
        (sealing.per_kb_limit
             ? compressed.size() <= ((uint64_t{kMaxCompressedBytesPerKb} * raw.size()) >> 10)
             : compressed.size() < raw.size() - raw.size() / 8);
    if (pays_off) {
      contents = compressed;
      sealed.type = compressed_type;
    } else {
      sealed.compression_rejected = true;
    }
  }
  const size_t start = out->size();
  out->insert(out->end(), contents.begin(), contents.end());
  out->push_back(sealed.type);
  const uint32_t sum =
      ComputeBlockChecksum(sealing.checksum, ByteView(*out).subspan(start, contents.size() + 1)) +
      ChecksumModifierForContext(sealing.base_context_checksum, offset);
  PutFixed32(out, sum);
  sealed.size = contents.size();
  return sealed;
}

Status TableWriter::Create(const TableWriteOptions& options, std::unique_ptr<TableWriter>* out) {
  out->reset();
  if (Status s = ValidateCommonWriteOptions(options); !s.ok()) return s;
  if (options.comparator == nullptr) return BadOptions("a table writer needs a comparator");
  if (options.comparator->timestamp_size() != 0) {
    return BadOptions("writing keys with user-defined timestamps (comparator " +
                      std::string(options.comparator->Name()) + ") is not supported");
  }
  return options.format == TableFamily::kRocksDb ? NewRocksDbTableWriter(options, out)
                                                 : NewLevelDbTableWriter(options, out);
}

Status TableWriter::Latch(Status s) {
  if (!s.ok() && error_.ok()) error_ = s;
  return s;
}

Status TableWriter::Add(Op op, ByteView key, ByteView value) {
  if (!error_.ok()) return error_;
  if (finished_) return BadOptions("the table is finished: no entry can be added");
  const uint64_t position = entries_;
  if (key.size() > kMaxWriteKeyBytes) {
    return Latch(Status::Error(ErrorCode::kBadKey, "entry " + std::to_string(position) +
                                                       ": a key of " + std::to_string(key.size()) +
                                                       " bytes is above the limit of " +
                                                       std::to_string(kMaxWriteKeyBytes)));
  }
  if (value.size() > kMaxWriteValueBytes) {
    return Latch(Status::Error(ErrorCode::kBadKey,
                               "entry " + std::to_string(position) + ": a value of " +
                                   std::to_string(value.size()) + " bytes is above the limit of " +
                                   std::to_string(kMaxWriteValueBytes)));
  }
  if (has_point_key_ && comparator_->Compare(key, last_point_key_) <= 0) {
    const bool equal = comparator_->Compare(key, last_point_key_) == 0;
    return Latch(Status::Error(ErrorCode::kBadKey, "entry " + std::to_string(position) + ": key " +
                                                       (equal ? "repeats the key before it"
                                                              : "sorts before the key before it") +
                                                       " (keys must ascend strictly)"));
  }
  if (Status s = AddPoint(op, key, value); !s.ok()) return Latch(s);
  has_point_key_ = true;
  last_point_key_.assign(key.begin(), key.end());
  ++entries_;
  return Status::Ok();
}

Status TableWriter::Put(ByteView key, ByteView value) { return Add(Op::kPut, key, value); }
Status TableWriter::Delete(ByteView key) { return Add(Op::kDelete, key, {}); }
Status TableWriter::Merge(ByteView key, ByteView value) { return Add(Op::kMerge, key, value); }

Status TableWriter::DeleteRange(ByteView start, ByteView end) {
  if (!error_.ok()) return error_;
  if (finished_) return BadOptions("the table is finished: no entry can be added");
  const uint64_t position = entries_;
  if (start.size() > kMaxWriteKeyBytes || end.size() > kMaxWriteKeyBytes) {
    return Latch(
        Status::Error(ErrorCode::kBadKey, "entry " + std::to_string(position) +
                                              ": a range deletion's key is above the limit of " +
                                              std::to_string(kMaxWriteKeyBytes) + " bytes"));
  }
  if (comparator_->Compare(end, start) < 0) {
    return Latch(Status::Error(
        ErrorCode::kBadKey,
        "entry " + std::to_string(position) + ": a range deletion's end sorts before its start"));
  }
  if (Status s = AddRangeDeletion(start, end); !s.ok()) return Latch(s);
  ++entries_;
  return Status::Ok();
}

Status TableWriter::Finish() {
  if (!error_.ok()) return error_;
  if (finished_) return Status::Ok();
  if (Status s = FinishTable(); !s.ok()) return Latch(s);
  finished_ = true;
  return Status::Ok();
}

Bytes TableWriter::TakeOutput() {
  Bytes out;
  out.swap(output_);
  return out;
}

}  // namespace sstfilter
