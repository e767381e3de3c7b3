#!/usr/bin/env bash
# Runs the CPU benchmark suite (bench/) as `make bench-report` asks and
# writes its raw output, with the machine's date, Go version and core count
# as configuration lines, to $1 (default docs/bench/cpu.txt).
# BENCH_COUNT runs per benchmark (default 10, as benchstat advises: with
# ten, the 95% confidence interval around a median leaves out the most
# extreme run at each end; with six, the fewest that give one, it spans
# them all).
#
# Each pass also runs, into the same file:
#   - the Elementwise suite's laze implementation built with
#     GOEXPERIMENT=simd, renamed laze-simd (BenchmarkElementwise/<case>/laze-simd/<n>),
#     when that build compiles (a warning otherwise);
#   - the peers, NumPy and numexpr (bench/peers/peers.py, with Debian's
#     python, PYTHON to override), on 1 and all cores, when NumPy imports
#     (`make bench-deps` installs both; a warning otherwise);
#   - the workloads (BenchmarkWorkload, bench/workloads_test.go), in the
#     scalar build and in the GOEXPERIMENT=simd build (renamed laze-simd),
#     and the same workloads in PyTorch, NumPy and numexpr
#     (bench/peers/workloads.py) with as many threads, right after laze's,
#     so that laze and its peers are timed minutes apart in every pass;
#   - the array vocabulary (issue 32: BenchmarkGather, BenchmarkSort,
#     BenchmarkStructured, BenchmarkEinsum) on one core, and right after
#     them their NumPy peers (bench/peers/gather.py, sort.py, structured.py,
#     einsum.py) on one thread, when NumPy imports.
#
# ONLY=vocabulary runs only the last of these (see below).
set -euo pipefail
out=${1:-docs/bench/cpu.txt}
count=${BENCH_COUNT:-10}
go=${GO:-go}
py=${PYTHON:-/usr/bin/python3}
cores=$(nproc)
mkdir -p "$(dirname "$out")"
tmp="$out.tmp"
{
	echo "date: $(date -u +%F)"
	echo "go: $($go env GOVERSION)"
	echo "cores: $cores"
} >"$tmp"
# bench PROCS ARGS... runs the suite once with GOMAXPROCS set to PROCS for
# the whole process, not only through -cpu: a b.Loop benchmark's first run
# happens before go test applies -cpu, so with "-cpu 1,2" in one process
# the first of each one-core leaf's runs would use the core count left by
# the leaf before it.
bench() {
	local procs=$1
	shift
	GOMAXPROCS=$procs "$go" test -run '^$' -benchmem -timeout 120m -cpu "$procs" -count 1 "$@" ./bench | tee -a "$tmp"
}
# The repetitions are whole passes over the suite, not -count: on a shared
# machine a slow minute then costs one run of many benchmarks, which their
# medians ignore, instead of every run of the few benchmarks it overlaps.
warn() { echo "run.sh: warning: $*" >&2; }

# simd PROCS runs the Elementwise suite's laze leaves in the
# GOEXPERIMENT=simd build and appends them as laze-simd; the other
# implementations do not change with the experiment and run once, in the
# scalar build. Only benchmark names are rewritten.
simd_bin=$(mktemp -d)
trap 'rm -rf "$simd_bin"' EXIT
simd_ok=1
if ! GOEXPERIMENT=simd "$go" test -c -o "$simd_bin/bench.test" ./bench >"$simd_bin/build.log" 2>&1; then
	simd_ok=0
	warn "the GOEXPERIMENT=simd build of ./bench does not compile; no laze-simd figures in this run:"
	tail -n 20 "$simd_bin/build.log" >&2
fi
simd() {
	local procs=$1
	if ! GOMAXPROCS=$procs GOEXPERIMENT=simd "$go" test -run '^$' -benchmem -timeout 120m -cpu "$procs" -count 1 \
		-bench 'Elementwise//^laze$' -benchtime 200ms ./bench >"$simd_bin/run.txt" 2>&1; then
		warn "the GOEXPERIMENT=simd run failed (-cpu $procs); its laze-simd figures are left out of this pass:"
		tail -n 20 "$simd_bin/run.txt" >&2
		return 0
	fi
	sed -E 's#^(BenchmarkElementwise/[^/[:space:]]+)/laze/#\1/laze-simd/#' "$simd_bin/run.txt" | tee -a "$tmp"
}

# simd_workloads PROCS runs the workloads' laze leaves in the
# GOEXPERIMENT=simd build and appends them as laze-simd, as simd does.
simd_workloads() {
	local procs=$1
	if ! GOMAXPROCS=$procs "$simd_bin/bench.test" -test.run '^$' -test.benchmem -test.timeout 120m -test.cpu "$procs" -test.count 1 \
		-test.bench 'Workload///^laze$' -test.benchtime 500ms >"$simd_bin/workloads.txt" 2>&1; then
		warn "the GOEXPERIMENT=simd workloads failed (-cpu $procs); their laze-simd figures are left out of this pass:"
		tail -n 20 "$simd_bin/workloads.txt" >&2
		return 0
	fi
	grep -E '^(Benchmark|goos|goarch|pkg|cpu)' "$simd_bin/workloads.txt" |
		sed -E 's#^(BenchmarkWorkload/[^/[:space:]]+/[^/[:space:]]+)/laze([-[:space:]])#\1/laze-simd\2#' | tee -a "$tmp"
}

# peers THREADS runs NumPy and numexpr with THREADS threads: numexpr's pool
# is capped there (NUMEXPR_MAX_THREADS) and set to it, and the BLAS and
# OpenMP pools NumPy might use are held to it too.
peers_ok=1
if ! "$py" -c 'import numpy' >/dev/null 2>&1; then
	peers_ok=0
	warn "$py cannot import numpy; no NumPy or numexpr figures in this run (make bench-deps)"
	echo "peers: missing" >>"$tmp"
elif ! "$py" -c 'import numexpr' >/dev/null 2>&1; then
	warn "$py cannot import numexpr; NumPy figures only (make bench-deps)"
fi
peers() {
	local threads=$1
	OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads MKL_NUM_THREADS=$threads \
		NUMEXPR_MAX_THREADS=$threads NUMEXPR_NUM_THREADS=$threads \
		"$py" bench/peers/peers.py --threads "$threads" --benchtime 0.2 | tee -a "$tmp" ||
		warn "bench/peers/peers.py failed or skipped a case (-threads $threads); see above"
}

# workload_peers THREADS runs the workloads in PyTorch (torch.set_num_threads),
# NumPy and numexpr with THREADS threads, the BLAS and OpenMP pools held to
# it as for peers; without PyTorch it writes "torch: missing" and runs the
# rest.
workload_peers() {
	local threads=$1
	OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads MKL_NUM_THREADS=$threads \
		NUMEXPR_MAX_THREADS=$threads NUMEXPR_NUM_THREADS=$threads \
		"$py" bench/peers/workloads.py --threads "$threads" --benchtime 0.5 | tee -a "$tmp" ||
		warn "bench/peers/workloads.py failed or skipped a workload (-threads $threads); see above"
}

# gemm runs the packed-GEMM suite (bench/gemm_test.go) on one core in the
# default build, where laze's products run on kernels/internal/gemm, then
# OpenBLAS's products through NumPy on one thread (bench/peers/gemm.py).
gemm() {
	bench 1 -bench 'Gemm' -benchtime 3x
	if ((peers_ok)); then
		OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 "$py" bench/peers/gemm.py | tee -a "$tmp" ||
			warn "bench/peers/gemm.py failed; see above"
	fi
}

# vocabulary runs the array vocabulary's benchmarks (gathers, sorts,
# structured functions in a fused tree, einsum against MatMul) on one core,
# then their NumPy peers with the BLAS and OpenMP pools held to one thread:
# about a minute a pass on a quiet 2-core machine. Each benchmark runs
# for at least about 0.1 s (a sort's 50 ms ten times, a structured
# function's 0.6 ms two hundred times): ten runs of a 0.6 ms case spread
# by ±50% between passes, and forty of einsum's 256² product ran 5% over
# the same product's 200 (the first run allocates the packing buffers).
vocabulary() {
	bench 1 -bench '^BenchmarkSort$' -benchtime 10x
	bench 1 -bench '^BenchmarkGather$' -benchtime 40x
	bench 1 -bench '^Benchmark(Structured|Einsum)$' -benchtime 200x
	if ((peers_ok)); then
		local p
		for p in gather sort structured einsum; do
			OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 "$py" "bench/peers/$p.py" | tee -a "$tmp" ||
				warn "bench/peers/$p.py failed; see above"
		done
	fi
}

# ONLY=vocabulary runs the vocabulary alone (make bench-vocabulary writes
# docs/bench/vocabulary.txt so): a few minutes in all, where the full suite
# takes hours; its figures go to the report's vocabulary section.
if [[ ${ONLY:-} == vocabulary ]]; then
	for ((pass = 1; pass <= count; pass++)); do
		vocabulary
	done
	mv "$tmp" "$out"
	exit 0
fi

for ((pass = 1; pass <= count; pass++)); do
	for procs in 1 "$cores"; do
		bench "$procs" -bench Elementwise -benchtime 200ms
		if ((simd_ok)); then simd "$procs"; fi
		if ((peers_ok)); then peers "$procs"; fi
		bench "$procs" -bench Reduce -benchtime 1s
		bench "$procs" -bench Workload -benchtime 500ms
		if ((simd_ok)); then simd_workloads "$procs"; fi
		if ((peers_ok)); then workload_peers "$procs"; fi
	done
	bench "$cores" -bench MatMul -benchtime 5x
	gemm
	vocabulary
done
mv "$tmp" "$out"
