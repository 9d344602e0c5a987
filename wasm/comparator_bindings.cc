// Embind bindings for comparators (sstfilter/comparator.h): JavaScript functions as Comparators,
// and the built-in comparators for TypeScript code that orders keys itself (ts/api/db-get.ts).
#include "comparator_bindings.h"

#include <emscripten/bind.h>

#include <utility>

#include "binding_support.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

class JsComparator final : public Comparator {
 public:
  JsComparator(std::string name, val compare)
      : name_(std::move(name)), compare_(std::move(compare)) {}
  std::string_view Name() const override { return name_; }
  int Compare(ByteView a, ByteView b) const override {
    const val result = compare_(val(emscripten::typed_memory_view(a.size(), a.data())),
                                val(emscripten::typed_memory_view(b.size(), b.data())));
    return result.as<int>();
  }

 private:
  std::string name_;
  val compare_;
};

// The built-in comparator `name`'s answer for [a, a + a_size) and [b, b + b_size); -2 (last error)
// when `name` is not built in.
int CompareWithBuiltin(const std::string& name, uintptr_t a, size_t a_size, uintptr_t b,
                       size_t b_size) {
  const Comparator* comparator = FindBuiltinComparator(name);
  if (comparator == nullptr) {
    Fail(Status::Error(ErrorCode::kBadOptions, "\"" + name + "\" is not a built-in comparator"));
    return -2;
  }
  const int c = comparator->Compare(View(a, a_size), View(b, b_size));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

val BuiltinComparatorNameList() {
  val out = val::array();
  for (std::string_view name : BuiltinComparatorNames()) {
    out.call<void>("push", std::string(name));
  }
  return out;
}

}  // namespace

bool ComparatorFrom(const std::string& name, val compare, ComparatorRef* out) {
  out->reset();
  if (compare.isNull() || compare.isUndefined()) {
    if (name.empty()) return true;
    *out = BuiltinComparator(name);
    if (*out == nullptr) {
      return Fail(
          Status::Error(ErrorCode::kBadOptions, "\"" + name + "\" is not a built-in comparator"));
    }
    return true;
  }
  *out = std::make_shared<JsComparator>(name, std::move(compare));
  return true;
}

}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_comparators) {
  using namespace sstfilter::wasm;
  emscripten::function("compareWithBuiltin", &CompareWithBuiltin);
  emscripten::function("builtinComparatorNames", &BuiltinComparatorNameList);
}
