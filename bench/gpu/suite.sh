#!/usr/bin/env bash
# The GPU suite in one script, for a GPU machine without Go: `make gpu-build`
# (on a machine with Go) puts it in out/ beside the binaries it runs, and the
# GPU machine runs it from the project's root with out/ carried there:
#
#   OUT=/some/dir bash out/suite.sh tests   # GPU tests, CLI tests, compute-sanitizer memcheck
#   OUT=/some/dir bash out/suite.sh bench   # the benchmarks, then the PyTorch reference
#   OUT=/some/dir bash out/suite.sh all     # both, within one budget
#
# Everything it writes goes under $OUT: one file per step (nvidia-smi.txt,
# cuda-test.txt, memcheck-cuda.txt, bench-*.txt, torch.txt, ...), summary.txt
# (each step's status and seconds), and, after `bench`, gpu.txt: the
# benchmarks' and torch's output concatenated, which is what goes into
# docs/bench/gpu.txt before `make report`.
#
# MEMCHECK_RUN and MEMCHECK_CLI_RUN (-test.run patterns, default all) pick the
# tests of cuda.test and exprdemo.test run under
# the sanitizer.
#
# Time: each step has a budget in seconds (the *_S variables below), and
# the whole run one deadline, SUITE_BUDGET (default 550 s, under a 10-minute
# call): a step gets the smaller of its budget and the time left, and is
# skipped (and says so in summary.txt) when less than MIN_STEP_S is left. A
# step cut short keeps the output it had written.
set -uo pipefail

mode=${1:-all}
here=$(cd "$(dirname "$0")" && pwd)   # out/, with the binaries
root=$(pwd)                           # the project's root (package folders for the tests' working directories)
OUT=${OUT:-$root/gpu-results}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$PATH:/usr/local/cuda/bin

SUITE_BUDGET=${SUITE_BUDGET:-550}
MIN_STEP_S=${MIN_STEP_S:-15}
CUDA_TEST_S=${CUDA_TEST_S:-150}
CLI_TEST_S=${CLI_TEST_S:-150}
BENCH_TEST_S=${BENCH_TEST_S:-60}
MEMCHECK_CUDA_S=${MEMCHECK_CUDA_S:-240}
MEMCHECK_CLI_S=${MEMCHECK_CLI_S:-60}
BENCH_EW_S=${BENCH_EW_S:-150}
BENCH_REDUCE_S=${BENCH_REDUCE_S:-40}
BENCH_OVERHEAD_S=${BENCH_OVERHEAD_S:-60}
TORCH_S=${TORCH_S:-200}
BENCH_CROSSOVER_S=${BENCH_CROSSOVER_S:-60}
BENCH_FIRST_S=${BENCH_FIRST_S:-60}
TORCH_WARM_WAIT_S=${TORCH_WARM_WAIT_S:-60}
MEMCHECK_RUN=${MEMCHECK_RUN:-.}
MEMCHECK_CLI_RUN=${MEMCHECK_CLI_RUN:-.}
COUNT=${COUNT:-10}

start=$(date +%s)
summary=$OUT/summary.txt

# step NAME BUDGET DIR COMMAND...: runs COMMAND in DIR (relative to the
# root) with stdout and stderr in $OUT/NAME.txt, within its budget.
step() {
  local name=$1 budget=$2 dir=$3
  shift 3
  local left=$((SUITE_BUDGET - ($(date +%s) - start)))
  if ((left < MIN_STEP_S)); then
    echo "$name: skipped: ${left}s left of the suite's ${SUITE_BUDGET}s" | tee -a "$summary"
    return
  fi
  local t=$((budget < left ? budget : left))
  local t0=$(date +%s)
  (cd "$root/$dir" && timeout --kill-after=10 "$t" "$@") >"$OUT/$name.txt" 2>&1
  local rc=$?
  local why=""
  ((rc == 124 || rc == 137)) && why=" (stopped at its ${t}s budget)"
  echo "$name: exit $rc$why, $(($(date +%s) - t0))s" | tee -a "$summary"
}

# binary NAME: the path of out/NAME, or nothing (and a line in the summary).
binary() {
  if [[ -x $here/$1 ]]; then
    echo "$here/$1"
  else
    echo "$1: not built (make gpu-build)" >>"$summary"
  fi
}

sanitizer=$(command -v compute-sanitizer || true)

tests() {
  local cuda cli bench
  cuda=$(binary cuda.test)
  cli=$(binary exprdemo.test)
  bench=$(binary bench.test)
  [[ -n $cuda ]] && step cuda-test "$CUDA_TEST_S" cuda "$cuda" -test.v -test.count 1 -test.timeout "${CUDA_TEST_S}s"
  [[ -n $cli ]] && step cli-test "$CLI_TEST_S" cmd/exprdemo "$cli" -test.v -test.count 1 -test.timeout "${CLI_TEST_S}s"
  [[ -n $bench ]] && step bench-test "$BENCH_TEST_S" bench "$bench" -test.v -test.count 1 -test.run . -test.timeout "${BENCH_TEST_S}s"
  if [[ -z $sanitizer ]]; then
    echo "memcheck: skipped: no compute-sanitizer on PATH" | tee -a "$summary"
    return
  fi
  [[ -n $cuda ]] && step memcheck-cuda "$MEMCHECK_CUDA_S" cuda "$sanitizer" --tool memcheck --leak-check full \
    --error-exitcode 86 "$cuda" -test.run "$MEMCHECK_RUN" -test.count 1 -test.timeout "${MEMCHECK_CUDA_S}s"
  [[ -n $cli ]] && step memcheck-cli "$MEMCHECK_CLI_S" cmd/exprdemo "$sanitizer" --tool memcheck --leak-check full \
    --error-exitcode 86 "$cli" -test.run "$MEMCHECK_CLI_RUN" -test.count 1 -test.timeout "${MEMCHECK_CLI_S}s"
}

bench() {
  local bench
  bench=$(binary bench.test)
  [[ -n $bench ]] || return
  local run=("$bench" -test.run '^$' -test.benchmem=false)
  step bench-elementwise "$BENCH_EW_S" bench "${run[@]}" -test.bench '^BenchmarkCUDA$' -test.benchtime 20x -test.count "$COUNT" -test.timeout "${BENCH_EW_S}s"
  step bench-reduce "$BENCH_REDUCE_S" bench "${run[@]}" -test.bench '^BenchmarkCUDAReduce$' -test.benchtime 20x -test.count "$COUNT" -test.timeout "${BENCH_REDUCE_S}s"
  step bench-overhead "$BENCH_OVERHEAD_S" bench "${run[@]}" -test.bench '^BenchmarkCUDA(Overhead|Graph)$' -test.benchtime 200ms -test.count "$COUNT" -test.timeout "${BENCH_OVERHEAD_S}s"
  local left=$((SUITE_BUDGET - ($(date +%s) - start)))
  local torch_budget=$((TORCH_S < left ? TORCH_S : left))
  # torch.compile's compilations take most of the step: the script stops starting cases 40 s before its end.
  step torch "$TORCH_S" . python3 "$here/torch_bench.py" --runs "$COUNT" --budget $((torch_budget > 60 ? torch_budget - 40 : 20))
  step bench-crossover "$BENCH_CROSSOVER_S" bench "${run[@]}" -test.bench '^BenchmarkCUDACrossover$' -test.benchtime 100ms -test.count "$COUNT" -test.timeout "${BENCH_CROSSOVER_S}s"
  step bench-first-assign "$BENCH_FIRST_S" bench "${run[@]}" -test.bench '^BenchmarkCUDAFirstAssign$' -test.benchtime 1x -test.count 6 -test.timeout "${BENCH_FIRST_S}s"
  # gpu.txt: what the report reads, in the order it ran.
  cat "$OUT"/bench-{elementwise,reduce,overhead}.txt "$OUT"/torch.txt "$OUT"/bench-{crossover,first-assign}.txt >"$OUT/gpu.txt" 2>/dev/null
  echo "gpu.txt: $(grep -c '^Benchmark' "$OUT/gpu.txt") result lines" | tee -a "$summary"
}

{
  echo "suite.sh $mode on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ), budget ${SUITE_BUDGET}s"
  [[ -f $here/build-info.txt ]] && cat "$here/build-info.txt"
} | tee -a "$summary"
nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
nvidia-smi -q >>"$OUT/nvidia-smi.txt" 2>&1
echo "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)" | tee -a "$summary"

# torch_warm: in `all`, torch.compile's compilations (CPU work, most of the
# torch step) run once in the background while the tests run, filling
# Inductor's cache, so that the timed torch step compiles from the cache.
# Its timings are thrown away; the benchmarks wait (at most
# TORCH_WARM_WAIT_S) until it is done, so that it takes no GPU time from them.
torch_warm() {
  PYTHONUNBUFFERED=1 python3 "$here/torch_bench.py" --runs 1 --reps 1 >"$OUT/torch-warm.txt" 2>&1 &
  warm_pid=$!
}
torch_warm_wait() {
  local t0=$(date +%s)
  while kill -0 "$warm_pid" 2>/dev/null && (($(date +%s) - t0 < TORCH_WARM_WAIT_S)); do sleep 1; done
  kill "$warm_pid" 2>/dev/null && echo "torch-warm: stopped after waiting ${TORCH_WARM_WAIT_S}s" | tee -a "$summary"
  echo "torch-warm: waited $(($(date +%s) - t0))s" | tee -a "$summary"
}

case $mode in
  tests) tests ;;
  bench) bench ;;
  all) torch_warm; tests; torch_warm_wait; bench ;;
  *) echo "usage: suite.sh tests|bench|all" >&2; exit 2 ;;
esac
echo "done in $(($(date +%s) - start))s" | tee -a "$summary"
