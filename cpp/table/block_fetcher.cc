#include "table/block_fetcher.h"

#include <algorithm>
#include <string>

namespace sstfilter {
namespace {

Status At(ErrorCode code, std::string message, uint64_t offset) {
  return Status::Error(code, std::move(message), static_cast<int64_t>(offset));
}

// Handles can name any 64-bit offset; errors name a position within the file (its end, for a block
// past it): one users can look at, and a JavaScript number can hold.
uint64_t ErrorOffset(BlockHandle handle, const TableFileFormat& format) {
  return std::min(handle.offset, format.file_size);
}

}  // namespace

ByteView BlockFetcher::payload() const {
  if (state_ != State::kWaitingDecompression) return {};
  return ByteView(buffer_).subspan(frame_.payload_offset, frame_.payload_size);
}

Status BlockFetcher::Start(BlockHandle handle, uint64_t length) {
  if (handle.offset > format_->file_size || length > format_->file_size - handle.offset) {
    return At(ErrorCode::kTruncated,
              "block of " + std::to_string(handle.size) + " bytes at " +
                  std::to_string(handle.offset) + " runs past the end of the " +
                  std::to_string(format_->file_size) + "-byte file",
              ErrorOffset(handle, *format_));
  }
  if (!raw_ && handle.offset + length > format_->blocks_end) {
    return At(ErrorCode::kCorrupt, "block overlaps the footer", handle.offset);
  }
  if (length > kMaxBlockBytes) {
    return At(ErrorCode::kResourceLimit,
              "block of " + std::to_string(length) + " bytes is above the limit of " +
                  std::to_string(kMaxBlockBytes),
              handle.offset);
  }
  handle_ = handle;
  need_offset_ = handle.offset;
  need_length_ = length;
  need_ = IoNeed::kBytes;
  state_ = State::kWaitingBytes;
  return Status::Ok();
}

Status BlockFetcher::Complete(std::optional<Bytes>* out) {
  *out = std::move(buffer_);
  buffer_ = Bytes();
  state_ = State::kIdle;
  return Status::Ok();
}

Status BlockFetcher::Fetch(BlockHandle handle, BlockKind kind, std::optional<Bytes>* contents,
                           bool verify) {
  contents->reset();
  if (state_ == State::kIdle) {
    raw_ = false;
    verify_ = verify;
    kind_ = kind;
    if (handle.size > kMaxBlockBytes) {
      return At(ErrorCode::kResourceLimit,
                "block of " + std::to_string(handle.size) + " bytes at " +
                    std::to_string(handle.offset) + " is above the limit of " +
                    std::to_string(kMaxBlockBytes),
                ErrorOffset(handle, *format_));
    }
    return Start(handle, handle.size + kBlockTrailerSize);
  }
  if (raw_ || handle.offset != handle_.offset || handle.size != handle_.size) {
    return Status::Error(ErrorCode::kBadOptions, "another read of this table is in progress");
  }
  return state_ == State::kReady ? Complete(contents) : Status::Ok();
}

Status BlockFetcher::FetchRaw(uint64_t offset, uint64_t length, std::optional<Bytes>* bytes) {
  bytes->reset();
  if (state_ == State::kIdle) {
    raw_ = true;
    return Start(BlockHandle{offset, length}, length);
  }
  if (!raw_ || offset != handle_.offset || length != handle_.size) {
    return Status::Error(ErrorCode::kBadOptions, "another read of this table is in progress");
  }
  return state_ == State::kReady ? Complete(bytes) : Status::Ok();
}

Status BlockFetcher::Supply(ByteView bytes) {
  if (state_ == State::kWaitingBytes) {
    if (bytes.size() != need_length_) {
      return At(ErrorCode::kTruncated,
                "read " + std::to_string(bytes.size()) + " bytes where " +
                    std::to_string(need_length_) + " were needed",
                need_offset_);
    }
    need_ = IoNeed::kNothing;
    if (raw_) {
      buffer_.assign(bytes.begin(), bytes.end());
      state_ = State::kReady;
      return Status::Ok();
    }
    const size_t size = bytes.size() - kBlockTrailerSize;
    std::copy(bytes.begin() + static_cast<std::ptrdiff_t>(size), bytes.end(), trailer_);
    if (verify_) {
      Status s = VerifyBlockChecksum(format_->checksum, format_->base_context_checksum,
                                     handle_.offset, bytes);
      if (!s.ok()) {
        state_ = State::kIdle;
        return s;
      }
    }
    const uint8_t type = trailer_[0];
    buffer_.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
    // An unverified type byte is not acted on: the caller checks the trailer itself.
    if (type == 0 || !verify_) {
      state_ = State::kReady;
      return Status::Ok();
    }
    FramingContext context;
    context.family = format_->family;
    context.format_version = format_->format_version;
    context.dictionary_possible = kind_ == BlockKind::kData && format_->has_compression_dictionary;
    context.block_offset = handle_.offset;
    if (Status s = UnframeCompressedBlock(context, type, buffer_, &frame_); !s.ok()) {
      state_ = State::kIdle;
      buffer_ = Bytes();
      return s;
    }
    need_ = IoNeed::kDecompression;
    state_ = State::kWaitingDecompression;
    return Status::Ok();
  }
  if (state_ == State::kWaitingDecompression) {
    need_ = IoNeed::kNothing;
    const uint64_t expected = frame_.uncompressed_size.value_or(bytes.size());
    if (bytes.size() != expected || bytes.size() > kMaxBlockBytes) {
      state_ = State::kIdle;
      buffer_ = Bytes();
      return At(ErrorCode::kCorrupt,
                std::string(CodecName(frame_.codec)) + " block decompressed to " +
                    std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected),
                handle_.offset);
    }
    buffer_.assign(bytes.begin(), bytes.end());
    state_ = State::kReady;
    return Status::Ok();
  }
  return Status::Error(ErrorCode::kBadOptions, "no read is pending");
}

// The driver's view of an operation is its fetcher's.
IoNeed ResumableRead::need() const { return fetcher().need(); }
uint64_t ResumableRead::need_offset() const { return fetcher().need_offset(); }
uint64_t ResumableRead::need_length() const { return fetcher().need_length(); }
Codec ResumableRead::codec() const { return fetcher().codec(); }
ByteView ResumableRead::payload() const { return fetcher().payload(); }
std::optional<uint64_t> ResumableRead::uncompressed_size() const {
  return fetcher().uncompressed_size();
}
uint64_t ResumableRead::block_offset() const { return fetcher().block_offset(); }
Status ResumableRead::Supply(ByteView bytes) { return fetcher().Supply(bytes); }

}  // namespace sstfilter
