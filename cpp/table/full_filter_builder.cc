#include "table/full_filter_builder.h"

#include <algorithm>

namespace sstfilter {

void FullFilterBuilder::AddKey(ByteView key) {
  bits_.AddKey(key);
  any_added_ = true;
  ++keys_added_;
}

void FullFilterBuilder::AddNextPrefixBeforeCut(ByteView next_user_key) {
  if (!prefix_extractor_ || !prefix_extractor_->InDomain(next_user_key)) return;
  const ByteView prefix = prefix_extractor_->Transform(next_user_key);
  if (!std::equal(prefix.begin(), prefix.end(), last_prefix_.begin(), last_prefix_.end())) {
    AddKey(prefix);
  }
}

void FullFilterBuilder::AddPrefixClosingPartition(ByteView next_user_key) {
  if (!prefix_extractor_ || !prefix_extractor_->InDomain(next_user_key)) return;
  const ByteView prefix = prefix_extractor_->Transform(next_user_key);
  if (whole_key_filtering_) {
    bits_.AddKeyAndAlt(prefix, prefix);
    any_added_ = true;
  } else {
    AddKey(prefix);
  }
}

void FullFilterBuilder::AddPrefixOpeningPartition(ByteView prev_user_key) {
  if (!prefix_extractor_ || !prefix_extractor_->InDomain(prev_user_key)) return;
  AddKey(prefix_extractor_->Transform(prev_user_key));
}

Status FullFilterBuilder::Finish(Bytes* out) {
  last_prefix_recorded_ = false;
  keys_added_ = 0;
  return bits_.Finish(out);
}

void FullFilterBuilder::Add(ByteView user_key) {
  const bool add_prefix = prefix_extractor_ && prefix_extractor_->InDomain(user_key);
  if (newer_rules_) {
    if (add_prefix) {
      const ByteView prefix = prefix_extractor_->Transform(user_key);
      if (whole_key_filtering_) {
        bits_.AddKeyAndAlt(user_key, prefix);
        any_added_ = true;
      } else {
        AddKey(prefix);
      }
    } else if (whole_key_filtering_) {
      AddKey(user_key);
    }
    return;
  }
  // FullFilterBlockBuilder::Add first catches up on a prefix a partition cut left unrecorded. In a
  // full filter without whole-key filtering no prefix is ever "recorded", so from the second key
  // after one in the domain on, this adds the never-set last prefix: the empty key, once.
  if (!last_prefix_recorded_ && last_key_in_domain_) {
    AddKey(last_prefix_);
    last_prefix_recorded_ = true;
  }
  // Keys ascend strictly, so a whole key never repeats the one before it; the bits builder skips
  // equal hashes anyway.
  if (whole_key_filtering_) AddKey(user_key);
  last_key_in_domain_ = add_prefix;
  if (!add_prefix) return;
  const ByteView prefix = prefix_extractor_->Transform(user_key);
  if (!whole_key_filtering_) {
    AddKey(prefix);
    return;
  }
  // With whole keys in between, equal prefixes are not adjacent: skip them here.
  if (last_prefix_recorded_ &&
      std::equal(prefix.begin(), prefix.end(), last_prefix_.begin(), last_prefix_.end())) {
    return;
  }
  AddKey(prefix);
  last_prefix_recorded_ = true;
  last_prefix_.assign(prefix.begin(), prefix.end());
}

}  // namespace sstfilter
