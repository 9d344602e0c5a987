#!/usr/bin/env bash
# `npm run bench [-- --quick]`: sstfilter natively (Google Benchmark) and in wasm (Node), RocksDB
# 7.8.3 itself (Debian's librocksdb), the npm peers and xxhash-wasm, merged with the ratios against
# issue 7's targets into results.json and a chart, results.svg.
#   full:    10^4, 10^7 and 10^8 keys, best of 3 repetitions; writes bench/ (committed)
#   --quick: 10^4 and 10^6 keys, single runs, under two minutes; writes build/bench/quick/
set -euo pipefail
cd "$(dirname "$0")/.."
# RocksDB itself too, for the comparison program.
bash scripts/setup.sh librocksdb-dev
bash scripts/build.sh
echo "build: RocksDB comparison"
cmake -S bench/rocksdb -B build/bench-rocksdb -DCMAKE_BUILD_TYPE=Release \
  -DSSTFILTER_NATIVE_BUILD="$PWD/build/native" >/dev/null
cmake --build build/bench-rocksdb -j"$(nproc)"

if [ "${1:-}" = "--quick" ]; then
  sizes=10000,1000000
  peer_sizes=10000
  gbench=(--benchmark_min_time=0.05)
  quick=(--quick)
  out=build/bench/quick
else
  sizes=10000,10000000,100000000
  peer_sizes=10000,1000000
  gbench=(--benchmark_min_time=0.3 --benchmark_repetitions=3)
  quick=()
  out=bench
fi
work=build/bench
mkdir -p "$work/fixtures" "$out"
rm -f "$work"/fixtures/*.bin

echo "bench: native sstfilter (sizes $sizes)"
build/native/sstfilter_bench --sizes="$sizes" --export_dir="$work/fixtures" "${gbench[@]}" \
  --benchmark_out="$work/native.json" --benchmark_out_format=json
echo "bench: RocksDB 7.8.3"
build/bench-rocksdb/sstfilter_rocksdb_bench --sizes="$sizes" "${gbench[@]}" \
  --benchmark_out="$work/rocksdb.json" --benchmark_out_format=json
echo "bench: wasm"
node --expose-gc bench/wasm-bench.mjs --fixtures "$work/fixtures" --sizes "$sizes" "${quick[@]}" \
  >"$work/wasm.json"
echo "bench: npm peers and hashing"
node bench/peers-bench.mjs --sizes "$peer_sizes" "${quick[@]}" >"$work/peers.json"
node bench/merge-results.mjs --native "$work/native.json" --rocksdb "$work/rocksdb.json" \
  --wasm "$work/wasm.json" --peers "$work/peers.json" --out "$out" "${quick[@]}"
npx prettier --log-level warn --write "$out/results.json"
