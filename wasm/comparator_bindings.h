// Comparators from TypeScript (ts/api/comparators.ts): a built-in one by name, or a JavaScript
// function the core calls for every comparison.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "sstfilter/comparator.h"

namespace sstfilter::wasm {

// `compare`: a JavaScript function (a, b) => -1 | 0 | 1 over Uint8Array views of the core's memory,
// valid during the call only; it must not throw (ts/api/comparators.ts guards the user's function
// and reports what it threw after the core call). Or null/undefined: the built-in comparator
// `name`. An empty name with no function: *out stays null (the table's own order). False (last
// error BAD_OPTIONS) for a name that is not built in.
bool ComparatorFrom(const std::string& name, emscripten::val compare, ComparatorRef* out);

}  // namespace sstfilter::wasm
