#!/usr/bin/env bash
# Builds the native library + tests (build/native), both wasm modules (build/wasm) and the npm
# package (dist/). Incremental: re-running only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

echo "build: native"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j"$jobs"

# The codec libraries' sources for the wasm modules (pinned, checksum-verified, cached in build/).
bash scripts/codec-sources.sh
echo "build: wasm (emscripten $(emcc --version | head -1 | grep -o '[0-9]\+\.[0-9]\+\.[0-9]\+'))"
# Debian's emcc runs its acorn-based optimizer with Node; acorn comes from Debian's node-acorn.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/wasm -j"$jobs"

echo "build: npm package"
rm -rf dist
npx tsc -p tsconfig.esm.json
npx tsc -p tsconfig.cjs.json
mkdir -p dist/esm/wasm dist/cjs/wasm
for variant in simd scalar; do
  cp "build/wasm/esm/sstfilter-$variant.mjs" "build/wasm/esm/sstfilter-$variant.wasm" dist/esm/wasm/
  cp "build/wasm/cjs/sstfilter-$variant.cjs" dist/cjs/wasm/
  # Both glue flavours are linked from the same objects; they must load the same wasm bytes.
  cmp -s "build/wasm/esm/sstfilter-$variant.wasm" "build/wasm/cjs/sstfilter-$variant.wasm" || {
    echo "build: the ESM and CommonJS links of $variant produced different .wasm files" >&2
    exit 1
  }
done
echo '{"type":"commonjs"}' >dist/cjs/package.json
# The test builds (test hooks linked in, wasm/testing/) stay out of the package: the tests and
# benchmarks load them from here.
mkdir -p build/testing-dist
for variant in simd scalar; do
  cp "build/wasm/cjs/sstfilter-$variant-testing.cjs" "build/wasm/esm/sstfilter-$variant-testing.mjs" \
    "build/wasm/esm/sstfilter-$variant-testing.wasm" build/testing-dist/
done
# The command line as the package's "bin": the CLI and its verify worker each bundled into one
# file (esbuild), as Node loads one file in a few milliseconds and the 62 modules of dist/esm in
# about 30 (measured on Node 20). The bundles sit in dist/esm/bin/, beside platform/, so that the
# paths node.ts resolves from its own URL still hold: ../wasm/ for the modules and
# ./verify-worker.js for the worker.
npx esbuild sstfilter=dist/esm/tools/cli.js verify-worker=dist/esm/platform/verify-worker.js \
  --bundle --platform=node --format=esm --target=node20 --outdir=dist/esm/bin --log-level=warning
chmod +x dist/esm/bin/sstfilter.js dist/esm/tools/cli.js
