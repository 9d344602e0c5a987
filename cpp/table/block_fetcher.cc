#include "table/block_fetcher.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "base/aligned_buffer.h"
#include "filter/kernels/ribbon_kernels.h"

namespace sstfilter {
namespace {

// Spare capacity behind every window, so that a filter read alone in its window is aligned where it
// lies when a filter reader takes it over (base/aligned_buffer.h) instead of being copied.
constexpr size_t kContentsSpare = 256;
// Index blocks from this size on get their decompression room reserved before their window.
constexpr uint64_t kReserveBeforeWindow = uint64_t{1} << 20;
static_assert(kContentsSpare >= AlignedBuffer::SpareFor(simd::kRibbonReadPadding));
// Room a reading-ahead window keeps for a longer carried head than the read that made it, when a
// further read is expected: the heads of a walk's reads vary by up to a block, and a window sized
// to the byte was replaced whenever a head grew, each new one zero-filled as it was sized (about 3%
// of a verify's CPU time; with this room a walk's window is replaced only while its read-ahead
// grows). A walk whose window reaches the end of the data (a small table's only read) gets none:
// a thousand small walks left open would otherwise hold 64 MiB.
constexpr size_t kReadaheadHeadroom = size_t{64} << 10;

Status At(ErrorCode code, std::string message, uint64_t offset) {
  return Status::Error(code, std::move(message), static_cast<int64_t>(offset));
}

// Handles can name any 64-bit offset; errors name a position within the file (its end, for a block
// past it): one users can look at, and a JavaScript number can hold.
uint64_t ErrorOffset(uint64_t offset, const TableFileFormat& format) {
  return std::min(offset, format.file_size);
}

// A read of `length` bytes at `offset` that the file cannot hold, or that is too large to make.
Status CheckRange(uint64_t offset, uint64_t length, uint64_t described_size,
                  const TableFileFormat& format) {
  if (offset > format.file_size || length > format.file_size - offset) {
    return At(ErrorCode::kTruncated,
              "block of " + std::to_string(described_size) + " bytes at " + std::to_string(offset) +
                  " runs past the end of the " + std::to_string(format.file_size) + "-byte file",
              ErrorOffset(offset, format));
  }
  if (length > kMaxBlockBytes) {
    return At(ErrorCode::kResourceLimit,
              "block of " + std::to_string(length) + " bytes is above the limit of " +
                  std::to_string(kMaxBlockBytes),
              offset);
  }
  return Status::Ok();
}

}  // namespace

Status BlockFetcher::RepeatOfPending(BlockHandle request, bool raw) const {
  if (raw == request_raw_ && request.offset == request_.offset && request.size == request_.size) {
    return Status::Ok();  // still waiting for the driver
  }
  return Status::Error(ErrorCode::kBadOptions, "another read of this table is in progress");
}

void BlockFetcher::ReleaseWindow() {
  Bytes().swap(window_);
  window_offset_ = 0;
  window_size_ = 0;
}

Status BlockFetcher::Acquire(uint64_t offset, uint64_t length, uint64_t limit, ByteView* bytes) {
  if (offset >= window_offset_ && offset - window_offset_ <= window_size_ &&
      length <= window_size_ - (offset - window_offset_)) {
    *bytes = ByteView(window_).subspan(static_cast<size_t>(offset - window_offset_),
                                       static_cast<size_t>(length));
    return Status::Ok();
  }
  uint64_t begin = offset;
  uint64_t end = offset + length;
  carried_ = 0;
  need_ahead_length_ = 0;
  if (readahead_ != 0) {
    const uint64_t window_end = window_offset_ + window_size_;
    if (window_size_ != 0 && offset >= window_offset_ && offset < window_end) {
      // The block's head is here: keep it at the window's front and read on from its end.
      carried_ = static_cast<size_t>(window_end - offset);
      std::memmove(window_.data(), window_.data() + (offset - window_offset_), carried_);
      begin = window_end;
    }
    end = std::max(end, std::min(limit, begin + readahead_));
    readahead_ = std::min(kMaxReadahead, readahead_ * 2);
    need_ahead_length_ = std::min(limit - end, readahead_);
  }
  if (tail_prefetch_ != 0) {
    const uint64_t tail_begin = format_->file_size - std::min(format_->file_size, tail_prefetch_);
    if (end > tail_begin) {
      begin = std::min(begin, tail_begin);
      end = format_->file_size;
    }
    tail_prefetch_ = 0;
  }
  window_offset_ = begin - carried_;
  window_size_ = carried_;
  need_offset_ = begin;
  need_length_ = end - begin;
  waiting_ = true;
  return Status::Ok();
}

Status BlockFetcher::Fetch(BlockHandle handle, BlockKind kind, std::optional<Bytes>* contents,
                           bool verify) {
  contents->reset();
  if (waiting_) return RepeatOfPending(handle, /*raw=*/false);
  if (handle.size > kMaxBlockBytes) {
    return At(ErrorCode::kResourceLimit,
              "block of " + std::to_string(handle.size) + " bytes at " +
                  std::to_string(handle.offset) + " is above the limit of " +
                  std::to_string(kMaxBlockBytes),
              ErrorOffset(handle.offset, *format_));
  }
  const uint64_t length = handle.size + kBlockTrailerSize;
  if (Status s = CheckRange(handle.offset, length, handle.size, *format_); !s.ok()) return s;
  if (handle.offset + length > format_->blocks_end) {
    return At(ErrorCode::kCorrupt, "block overlaps the footer", handle.offset);
  }
  request_ = handle;
  request_raw_ = false;
  ByteView block;
  if (Status s = Acquire(handle.offset, length, format_->blocks_end, &block); !s.ok() || waiting_) {
    if (waiting_ && kind == BlockKind::kIndex && handle.size >= kReserveBeforeWindow) {
      // A large index block (a table's only one, often compressed) gets room to decompress into
      // before its window is allocated: the window then lies above the index and, freed when the
      // next read needs another (SupplyBuffer), leaves no hole below it for the filter read next.
      // Reserved bytes the codec does not write cost address space, not memory.
      spare_.reserve(static_cast<size_t>(std::min(kMaxBlockBytes, 4 * handle.size)));
    }
    return s;
  }
  return Verified(block, kind, verify, contents);
}

Status BlockFetcher::FetchRaw(uint64_t offset, uint64_t length, std::optional<Bytes>* bytes) {
  bytes->reset();
  if (waiting_) return RepeatOfPending(BlockHandle{offset, length}, /*raw=*/true);
  if (Status s = CheckRange(offset, length, length, *format_); !s.ok()) return s;
  request_ = BlockHandle{offset, length};
  request_raw_ = true;
  ByteView view;
  if (Status s = Acquire(offset, length, format_->file_size, &view); !s.ok() || waiting_) return s;
  bytes->emplace(view.begin(), view.end());
  return Status::Ok();
}

Status BlockFetcher::Verified(ByteView block, BlockKind kind, bool verify,
                              std::optional<Bytes>* contents) {
  const size_t size = block.size() - kBlockTrailerSize;
  std::memcpy(trailer_, block.data() + size, kBlockTrailerSize);
  if (verify && format_->verify_checksums) {
    Status s = VerifyBlockChecksum(format_->checksum, format_->base_context_checksum,
                                   request_.offset, block);
    if (!s.ok()) return s;
  }
  const ByteView body = block.first(size);
  const uint8_t type = trailer_[0];
  // An unverified type byte is not acted on: the caller checks the trailer itself.
  if (type == 0 || !verify) {
    if (block.data() == window_.data() && block.size() == window_size_) {
      // The window holds just this block (a read without read-ahead, e.g. a large filter): hand
      // its buffer over instead of copying it.
      window_.resize(size);
      *contents = std::move(window_);
      window_ = Bytes();
      window_size_ = 0;
      return Status::Ok();
    }
    contents->emplace(body.begin(), body.end());
    return Status::Ok();
  }
  FramingContext context;
  context.family = format_->family;
  context.format_version = format_->format_version;
  context.block_offset = request_.offset;
  context.compression_manager = format_->compression_manager;
  CompressedFrame frame;
  if (Status s = UnframeCompressedBlock(context, type, body, &frame); !s.ok()) return s;
  CodecInput input;
  input.payload = body.subspan(frame.payload_offset, frame.payload_size);
  input.size = frame.uncompressed_size;
  // Only data blocks are compressed with the dictionary (rocksdb table/block_based/
  // block_based_table_builder.cc, CompressAndVerifyBlock).
  if (kind == BlockKind::kData) input.dictionary = format_->compression_dictionary;
  Bytes out = std::move(spare_);
  spare_ = Bytes();
  if (Status s = decompressor_.Decompress(frame.codec, input, &out); !s.ok()) {
    // A codec knows nothing of the file: the block it failed on is where the error is.
    return At(s.code(), s.message(), request_.offset);
  }
  *contents = std::move(out);
  return Status::Ok();
}

Status BlockFetcher::Supply(ByteView bytes) {
  if (!waiting_) return Status::Error(ErrorCode::kBadOptions, "no read is pending");
  if (bytes.size() == need_length_) std::memcpy(SupplyBuffer(), bytes.data(), bytes.size());
  return Supplied(bytes.size());
}

uint8_t* BlockFetcher::SupplyBuffer() {
  if (!waiting_) return nullptr;
  const size_t size = carried_ + static_cast<size_t>(need_length_);
  if (window_.capacity() < size + kContentsSpare) {
    // Beyond the carried head, the old window's bytes are done with; with none carried the old
    // window goes first, so that the new one can take its memory.
    if (carried_ == 0) window_ = Bytes();
    Bytes larger;
    larger.reserve(size + kContentsSpare + (need_ahead_length_ != 0 ? kReadaheadHeadroom : 0));
    larger.assign(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(carried_));
    window_.swap(larger);
  }
  if (window_.size() < size) window_.resize(size);
  return window_.data() + carried_;
}

Status BlockFetcher::Supplied(size_t size) {
  if (!waiting_) return Status::Error(ErrorCode::kBadOptions, "no read is pending");
  waiting_ = false;
  if (size != need_length_) {
    window_size_ = 0;
    return At(ErrorCode::kTruncated,
              "read " + std::to_string(size) + " bytes where " + std::to_string(need_length_) +
                  " were needed",
              need_offset_);
  }
  window_size_ = carried_ + need_length_;
  return Status::Ok();
}

// The driver's view of an operation is its fetcher's.
IoNeed ResumableRead::need() const { return fetcher().need(); }
uint64_t ResumableRead::need_offset() const { return fetcher().need_offset(); }
uint64_t ResumableRead::need_length() const { return fetcher().need_length(); }
uint64_t ResumableRead::need_ahead_length() const { return fetcher().need_ahead_length(); }
Status ResumableRead::Supply(ByteView bytes) { return fetcher().Supply(bytes); }
uint8_t* ResumableRead::SupplyBuffer() { return fetcher().SupplyBuffer(); }
Status ResumableRead::Supplied(size_t size) { return fetcher().Supplied(size); }

}  // namespace sstfilter
