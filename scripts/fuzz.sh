#!/usr/bin/env bash
# `npm run fuzz -- [--seconds N | --runs N] [target...]`: builds the libFuzzer targets of tests/fuzz
# with clang, ASan and UBSan (build/fuzz), writes their seed corpora from the generated test corpus
# (build/fuzz/seeds), and runs each target in turn: for N seconds each (default 60), or for N
# executions. New inputs accumulate in build/fuzz/corpus/<target>, crashes in
# build/fuzz/artifacts/<target>/. Prints executions per target and any crash input; exits 1 after
# a crash.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
runs=""
targets=()
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if ((${#targets[@]} == 0)); then
  targets=(filter leveldb_filter_block block table table_get roundtrip values writer log_reader version_edit write_batch wal_replay db_get blob_file embedded_blobs indexeddb_key v8_value local_storage)
fi

bash scripts/corpus.sh
build=build/fuzz
echo "fuzz: build (clang, libFuzzer, ASan + UBSan)"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSSTFILTER_FUZZ=ON -DSSTFILTER_TESTS=OFF -DSSTFILTER_BENCHMARKS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"
node scripts/fuzz-seeds.mjs build/corpus/native tests/corpus/fixtures "$build/seeds"

if [ -n "$runs" ]; then
  limit=(-runs="$runs")
  budget="$runs runs"
else
  limit=(-max_total_time="$seconds")
  budget="$seconds s"
fi
# Largest input per target (-max_len). Without it libFuzzer takes the largest seed, and inputs
# grow towards it, each costing more to run: the caps keep executions fast while leaving room for
# what each layout needs (tests/fuzz/README.md says why each still covers its formats).
max_len_of() {
  case "$1" in
    filter) echo 16384 ;;                 # 16 KiB filters + probe keys
    leveldb_filter_block) echo 131072 ;;  # every seed (the largest is 124 KiB)
    block) echo 8192 ;;                   # blocks of 4 KiB tables and smaller
    table | table_get) echo 172032 ;;     # every seed (160 KiB tables + probe keys)
    roundtrip) echo 4096 ;;               # over 1000 distinct keys: Ribbon's 1024-slot regime
    values) echo 8192 ;;                  # entities of 200 columns
    writer) echo 16384 ;;                 # hundreds of entries: many blocks at small block sizes
    log_reader) echo 131072 ;;            # every seed (MANIFESTs of up to 96 KiB, 3 blocks)
    version_edit) echo 131072 ;;          # every seed (a 94 KiB edit: 29 files with 2 KiB keys)
    write_batch) echo 131072 ;;           # every seed (a 100 KB value spans four log blocks)
    wal_replay) echo 131072 ;;            # two logs of four blocks each
    db_get) echo 237568 ;;                # every seed (a 64 KiB WAL, then a table_get input)
    embedded_blobs) echo 64 ;;            # two varints, or a blob index, after 9 bytes
    *) echo 65536 ;;
  esac
}
summary=()
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target"
  # Targets whose inputs no corpus section holds (indexeddb_key, v8_value, local_storage) start
  # from an empty seed folder: libFuzzer exits when a folder it is given does not exist.
  mkdir -p "$corpus" "$artifacts" "$build/seeds/$target"
  log="$build/$target.log"
  echo "fuzz: $target ($budget, max_len $(max_len_of "$target"); log $log)"
  # -timeout: an input that takes seconds is a hang for inputs of this size.
  target_status=0
  # nice: fuzzing for long on a shared machine should not slow builds and benchmarks down.
  nice -n 19 "$build/${target}_fuzz" "${limit[@]}" -max_len="$(max_len_of "$target")" \
    -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" "$build/seeds/$target" >"$log" 2>&1 || target_status=$?
  executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  crash=$(grep -o 'Test unit written to .*' "$log" | sed 's/^Test unit written to //' || true)
  summary+=("$(printf '%-22s %12s executions  %s' "$target" "${executions:-?}" "${crash:-no crash}")")
  if ((target_status != 0)); then
    status=1
    echo "fuzz: $target failed (exit $target_status):" >&2
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*fuzz invariant broken|artifact_prefix|Test unit written)' "$log" >&2 || true
  fi
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $status
