#!/usr/bin/env bash
# `npm test`: set up what is missing, lint, build native + wasm + package, run every C++ test
# (CTest) and every TypeScript test (Jest) against ../shared/golden.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/lint.sh
bash scripts/build.sh
echo "test: C++ (ctest)"
ctest --test-dir build/native --output-on-failure -j"$(nproc)"
echo "test: TypeScript (jest)"
node --expose-gc node_modules/jest/bin/jest.js --ci
