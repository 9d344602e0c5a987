#include "table/prefix_extractor.h"

#include <algorithm>
#include <charconv>

namespace sstfilter {
namespace {

// A decimal length after `prefix`, as SliceTransform::CreateFromString parses it.
std::optional<size_t> LengthAfter(std::string_view name, std::string_view prefix) {
  if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view digits = name.substr(prefix.size());
  size_t n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return n;
}

}  // namespace

std::optional<PrefixExtractor> PrefixExtractor::FromName(std::string_view name) {
  if (name == "rocksdb.Noop") return PrefixExtractor(Kind::kNoop, 0);
  for (std::string_view prefix : {"rocksdb.FixedPrefix.", "fixed:"}) {
    if (auto n = LengthAfter(name, prefix)) return PrefixExtractor(Kind::kFixed, *n);
  }
  for (std::string_view prefix : {"rocksdb.CappedPrefix.", "capped:"}) {
    if (auto n = LengthAfter(name, prefix)) return PrefixExtractor(Kind::kCapped, *n);
  }
  return std::nullopt;
}

ByteView PrefixExtractor::Transform(ByteView key) const {
  if (kind_ == Kind::kNoop) return key;
  return key.first(std::min(key.size(), length_));
}

std::string PrefixExtractor::Name() const {
  switch (kind_) {
    case Kind::kFixed:
      return "rocksdb.FixedPrefix." + std::to_string(length_);
    case Kind::kCapped:
      return "rocksdb.CappedPrefix." + std::to_string(length_);
    case Kind::kNoop:
      break;
  }
  return "rocksdb.Noop";
}

}  // namespace sstfilter
