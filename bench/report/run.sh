#!/usr/bin/env bash
# Runs the CPU benchmark suite (bench/) as `make bench-report` asks and
# writes its raw output, with the machine's date, Go version and core count
# as configuration lines, to $1 (default docs/bench/cpu.txt).
# BENCH_COUNT runs per benchmark (default 10, as benchstat advises: with
# ten, the 95% confidence interval around a median leaves out the most
# extreme run at each end; with six, the fewest that give one, it spans
# them all).
set -euo pipefail
out=${1:-docs/bench/cpu.txt}
count=${BENCH_COUNT:-10}
go=${GO:-go}
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
for ((pass = 1; pass <= count; pass++)); do
	for procs in 1 "$cores"; do
		bench "$procs" -bench Elementwise -benchtime 200ms
		bench "$procs" -bench Reduce -benchtime 1s
	done
	bench "$cores" -bench MatMul -benchtime 5x
done
mv "$tmp" "$out"
