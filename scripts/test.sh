#!/usr/bin/env bash
# `npm test`: set up what is missing, lint, build native + wasm + package, generate the test
# corpus from RocksDB and LevelDB when it is missing or stale, run every C++ test (CTest) and every
# TypeScript test (Jest) against it (and against ../shared/golden too when that is present), then
# print one closing line "total: N passed, N failed" over both.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
bash scripts/lint.sh # after the build: the viewer is typed against the built package
bash scripts/corpus.sh
mkdir -p build/test-results

echo "test: C++ (ctest)"
ctest_status=0
ctest --test-dir build/native --output-on-failure -j"$(nproc)" | tee build/test-results/ctest.log ||
  ctest_status=$?

echo "test: C++ under AddressSanitizer + UndefinedBehaviorSanitizer (ctest)"
cmake -S . -B build/native-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSTFILTER_SANITIZE=ON \
  -DSSTFILTER_BENCHMARKS=OFF >/dev/null
cmake --build build/native-asan -j"$(nproc)"
asan_status=0
ctest --test-dir build/native-asan --output-on-failure -j"$(nproc)" | tee build/test-results/ctest-asan.log ||
  asan_status=$?

echo "test: TypeScript (jest)"
jest_status=0
node node_modules/jest/bin/jest.js --ci --json --outputFile=build/test-results/jest.json ||
  jest_status=$?

node scripts/test-summary.mjs build/test-results/ctest.log build/test-results/ctest-asan.log \
  build/test-results/jest.json
exit $((ctest_status || asan_status || jest_status))
