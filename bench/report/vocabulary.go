package main

import (
	"fmt"
	"slices"
	"strings"
)

// The array vocabulary's benchmarks (issue 32), all on one core (run.sh
// runs them with GOMAXPROCS=1 and the peers with one thread):
//
//	Gather/<case>/laze                  bench/gather_test.go
//	Gather/<case>/{numpy,numpy-take}    bench/peers/gather.py (x[idx]; np.take(out=))
//	Sort/<case>/laze                    bench/sort_test.go
//	Sort/<case>/{numpy,numpy-stable}    bench/peers/sort.py
//	Structured/<f>/{laze,tensors}       bench/structured_test.go
//	Structured/<f>/numpy                bench/peers/structured.py
//	Einsum/float64/<n>/{einsum,einsum-build,matmul}  bench/einsum_test.go
//	Einsum/float64/<n>/{numpy-einsum,numpy-matmul}   bench/peers/einsum.py
//
// vocabularyTable pairs them into two tables: laze against NumPy, and
// laze against laze (an einsum against the MatMul it lowers to, a
// structured function's tree against the same tree over a plain tensor),
// each row with issue 32's target where the issue sets one.
var vocabularyFamilies = []string{"Gather", "Sort", "Structured", "Einsum"}

// vocabProcs is the thread count the vocabulary is compared at.
const vocabProcs = 1

// A vocabRow is one comparison: laze's benchmark against a reference's.
// For a NumPy row the target is on NumPy's time over laze's (goal: at
// least); for a laze row on laze's time over the reference's (limit: at
// most). Zero is no target.
type vocabRow struct {
	label     string // the case, in markdown
	laze, ref string // benchmark names, without "Benchmark"
	target    float64
}

// vocabNumPyRows lists the NumPy comparisons, in the table's order, for
// the cases the run has laze figures for.
func (rs *results) vocabNumPyRows() []vocabRow {
	rows := []vocabRow{
		{"gather take, 1e6 of 1e6, vs `x[idx]`", "Gather/take/laze", "Gather/take/numpy", 1},
		{"gather take vs `np.take(x, idx, out=)`", "Gather/take/laze", "Gather/take/numpy-take", 1},
		{"gather rows, 1000 of 1000², vs `m[idx]`", "Gather/rows/laze", "Gather/rows/numpy", 1},
		{"gather rows vs `np.take(m, idx, axis=0, out=)`", "Gather/rows/laze", "Gather/rows/numpy-take", 1},
		{"gather cols vs `m[:, idx]`", "Gather/cols/laze", "Gather/cols/numpy", 1},
		{"gather cols vs `np.take(m, idx, axis=1, out=)`", "Gather/cols/laze", "Gather/cols/numpy-take", 1},
		{"gather fused, `exp(x[idx]) * 2`", "Gather/fused/laze", "Gather/fused/numpy", 1},
		{"sort, 1e6 float64, vs `np.sort(x)`", "Sort/sort/laze", "Sort/sort/numpy", 1},
		{"sort vs `np.sort(x, kind=\"stable\")`", "Sort/sort/laze", "Sort/sort/numpy-stable", 0},
		{"argsort vs `np.argsort(x, kind=\"stable\")`", "Sort/argsort/laze", "Sort/argsort/numpy", 0},
		{"sort rows, 1000², vs `np.sort(m, axis=1)`", "Sort/rows/laze", "Sort/rows/numpy", 0},
		{"median, 1e6 float64, vs `np.median(x)`", "Sort/median/laze", "Sort/median/numpy", 1},
	}
	for _, f := range rs.level("Structured/", 1) {
		rows = append(rows, vocabRow{fmt.Sprintf("%s in `f(x)*2 + 1` vs NumPy's", f), "Structured/" + f + "/laze", "Structured/" + f + "/numpy", 0})
	}
	for _, n := range rs.sizes("Einsum/float64/", 2) {
		p := fmt.Sprintf("Einsum/float64/%d/", n)
		rows = append(rows,
			vocabRow{fmt.Sprintf("einsum `ij,jk->ik`, %d², vs `np.einsum`", n), p + "einsum", p + "numpy-einsum", 0},
			vocabRow{fmt.Sprintf("einsum `ij,jk->ik`, %d², vs `np.matmul`", n), p + "einsum", p + "numpy-matmul", 0})
	}
	return rs.vocabPresent(rows)
}

// vocabLazeRows lists the laze-against-laze comparisons.
func (rs *results) vocabLazeRows() []vocabRow {
	var rows []vocabRow
	for _, n := range rs.sizes("Einsum/float64/", 2) {
		p := fmt.Sprintf("Einsum/float64/%d/", n)
		rows = append(rows,
			vocabRow{fmt.Sprintf("einsum `ij,jk->ik`, %d², vs the MatMul it lowers to", n), p + "einsum", p + "matmul", 1.05},
			vocabRow{fmt.Sprintf("einsum built each call, %d², vs MatMul", n), p + "einsum-build", p + "matmul", 0})
	}
	for _, f := range rs.level("Structured/", 1) {
		rows = append(rows, vocabRow{fmt.Sprintf("%s in `f(x)*2 + 1` vs the tree over a tensor", f), "Structured/" + f + "/laze", "Structured/" + f + "/tensors", 1.1})
	}
	return rs.vocabPresent(rows)
}

// vocabPresent keeps the rows whose laze figure the run has.
func (rs *results) vocabPresent(rows []vocabRow) []vocabRow {
	return slices.DeleteFunc(rows, func(r vocabRow) bool {
		_, ok := rs.median(r.laze, vocabProcs, unitTime)
		return !ok
	})
}

// vocabCheck is the outcome of the targets over a table.
type vocabCheck struct {
	met, checked int
	missed       []string
}

func (c *vocabCheck) record(label string, ok bool, got string) string {
	c.checked++
	if ok {
		c.met++
		return "met"
	}
	c.missed = append(c.missed, fmt.Sprintf("%s (%s)", stripCode(label), got))
	return "missed"
}

// stripCode drops the backquotes of a label quoted in the summary line.
func stripCode(s string) string { return strings.ReplaceAll(s, "`", "") }

// vocabularyTable is the vocabulary's section: laze against NumPy, then
// laze against laze, then a line counting issue 32's targets met.
func vocabularyTable(rs *results) (string, error) {
	var have, lack []string
	for _, f := range vocabularyFamilies {
		if rs.hasLaze(f) {
			have = append(have, f)
		} else {
			lack = append(lack, f)
		}
	}
	if len(have) == 0 {
		return "Not in this run: no `Gather`, `Sort`, `Structured` or `Einsum` figures (bench/report/run.sh runs them, and their NumPy peers, in every pass; bench/gather_test.go, sort_test.go, structured_test.go and einsum_test.go name the commands that run them alone).\n", nil
	}
	var b strings.Builder
	var check vocabCheck
	numpyRows, anyNumPy := rs.vocabNumPyRows(), false
	if len(numpyRows) > 0 {
		t := &table{align: "lrrrrl", header: []string{"case (one core)", "laze", "NumPy", "NumPy / laze", "target", ""}}
		for _, r := range numpyRows {
			laze, _ := rs.median(r.laze, vocabProcs, unitTime)
			np, ok := rs.median(r.ref, vocabProcs, unitTime)
			anyNumPy = anyNumPy || ok
			target, verdict := "—", "—"
			if r.target > 0 {
				target = fmt.Sprintf("≥ %.2f×", r.target)
				if ok {
					verdict = check.record(r.label, np/laze >= r.target*(1-1e-9), "NumPy / laze "+formatAgainst(np/laze, r.target))
				}
			}
			t.add(r.label, formatTime(laze), timeCell(np, ok), ratioCell(np, laze, ok), target, verdict)
		}
		b.WriteString(t.String())
	}
	if lazeRows := rs.vocabLazeRows(); len(lazeRows) > 0 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		t := &table{align: "lrrrrl", header: []string{"case (one core)", "laze", "reference (laze)", "laze / reference", "target", ""}}
		for _, r := range lazeRows {
			laze, _ := rs.median(r.laze, vocabProcs, unitTime)
			ref, ok := rs.median(r.ref, vocabProcs, unitTime)
			target, verdict := "—", "—"
			if r.target > 0 {
				target = fmt.Sprintf("≤ %.2f×", r.target)
				if ok {
					verdict = check.record(r.label, laze/ref <= r.target*(1+1e-9), "laze / reference "+formatAgainst(laze/ref, r.target))
				}
			}
			t.add(r.label, formatTime(laze), timeCell(ref, ok), ratioCell(laze, ref, ok), target, verdict)
		}
		b.WriteString(t.String())
	}
	b.WriteString(vocabSummary(check))
	b.WriteString(vocabMissingNote(rs, lack, anyNumPy))
	return b.String(), nil
}

// hasLaze reports whether the run has any laze figure of family f.
func (rs *results) hasLaze(f string) bool {
	for _, name := range rs.order {
		if strings.HasPrefix(name, f+"/") {
			last := name[strings.LastIndex(name, "/")+1:]
			if last == "laze" || (f == "Einsum" && last == "einsum") {
				return true
			}
		}
	}
	return false
}

const vocabTargets = "Targets (issue 32), one core: a gather ≥ NumPy's fancy indexing, sort ≥ `np.sort` and median ≥ `np.median` at 1e6 float64, einsum `ij,jk->ik` within 5% of the MatMul it lowers to, a structured function in a fused tree ≤ 1.1× the same tree over a plain tensor"

// vocabSummary counts the targets met, naming the misses.
func vocabSummary(c vocabCheck) string {
	switch {
	case c.checked == 0:
		return "\n" + vocabTargets + ": not in this run (no figures to check them against).\n"
	case c.met == c.checked:
		return fmt.Sprintf("\n%s: **met** at every row checked (%d).\n", vocabTargets, c.checked)
	}
	return fmt.Sprintf("\n%s: **missed** at %d of %d rows: %s.\n", vocabTargets, c.checked-c.met, c.checked, strings.Join(c.missed, "; "))
}

// vocabMissingNote says which benchmarks the run lacks and why, as far as
// the raw file tells.
func vocabMissingNote(rs *results, lack []string, anyNumPy bool) string {
	var parts []string
	for _, f := range lack {
		parts = append(parts, fmt.Sprintf("- laze's `%s` figures: bench/report/run.sh did not run Benchmark%s (an older raw file?).\n", f, f))
	}
	if !anyNumPy {
		why := "bench/peers/gather.py, sort.py, structured.py and einsum.py did not run (`make bench-deps`; bench/report/run.sh warns why)"
		if rs.config["peers"] == "missing" {
			why = "the peers did not run: python3-numpy is not installed (`make bench-deps`)"
		}
		parts = append(parts, "- NumPy: "+why+".\n")
	}
	if len(parts) == 0 {
		return ""
	}
	return "\nNot in this run, so not in the tables:\n\n" + strings.Join(parts, "")
}
