package main

import (
	"fmt"
	"strconv"
	"strings"
)

// The packed-GEMM suite (bench/gemm_test.go), run on one core in the
// GOEXPERIMENT=simd build: Gemm/<dtype>/<n>/{laze,gonum} and
// Gemm/epilogue/<dtype>/<n>/{product,fused,twopass}.
const (
	gemm         = "Gemm/"
	gemmEpilogue = "Gemm/epilogue/"
)

// gemmTargetN is the product size the report's targets are stated at.
const gemmTargetN = 1024

// gemmTable compares laze's product in the SIMD build (the packed GEMM)
// with gonum's Gemm on one core, and checks the target: at least 3×
// gonum at 1024² in float64 and float32.
func gemmTable(rs *results) (string, error) {
	t := &table{align: "lrrrrr", header: []string{"dtype", "n", "laze (packed GEMM)", "gonum Gemm", "GFLOP/s, laze", "laze vs gonum"}}
	var verdicts []string
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
			t.add(dtype, strconv.Itoa(n), formatTime(laze), formatTime(gonum), fmt.Sprintf("%.1f", flops/laze/1e9), formatRatio(gonum/laze))
			if n == gemmTargetN {
				verdicts = append(verdicts, fmt.Sprintf("%s %s (%s)", dtype, status(gonum/laze >= 3), formatRatio(gonum/laze)))
			}
		}
	}
	if len(t.rows) == 0 {
		return "Not in this run: no `Gemm/<dtype>/<n>/{laze,gonum}` figures on one core (bench/report/run.sh runs them in the GOEXPERIMENT=simd build).\n", nil
	}
	return t.String() + targetLine(fmt.Sprintf("laze ≥ 3× gonum's Gemm at %d², one core", gemmTargetN), verdicts), nil
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
