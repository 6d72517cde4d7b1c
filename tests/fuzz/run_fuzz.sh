#!/usr/bin/env bash
# Bounded libFuzzer run over every target (what CI runs with
# `tools/bootstrap --fuzz`): builds with clang + ASan/UBSan in its own build
# directory, then fuzzes each target for FUZZ_TIME seconds (op_select, schema for
# half of it), starting from a copy of tests/fuzz/corpus/TARGET; FUZZ_JOBS
# targets at a time (default: one per core).
#
#   tests/fuzz/run_fuzz.sh                  # build-fuzz/, 60 s per target
#   FUZZ_TIME=600 FUZZ_RUNS=-1 FUZZ_SEED=0 tests/fuzz/run_fuzz.sh  # explore longer
#   BUILD_DIR=/tmp/bf tests/fuzz/run_fuzz.sh manifest   # one target
#   tests/fuzz/run_fuzz.sh --configure-only DIR         # configure DIR only
#                                      (tools/bootstrap's sanitizer build)
#
# A crash leaves its input in BUILD_DIR/crashes/TARGET/ and fails the run:
# add the input to tests/fuzz/regressions/TARGET/ (replayed by ctest as
# fuzz_replay_TARGET) and fix the bug.
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir=${BUILD_DIR:-build-fuzz}
configure_only=0
if [ "${1-}" = --configure-only ]; then
  configure_only=1 build_dir=$2
  shift 2
fi
fuzz_time=${FUZZ_TIME:-60}
# A fixed seed and a run count make the CI run repeatable: the same inputs are
# tried on every machine (the time limit only caps a slow one). FUZZ_SEED=0
# and a large FUZZ_RUNS explore instead.
fuzz_seed=${FUZZ_SEED:-1}
fuzz_runs=${FUZZ_RUNS:-100000}
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(manifest torch_dump op_select torchgen_yaml torchgen_rules schema pack)

# -O1 and line tables only: what ASan reports need, at a fraction of the
# compile time of -O2 -g (this build is CI's sanitizer build too, whose unit
# tests compile in batches: DISPATCHCTL_UNITY_BUILD).
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
  -DDISPATCHCTL_FUZZ=ON -DDISPATCHCTL_SANITIZE=ON -DDISPATCHCTL_UNITY_BUILD=ON >/dev/null
[ "$configure_only" = 0 ] || exit 0
cmake --build "$build_dir" -j"${JOBS:-2}" --target "${targets[@]/#/fuzz_}"

# One target per core at a time: each runs for a fixed time, so running them
# side by side divides CI's fuzzing time by the core count.
fuzz_one() {
  local t=$1 seconds=$fuzz_time
  [ "$t" = op_select ] || [ "$t" = schema ] && seconds=$(( (fuzz_time + 1) / 2 ))
  local work="$build_dir/fuzz-corpus/$t" crashes="$build_dir/crashes/$t"
  mkdir -p "$work" "$crashes"
  local log="$build_dir/fuzz-$t.log"
  echo "fuzz: $t for ${seconds}s (log: $log)"
  if ASAN_OPTIONS=detect_leaks=1 "$build_dir/tests/fuzz/fuzz_$t" \
       -max_total_time="$seconds" -seed="$fuzz_seed" -runs="$fuzz_runs" -rss_limit_mb=2048 -timeout=5 -print_final_stats=1 \
       -artifact_prefix="$crashes/" "$work" "tests/fuzz/corpus/$t" >"$log" 2>&1; then
    local runs cov
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    echo "fuzz: $t ok: $runs executions, $cov"
  else
    echo "fuzz: $t FAILED; input in $crashes/:" >&2
    grep -E 'ERROR|SUMMARY|terminate|what\(\)' "$log" | head -5 >&2 || true
    ls "$crashes" >&2
    return 1
  fi
}

jobs=${FUZZ_JOBS:-$(nproc)}
declare -A pid_of=()
failed=()
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
  pid_of[$t]=$!
done
for t in "${targets[@]}"; do
  wait "${pid_of[$t]}" || failed+=("$t")
done
[ "${#failed[@]}" = 0 ] || { echo "fuzz: crashes in ${failed[*]}" >&2; exit 1; }
