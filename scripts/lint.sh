#!/usr/bin/env bash
# Formatting, type, doc-comment and layer checks; part of `npm test`. `--fix` rewrites files instead of checking.
set -euo pipefail
cd "$(dirname "$0")/.."
cpp_files=$(git ls-files --cached --others --exclude-standard -- '*.cc' '*.h')
ts_files=$(git ls-files --cached --others --exclude-standard -- '*.ts' '*.mts' '*.mjs' '*.cjs' '*.json' \
  ':!package-lock.json')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i $cpp_files
  npx prettier --log-level warn --write $ts_files
  exit 0
fi
echo "lint: clang-format"
clang-format --dry-run --Werror $cpp_files
echo "lint: prettier"
npx prettier --log-level warn --check $ts_files
echo "lint: tsc --noEmit (strict)"
npx tsc --noEmit -p tsconfig.json
npx tsc --noEmit -p tests/ts/tsconfig.json
# The viewer imports the built package (../dist/esm): type it against the package's declarations,
# emitted first when no build has made them yet.
[ -f dist/esm/platform/browser.d.ts ] || npx tsc -p tsconfig.esm.json
npx tsc --noEmit -p demo/tsconfig.json
# A doc comment on every export of ts/ (typedoc.json: TypeDoc's notDocumented validation, warnings
# as errors; it emits nothing).
echo "lint: doc comments (TypeDoc)"
npx typedoc --logLevel Warn
echo "lint: C++ includes (layers.json: one-way layers, scripts/check-cpp-layers.mjs)"
node scripts/check-cpp-layers.mjs
echo "lint: dependency-cruiser (layers.json: one-way layers, no cycles)"
npx depcruise --output-type err-long ts demo
