#!/usr/bin/env bash
# Fetches the sources of the decompression libraries the wasm modules compile in: the upstream
# tarballs of Debian 12's source packages, the same versions as the -dev packages the native build
# links (libsnappy-dev 1.1.9-3, zlib1g-dev 1:1.2.13.dfsg-1, liblz4-dev 1.9.4-1, libzstd-dev
# 1.5.4+dfsg2-5, libbz2-dev 1.0.8-5). Each is checked against the SHA-256 its signed .dsc records,
# then unpacked into build/codec-src/<name>/ (cmake/codec_libraries.cmake compiles from there, and
# only the decompression sources: the modules read tables, they never write them).
# Re-runs do nothing once a library is unpacked (its stamp holds the tarball's SHA-256).
set -euo pipefail
cd "$(dirname "$0")/.."

dest=build/codec-src
mkdir -p "$dest/downloads"
mirrors=(
  http://deb.debian.org/debian/pool/main
  http://snapshot.debian.org/archive/debian/20250520T000000Z/pool/main
)

# name  pool path  sha256
sources=(
  "snappy s/snappy/snappy_1.1.9.orig.tar.gz 75c1fbb3d618dd3a0483bff0e26d0a92b495bbe5059c8b4f1c962b478b6e06e7"
  "zlib z/zlib/zlib_1.2.13.dfsg.orig.tar.bz2 71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1"
  "lz4 l/lz4/lz4_1.9.4.orig.tar.gz 0b0e3aa07c8c063ddf40b082bdf7e37a1562bda40a0ff5272957f3e987e0e54b"
  "zstd libz/libzstd/libzstd_1.5.4+dfsg2.orig.tar.xz 8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953"
  "bzip2 b/bzip2/bzip2_1.0.8.orig.tar.gz ab5a03176ee106d3f0fa90e381da478ddae405918153cca248e682cd0c4a2269"
)

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

for entry in "${sources[@]}"; do
  read -r name path sha256 <<<"$entry"
  stamp="$dest/$name/.sstfilter-sha256"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sha256" ]; then continue; fi
  archive="$dest/downloads/$(basename "$path")"
  if [ ! -f "$archive" ] || [ "$(sha256_of "$archive")" != "$sha256" ]; then
    rm -f "$archive"
    for mirror in "${mirrors[@]}"; do
      echo "codec sources: fetching $mirror/$path"
      if curl -fsSL --retry 3 -o "$archive.part" "$mirror/$path"; then
        mv "$archive.part" "$archive"
        break
      fi
    done
    rm -f "$archive.part"
    [ -f "$archive" ] || { echo "codec sources: could not fetch $path from any mirror" >&2; exit 1; }
  fi
  actual=$(sha256_of "$archive")
  if [ "$actual" != "$sha256" ]; then
    echo "codec sources: $archive has SHA-256 $actual, but Debian's .dsc records $sha256" >&2
    rm -f "$archive"
    exit 1
  fi
  rm -rf "${dest:?}/$name"
  mkdir -p "$dest/$name"
  tar -xf "$archive" -C "$dest/$name" --strip-components=1
  echo "$sha256" >"$stamp"
done
