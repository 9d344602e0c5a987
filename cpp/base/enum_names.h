// The names of an enum whose values run 0 .. kLast in declaration order: one table per enum for the
// *Name functions, checked at compile time to name every value.
#pragma once

#include <cstddef>

namespace sstfilter {

// names[value], or `unknown` for a value outside the table (a corrupt or future value cast in).
template <auto kLast, typename Enum, size_t N>
constexpr const char* EnumName(Enum value, const char* const (&names)[N], const char* unknown) {
  static_assert(N == static_cast<size_t>(kLast) + 1, "one name for every value up to kLast");
  const auto index = static_cast<size_t>(value);
  return index < N ? names[index] : unknown;
}

}  // namespace sstfilter
