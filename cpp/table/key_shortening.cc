#include "table/key_shortening.h"

#include <algorithm>

#include "table/internal_key.h"

namespace sstfilter {

void ShortenSeparator(ShorteningRules rules, Bytes* start, ByteView limit) {
  const size_t min_length = std::min(start->size(), limit.size());
  size_t diff = 0;
  while (diff < min_length && (*start)[diff] == limit[diff]) ++diff;
  // One key is a prefix of the other: nothing shorter lies between them.
  if (diff >= min_length) return;
  const uint8_t start_byte = (*start)[diff];
  const uint8_t limit_byte = limit[diff];
  if (rules == ShorteningRules::kLevelDb) {
    if (start_byte < 0xff && start_byte + 1 < limit_byte) {
      ++(*start)[diff];
      start->resize(diff + 1);
    }
    return;
  }
  if (start_byte >= limit_byte) return;
  if (diff + 1 < limit.size() || start_byte + 1 < limit_byte) {
    ++(*start)[diff];
    start->resize(diff + 1);
    return;
  }
  // Incrementing the differing byte would reach `limit` itself: RocksDB keeps that byte and
  // increments the first byte after it that is below 0xff instead.
  for (size_t i = diff + 1; i < start->size(); ++i) {
    if ((*start)[i] < 0xff) {
      ++(*start)[i];
      start->resize(i + 1);
      return;
    }
  }
}

void ShortSuccessor(Bytes* key) {
  for (size_t i = 0; i < key->size(); ++i) {
    if ((*key)[i] != 0xff) {
      ++(*key)[i];
      key->resize(i + 1);
      return;
    }
  }
}

namespace {

// InternalKeyComparator::FindShortestSeparator around `shorten`, which shortens the user key part.
template <typename Shorten>
void ShortenUserKeyPart(const Comparator& order, Bytes* start, ByteView limit,
                        EntryType type_for_seek, Shorten shorten) {
  const ByteView user_start = ByteView(*start).first(start->size() - kInternalKeyTagSize);
  const ByteView user_limit = limit.first(limit.size() - kInternalKeyTagSize);
  Bytes shortened(user_start.begin(), user_start.end());
  shorten(&shortened, user_limit);
  if (shortened.size() <= user_start.size() && order.Compare(user_start, shortened) < 0) {
    PutFixed64(&shortened, kMaxSequenceNumber << 8 | static_cast<uint8_t>(type_for_seek));
    start->swap(shortened);
  }
}

}  // namespace

void ShortenInternalKeySeparator(ShorteningRules rules, Bytes* start, ByteView limit,
                                 EntryType type_for_seek) {
  ShortenUserKeyPart(BytewiseComparator(), start, limit, type_for_seek,
                     [rules](Bytes* key, ByteView to) { ShortenSeparator(rules, key, to); });
}

void ShortenInternalKeySeparator(const Comparator& comparator, Bytes* start, ByteView limit,
                                 EntryType type_for_seek) {
  ShortenUserKeyPart(
      comparator, start, limit, type_for_seek,
      [&comparator](Bytes* key, ByteView to) { comparator.FindShortestSeparator(key, to); });
}

}  // namespace sstfilter
