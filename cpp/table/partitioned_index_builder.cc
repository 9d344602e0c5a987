#include "table/partitioned_index_builder.h"

namespace sstfilter {

PartitionedIndexBuilder::PartitionedIndexBuilder(uint32_t format_version,
                                                 uint64_t metadata_block_size,
                                                 const Comparator* comparator)
    : format_version_(format_version),
      comparator_(comparator),
      policy_(metadata_block_size),
      top_level_(TableFamily::kRocksDb, format_version) {}

void PartitionedIndexBuilder::CutPartition() {
  Bytes contents;
  partition_->Finish(&contents);
  finished_.emplace_back(last_separator_, std::move(contents));
  partition_.reset();
  filter_cut_ = true;
}

void PartitionedIndexBuilder::AddEntry(ByteView last_key, const ByteView* next_key,
                                       BlockHandle handle) {
  // AddIndexEntry: the size policy sees the block's unshortened last key and its whole handle,
  // against the partition's block as stored (user keys from format_version 3 on).
  if (next_key && partition_) {
    Bytes value;
    PutBlockHandle(&value, handle.offset, handle.size);
    if (cut_requested_ || policy_.ShouldFlush(partition_->block(), last_key, value)) {
      CutPartition();
    }
  }
  if (!partition_) {
    partition_.emplace(TableFamily::kRocksDb, format_version_, comparator_);
    cut_requested_ = false;  // MakeNewSubIndexBuilder
  }
  last_separator_ = partition_->AddEntry(last_key, next_key, handle);
  if (!next_key) CutPartition();
}

PartitionedIndexBuilder::Written PartitionedIndexBuilder::Finish(
    const std::function<BlockHandle(ByteView)>& write_block) {
  Written out;
  out.partitions = finished_.size();
  for (auto& [separator, contents] : finished_) {
    out.contents_bytes += contents.size();
    top_level_.AddSeparator(separator, write_block(contents));
    Bytes().swap(contents);
  }
  Bytes top;
  top_level_.Finish(&top);
  out.top_level_bytes = top.size();
  out.contents_bytes += top.size();
  out.top_level = write_block(top);
  return out;
}

}  // namespace sstfilter
