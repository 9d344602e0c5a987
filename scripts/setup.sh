#!/usr/bin/env bash
# Installs what building and testing need on a fresh Debian 12 machine, and nothing that is
# already there: Debian packages (toolchains, GoogleTest, Google Benchmark, Emscripten 3.1.6,
# Chromium for the browser test, RocksDB and LevelDB for the test corpus) and the npm packages
# pinned in package-lock.json. Arguments name further Debian packages a caller needs.
set -euo pipefail
cd "$(dirname "$0")/.."

debian_packages=(
  cmake g++ make clang-format
  libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  emscripten binaryen
  libatomic1 # rocksdb-native's prebuilt addon (test peer) links it
  # The libraries the test corpus is generated from (scripts/corpus.sh); RocksDB 7.8.3's sst_dump,
  # db_bench and ldb (rocksdb-tools), which the benches write databases with and compare against
  librocksdb-dev libleveldb-dev rocksdb-tools
  # The codec libraries the native build links (cmake/codec_libraries.cmake), and what
  # scripts/codec-sources.sh fetches and unpacks their sources for the wasm build with
  libsnappy-dev zlib1g-dev libbz2-dev liblz4-dev libzstd-dev curl xz-utils bzip2
  chromium   # the viewer's browser test (tests/ts/viewer.test.ts) drives it with playwright-core
  "$@"
)

missing=()
for pkg in "${debian_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages at the versions package-lock.json pins, reinstalled when it changed since the
# last install. `npm install` rather than `npm ci`: npm 11 writes lock files without the other
# platforms' optional packages (e.g. @unrs/resolver-binding-*) and then refuses them in `npm ci`;
# with a complete lock for this platform `npm install` installs exactly the locked versions.
stamp=node_modules/.sstfilter-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: npm install (versions from package-lock.json)"
  npm install --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
