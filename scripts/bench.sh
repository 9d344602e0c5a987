#!/usr/bin/env bash
# `npm run bench [-- --quick | --content | --remote | --writer | --db-verify | --comparators |
# --db-get | --filter-advice | --diff]`: sstfilter
# natively (Google Benchmark) and in wasm (Node), RocksDB 7.8.3 itself (Debian's librocksdb), the
# npm peers and xxhash-wasm, merged with the ratios against issue 7's targets into results.json and
# a chart, results.svg; then the content path (bench/content-bench.mjs: verify against sst_dump,
# key walks, codecs, table probes, memory, the viewer) on tables db_bench writes, as results.json's
# "content" with issue 14's targets; then the same tables read over HTTP (bench/remote-bench.mjs:
# requests and bytes), as results.json's "remote" with issue 32's target; then writing a table (bench/writer-bench.mjs: SstFileWriter,
# the native and the wasm writer), as results.json's "writer" with issue 16's targets; then
# verifying a whole database (bench/db-verify-bench.mjs), as results.json's "dbVerify" with issue
# 17's target; then key orders (bench/comparator-bench.mjs: probes and gets through idb_cmp1
# against bytewise on the same keys, a JavaScript comparator's cost per call), as results.json's
# "comparators" with their 1.5x target; then a Get through a whole database (bench/db-get-bench.mjs:
# `sstfilter db get` against `ldb get`, db.get against rocksdb-native, table walks), as
# results.json's "dbGet" with issue 29's targets; then `filter-advice` on 10^6 keys
# (bench/filter-advice-bench.mjs), as results.json's "filterAdvice" with issue 32's 10 s target;
# then `sstfilter diff` of two 222 MB tables against sst_dump's scans of both (bench/diff-bench.mjs),
# as results.json's "diff" with issue 32's 2x target.
#   full:      10^4, 10^7 and 10^8 keys, best of 3 repetitions; writes bench/ (committed)
#   --quick:   10^4 and 10^6 keys, single runs, small tables; writes build/bench/quick/
#   --content: only the content path, full size, into the committed bench/results.json
#   --remote:  only the reads over HTTP, on the content path's tables (run --content first), into
#              the committed bench/results.json
#   --writer:  only the table writer, full size, into the committed bench/results.json
#   --db-verify: only `sstfilter db verify` against sst_dump over a database's live tables (issue
#              17), full size, into the committed bench/results.json
#   --comparators: only the key-order costs (200,000 keys), into the committed bench/results.json
#   --db-get [--full]: only the database Get (a 138 MB WAL, a 200,000-key database on three levels;
#              --full adds a 550 MB WAL, minutes per run), into the committed bench/results.json
#   --filter-advice [--table PATH]: only filterAdvice on 10^6 keys (a table it writes; db_bench's
#              5M fillrandom table sampled, or PATH), into the committed bench/results.json
#   --diff:    only `sstfilter diff` of two db_bench tables against sst_dump's scans of both,
#              into the committed bench/results.json
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh # installs RocksDB too, for the comparison program
bash scripts/build.sh

if [ "${1:-}" = "--comparators" ]; then
  echo "bench: comparators"
  mkdir -p build/bench
  node bench/comparator-bench.mjs --out build/bench/comparators.json --merge-into bench/results.json
  npx prettier --log-level warn --write bench/results.json
  exit 0 # needs no RocksDB
fi

if [ "${1:-}" = "--remote" ]; then
  echo "bench: remote reads"
  mkdir -p build/bench
  node bench/remote-bench.mjs --out build/bench/remote.json --merge-into bench/results.json
  npx prettier --log-level warn --write bench/results.json
  exit 0 # reads the content path's tables: no RocksDB build
fi

if [ "${1:-}" = "--filter-advice" ]; then
  echo "bench: filter-advice"
  mkdir -p build/bench
  node bench/filter-advice-bench.mjs "${@:2}" --out build/bench/filter-advice.json --merge-into bench/results.json
  npx prettier --log-level warn --write bench/results.json
  exit 0 # the package's own tables (and db_bench's, when the content bench made it): no RocksDB build
fi

if [ "${1:-}" = "--diff" ]; then
  echo "bench: diff"
  mkdir -p build/bench
  node bench/diff-bench.mjs --out build/bench/diff.json --merge-into bench/results.json
  npx prettier --log-level warn --write bench/results.json
  exit 0 # db_bench and sst_dump are the peers: no RocksDB build
fi

if [ "${1:-}" = "--db-get" ]; then
  echo "bench: database get"
  mkdir -p build/bench
  node bench/db-get-bench.mjs "${@:2}" --out build/bench/db-get.json --merge-into bench/results.json
  npx prettier --log-level warn --write bench/results.json
  exit 0 # ldb, db_bench and rocksdb-native are the peers: no RocksDB build
fi

echo "build: RocksDB comparison"
cmake -S bench/rocksdb -B build/bench-rocksdb -DCMAKE_BUILD_TYPE=Release \
  -DSSTFILTER_NATIVE_BUILD="$PWD/build/native" >/dev/null
cmake --build build/bench-rocksdb -j"$(nproc)"

if [ "${1:-}" = "--content" ]; then
  echo "bench: content path"
  node bench/content-bench.mjs --out build/bench/content.json --merge-into bench/results.json
  npx prettier --log-level warn --write bench/results.json
  exit 0
fi

if [ "${1:-}" = "--db-verify" ]; then
  echo "bench: database verify"
  node bench/db-verify-bench.mjs --out build/bench/db-verify.json --merge-into bench/results.json
  npx prettier --log-level warn --write bench/results.json
  exit 0
fi

if [ "${1:-}" = "--writer" ]; then
  echo "bench: table writer"
  mkdir -p build/bench
  node bench/writer-bench.mjs --out build/bench/writer.json --merge-into bench/results.json
  npx prettier --log-level warn --write bench/results.json
  exit 0
fi

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

# Size by size, sstfilter and then RocksDB, so that each comparison is measured minutes apart at
# most: on a shared machine the speed drifts by 20-30% over a run. The random-read floor runs once.
native_files=()
rocksdb_files=()
only=()
for size in ${sizes//,/ }; do
  echo "bench: native sstfilter, $size keys"
  build/native/sstfilter_bench --sizes="$size" --export_dir="$work/fixtures" "${gbench[@]}" \
    "${only[@]}" --benchmark_out="$work/native-$size.json" --benchmark_out_format=json
  echo "bench: RocksDB 7.8.3, $size keys"
  build/bench-rocksdb/sstfilter_rocksdb_bench --sizes="$size" "${gbench[@]}" \
    --benchmark_out="$work/rocksdb-$size.json" --benchmark_out_format=json
  native_files+=("$work/native-$size.json")
  rocksdb_files+=("$work/rocksdb-$size.json")
  only=(--benchmark_filter='^(build|probe)/')
done
echo "bench: wasm"
node --expose-gc bench/wasm-bench.mjs --fixtures "$work/fixtures" --sizes "$sizes" "${quick[@]}" \
  >"$work/wasm.json"
echo "bench: npm peers and hashing"
node bench/peers-bench.mjs --sizes "$peer_sizes" "${quick[@]}" >"$work/peers.json"
node bench/merge-results.mjs --native "$(IFS=,; echo "${native_files[*]}")" \
  --rocksdb "$(IFS=,; echo "${rocksdb_files[*]}")" \
  --wasm "$work/wasm.json" --peers "$work/peers.json" --out "$out" "${quick[@]}"
echo "bench: content path"
node bench/content-bench.mjs "${quick[@]}" --out "$work/content.json" --merge-into "$out/results.json"
echo "bench: remote reads"
node bench/remote-bench.mjs "${quick[@]}" --out "$work/remote.json" --merge-into "$out/results.json"
echo "bench: table writer"
node bench/writer-bench.mjs "${quick[@]}" --out "$work/writer.json" --merge-into "$out/results.json"
echo "bench: database verify"
node bench/db-verify-bench.mjs "${quick[@]}" --out "$work/db-verify.json" --merge-into "$out/results.json"
echo "bench: comparators"
node bench/comparator-bench.mjs "${quick[@]}" --out "$work/comparators.json" --merge-into "$out/results.json"
echo "bench: database get"
node bench/db-get-bench.mjs "${quick[@]}" --out "$work/db-get.json" --merge-into "$out/results.json"
echo "bench: filter-advice"
node bench/filter-advice-bench.mjs "${quick[@]}" --out "$work/filter-advice.json" --merge-into "$out/results.json"
echo "bench: diff"
node bench/diff-bench.mjs "${quick[@]}" --out "$work/diff.json" --merge-into "$out/results.json"
npx prettier --log-level warn --write "$out/results.json"
