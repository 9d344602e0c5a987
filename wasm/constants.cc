// The numbers TypeScript passes to and gets from the bindings, named, straight from the C++ enums,
// and the format facts TypeScript still needs (sizes, comparator names), straight from the core's
// constants: the package reads them once at load time (ts/core/heap.ts), so the two languages
// cannot drift.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "sstfilter/comparator.h"
#include "sstfilter/db.h"
#include "sstfilter/filter.h"
#include "sstfilter/kernels.h"
#include "sstfilter/table.h"

namespace sstfilter::wasm {
namespace {

template <typename Enum>
emscripten::val Names(std::initializer_list<std::pair<const char*, Enum>> entries) {
  emscripten::val names = emscripten::val::object();
  for (const auto& [name, value] : entries) names.set(name, static_cast<int>(value));
  return names;
}

emscripten::val Constants() {
  emscripten::val constants = emscripten::val::object();
  // The `format` names of BuildOptions (ts/api/api.ts).
  emscripten::val formats = emscripten::val::object();
  for (int id = 0; id <= static_cast<int>(FilterFormat::kRocksDbRibbon); ++id) {
    formats.set(FilterFormatName(static_cast<FilterFormat>(id)), id);
  }
  constants.set("filterFormats", formats);
  // What IoHandle.advance() returns (table_bindings.cc); it returns -1 for a failure.
  constants.set("ioNeeds", Names<IoNeed>({
                               {"nothing", IoNeed::kNothing},
                               {"bytes", IoNeed::kBytes},
                           }));
  // The families of kernel_bindings.cc.
  constants.set("kernelFamilies", Names<KernelFamily>({
                                      {"fastLocalBloom", KernelFamily::kFastLocalBloom},
                                      {"ribbon", KernelFamily::kRibbon},
                                  }));
  // EntryType values by name (ts/api/entries.ts).
  emscripten::val entry_types = emscripten::val::object();
  for (const EntryType type : kEntryTypes) {
    entry_types.set(EntryTypeName(type), static_cast<int>(type));
  }
  constants.set("entryTypes", entry_types);
  // TableRegionKind values by name (ts/api/layout.ts TableRegion).
  emscripten::val region_kinds = emscripten::val::object();
  for (int kind = 0; kind <= static_cast<int>(TableRegionKind::kGap); ++kind) {
    region_kinds.set(TableRegionKindName(static_cast<TableRegionKind>(kind)), kind);
  }
  constants.set("regionKinds", region_kinds);
  // Sizes of the formats' fixed parts (docs/FORMATS.md 3.1, 6.7).
  emscripten::val sizes = emscripten::val::object();
  sizes.set("blockTrailer", static_cast<double>(kBlockTrailerSize));
  sizes.set("blobFileHeader", static_cast<double>(kBlobFileHeaderSize));
  sizes.set("blobRecordHeader", static_cast<double>(kBlobRecordHeaderSize));
  sizes.set("blobFileFooter", static_cast<double>(kBlobFileFooterSize));
  sizes.set("u64Timestamp", static_cast<double>(BytewiseU64TsComparator().timestamp_size()));
  constants.set("formatSizes", sizes);
  // The built-in comparators' names (Comparator::Name), as MANIFESTs and tables record them.
  emscripten::val comparators = emscripten::val::object();
  comparators.set("bytewise", std::string(kBytewiseComparatorName));
  comparators.set("reverseBytewise", std::string(kReverseBytewiseComparatorName));
  comparators.set("bytewiseU64Ts", std::string(kBytewiseU64TsComparatorName));
  comparators.set("indexedDb", std::string(kIndexedDbComparatorName));
  // RocksDB names its comparators with 8-byte timestamps by this suffix on the plain order's name
  // (util/comparator.cc ComparatorWithU64TsImpl): ".u64ts".
  comparators.set("u64TsSuffix",
                  std::string(kBytewiseU64TsComparatorName.substr(kBytewiseComparatorName.size())));
  constants.set("comparatorNames", comparators);
  return constants;
}

}  // namespace
}  // namespace sstfilter::wasm

EMSCRIPTEN_BINDINGS(sstfilter_constants) {
  emscripten::function("constants", &sstfilter::wasm::Constants);
}
