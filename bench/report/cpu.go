package main

import (
	"fmt"
	"strconv"
)

// The product suite: MatMul/<dtype>/<n>/{laze,gonum} and
// MatMul/fused/<n>/{laze,separate}; the reduction suite:
// Reduce/<case>/<impl>.
const (
	matmul = "MatMul/"
	reduce = "Reduce/"
)

// A matmulPair is one laze product and gonum's Gemm on the same data.
type matmulPair struct {
	dtype       string
	n           int
	laze, gonum float64 // median seconds
}

// overhead is laze's extra time over gonum's, in percent.
func (p matmulPair) overhead() float64 { return 100 * (p.laze/p.gonum - 1) }

// matmulPairs lists every dtype and size that has both a laze and a gonum
// timing on procs cores.
func matmulPairs(rs *results, procs int) []matmulPair {
	var out []matmulPair
	for _, dtype := range rs.level(matmul, 1) {
		for _, n := range rs.sizes(matmul+dtype+"/", 2) {
			name := fmt.Sprintf("%s%s/%d/", matmul, dtype, n)
			laze, ok1 := rs.median(name+"laze", procs, unitTime)
			gonum, ok2 := rs.median(name+"gonum", procs, unitTime)
			if ok1 && ok2 {
				out = append(out, matmulPair{dtype, n, laze, gonum})
			}
		}
	}
	return out
}

// matmulTable compares laze's product with gonum's Gemm on the same data,
// on the most cores the suite ran with.
func matmulTable(rs *results) (string, error) {
	procs := rs.maxProcs(matmul)
	t := &table{align: "lrrrr", header: []string{"dtype", "n", "laze", "gonum Gemm", "laze's overhead"}}
	pairs := matmulPairs(rs, procs)
	for _, p := range pairs {
		t.add(p.dtype, strconv.Itoa(p.n), formatTime(p.laze), formatTime(p.gonum), fmt.Sprintf("%+.1f%%", p.overhead()))
	}
	if len(t.rows) == 0 {
		return "", fmt.Errorf("matmul: no laze and gonum pairs")
	}
	return t.String() + "\n" + matmulTarget(pairs), nil
}

// matmulTarget is issue 4's goal: laze's overhead at most 5% from n = 512.
func matmulTarget(pairs []matmulPair) string {
	worst, where := -1e9, ""
	for _, p := range pairs {
		if o := p.overhead(); p.n >= 512 && o > worst {
			worst, where = o, fmt.Sprintf("%s at %d", p.dtype, p.n)
		}
	}
	if where == "" {
		return "Target (issue 4), overhead ≤ 5% at n ≥ 512: not in this run.\n"
	}
	return fmt.Sprintf("Target (issue 4), overhead ≤ 5%% at n ≥ 512: **%s** (largest %+.1f%%, %s).\n",
		status(worst <= 5), worst, where)
}

// matmulFusedTable compares relu(a@b + bias) in one Assign with the product
// followed by a separate pass.
func matmulFusedTable(rs *results) (string, error) {
	procs := rs.maxProcs(matmul)
	t := &table{align: "rrrr", header: []string{"n", "laze, relu(a@b + bias)", "separate (Gemm, then a pass)", "separate / laze"}}
	for _, n := range rs.sizes(matmul+"fused/", 2) {
		name := fmt.Sprintf("%sfused/%d/", matmul, n)
		laze, ok1 := rs.median(name+"laze", procs, unitTime)
		sep, ok2 := rs.median(name+"separate", procs, unitTime)
		if ok1 && ok2 {
			t.add(strconv.Itoa(n), formatTime(laze), formatTime(sep), formatRatio(sep/laze))
		}
	}
	return t.String(), nil
}

// reduceTable shows every reduction on one core and on the most cores.
func reduceTable(rs *results) (string, error) {
	procs := rs.maxProcs(reduce)
	cpu := fmt.Sprintf("-cpu %d", procs)
	t := &table{align: "llrrrr", header: []string{"case", "impl", "-cpu 1", cpu, "speed-up", "B/op, allocs/op (" + cpu + ")"}}
	for _, c := range rs.level(reduce, 1) {
		for _, im := range rs.level(reduce+c+"/", 2) {
			name := reduce + c + "/" + im
			up, ok := rs.speedup(name, procs)
			if !ok {
				continue
			}
			one, _ := rs.median(name, 1, unitTime)
			many, _ := rs.median(name, procs, unitTime)
			b, _ := rs.median(name, procs, unitBytes)
			a, _ := rs.median(name, procs, unitAllocs)
			t.add(c, im, formatTime(one), formatTime(many), formatRatio(up), fmt.Sprintf("%.0f, %.0f", b, a))
		}
	}
	if len(t.rows) == 0 {
		return "", fmt.Errorf("reduce: no results on both 1 and %d cores", procs)
	}
	return t.String(), nil
}

// reduceTargets are issue 5's goals: laze's speed over each reference.
func reduceTargets(rs *results) (string, error) {
	procs := rs.maxProcs(reduce)
	goals := []struct {
		c, ref string
		goal   float64
	}{{"summul", "materialize", 1.5}, {"axis0", "handloop", 0.8}, {"axis1", "handloop", 0.8}}
	t := &table{align: "llrrll", header: []string{"case", "reference", "laze's speed over it, -cpu 1", fmt.Sprintf("-cpu %d", procs), "target", "status"}}
	for _, g := range goals {
		var cells []string
		met := true
		for _, p := range []int{1, procs} {
			laze, ok1 := rs.median(reduce+g.c+"/laze", p, unitTime)
			ref, ok2 := rs.median(reduce+g.c+"/"+g.ref, p, unitTime)
			if !ok1 || !ok2 {
				cells = append(cells, "—")
				met = false
				continue
			}
			cells = append(cells, formatRatio(ref/laze))
			met = met && ref/laze >= g.goal
		}
		t.add(g.c, g.ref, cells[0], cells[1], fmt.Sprintf("≥ %g×", g.goal), status(met))
	}
	return t.String(), nil
}
