#!/usr/bin/env bash
# `npm run bench [-- --quick]`: native (Google Benchmark) and wasm (Node) probe benchmarks, merged
# into bench/results.json. --quick uses a 10^6-key memory-resident filter and shorter runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
large=10000000
min_time=0.5
quick_flag=""
if [ "${1:-}" = "--quick" ]; then
  large=1000000
  min_time=0.1
  quick_flag="--quick"
fi
mkdir -p build/bench
echo "bench: native"
build/native/sstfilter_bench --keys_large="$large" --benchmark_min_time="$min_time" \
  --benchmark_format=console --benchmark_out=build/bench/native.json --benchmark_out_format=json
echo "bench: wasm"
node bench/wasm-bench.mjs --keys-large "$large" >build/bench/wasm.json
node bench/merge-results.mjs build/bench/native.json build/bench/wasm.json bench/results.json $quick_flag
