package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/perf/benchfmt"
)

// testdata/cpu.txt, testdata/gpu.txt and testdata/gpu-v1.txt are
// SYNTHETIC: round figures, six runs each with one outlier, chosen so that
// every median and ratio below is exact. They are not measurements, and
// nothing in them may be quoted as one. gpu.txt is in the format of
// bench/gpu/suite.sh (issue 16); gpu-v1.txt in the first GPU suite's.

func load(t *testing.T, file string) *results {
	t.Helper()
	rs, err := readFile(filepath.Join("testdata", file), false)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestKeyOf(t *testing.T) {
	for _, tc := range []struct {
		line string
		want key
	}{
		{"BenchmarkElementwise/add/laze/1000-2", key{"Elementwise/add/laze/1000", 2}},
		{"BenchmarkElementwise/add/laze/1000", key{"Elementwise/add/laze/1000", 1}},
		{"BenchmarkCUDA/copy/n=16777216-16", key{"CUDA/copy/n=16777216", 16}},
		{"BenchmarkReduce/axis0/laze-2", key{"Reduce/axis0/laze", 2}},
		{"BenchmarkElementwise/poly4/numexpr/1000-1", key{"Elementwise/poly4/numexpr/1000", 1}},
		{"BenchmarkElementwise/poly4/laze-simd/1000-2", key{"Elementwise/poly4/laze-simd/1000", 2}},
	} {
		r := benchfmt.NewReader(strings.NewReader(tc.line+" 1 5 ns/op\n"), "x")
		if !r.Scan() {
			t.Fatalf("%s: no record", tc.line)
		}
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("%s: %v", tc.line, r.Result())
		}
		if got := keyOf(res.Name); got != tc.want {
			t.Errorf("keyOf(%s) = %+v, want %+v", tc.line, got, tc.want)
		}
	}
}

func TestMediansIgnoreTheOutlier(t *testing.T) {
	rs := load(t, "cpu.txt")
	for _, tc := range []struct {
		name  string
		procs int
		unit  string
		want  float64
	}{
		{"Elementwise/poly4/laze/10000000", 1, unitTime, 20e-3},
		{"Elementwise/poly4/laze/10000000", 2, unitTime, 10e-3},
		{"Elementwise/add/handloop/1000", 1, unitTime, 400e-9},
		{"Elementwise/add/laze/1000", 2, unitAllocs, 30},
		{"MatMul/float32/512/gonum", 2, unitTime, 20e-3},
	} {
		got, ok := rs.median(tc.name, tc.procs, tc.unit)
		if !ok || !close(got, tc.want) {
			t.Errorf("median(%s, %d, %s) = %v, %v; want %v", tc.name, tc.procs, tc.unit, got, ok, tc.want)
		}
	}
	if _, ok := rs.median("Elementwise/poly4/laze/10000000", 4, unitTime); ok {
		t.Error("a median for a core count that never ran")
	}
	if got := rs.runs("Elementwise/poly4/laze/1000", 1); got != 6 {
		t.Errorf("runs = %d, want 6", got)
	}
	if diff := cmp.Diff([]string{"add", "poly4"}, rs.ewCases()); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1000, 10000000}, rs.ewSizes()); diff != "" {
		t.Errorf("sizes (-want +got):\n%s", diff)
	}
	if got := rs.maxProcs(elementwise); got != 2 {
		t.Errorf("maxProcs = %d, want 2", got)
	}
}

func close(a, b float64) bool { return a == b || (a-b)/b < 1e-9 && (b-a)/b < 1e-9 }

func TestReadErrors(t *testing.T) {
	if _, err := readResults(strings.NewReader("goos: linux\nPASS\n"), "empty.txt"); err == nil || !strings.Contains(err.Error(), "empty.txt: no benchmark results") {
		t.Errorf("no results: err = %v", err)
	}
	if _, err := readResults(strings.NewReader("BenchmarkX 10 abc ns/op\n"), "bad.txt"); err == nil {
		t.Error("a malformed line was accepted")
	}
	if rs, err := readFile("testdata/absent.txt", true); rs != nil || err != nil {
		t.Errorf("optional missing file: %v, %v", rs, err)
	}
	if _, err := readFile("testdata/absent.txt", false); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("required missing file: err = %v", err)
	}
}

func TestTables(t *testing.T) {
	in := inputs{cpu: load(t, "cpu.txt"), gpu: load(t, "gpu.txt")}
	for _, tc := range []struct {
		section string
		want    []string
	}{
		{"machine", []string{"Test CPU @ 1.00GHz (2 cores), go1.26.0 linux/amd64, measured 2026-01-02", "median of 6 or more runs", "50 of the 50 timings have a 95% confidence interval wider than ±5%, the widest ±200.0%"}},
		{"elementwise-one-core", []string{"| poly4 | 10,000,000 | 20.00 ms | 18.00 ms | 30.00 ms | 900.00 ms | 0.90× | 1.50× | 45.00× |",
			"| add | 1,000 | 2.0 µs | 400 ns | 200 ns | 40.0 µs | 0.20× | 0.10× | 20.00× |"}},
		{"elementwise-targets", []string{
			"| poly4: laze ≥ 0.85× handloop (`-cpu 1`) | 0.90× | met |",
			"| poly4: laze ≥ 1.3× gonum | 1.50× | met |",
			"| long8: laze ≥ 2× gonum | not in this run | — |",
			"| laze ≥ 5× naive, every case | 40.00× (add) to 45.00× | met |",
			"all cores ≥ 1.7× laze's `-cpu 1` speed, every case | 2.00× (add) to 2.00× | met |",
			"at most 1500 B per Assign (add at 10,000,000); at most +6 allocs/op from 1,000 to 10,000,000 elements (add) | met |"}},
		{"elementwise-cores", []string{"| poly4 | 10,000,000 | 20.00 ms | 10.00 ms | 2.00× | 1.00× |"}},
		{"elementwise-allocs", []string{"| add | 1000 B, 30 | 1500 B, 36 |"}},
		{"matmul", []string{"| float64 | 512 | 20.60 ms | 20.00 ms | +3.0% |", "overhead ≤ 5% at n ≥ 512: **met** (largest +3.0%, float64 at 512)"}},
		{"matmul-fused", []string{"| 512 | 20.00 ms | 21.00 ms | 1.05× |"}},
		{"reduce", []string{"| summul | laze | 10.00 ms | 5.00 ms | 2.00× | 100, 5 |"}},
		{"reduce-targets", []string{"| summul | materialize | 2.00× | 4.00× | ≥ 1.5× | met |", "| axis1 | handloop | — | — | ≥ 0.8× | missed |"}},
		{"gpu", []string{"Device: Test GPU (sm_90, 132 SMs); measured 2026-01-03.",
			"| poly4 | 2^26 | 2700.0 GB/s | 90% | 2250.0 GB/s | 1.20× | 1000.0 GB/s | 900.0 GB/s | 3.00× |"}},
	} {
		got, err := renderSection(tc.section, in)
		if err != nil {
			t.Fatalf("%s: %v", tc.section, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: missing %q in:\n%s", tc.section, w, got)
			}
		}
	}
}

func renderSection(name string, in inputs) (string, error) {
	for _, s := range sections {
		if s.name == name {
			return s.render(in)
		}
	}
	return "", errors.New("no section " + name)
}

func TestMissedTargetsSayMissed(t *testing.T) {
	rs := load(t, "cpu.txt")
	_, met, ok := lazeOver("poly4", "handloop", 0.95)(rs)
	if !ok || met {
		t.Errorf("0.90× against a 0.95× goal: met=%v ok=%v", met, ok)
	}
	_, met, ok = lazeTimeOf("poly4", "add", 1.5)(rs) // 20 ms over 10 ms
	if !ok || met {
		t.Errorf("2× against a 1.5× bound: met=%v ok=%v", met, ok)
	}
}

func TestNoGPUFigures(t *testing.T) {
	got, err := gpuSection(nil)
	if err != nil || !strings.Contains(got, "No GPU figures yet") {
		t.Errorf("gpuSection(nil) = %q, %v", got, err)
	}
}

func TestFillReplacesOnlyBetweenMarkers(t *testing.T) {
	in := inputs{cpu: load(t, "cpu.txt")}
	var doc strings.Builder
	doc.WriteString("# Title\n\nProse stays.\n")
	for _, s := range sections {
		doc.WriteString("\n<!-- report:" + s.name + " -->\nstale figures\n<!-- /report:" + s.name + " -->\nafter " + s.name + "\n")
	}
	got, err := fill(doc.String(), in)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "stale figures") {
		t.Error("a stale block survived")
	}
	for _, s := range sections {
		if !strings.Contains(got, "after "+s.name+"\n") {
			t.Errorf("text after %s lost", s.name)
		}
	}
	if !strings.HasPrefix(got, "# Title\n\nProse stays.\n") {
		t.Error("the prose before the first marker changed")
	}
	again, err := fill(got, in)
	if err != nil || again != got {
		t.Errorf("filling twice changed the document (err %v)", err)
	}
}

func TestMarkerErrors(t *testing.T) {
	in := inputs{cpu: load(t, "cpu.txt")}
	all := ""
	for _, s := range sections {
		all += "<!-- report:" + s.name + " -->\n<!-- /report:" + s.name + " -->\n"
	}
	for _, tc := range []struct {
		name, doc string
		want      MarkerError
	}{
		{"missing", strings.Replace(all, "<!-- report:matmul -->\n<!-- /report:matmul -->\n", "", 1), MarkerError{"matmul", "missing"}},
		{"not closed", strings.Replace(all, "<!-- /report:reduce -->", "", 1), MarkerError{"reduce", "not closed"}},
		{"unknown", all + "<!-- report:nonsense -->\n", MarkerError{"nonsense", "unknown"}},
	} {
		_, err := fill(tc.doc, in)
		var me *MarkerError
		if !errors.As(err, &me) {
			t.Fatalf("%s: err = %v, want a *MarkerError", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, *me); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestReportWritesPlotsAndLeavesABrokenDocument(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "performance.md")
	broken := "no markers here\n"
	if err := os.WriteFile(doc, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := report("testdata/cpu.txt", "testdata/gpu.txt", "testdata/absent-vocabulary.txt", doc, filepath.Join(dir, "img")); err == nil {
		t.Fatal("a document without markers was accepted")
	}
	if got, _ := os.ReadFile(doc); string(got) != broken {
		t.Errorf("the failed report changed the document: %q", got)
	}

	var full strings.Builder
	for _, s := range sections {
		full.WriteString("<!-- report:" + s.name + " -->\n<!-- /report:" + s.name + " -->\n")
	}
	if err := os.WriteFile(doc, []byte(full.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := report("testdata/cpu.txt", "testdata/gpu.txt", "testdata/absent-vocabulary.txt", doc, filepath.Join(dir, "img"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"elementwise-add.svg", "elementwise-poly4.svg", "scaling.svg", "gpu-poly4.svg", "gpu-long8.svg", "gpu-bcast.svg", "gpu-transpose.svg", "performance.md"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	for f, labels := range map[string][]string{
		"elementwise-poly4.svg": {"poly4 (one core)", "laze", "handloop", "gonum", "naive", "1e7"},
		"scaling.svg":           {"Speed-up on 2 cores", "ideal", "reduce summul"},
		"gpu-poly4.svg":         {"Test GPU", "laze fused", "fastest copy", "torch.compile", "2^26"},
	} {
		svg, err := os.ReadFile(filepath.Join(dir, "img", f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(svg), "<?xml") || !strings.Contains(string(svg), "<svg") {
			t.Errorf("%s is not an SVG", f)
		}
		for _, l := range labels {
			if !strings.Contains(string(svg), l) {
				t.Errorf("%s: no %q", f, l)
			}
		}
	}

	if _, err := report("testdata/cpu.txt", filepath.Join(dir, "absent.txt"), filepath.Join(dir, "absent-vocabulary.txt"), doc, filepath.Join(dir, "img2")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "img2", "gpu-poly4.svg")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a GPU plot without GPU figures: %v", err)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{formatTime(351e-9), "351 ns"},
		{formatTime(1.84e-6), "1.8 µs"},
		{formatTime(61.3e-6), "61.3 µs"},
		{formatTime(17.456e-3), "17.46 ms"},
		{formatTime(2.28667), "2286.67 ms"},
		{formatCount(10000000), "10,000,000"},
		{formatCount(512), "512"},
		{formatPower(1 << 26), "2^26"},
		{formatPower(1000), "1,000"},
		{sizeLabel(100000), "1e5"},
		{sizeLabel(1 << 24), "2^24"},
		{formatRatio(0.8949), "0.89×"},
		{formatAgainst(1.2996, 1.3), "1.300×"},
		{formatAgainst(1.31, 1.3), "1.31×"},
		{formatAgainst(1.3, 1.3), "1.30×"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
