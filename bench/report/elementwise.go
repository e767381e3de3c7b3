package main

import (
	"fmt"
)

// The elementwise suite: Elementwise/<case>/<impl>/<n>.
const elementwise = "Elementwise/"

// The implementations, as the suite names them; laze is the subject, the
// others the references its ratios are taken against.
var elementwiseImpls = []string{"laze", "handloop", "gonum", "naive"}

func ewName(c, impl string, n int) string { return fmt.Sprintf("%s%s/%s/%d", elementwise, c, impl, n) }

// ewTime is the median time of one elementwise run.
func (rs *results) ewTime(c, impl string, n, procs int) (float64, bool) {
	return rs.median(ewName(c, impl, n), procs, unitTime)
}

// ewCases lists the cases and ewSizes the sizes of the suite.
func (rs *results) ewCases() []string { return rs.level(elementwise, 1) }
func (rs *results) ewSizes() []int    { return rs.sizes(elementwise, 3) }

// ratioCell formats ref/subject as a ratio, or — when either is missing.
func ratioCell(ref, subject float64, ok bool) string {
	if !ok || subject == 0 {
		return "—"
	}
	return formatRatio(ref / subject)
}

// elementwiseOneCore is the table of every case at every size on one core:
// each implementation's time, and each reference's time over laze's.
func elementwiseOneCore(rs *results) (string, error) {
	t := &table{align: "lrrrrrrrr", header: []string{"case", "n"}}
	for _, im := range elementwiseImpls {
		t.header = append(t.header, im)
	}
	for _, im := range elementwiseImpls[1:] {
		t.header = append(t.header, "laze vs "+im)
	}
	for _, c := range rs.ewCases() {
		for _, n := range rs.ewSizes() {
			row := []string{c, formatCount(n)}
			laze, lazeOK := rs.ewTime(c, "laze", n, 1)
			if !lazeOK {
				continue
			}
			for _, im := range elementwiseImpls {
				row = append(row, timeCell(rs.ewTime(c, im, n, 1)))
			}
			for _, im := range elementwiseImpls[1:] {
				ref, ok := rs.ewTime(c, im, n, 1)
				row = append(row, ratioCell(ref, laze, ok))
			}
			t.add(row...)
		}
	}
	if len(t.rows) == 0 {
		return "", fmt.Errorf("elementwise: no one-core laze results")
	}
	return t.String(), nil
}

func timeCell(sec float64, ok bool) string {
	if !ok {
		return "—"
	}
	return formatTime(sec)
}

// elementwiseTwoCores compares laze on every core count with one core, for
// the sizes from 1e5 up, beside the hand loop's ratio (which is serial).
func elementwiseTwoCores(rs *results) (string, error) {
	procs := rs.maxProcs(elementwise)
	if procs < 2 {
		return "", fmt.Errorf("elementwise: no runs with more than one core")
	}
	cpu := fmt.Sprintf("-cpu %d", procs)
	t := &table{align: "lrrrrr", header: []string{"case", "n", "laze -cpu 1", "laze " + cpu, "speed-up", "handloop " + cpu + " / -cpu 1"}}
	for _, c := range rs.ewCases() {
		for _, n := range rs.ewSizes() {
			if n < 100_000 {
				continue
			}
			one, _ := rs.ewTime(c, "laze", n, 1)
			many, _ := rs.ewTime(c, "laze", n, procs)
			up, ok := rs.speedup(ewName(c, "laze", n), procs)
			if !ok {
				continue
			}
			hand, okH := rs.speedup(ewName(c, "handloop", n), procs)
			t.add(c, formatCount(n), formatTime(one), formatTime(many), formatRatio(up), ratioCell(hand, 1, okH))
		}
	}
	return t.String(), nil
}

// elementwiseAllocs shows laze's B/op and allocs/op at every size on the
// most cores, one row per case, so that growth with n shows along a row.
func elementwiseAllocs(rs *results) (string, error) {
	procs := rs.maxProcs(elementwise)
	t := &table{align: "l", header: []string{"case"}}
	for _, n := range rs.ewSizes() {
		t.header = append(t.header, "n = "+formatCount(n))
		t.align += "r"
	}
	for _, c := range rs.ewCases() {
		row := []string{c}
		for _, n := range rs.ewSizes() {
			b, okB := rs.median(ewName(c, "laze", n), procs, unitBytes)
			a, okA := rs.median(ewName(c, "laze", n), procs, unitAllocs)
			if !okB || !okA {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprintf("%.0f B, %.0f", b, a))
		}
		t.add(row...)
	}
	return fmt.Sprintf("laze's B/op and allocs/op per Assign (`-cpu %d`):\n\n%s", procs, t.String()), nil
}

// A target is one of the suite's stated goals, checked against the run.
type target struct {
	goal  string
	check func(rs *results) (measured string, met, ok bool)
}

// targetsTable checks each target; one without the figures it needs says so.
func targetsTable(rs *results, header string, targets []target) string {
	t := &table{align: "lll", header: []string{header, "measured", ""}}
	for _, tg := range targets {
		measured, met, ok := tg.check(rs)
		if !ok {
			t.add(tg.goal, "not in this run", "—")
			continue
		}
		t.add(tg.goal, measured, status(met))
	}
	return t.String()
}

// elementwiseTargets are issue 3's goals at the largest size.
var elementwiseTargets = []target{
	{"poly4: laze ≥ 0.85× handloop (`-cpu 1`)", lazeOver("poly4", "handloop", 0.85)},
	{"poly4: laze ≥ 1.3× gonum", lazeOver("poly4", "gonum", 1.3)},
	{"long8: laze ≥ 2× gonum", lazeOver("long8", "gonum", 2)},
	{"laze ≥ 5× naive, every case", lazeOverEvery("naive", 5)},
	{"bcast ≤ 1.15× the time of a contiguous `add`", lazeTimeOf("bcast", "add", 1.15)},
	{"transpose ≤ 2× the time of a contiguous `add`", lazeTimeOf("transpose", "add", 2)},
	{"all cores ≥ 1.7× laze's `-cpu 1` speed, every case", scalingEvery(1.7)},
	{"B/op and allocs/op do not grow with n (< 64 KiB and ≤ 16 more allocations at any size), every case", allocsFlat},
}

// largest is the largest size the suite ran.
func (rs *results) largest() int {
	s := rs.ewSizes()
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1]
}

// lazeOver checks that ref's time over laze's for case c, one core, at the
// largest size, is at least goal.
func lazeOver(c, ref string, goal float64) func(rs *results) (string, bool, bool) {
	return func(rs *results) (string, bool, bool) {
		n := rs.largest()
		laze, ok1 := rs.ewTime(c, "laze", n, 1)
		other, ok2 := rs.ewTime(c, ref, n, 1)
		if !ok1 || !ok2 {
			return "", false, false
		}
		r := other / laze
		return formatAgainst(r, goal), r >= goal, true
	}
}

// lazeOverEvery is lazeOver for every case that has ref, quoting the range.
func lazeOverEvery(ref string, goal float64) func(rs *results) (string, bool, bool) {
	return func(rs *results) (string, bool, bool) {
		return rangeOver(rs, goal, func(c string, n int) (float64, bool) {
			laze, ok1 := rs.ewTime(c, "laze", n, 1)
			other, ok2 := rs.ewTime(c, ref, n, 1)
			return other / laze, ok1 && ok2
		})
	}
}

// scalingEvery checks laze's speed-up on all cores over one, every case.
func scalingEvery(goal float64) func(rs *results) (string, bool, bool) {
	return func(rs *results) (string, bool, bool) {
		procs := rs.maxProcs(elementwise)
		if procs < 2 {
			return "", false, false
		}
		return rangeOver(rs, goal, func(c string, n int) (float64, bool) {
			return rs.speedup(ewName(c, "laze", n), procs)
		})
	}
}

// rangeOver evaluates ratio for every case at the largest size and checks
// that the least is at least goal, quoting the range and the worst case.
func rangeOver(rs *results, goal float64, ratio func(c string, n int) (float64, bool)) (string, bool, bool) {
	n := rs.largest()
	lo, hi, worst, any := 0.0, 0.0, "", false
	for _, c := range rs.ewCases() {
		r, ok := ratio(c, n)
		if !ok {
			continue
		}
		if !any || r < lo {
			lo, worst = r, c
		}
		if !any || r > hi {
			hi = r
		}
		any = true
	}
	if !any {
		return "", false, false
	}
	return fmt.Sprintf("%s (%s) to %s", formatAgainst(lo, goal), worst, formatRatio(hi)), lo >= goal, true
}

// lazeTimeOf checks that laze's time on case c is at most goal times its
// time on case ref, one core, at the largest size.
func lazeTimeOf(c, ref string, goal float64) func(rs *results) (string, bool, bool) {
	return func(rs *results) (string, bool, bool) {
		n := rs.largest()
		a, ok1 := rs.ewTime(c, "laze", n, 1)
		b, ok2 := rs.ewTime(ref, "laze", n, 1)
		if !ok1 || !ok2 {
			return "", false, false
		}
		return formatAgainst(a/b, goal), a/b <= goal, true
	}
}

// allocBound is the most a single Assign may allocate at any size: a bound
// that does not depend on n, far below the data's size (megabytes at 1e7).
const allocBound = 64 << 10

// allocsFlat checks that no Assign allocates memory that grows with n:
// laze's B/op stays under allocBound at every size, and its allocs/op at
// the largest size exceed those at the smallest by at most 16 (the parallel
// path's goroutines), for every case.
func allocsFlat(rs *results) (string, bool, bool) {
	sizes := rs.ewSizes()
	if len(sizes) < 2 {
		return "", false, false
	}
	procs := rs.maxProcs(elementwise)
	small, large := sizes[0], sizes[len(sizes)-1]
	maxBytes, bytesCase, maxExtra, extraCase := 0.0, "", 0.0, ""
	for _, c := range rs.ewCases() {
		for _, n := range sizes {
			if b, ok := rs.median(ewName(c, "laze", n), procs, unitBytes); ok && b > maxBytes {
				maxBytes, bytesCase = b, fmt.Sprintf("%s at %s", c, formatCount(n))
			}
		}
		a, ok1 := rs.median(ewName(c, "laze", small), procs, unitAllocs)
		b, ok2 := rs.median(ewName(c, "laze", large), procs, unitAllocs)
		if ok1 && ok2 && (extraCase == "" || b-a > maxExtra) {
			maxExtra, extraCase = b-a, c
		}
	}
	if bytesCase == "" || extraCase == "" {
		return "", false, false
	}
	return fmt.Sprintf("at most %.0f B per Assign (%s); at most %+.0f allocs/op from %s to %s elements (%s)",
		maxBytes, bytesCase, maxExtra, formatCount(small), formatCount(large), extraCase), maxBytes < allocBound && maxExtra <= 16, true
}

// elementwiseTargetsTable is the targets section.
func elementwiseTargetsTable(rs *results) (string, error) {
	n := rs.largest()
	return targetsTable(rs, fmt.Sprintf("target (issue 3), n = %s", formatCount(n)), elementwiseTargets), nil
}
