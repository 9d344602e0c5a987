// The built-in prefix extractors a table names in its `rocksdb.prefix.extractor.name` property
// (docs/FORMATS.md 2.11; rocksdb util/slice.cc FixedPrefixTransform, CappedPrefixTransform,
// NoopTransform). Custom extractors cannot be reproduced from their name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sstfilter/bytes.h"

namespace sstfilter {

class PrefixExtractor {
 public:
  enum class Kind : uint8_t { kFixed, kCapped, kNoop };

  // "rocksdb.FixedPrefix.<n>", "rocksdb.CappedPrefix.<n>" or "rocksdb.Noop" (also the "fixed:<n>"
  // / "capped:<n>" short forms the options parser accepts); nullopt for anything else.
  static std::optional<PrefixExtractor> FromName(std::string_view name);

  // FixedPrefix: keys of at least n bytes; the others always.
  bool InDomain(ByteView key) const { return kind_ != Kind::kFixed || key.size() >= length_; }
  // The first n bytes (capped: at most n); the whole key for Noop. Only for keys InDomain.
  ByteView Transform(ByteView key) const;

  Kind kind() const { return kind_; }
  // The name RocksDB records in rocksdb.prefix.extractor.name (SliceTransform::AsString).
  std::string Name() const;
  size_t length() const { return length_; }

 private:
  PrefixExtractor(Kind kind, size_t length) : kind_(kind), length_(length) {}

  Kind kind_;
  size_t length_;
};

}  // namespace sstfilter
