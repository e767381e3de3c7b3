package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchmath"
)

// The elementwise suite: Elementwise/<case>/<impl>/<n>.
const elementwise = "Elementwise/"

// The implementations, as the suite names them; laze is the subject, the
// others the references its ratios are taken against. laze-program is the
// same tree compiled once (kernels.Compile) and run (Program.Run): no plan
// lookup per call. laze-simd is laze
// built with GOEXPERIMENT=simd, and numexpr and numpy the Python peers
// (bench/peers/peers.py), all from the same run (bench/report/run.sh).
var elementwiseImpls = []string{"laze", "laze-program", "laze-simd", "handloop", "gonum", "naive", "numexpr", "numpy"}

// implLabel is an implementation's name in a table's header or a plot's
// legend.
func implLabel(im string) string {
	if im == "numpy" {
		return "NumPy"
	}
	return im
}

// A ratio column is ref's time over subject's: above 1× the subject is
// faster.
type ratio struct{ header, ref, subject string }

var elementwiseRatios = []ratio{
	{"laze vs handloop", "handloop", "laze"},
	{"program vs handloop", "handloop", "laze-program"},
	{"laze vs gonum", "gonum", "laze"},
	{"laze vs naive", "naive", "laze"},
	{"laze vs numexpr", "numexpr", "laze"},
	{"laze vs NumPy", "numpy", "laze"},
	{"simd vs scalar build", "laze", "laze-simd"},
	{"simd vs handloop", "handloop", "laze-simd"},
}

func ewName(c, impl string, n int) string { return fmt.Sprintf("%s%s/%s/%d", elementwise, c, impl, n) }

// ewTime is the median time of one elementwise run.
func (rs *results) ewTime(c, impl string, n, procs int) (float64, bool) {
	return rs.median(ewName(c, impl, n), procs, unitTime)
}

// ewCases lists the cases and ewSizes the sizes of the suite.
func (rs *results) ewCases() []string { return rs.level(elementwise, 1) }
func (rs *results) ewSizes() []int    { return rs.sizes(elementwise, 3) }

// ewImpls lists the implementations the run has figures for, in
// elementwiseImpls' order, and those it lacks.
func (rs *results) ewImpls() (have, lack []string) {
	ran := rs.level(elementwise, 2)
	for _, im := range elementwiseImpls {
		if slices.Contains(ran, im) {
			have = append(have, im)
		} else {
			lack = append(lack, im)
		}
	}
	return have, lack
}

// missingNote says which implementations the run lacks and why, as far as
// the raw file tells: run.sh writes "peers: missing" where Debian's python
// has no NumPy, and peers.py "numexpr: missing" where it has no numexpr.
func missingNote(rs *results, lack []string) string {
	var parts []string
	for _, im := range lack {
		if im == "laze-program" {
			continue // a column of its own only: runs before Compile had none
		}
		var why string
		switch im {
		case "laze-simd":
			why = "the `GOEXPERIMENT=simd` build did not run or did not compile (bench/report/run.sh warns which)"
		case "numexpr":
			switch {
			case rs.config["numexpr"] == "missing":
				why = "numexpr is missing: python3-numexpr is not installed (`make bench-deps`)"
			case rs.config["peers"] == "missing":
				why = "the peers did not run: python3-numpy is not installed (`make bench-deps`)"
			default:
				why = "the peers, bench/peers/peers.py, did not run (`make bench-deps`)"
			}
		case "numpy":
			if rs.config["peers"] == "missing" {
				why = "the peers did not run: python3-numpy is not installed (`make bench-deps`)"
			} else {
				why = "the peers, bench/peers/peers.py, did not run (`make bench-deps`)"
			}
		default:
			why = "no figures"
		}
		parts = append(parts, fmt.Sprintf("- %s: %s.\n", implLabel(im), why))
	}
	if len(parts) == 0 {
		return ""
	}
	return "\nNot in this run, so not in the table:\n\n" + strings.Join(parts, "")
}

// ratioCell formats ref/subject as a ratio, or — when either is missing.
func ratioCell(ref, subject float64, ok bool) string {
	if !ok || subject == 0 {
		return "—"
	}
	return formatRatio(ref / subject)
}

// elementwiseOneCore is the table of every case at every size on one core:
// each implementation's time, and each ratio whose two implementations the
// run has. The columns of implementations the run lacks are left out, and
// a note under the table names them.
func elementwiseOneCore(rs *results) (string, error) {
	have, lack := rs.ewImpls()
	t := &table{align: "lr", header: []string{"case", "n"}}
	for _, im := range have {
		t.header = append(t.header, implLabel(im))
		t.align += "r"
	}
	var ratios []ratio
	for _, r := range elementwiseRatios {
		if slices.Contains(have, r.ref) && slices.Contains(have, r.subject) {
			ratios = append(ratios, r)
			t.header = append(t.header, r.header)
			t.align += "r"
		}
	}
	for _, c := range rs.ewCases() {
		for _, n := range rs.ewSizes() {
			row := []string{c, formatCount(n)}
			if _, lazeOK := rs.ewTime(c, "laze", n, 1); !lazeOK {
				continue
			}
			for _, im := range have {
				row = append(row, timeCell(rs.ewTime(c, im, n, 1)))
			}
			for _, r := range ratios {
				ref, ok1 := rs.ewTime(c, r.ref, n, 1)
				sub, ok2 := rs.ewTime(c, r.subject, n, 1)
				row = append(row, ratioCell(ref, sub, ok1 && ok2))
			}
			t.add(row...)
		}
	}
	if len(t.rows) == 0 {
		return "", fmt.Errorf("elementwise: no one-core laze results")
	}
	return t.String() + missingNote(rs, lack), nil
}

func timeCell(sec float64, ok bool) string {
	if !ok {
		return "—"
	}
	return formatTime(sec)
}

// elementwiseTwoCores compares laze on every core count with one core, for
// the sizes from 1e5 up, beside the hand loop's ratio (which is serial),
// and, where the peers ran, numexpr on as many threads.
func elementwiseTwoCores(rs *results) (string, error) {
	procs := rs.maxProcs(elementwise)
	if procs < 2 {
		return "", fmt.Errorf("elementwise: no runs with more than one core")
	}
	cpu := fmt.Sprintf("-cpu %d", procs)
	t := &table{align: "lrrrrr", header: []string{"case", "n", "laze -cpu 1", "laze " + cpu, "speed-up", "handloop " + cpu + " / -cpu 1"}}
	have, _ := rs.ewImpls()
	peer := slices.Contains(have, "numexpr")
	if peer {
		t.header = append(t.header, fmt.Sprintf("numexpr, %d threads", procs), "laze vs numexpr "+cpu)
		t.align += "rr"
	}
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
			row := []string{c, formatCount(n), formatTime(one), formatTime(many), formatRatio(up), ratioCell(hand, 1, okH)}
			if peer {
				ne, okN := rs.ewTime(c, "numexpr", n, procs)
				row = append(row, timeCell(ne, okN), ratioCell(ne, many, okN))
			}
			t.add(row...)
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

// targetsTable checks each target; one without the figures it needs says
// so, with the check's reason where it gives one.
func targetsTable(rs *results, header string, targets []target) string {
	t := &table{align: "lll", header: []string{header, "measured", ""}}
	for _, tg := range targets {
		measured, met, ok := tg.check(rs)
		if !ok {
			if measured == "" {
				measured = "not in this run"
			}
			t.add(tg.goal, measured, "—")
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

// peerTargets are the goals against the peers and for the SIMD build. The
// SIMD and small-size goals are at fixed sizes, one core.
var peerTargets = []target{
	{"laze faster than numexpr at equal threads, every case and size", fasterEvery("laze", "numexpr")},
	{"laze-simd faster than numexpr at equal threads, every case and size", fasterEvery("laze-simd", "numexpr")},
	{"long8: laze-simd ≥ 3× handloop at 1e6 (`-cpu 1`)", speedAt("long8", "laze-simd", "handloop", 1_000_000, 3)},
	{"poly4f32: laze-simd ≥ 1.5× handloop at 1e5 (`-cpu 1`)", speedAt("poly4f32", "laze-simd", "handloop", 100_000, 1.5)},
	{"add: laze-simd ≥ 1.5× handloop at 1e5 (`-cpu 1`)", speedAt("add", "laze-simd", "handloop", 100_000, 1.5)},
	{"laze-simd no slower than laze (the scalar build) beyond noise (95% intervals apart; medians 5% apart where runs are too few for one), every case, size and core count", simdNotSlower},
	{"transpose: laze ≤ 2× the time of laze's `add` at 1e7 (`-cpu 1`)", timeOfAt("transpose", "add", 10_000_000, 2)},
	{"poly4: laze ≥ 0.5× handloop at 1e3 (`-cpu 1`)", speedAt("poly4", "laze", "handloop", 1000, 0.5)},
	{"poly4: laze ≥ 0.9× handloop at 1e4 (`-cpu 1`)", speedAt("poly4", "laze", "handloop", 10_000, 0.9)},
}

// elementwisePeerTargetsTable is the section of peerTargets.
func elementwisePeerTargetsTable(rs *results) (string, error) {
	return targetsTable(rs, "target (peers and the SIMD build)", peerTargets), nil
}

// speedAt checks that ref's time over subject's for case c at size n, one
// core, is at least goal.
func speedAt(c, subject, ref string, n int, goal float64) func(rs *results) (string, bool, bool) {
	return func(rs *results) (string, bool, bool) {
		sub, ok1 := rs.ewTime(c, subject, n, 1)
		other, ok2 := rs.ewTime(c, ref, n, 1)
		if !ok1 || !ok2 {
			return notInRun(rs, c, n, subject, ref), false, false
		}
		r := other / sub
		return fmt.Sprintf("%s (%s %s, %s %s)", formatAgainst(r, goal), implLabel(subject), formatTime(sub), implLabel(ref), formatTime(other)), r >= goal, true
	}
}

// timeOfAt checks that laze's time on case c is at most goal times its
// time on case ref, at size n, one core.
func timeOfAt(c, ref string, n int, goal float64) func(rs *results) (string, bool, bool) {
	return func(rs *results) (string, bool, bool) {
		a, ok1 := rs.ewTime(c, "laze", n, 1)
		b, ok2 := rs.ewTime(ref, "laze", n, 1)
		if !ok1 || !ok2 {
			return notInRun(rs, c, n, "laze") + notInRun(rs, ref, n, "laze"), false, false
		}
		return fmt.Sprintf("%s (%s %s, %s %s)", formatAgainst(a/b, goal), c, formatTime(a), ref, formatTime(b)), a/b <= goal, true
	}
}

// A point is one case at one size and core count.
type point struct {
	c        string
	n, procs int
}

func (p point) String() string {
	return fmt.Sprintf("%s at %s, `-cpu %d`", p.c, formatCount(p.n), p.procs)
}

// eachPoint calls f for every case, size and core count of the suite, in
// that order.
func (rs *results) eachPoint(f func(p point)) {
	procs := rs.procsOf(elementwise)
	for _, c := range rs.ewCases() {
		for _, n := range rs.ewSizes() {
			for _, k := range procs {
				f(point{c, n, k})
			}
		}
	}
}

// fasterEvery checks that impl (a laze build: laze or laze-simd) is faster
// than peer at every point where both ran with the same thread count,
// listing every miss with the ratio (peer's time over impl's).
func fasterEvery(impl, peer string) func(rs *results) (string, bool, bool) {
	return func(rs *results) (string, bool, bool) {
		all := 0
		var misses []string
		rs.eachPoint(func(p point) {
			laze, ok1 := rs.ewTime(p.c, impl, p.n, p.procs)
			other, ok2 := rs.ewTime(p.c, peer, p.n, p.procs)
			if !ok1 || !ok2 {
				return
			}
			all++
			if other/laze <= 1 {
				misses = append(misses, fmt.Sprintf("%s (%s)", p, formatRatio(other/laze)))
			}
		})
		if all == 0 {
			return fmt.Sprintf("not in this run: no %s and %s figures together", implLabel(impl), implLabel(peer)), false, false
		}
		if len(misses) == 0 {
			return fmt.Sprintf("faster at all %d points (case, size, threads)", all), true, true
		}
		return fmt.Sprintf("faster at %d of %d points; slower or as fast (%s's time over %s's): %s",
			all-len(misses), all, implLabel(peer), implLabel(impl), strings.Join(misses, "; ")), false, true
	}
}

// noiseMargin is how far above laze's median a laze-simd median may lie
// before it counts as slower, where a timing has too few runs for a
// confidence interval.
const noiseMargin = 0.05

// simdNotSlower checks that laze-simd is nowhere slower than laze beyond
// noise: slower where laze-simd's confidence interval lies wholly above
// laze's, or, where either interval is undefined (fewer than six runs),
// where its median exceeds laze's by more than noiseMargin.
func simdNotSlower(rs *results) (string, bool, bool) {
	all := 0
	worst, worstAt := 0.0, point{}
	var slower []string
	rs.eachPoint(func(p point) {
		s, ok1 := rs.summary(ewName(p.c, "laze-simd", p.n), p.procs, unitTime)
		l, ok2 := rs.summary(ewName(p.c, "laze", p.n), p.procs, unitTime)
		if !ok1 || !ok2 || l.Center == 0 {
			return
		}
		all++
		r := s.Center / l.Center
		if all == 1 || r > worst {
			worst, worstAt = r, p
		}
		var beyond bool
		if bounded(s) && bounded(l) {
			beyond = s.Lo > l.Hi
		} else {
			beyond = r > 1+noiseMargin
		}
		if beyond {
			slower = append(slower, fmt.Sprintf("%s (%s laze's time)", p, formatRatio(r)))
		}
	})
	if all == 0 {
		return "not in this run: no laze-simd figures", false, false
	}
	if len(slower) == 0 {
		return fmt.Sprintf("slower nowhere of %d points; the most, within noise, %s laze's time (%s)", all, formatRatio(worst), worstAt), true, true
	}
	return fmt.Sprintf("slower at %d of %d points: %s", len(slower), all, strings.Join(slower, "; ")), false, true
}

// bounded reports whether s has a finite confidence interval.
func bounded(s benchmath.Summary) bool {
	return !math.IsInf(s.Lo, 0) && !math.IsInf(s.Hi, 0) && !math.IsNaN(s.Lo) && !math.IsNaN(s.Hi)
}

// notInRun names what a check at case c and size n lacks: each of impls
// with no one-core figure there, or "" when none is missing.
func notInRun(rs *results, c string, n int, impls ...string) string {
	var lack []string
	for _, im := range impls {
		if _, ok := rs.ewTime(c, im, n, 1); !ok {
			lack = append(lack, implLabel(im))
		}
	}
	if len(lack) == 0 {
		return ""
	}
	return fmt.Sprintf("not in this run: no %s figure for %s at %s", strings.Join(lack, " or "), c, formatCount(n))
}
