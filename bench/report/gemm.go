package main

import (
	"fmt"
	"strconv"
	"strings"
)

// The packed-GEMM suite (bench/gemm_test.go), run on one core in the
// default build: Gemm/<dtype>/<n>/{laze,gonum} and
// Gemm/epilogue/<dtype>/<n>/{product,fused,twopass}; beside it OpenBLAS
// through NumPy on one thread (bench/peers/gemm.py),
// Gemm/<dtype>/<n>/openblas.
const (
	gemm         = "Gemm/"
	gemmEpilogue = "Gemm/epilogue/"
)

// gemmTargetN is the product size the report's targets are stated at.
const gemmTargetN = 1024

// gemmTable compares laze's product in the default build (the packed GEMM)
// with gonum's Gemm and, where the run has it, OpenBLAS on one core, and
// checks the targets: at least 3× gonum at 1024² (issue 17) and at least
// 0.9× OpenBLAS at every size from 256 to 2048 (issue 29), in float64 and
// float32.
func gemmTable(rs *results) (string, error) {
	t := &table{align: "lrrrrrrr", header: []string{"dtype", "n", "laze (packed GEMM)", "gonum Gemm", "OpenBLAS (NumPy, 1 thread)", "GFLOP/s, laze", "laze vs gonum", "laze vs OpenBLAS"}}
	var verdicts, blasVerdicts []string
	for _, dtype := range rs.level(gemm, 1) {
		if dtype == "epilogue" {
			continue
		}
		for _, n := range rs.sizes(gemm+dtype+"/", 2) {
			name := fmt.Sprintf("%s%s/%d/", gemm, dtype, n)
			laze, ok1 := rs.median(name+"laze", 1, unitTime)
			gonum, ok2 := rs.median(name+"gonum", 1, unitTime)
			if !ok1 || !ok2 {
				continue
			}
			flops := 2 * float64(n) * float64(n) * float64(n)
			blasTime, blasRatio := "—", "—"
			if blas, ok := rs.median(name+"openblas", 1, unitTime); ok {
				blasTime, blasRatio = formatTime(blas), formatRatio(blas/laze)
				blasVerdicts = append(blasVerdicts, fmt.Sprintf("%s at %d %s (%s)", dtype, n, status(blas/laze >= 0.9), formatRatio(blas/laze)))
			}
			t.add(dtype, strconv.Itoa(n), formatTime(laze), formatTime(gonum), blasTime, fmt.Sprintf("%.1f", flops/laze/1e9), formatRatio(gonum/laze), blasRatio)
			if n == gemmTargetN {
				verdicts = append(verdicts, fmt.Sprintf("%s %s (%s)", dtype, status(gonum/laze >= 3), formatRatio(gonum/laze)))
			}
		}
	}
	if len(t.rows) == 0 {
		return "Not in this run: no `Gemm/<dtype>/<n>/{laze,gonum}` figures on one core (bench/report/run.sh runs them).\n", nil
	}
	out := t.String() + targetLine(fmt.Sprintf("laze ≥ 3× gonum's Gemm at %d², one core", gemmTargetN), verdicts)
	if len(blasVerdicts) == 0 {
		return out + "\nTarget (issue 29), laze ≥ 0.9× OpenBLAS at 256–2048, one core: not in this run (no OpenBLAS figures: `make bench-deps`).\n", nil
	}
	return out + fmt.Sprintf("\nTarget (issue 29), laze ≥ 0.9× OpenBLAS at 256–2048, one core: %s.\n", strings.Join(blasVerdicts, ", ")), nil
}

// gemmEpilogueTable shows what the fused elementwise rest costs: relu(a@b
// + bias) in one Assign (the pass run from the product's epilogue), and as
// the product followed by a second Assign, against the product alone; the
// target is at most 5% over the product at 1024².
func gemmEpilogueTable(rs *results) (string, error) {
	t := &table{align: "lrrrrrr", header: []string{"dtype", "n", "a@b", "relu(a@b + bias), fused", "fused's cost", "product, then a pass", "two passes' cost"}}
	var verdicts []string
	for _, dtype := range rs.level(gemmEpilogue, 2) {
		for _, n := range rs.sizes(gemmEpilogue+dtype+"/", 3) {
			name := fmt.Sprintf("%s%s/%d/", gemmEpilogue, dtype, n)
			product, ok1 := rs.median(name+"product", 1, unitTime)
			fused, ok2 := rs.median(name+"fused", 1, unitTime)
			two, ok3 := rs.median(name+"twopass", 1, unitTime)
			if !ok1 || !ok2 || !ok3 {
				continue
			}
			cost := 100 * (fused/product - 1)
			t.add(dtype, strconv.Itoa(n), formatTime(product), formatTime(fused), fmt.Sprintf("%+.1f%%", cost), formatTime(two), fmt.Sprintf("%+.1f%%", 100*(two/product-1)))
			if n == gemmTargetN {
				verdicts = append(verdicts, fmt.Sprintf("%s %s (%+.1f%%)", dtype, status(cost <= 5), cost))
			}
		}
	}
	if len(t.rows) == 0 {
		return "Not in this run: no `Gemm/epilogue/…` figures on one core.\n", nil
	}
	return t.String() + targetLine(fmt.Sprintf("the fused epilogue costs ≤ 5%% of the product at %d², one core", gemmTargetN), verdicts), nil
}

// targetLine states an issue-17 target and its verdicts, one per dtype.
func targetLine(goal string, verdicts []string) string {
	target := "not in this run"
	if len(verdicts) > 0 {
		target = strings.Join(verdicts, ", ")
	}
	return fmt.Sprintf("\nTarget (issue 17), %s: %s.\n", goal, target)
}
