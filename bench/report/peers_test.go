package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testdata/cpu-peers.txt is SYNTHETIC like cpu.txt (round figures, six
// runs with one outlier at three times the rest): the Go suite's lines,
// laze-simd's as run.sh renames them, and the peers' as
// bench/peers/peers.py prints them (-N always written, -1 included).

func TestPeerAndSimdColumns(t *testing.T) {
	in := inputs{cpu: load(t, "cpu-peers.txt")}
	for _, tc := range []struct {
		section string
		want    []string
		not     []string
	}{
		{"machine", []string{"Peers: NumPy 1.24.2 and numexpr 2.8.4 on Python 3.11.2."}, nil},
		{"elementwise-one-core", []string{
			"| case | n | laze | laze-simd | handloop | gonum | naive | numexpr | NumPy | laze vs handloop | laze vs gonum | laze vs naive | laze vs numexpr | laze vs NumPy | simd vs scalar build | simd vs handloop |",
			"| add | 100,000 | 50.0 µs | 25.0 µs | 50.0 µs | 50.0 µs | 4.00 ms | 100.0 µs | 40.0 µs | 1.00× | 1.00× | 80.00× | 2.00× | 0.80× | 2.00× | 2.00× |",
			"| long8 | 1,000,000 | 20.00 ms | 5.00 ms | 20.00 ms | — | — | 25.00 ms | 40.00 ms | 1.00× | — | — | 1.25× | 2.00× | 4.00× | 4.00× |",
			"| cmp | 100,000 | 100.0 µs | 50.0 µs | 100.0 µs | — | 5.00 ms | 150.0 µs | 400.0 µs | 1.00× | — | 50.00× | 1.50× | 4.00× | 2.00× | 2.00× |",
		}, []string{"Not in this run"}},
		{"elementwise-cores", []string{
			"| numexpr, 2 threads | laze vs numexpr -cpu 2 |",
			"| add | 10,000,000 | 10.00 ms | 5.00 ms | 2.00× | 1.00× | 4.00 ms | 0.80× |",
		}, nil},
		{"elementwise-peer-targets", []string{
			"| laze faster than numexpr at equal threads, every case and size | faster at 14 of 16 points; slower or as fast (numexpr's time over laze's): add at 10,000,000, `-cpu 2` (0.80×); transpose at 10,000,000, `-cpu 1` (0.80×) | missed |",
			// laze-simd's add at 1e7 on 2 cores: 5 ms against numexpr's 4 ms.
			"| laze-simd faster than numexpr at equal threads, every case and size | faster at 14 of 16 points; slower or as fast (numexpr's time over laze-simd's): add at 10,000,000, `-cpu 2` (0.80×); transpose at 10,000,000, `-cpu 1` (0.80×) | missed |",
			"| long8: laze-simd ≥ 3× handloop at 1e6 (`-cpu 1`) | 4.00× (laze-simd 5.00 ms, handloop 20.00 ms) | met |",
			"| poly4f32: laze-simd ≥ 1.5× handloop at 1e5 (`-cpu 1`) | 1.25× (laze-simd 60.0 µs, handloop 75.0 µs) | missed |",
			"| add: laze-simd ≥ 1.5× handloop at 1e5 (`-cpu 1`) | 2.00× (laze-simd 25.0 µs, handloop 50.0 µs) | met |",
			// poly4 at 1e4 is 1.2× laze's time, inside the outlier's interval;
			// at 1e3, 3.5×, above it.
			"every case, size and core count | slower at 2 of 16 points: poly4 at 1,000, `-cpu 1` (3.50× laze's time); poly4 at 1,000, `-cpu 2` (3.50× laze's time) | missed |",
			"| transpose: laze ≤ 2× the time of laze's `add` at 1e7 (`-cpu 1`) | 2.50× (transpose 25.00 ms, add 10.00 ms) | missed |",
			"| poly4: laze ≥ 0.5× handloop at 1e3 (`-cpu 1`) | 0.40× (laze 2.0 µs, handloop 800 ns) | missed |",
			"| poly4: laze ≥ 0.9× handloop at 1e4 (`-cpu 1`) | 0.95× (laze 10.0 µs, handloop 9.5 µs) | met |",
		}, nil},
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
		for _, w := range tc.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: unexpected %q in:\n%s", tc.section, w, got)
			}
		}
	}
}

// Without peers or a SIMD build (cpu.txt), the columns are left out with a
// note, and their targets say what is missing.
func TestNoPeersNoSimd(t *testing.T) {
	in := inputs{cpu: load(t, "cpu.txt")}
	for _, tc := range []struct {
		section string
		want    []string
		not     []string
	}{
		{"machine", []string{"Peers: none in this run (`make bench-deps` installs NumPy and numexpr)."}, nil},
		{"elementwise-one-core", []string{
			"| case | n | laze | handloop | gonum | naive | laze vs handloop | laze vs gonum | laze vs naive |\n",
			"Not in this run, so not in the table:\n\n- laze-simd: the `GOEXPERIMENT=simd` build did not run or did not compile",
			"- numexpr: the peers, bench/peers/peers.py, did not run (`make bench-deps`).\n",
			"- NumPy: the peers, bench/peers/peers.py, did not run",
		}, []string{"simd vs", "| numexpr |"}},
		{"elementwise-cores", []string{"| handloop -cpu 2 / -cpu 1 |\n"}, []string{"numexpr"}},
		{"elementwise-peer-targets", []string{
			"| laze faster than numexpr at equal threads, every case and size | not in this run: no laze and numexpr figures together | — |",
			"| long8: laze-simd ≥ 3× handloop at 1e6 (`-cpu 1`) | not in this run: no laze-simd or handloop figure for long8 at 1,000,000 | — |",
			"core count | not in this run: no laze-simd figures | — |",
			"| transpose: laze ≤ 2× the time of laze's `add` at 1e7 (`-cpu 1`) | not in this run: no laze figure for transpose at 10,000,000 | — |",
			"| poly4: laze ≥ 0.5× handloop at 1e3 (`-cpu 1`) | 0.15× (laze 4.0 µs, handloop 600 ns) | missed |",
		}, nil},
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
		for _, w := range tc.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: unexpected %q in:\n%s", tc.section, w, got)
			}
		}
	}
}

// With NumPy but no numexpr, peers.py writes "numexpr: missing" and NumPy's
// lines alone; the report shows NumPy and says numexpr is missing.
func TestNumexprMissing(t *testing.T) {
	raw, err := os.ReadFile("testdata/cpu.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.Write(raw)
	b.WriteString("pkg: github.com/laze-go/laze/bench/peers\npython: 3.11.2\nnumpy: 1.24.2\nnumexpr: missing\n")
	for _, procs := range []string{"1", "2"} {
		for range 6 {
			b.WriteString("BenchmarkElementwise/poly4/numpy/1000-" + procs + " \t 100\t 8000 ns/op\t 5000.00 MB/s\n")
		}
	}
	rs, err := readResults(strings.NewReader(b.String()), "numpy-only.txt")
	if err != nil {
		t.Fatal(err)
	}
	in := inputs{cpu: rs}
	got, err := renderSection("elementwise-one-core", in)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"| case | n | laze | handloop | gonum | naive | NumPy | laze vs handloop | laze vs gonum | laze vs naive | laze vs NumPy |",
		"| poly4 | 1,000 | 4.0 µs | 600 ns | 700 ns | 80.0 µs | 8.0 µs | 0.15× | 0.17× | 20.00× | 2.00× |",
		"| add | 1,000 | 2.0 µs | 400 ns | 200 ns | 40.0 µs | — | 0.20× | 0.10× | 20.00× | — |",
		"- numexpr: numexpr is missing: python3-numexpr is not installed (`make bench-deps`).",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
	if m := machineLine(rs); !strings.Contains(m, "Peers: NumPy 1.24.2 on Python 3.11.2; numexpr missing (`make bench-deps`).") {
		t.Errorf("machine line: %s", m)
	}
	got, _ = renderSection("elementwise-peer-targets", in)
	if !strings.Contains(got, "not in this run: no laze and numexpr figures together") {
		t.Errorf("peer targets:\n%s", got)
	}

	// run.sh's line where Debian's python has no NumPy at all.
	rs, err = readResults(strings.NewReader("peers: missing\n"+string(raw)), "no-peers.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, _ = renderSection("elementwise-one-core", inputs{cpu: rs})
	if !strings.Contains(got, "- NumPy: the peers did not run: python3-numpy is not installed (`make bench-deps`).") {
		t.Errorf("no NumPy:\n%s", got)
	}
}

// Where timings have too few runs for a confidence interval, laze-simd is
// slower only by more than 5%.
func TestSimdNoiseMargin(t *testing.T) {
	var b strings.Builder
	for _, l := range []struct {
		name string
		ns   string
	}{
		{"add/laze/1000", "100"}, {"add/laze-simd/1000", "104"},
		{"poly4/laze/1000", "100"}, {"poly4/laze-simd/1000", "110"},
	} {
		for range 3 {
			b.WriteString("BenchmarkElementwise/" + l.name + " \t 10\t " + l.ns + " ns/op\n")
		}
	}
	rs, err := readResults(strings.NewReader(b.String()), "few.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, met, ok := simdNotSlower(rs)
	if !ok || met || got != "slower at 1 of 2 points: poly4 at 1,000, `-cpu 1` (1.10× laze's time)" {
		t.Errorf("simdNotSlower = %q, %v, %v", got, met, ok)
	}
	rs, err = readResults(strings.NewReader(strings.ReplaceAll(b.String(), " 110 ns/op", " 105 ns/op")), "few.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, met, ok = simdNotSlower(rs)
	if !ok || !met || got != "slower nowhere of 2 points; the most, within noise, 1.05× laze's time (poly4 at 1,000, `-cpu 1`)" {
		t.Errorf("simdNotSlower = %q, %v, %v", got, met, ok)
	}
}

func TestPeerPlots(t *testing.T) {
	dir := t.TempDir()
	files, err := elementwisePlots(load(t, "cpu-peers.txt"), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 6 {
		t.Errorf("%d plots, want one per case (6): %v", len(files), files)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "elementwise-cmp.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"cmp (one core)", "laze-simd", "handloop", "naive", "numexpr", "NumPy"} {
		if !strings.Contains(string(svg), l) {
			t.Errorf("elementwise-cmp.svg: no %q", l)
		}
	}
}

// TestPeersScriptParses runs bench/peers/peers.py on the smallest size, where
// Debian's python has NumPy, and reads its output as the report does.
func TestPeersScriptParses(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import numpy").Run(); err != nil {
		t.Skipf("%s cannot import numpy (make bench-deps): %v", py, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "../peers/peers.py", "--threads", "2", "--benchtime", "0.002", "--sizes", "1000")
	cmd.Env = append(os.Environ(), "NUMEXPR_MAX_THREADS=2", "OMP_NUM_THREADS=2")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("peers.py: %v\n%s", err, out)
	}
	rs, err := readResults(strings.NewReader(string(out)), "peers")
	if err != nil {
		t.Fatal(err)
	}
	impls := []string{"numpy"}
	if rs.config["numexpr"] != "missing" {
		impls = append(impls, "numexpr")
	}
	for _, c := range []string{"add", "axpy", "poly4", "poly4f32", "long8", "bcast", "transpose", "cmp"} {
		for _, im := range impls {
			if sec, ok := rs.ewTime(c, im, 1000, 2); !ok || sec <= 0 {
				t.Errorf("%s/%s: no time at -2 (%v)", c, im, sec)
			}
			if bps, ok := rs.median(ewName(c, im, 1000), 2, unitSpeed); !ok || bps <= 0 {
				t.Errorf("%s/%s: no speed", c, im)
			}
		}
	}
	if rs.config["numpy"] == "" {
		t.Error("no numpy config line")
	}
}
