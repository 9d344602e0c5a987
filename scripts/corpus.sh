#!/usr/bin/env bash
# Generates the test corpus (tests/corpus/README.md) into build/corpus from the real libraries:
# build/corpus/native from Debian's RocksDB and LevelDB (tests/corpus/native), build/corpus/node
# from npm's rocksdb-native and classic-level (tests/corpus/node), build/corpus/chromium from
# Debian's Chromium (tests/corpus/node/chromium.mjs: the stores a browser profile holds). Skipped
# when build/corpus holds the output of the same generator sources and library versions
# (build/corpus/.cache-key).
set -euo pipefail
cd "$(dirname "$0")/.."

cache_key() {
  {
    find tests/corpus/CMakeLists.txt tests/corpus/native tests/corpus/node -type f -print0 2>/dev/null |
      sort -z | xargs -0 sha256sum
    dpkg-query -W librocksdb-dev libleveldb-dev libsnappy-dev rocksdb-tools chromium
    cat node_modules/rocksdb-native/package.json node_modules/classic-level/package.json \
      node_modules/playwright-core/package.json
  } | sha256sum | cut -d' ' -f1
}

key=$(cache_key)
if [ -f build/corpus/.cache-key ] && [ "$(cat build/corpus/.cache-key)" = "$key" ]; then
  echo "corpus: build/corpus is up to date"
  exit 0
fi

start=$(date +%s)
rm -rf build/corpus
echo "corpus: building the generator (build/corpus-gen)"
cmake -S tests/corpus -B build/corpus-gen -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/corpus-gen -j"$(nproc)"
echo "corpus: RocksDB $(dpkg-query -W -f='${Version}' librocksdb-dev), LevelDB $(dpkg-query -W -f='${Version}' libleveldb-dev) -> build/corpus/native"
build/corpus-gen/corpus-gen build/corpus/native
echo "corpus: rocksdb-native and classic-level -> build/corpus/node"
node tests/corpus/node/generate.mjs build/corpus/node
echo "corpus: Chromium $(dpkg-query -W -f='${Version}' chromium) -> build/corpus/chromium"
node tests/corpus/node/chromium.mjs build/corpus/chromium
echo "$key" >build/corpus/.cache-key
echo "corpus: generated in $(($(date +%s) - start)) s"
