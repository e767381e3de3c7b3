package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// Units as benchfmt tidies them.
const (
	unitTime   = "sec/op"
	unitSpeed  = "B/s"
	unitBytes  = "B/op"
	unitAllocs = "allocs/op"
)

// confidence is the level of the intervals around each median.
const confidence = 0.95

// key names one benchmark: its name without the -N suffix, and N (the
// GOMAXPROCS it ran with; 1 when the suffix is absent, as go test omits it).
type key struct {
	name  string
	procs int
}

// results holds the summaries of one raw file: for each benchmark and unit,
// the median of its runs and their confidence interval.
type results struct {
	config  map[string]string
	order   []string // benchmark names in the order they first appear
	samples map[key]map[string][]float64
	stats   map[key]map[string]benchmath.Summary
}

// readFile reads a raw benchmark file; a missing file gives nil results and
// no error when optional is set.
func readFile(path string, optional bool) (*results, error) {
	f, err := os.Open(path)
	if err != nil {
		if optional && os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	return readResults(f, path)
}

// readResults parses Go benchmark format and summarises every benchmark.
func readResults(r io.Reader, fileName string) (*results, error) {
	rs := &results{config: map[string]string{}, samples: map[key]map[string][]float64{}}
	br := benchfmt.NewReader(r, fileName)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, rec
		case *benchfmt.Result:
			rs.add(rec)
		}
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	if len(rs.samples) == 0 {
		return nil, fmt.Errorf("%s: no benchmark results", fileName)
	}
	rs.summarise()
	return rs, nil
}

func (rs *results) add(res *benchfmt.Result) {
	for _, c := range res.Config {
		if _, seen := rs.config[c.Key]; !seen {
			rs.config[c.Key] = string(c.Value)
		}
	}
	k := keyOf(res.Name)
	units := rs.samples[k]
	if units == nil {
		units = map[string][]float64{}
		rs.samples[k] = units
		if !slices.Contains(rs.order, k.name) {
			rs.order = append(rs.order, k.name)
		}
	}
	for _, v := range res.Values {
		units[v.Unit] = append(units[v.Unit], v.Value)
	}
}

// keyOf splits "Elementwise/add/laze/1000-2" into its name and procs.
func keyOf(n benchfmt.Name) key {
	base, parts := n.Parts()
	k := key{name: string(base), procs: 1}
	for _, p := range parts {
		switch {
		case strings.HasPrefix(string(p), "-"):
			if procs, err := strconv.Atoi(string(p[1:])); err == nil {
				k.procs = procs
			}
		default:
			k.name += string(p)
		}
	}
	return k
}

func (rs *results) summarise() {
	rs.stats = map[key]map[string]benchmath.Summary{}
	for k, units := range rs.samples {
		rs.stats[k] = map[string]benchmath.Summary{}
		for unit, vals := range units {
			sample := benchmath.NewSample(vals, &benchmath.DefaultThresholds)
			rs.stats[k][unit] = benchmath.AssumeNothing.Summary(sample, confidence)
		}
	}
}

// median returns the median of name's unit at procs, and whether it exists.
func (rs *results) median(name string, procs int, unit string) (float64, bool) {
	if rs == nil {
		return 0, false
	}
	s, ok := rs.stats[key{name, procs}][unit]
	return s.Center, ok
}

// summary returns the median and confidence interval of name's unit at
// procs, and whether it exists.
func (rs *results) summary(name string, procs int, unit string) (benchmath.Summary, bool) {
	if rs == nil {
		return benchmath.Summary{}, false
	}
	s, ok := rs.stats[key{name, procs}][unit]
	return s, ok
}

// runs returns how many runs name has at procs (the count of its timings).
func (rs *results) runs(name string, procs int) int {
	return len(rs.samples[key{name, procs}][unitTime])
}

// procsOf lists the GOMAXPROCS values the benchmarks under prefix ran with,
// in increasing order.
func (rs *results) procsOf(prefix string) []int {
	var out []int
	for k := range rs.samples {
		if strings.HasPrefix(k.name, prefix) && !slices.Contains(out, k.procs) {
			out = append(out, k.procs)
		}
	}
	slices.Sort(out)
	return out
}

// speedup returns name's time on one core over its time on procs cores,
// and whether both exist.
func (rs *results) speedup(name string, procs int) (float64, bool) {
	one, ok1 := rs.median(name, 1, unitTime)
	many, ok2 := rs.median(name, procs, unitTime)
	return one / many, ok1 && ok2
}

// relWidth is the half-width of a timing's confidence interval as a
// fraction of its median; ok is false for a unit that is not a timing.
func relWidth(units map[string]benchmath.Summary) (width float64, ok bool) {
	s, ok := units[unitTime]
	if !ok || s.Center == 0 {
		return 0, false
	}
	return max(s.Hi-s.Center, s.Center-s.Lo) / s.Center, true
}

// noisy counts the timings whose confidence interval is wider than ±frac
// of their median, and all the timings.
func (rs *results) noisy(frac float64) (int, int) {
	wide, all := 0, 0
	for _, units := range rs.stats {
		if w, ok := relWidth(units); ok {
			all++
			if w > frac {
				wide++
			}
		}
	}
	return wide, all
}

// widest returns the benchmark whose timing has the widest confidence
// interval relative to its median, and that half-width as a fraction.
func (rs *results) widest() (key, float64) {
	var worst key
	var width float64
	for k, units := range rs.stats {
		w, ok := relWidth(units)
		if ok && (w > width || (w == width && lessKey(k, worst))) {
			worst, width = k, w
		}
	}
	return worst, width
}

func lessKey(a, b key) bool {
	if a.name != b.name {
		return a.name < b.name
	}
	return a.procs < b.procs
}

// minRuns returns the fewest runs any benchmark has.
func (rs *results) minRuns() int {
	least := 0
	for k := range rs.samples {
		if n := rs.runs(k.name, k.procs); n > 0 && (least == 0 || n < least) {
			least = n
		}
	}
	return least
}

// level lists, in order of first appearance, the distinct values of the
// i'th "/"-separated element of the names that start with prefix (which
// ends in "/" or is a whole first element).
func (rs *results) level(prefix string, i int) []string {
	if rs == nil {
		return nil
	}
	var out []string
	for _, name := range rs.order {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		parts := strings.Split(name, "/")
		if i < len(parts) && !slices.Contains(out, parts[i]) {
			out = append(out, parts[i])
		}
	}
	return out
}

// sizes lists the sizes of the i'th element under prefix ("1000" or
// "n=1000"), in increasing order.
func (rs *results) sizes(prefix string, i int) []int {
	var out []int
	for _, s := range rs.level(prefix, i) {
		n, err := strconv.Atoi(strings.TrimPrefix(s, "n="))
		if err == nil && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// maxProcs returns the largest GOMAXPROCS the benchmarks under prefix ran
// with (0 when there are none).
func (rs *results) maxProcs(prefix string) int {
	if rs == nil {
		return 0
	}
	p := rs.procsOf(prefix)
	if len(p) == 0 {
		return 0
	}
	return p[len(p)-1]
}
