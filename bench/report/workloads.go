package main

import (
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The workloads (bench/workloads_test.go, issue 29):
// Workload/<workload>/<dtype>/<impl>, with laze from the Go suite (its -N
// suffix GOMAXPROCS), laze-simd from its GOEXPERIMENT=simd build (renamed
// by run.sh), and torch, numpy and numexpr from bench/peers/workloads.py
// (its -N suffix the thread count each library was given).
const workloadPrefix = "Workload/"

// workloadImpls are the implementations in the order of the table's
// columns; laze is the subject, torch the reference of the targets.
var workloadImpls = []string{"laze", "laze-simd", "torch", "numpy", "numexpr"}

// workloadGoals are issue 29's targets: laze's speed over PyTorch's at
// equal threads in the plain build, ≥ 1.0× on the product-bound workloads
// and ≥ 1.5× on the elementwise-bound ones, where one fused pass saves
// eager mode's temporaries.
var workloadGoals = map[string]float64{
	"mlp":            1.0,
	"blackscholes":   1.5,
	"layernorm-gelu": 1.5,
	"softmax-xent":   1.5,
	"kmeans":         1.0,
}

// workloadGoal is the target of workload w; one the issue does not name
// (a workload added later) gets parity.
func workloadGoal(w string) float64 {
	if g, ok := workloadGoals[w]; ok {
		return g
	}
	return 1
}

func workloadName(w, dtype, impl string) string {
	return workloadPrefix + w + "/" + dtype + "/" + impl
}

// workloadTime is the median time of one workload run.
func (rs *results) workloadTime(w, dtype, impl string, procs int) (float64, bool) {
	return rs.median(workloadName(w, dtype, impl), procs, unitTime)
}

// workloadImplsIn lists the implementations the run has workload figures
// for, in workloadImpls' order, and those it lacks.
func (rs *results) workloadImplsIn() (have, lack []string) {
	ran := rs.level(workloadPrefix, 3)
	for _, im := range workloadImpls {
		if slices.Contains(ran, im) {
			have = append(have, im)
		} else {
			lack = append(lack, im)
		}
	}
	return have, lack
}

// workloadImplLabel is an implementation's name in the table and plot.
func workloadImplLabel(im string) string {
	switch im {
	case "torch":
		return "PyTorch"
	case "numpy":
		return "NumPy"
	}
	return im
}

// workloadMissingNote says which implementations the run lacks and why, as
// far as the raw file tells: workloads.py writes "torch: missing" and
// "numexpr: missing" where they do not import, run.sh "peers: missing"
// where Debian's python has no NumPy.
func workloadMissingNote(rs *results, lack []string) string {
	var parts []string
	for _, im := range lack {
		var why string
		switch {
		case im == "laze":
			continue // the table has no rows without it
		case im == "laze-simd":
			why = "the `GOEXPERIMENT=simd` build did not run or did not compile (bench/report/run.sh warns which)"
		case rs.config["peers"] == "missing":
			why = "the peers did not run: python3-numpy is not installed (`make bench-deps`)"
		case im == "torch" && rs.config["torch"] == "missing":
			why = "PyTorch is missing: python3-torch is not installed or does not import (`make bench-deps`)"
		case im == "numexpr" && rs.config["numexpr"] == "missing":
			why = "numexpr is missing: python3-numexpr is not installed (`make bench-deps`)"
		default:
			why = "bench/peers/workloads.py did not run (`make bench-deps`; bench/report/run.sh warns why)"
		}
		parts = append(parts, fmt.Sprintf("- %s: %s.\n", workloadImplLabel(im), why))
	}
	if len(parts) == 0 {
		return ""
	}
	return "\nNot in this run, so not in the table:\n\n" + strings.Join(parts, "")
}

// A workloadPoint is one workload, dtype and thread count with laze's
// figure.
type workloadPoint struct {
	w, dtype string
	procs    int
}

// workloadPoints lists every workload, dtype and thread count laze ran, in
// the suite's order, threads increasing. (procsOf matches a prefix, so
// laze's name also finds laze-simd's thread counts: each is kept only
// where laze itself has a time.)
func (rs *results) workloadPoints() []workloadPoint {
	var out []workloadPoint
	for _, w := range rs.level(workloadPrefix, 1) {
		for _, dtype := range rs.level(workloadPrefix+w+"/", 2) {
			for _, p := range rs.procsOf(workloadPrefix + w + "/" + dtype + "/laze") {
				if _, ok := rs.workloadTime(w, dtype, "laze", p); ok {
					out = append(out, workloadPoint{w, dtype, p})
				}
			}
		}
	}
	return out
}

// workloadsTable is the workloads' section: each workload, dtype and
// thread count with every implementation's time, laze's speed over
// PyTorch's and over NumPy's (their time over laze's), and the target on
// PyTorch, met or missed; then a line counting the targets met.
func workloadsTable(rs *results) (string, error) {
	points := rs.workloadPoints()
	if len(points) == 0 {
		return "Not in this run: no `Workload/<workload>/<dtype>/laze` figures (`make bench-workloads` runs them alone; bench/report/run.sh in every pass).\n", nil
	}
	have, lack := rs.workloadImplsIn()
	t := &table{align: "llr", header: []string{"workload", "dtype", "threads"}}
	for _, im := range have {
		t.header = append(t.header, workloadImplLabel(im))
		t.align += "r"
	}
	hasTorch, hasNumPy := slices.Contains(have, "torch"), slices.Contains(have, "numpy")
	if hasNumPy {
		t.header = append(t.header, "laze vs NumPy")
		t.align += "r"
	}
	if hasSimd := slices.Contains(have, "laze-simd"); hasSimd && hasTorch {
		t.header = append(t.header, "laze-simd vs PyTorch")
		t.align += "r"
	}
	t.header = append(t.header, "laze vs PyTorch", "target", "")
	t.align += "rrl"
	met, checked := 0, 0
	var missed []string
	for _, p := range points {
		row := []string{p.w, p.dtype, fmt.Sprint(p.procs)}
		for _, im := range have {
			row = append(row, timeCell(rs.workloadTime(p.w, p.dtype, im, p.procs)))
		}
		laze, _ := rs.workloadTime(p.w, p.dtype, "laze", p.procs)
		if hasNumPy {
			np, ok := rs.workloadTime(p.w, p.dtype, "numpy", p.procs)
			row = append(row, ratioCell(np, laze, ok))
		}
		torch, torchOK := rs.workloadTime(p.w, p.dtype, "torch", p.procs)
		if slices.Contains(have, "laze-simd") && hasTorch {
			simd, ok := rs.workloadTime(p.w, p.dtype, "laze-simd", p.procs)
			row = append(row, ratioCell(torch, simd, ok && torchOK))
		}
		goal := workloadGoal(p.w)
		verdict := "—"
		if torchOK {
			checked++
			if torch/laze >= goal*(1-1e-9) { // 1.5 µs over 1.0 µs is 1.4999…

				met++
				verdict = "met"
			} else {
				verdict = "missed"
				missed = append(missed, fmt.Sprintf("%s %s at %d (%s)", p.w, p.dtype, p.procs, formatAgainst(torch/laze, goal)))
			}
		}
		row = append(row, ratioCell(torch, laze, torchOK), fmt.Sprintf("≥ %.1f×", goal), verdict)
		t.add(row...)
	}
	return t.String() + workloadSummary(met, checked, missed) + workloadMissingNote(rs, lack), nil
}

// workloadSummary counts the targets met, naming the misses.
func workloadSummary(met, checked int, missed []string) string {
	switch {
	case checked == 0:
		return "\nTargets (issue 29), laze ≥ 1.0× PyTorch on mlp and kmeans and ≥ 1.5× on the others at equal threads: not in this run (no PyTorch figures).\n"
	case met == checked:
		return fmt.Sprintf("\nTargets (issue 29), laze ≥ 1.0× PyTorch on mlp and kmeans and ≥ 1.5× on the others at equal threads: **met** at every point checked (%d).\n", checked)
	}
	return fmt.Sprintf("\nTargets (issue 29), laze ≥ 1.0× PyTorch on mlp and kmeans and ≥ 1.5× on the others at equal threads: **missed** at %d of %d points: %s.\n",
		checked-met, checked, strings.Join(missed, "; "))
}

// workloadsPlot draws laze's speed over PyTorch's (PyTorch's time over
// laze's) for each workload and dtype, one bar per thread count (and one
// for laze-simd on one thread where the run has it), with each workload's
// target marked and parity dashed, into dir/workloads.svg. Without both
// laze and PyTorch figures it draws nothing and returns "".
func workloadsPlot(rs *results, dir string) (string, error) {
	type series struct {
		label string
		impl  string
		procs int
	}
	var ss []series
	var names []string
	var groups []workloadPoint // one per workload and dtype
	for _, p := range rs.workloadPoints() {
		if len(groups) == 0 || groups[len(groups)-1].w != p.w || groups[len(groups)-1].dtype != p.dtype {
			groups = append(groups, p)
			names = append(names, p.w+"\n"+p.dtype)
		}
	}
	for _, procs := range rs.procsOf(workloadPrefix) {
		ss = append(ss, series{fmt.Sprintf("laze, %d thread%s", procs, plural(procs)), "laze", procs})
	}
	if have, _ := rs.workloadImplsIn(); slices.Contains(have, "laze-simd") {
		ss = append(ss, series{"laze-simd, 1 thread", "laze-simd", 1})
	}
	bars := make([]plotter.Values, len(ss))
	var goals plotter.XYs
	anyBar := false
	for gi, g := range groups {
		for si, s := range ss {
			v := 0.0 // no bar
			torch, ok1 := rs.workloadTime(g.w, g.dtype, "torch", s.procs)
			laze, ok2 := rs.workloadTime(g.w, g.dtype, s.impl, s.procs)
			if ok1 && ok2 && laze > 0 {
				v, anyBar = torch/laze, true
			}
			bars[si] = append(bars[si], v)
		}
		goals = append(goals, plotter.XY{X: float64(gi), Y: workloadGoal(g.w)})
	}
	if !anyBar {
		return "", nil
	}
	p := plot.New()
	p.Title.Text = "Workloads: laze's speed over PyTorch eager at equal threads"
	p.Y.Label.Text = "PyTorch's time / laze's time (above 1: laze faster)"
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	width := vg.Points(10)
	top := 2.0
	for i, s := range ss {
		b, err := plotter.NewBarChart(bars[i], width)
		if err != nil {
			return "", err
		}
		b.Color = plotutil.Color(i)
		b.LineStyle.Width = 0
		b.Offset = width * (vg.Length(i) - vg.Length(len(ss)-1)/2)
		p.Add(b)
		p.Legend.Add(s.label, b)
		for _, v := range bars[i] {
			top = max(top, v)
		}
	}
	marks, err := plotter.NewScatter(goals)
	if err != nil {
		return "", err
	}
	marks.GlyphStyle.Shape = draw.BoxGlyph{}
	marks.GlyphStyle.Radius = vg.Points(3)
	p.Add(marks)
	p.Legend.Add("target", marks)
	parity := plotter.NewFunction(func(float64) float64 { return 1 })
	parity.Dashes = plotutil.Dashes(1)
	p.Add(parity)
	p.Legend.Add("parity", parity)
	p.NominalX(names...)
	p.Y.Min, p.Y.Max = 0, top*1.3
	return savePlot(p, plotWidth+2*vg.Inch, dir, "workloads.svg")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
