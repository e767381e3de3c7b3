package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// testdata/cpu-vocabulary.txt is SYNTHETIC like cpu-workloads.txt (round
// figures, six runs with one outlier at three times the rest): the array
// vocabulary's lines as go test prints them on one core (no -N suffix;
// MB/s, or GFLOP/s for einsum) and the peers' as bench/peers/gather.py,
// sort.py, structured.py and einsum.py print them (-1 always written).
// Gather take misses against x[idx] (laze 3 ms, NumPy 2.7 ms) and meets
// against np.take(out=) (4.5 ms); median misses (10 ms against 9 ms); sort
// meets (50 ms against 65 ms); einsum is at parity with MatMul at 256 and
// 12% slower at 512; pad-constant's tree is twice the plain tree's time,
// diff's 1.05×.

// TestVocabularySectionFromItsOwnRun checks that the vocabulary's own run
// (make bench-vocabulary), when there is one, gives the section its
// figures and its machine line, ahead of the CPU suite's.
func TestVocabularySectionFromItsOwnRun(t *testing.T) {
	own := load(t, "cpu-vocabulary.txt")
	got, err := renderSection("vocabulary", inputs{cpu: load(t, "cpu.txt"), vocab: own})
	if err != nil {
		t.Fatal(err)
	}
	want, err := vocabularyTable(own)
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(machineLine(own), " Peers:")
	if prefix := "From `make bench-vocabulary`. " + line + " Peer: NumPy 1.24.2, one thread.\n\n"; got != prefix+want {
		t.Errorf("got\n%s\nwant the vocabulary run's machine line, then its table:\n%s%s", got, prefix, want)
	}
	if strings.Contains(got, "Not in this run") {
		t.Errorf("the CPU suite's missing vocabulary reported where the vocabulary's own run has it:\n%s", got)
	}
}

func TestVocabularySection(t *testing.T) {
	got, err := renderSection("vocabulary", inputs{cpu: load(t, "cpu-vocabulary.txt")})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"| case (one core) | laze | NumPy | NumPy / laze | target |  |\n|---|---:|---:|---:|---:|---|\n",
		"| gather take, 1e6 of 1e6, vs `x[idx]` | 3.00 ms | 2.70 ms | 0.90× | ≥ 1.00× | missed |",
		"| gather take vs `np.take(x, idx, out=)` | 3.00 ms | 4.50 ms | 1.50× | ≥ 1.00× | met |",
		"| gather rows, 1000 of 1000², vs `m[idx]` | 200.0 µs | 1.00 ms | 5.00× | ≥ 1.00× | met |",
		"| gather cols vs `np.take(m, idx, axis=1, out=)` | 800.0 µs | 2.80 ms | 3.50× | ≥ 1.00× | met |",
		"| gather fused, `exp(x[idx]) * 2` | 5.00 ms | 25.00 ms | 5.00× | ≥ 1.00× | met |",
		"| sort, 1e6 float64, vs `np.sort(x)` | 50.00 ms | 65.00 ms | 1.30× | ≥ 1.00× | met |",
		"| sort vs `np.sort(x, kind=\"stable\")` | 50.00 ms | 75.00 ms | 1.50× | — | — |",
		"| argsort vs `np.argsort(x, kind=\"stable\")` | 65.00 ms | 117.00 ms | 1.80× | — | — |",
		"| sort rows, 1000², vs `np.sort(m, axis=1)` | 64.00 ms | 44.80 ms | 0.70× | — | — |",
		"| median, 1e6 float64, vs `np.median(x)` | 10.00 ms | 9.00 ms | 0.90× | ≥ 1.00× | missed |",
		"| pad-constant in `f(x)*2 + 1` vs NumPy's | 1.50 ms | 1.80 ms | 1.20× | — | — |",
		"| einsum `ij,jk->ik`, 256², vs `np.einsum` | 670.0 µs | 3.62 ms | 5.40× | — | — |",
		"| einsum `ij,jk->ik`, 512², vs `np.matmul` | 5.60 ms | 44.80 ms | 8.00× | — | — |",
		"| case (one core) | laze | reference (laze) | laze / reference | target |  |",
		"| einsum `ij,jk->ik`, 256², vs the MatMul it lowers to | 670.0 µs | 670.0 µs | 1.00× | ≤ 1.05× | met |",
		"| einsum built each call, 256², vs MatMul | 680.0 µs | 670.0 µs | 1.01× | — | — |",
		"| einsum `ij,jk->ik`, 512², vs the MatMul it lowers to | 5.60 ms | 5.00 ms | 1.12× | ≤ 1.05× | missed |",
		"| pad-constant in `f(x)*2 + 1` vs the tree over a tensor | 1.50 ms | 750.0 µs | 2.00× | ≤ 1.10× | missed |",
		"| diff in `f(x)*2 + 1` vs the tree over a tensor | 1.05 ms | 1.00 ms | 1.05× | ≤ 1.10× | met |",
		": **missed** at 4 of 13 rows: gather take, 1e6 of 1e6, vs x[idx] (NumPy / laze 0.90×); " +
			"median, 1e6 float64, vs np.median(x) (NumPy / laze 0.90×); " +
			"einsum ij,jk->ik, 512², vs the MatMul it lowers to (laze / reference 1.12×); " +
			"pad-constant in f(x)*2 + 1 vs the tree over a tensor (laze / reference 2.00×).",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
	if strings.Contains(got, "Not in this run") {
		t.Errorf("a note on missing figures where none is missing:\n%s", got)
	}
	// Two headers; two structured functions and two sizes: 12 fixed NumPy
	// rows, 2 structured, 4 einsum; 4 einsum and 2 structured laze rows.
	rows := 0
	for l := range strings.Lines(got) {
		if strings.HasPrefix(l, "| ") {
			rows++
		}
	}
	if rows != 2+18+6 {
		t.Errorf("%d table lines (headers and rows), want 26:\n%s", rows, got)
	}
}

// At a target's edge (einsum exactly 1.05× MatMul, a structured tree
// exactly 1.1×, a gather exactly at NumPy's time) the target is met; a
// hair over is missed.
func TestVocabularyTargetEdges(t *testing.T) {
	var b strings.Builder
	b.WriteString("numpy: 1.24.2\n")
	for range 3 {
		b.WriteString("BenchmarkEinsum/float64/256/einsum \t 10\t 1050 ns/op\n")
		b.WriteString("BenchmarkEinsum/float64/256/matmul \t 10\t 1000 ns/op\n")
		b.WriteString("BenchmarkStructured/roll/laze \t 10\t 1100 ns/op\n")
		b.WriteString("BenchmarkStructured/roll/tensors \t 10\t 1000 ns/op\n")
		b.WriteString("BenchmarkStructured/tile/laze \t 10\t 1101 ns/op\n")
		b.WriteString("BenchmarkStructured/tile/tensors \t 10\t 1000 ns/op\n")
		b.WriteString("BenchmarkGather/rows/laze \t 10\t 1000 ns/op\n")
		b.WriteString("BenchmarkGather/rows/numpy-1 \t 10\t 1000 ns/op\n")
	}
	rs, err := readResults(strings.NewReader(b.String()), "edges.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := vocabularyTable(rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"| gather rows, 1000 of 1000², vs `m[idx]` | 1.0 µs | 1.0 µs | 1.00× | ≥ 1.00× | met |",
		"| gather rows vs `np.take(m, idx, axis=0, out=)` | 1.0 µs | — | — | ≥ 1.00× | — |",
		"| einsum `ij,jk->ik`, 256², vs the MatMul it lowers to | 1.1 µs | 1.0 µs | 1.05× | ≤ 1.05× | met |",
		"| roll in `f(x)*2 + 1` vs the tree over a tensor | 1.1 µs | 1.0 µs | 1.10× | ≤ 1.10× | met |",
		"| tile in `f(x)*2 + 1` vs the tree over a tensor | 1.1 µs | 1.0 µs | 1.10× | ≤ 1.10× | missed |",
		"**missed** at 1 of 4 rows: tile in f(x)*2 + 1 vs the tree over a tensor (laze / reference 1.101×).",
		"- laze's `Sort` figures: bench/report/run.sh did not run BenchmarkSort",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
	for _, w := range []string{"Gather` figures", "Einsum` figures", "Structured` figures", "- NumPy:", "| sort,"} {
		if strings.Contains(got, w) {
			t.Errorf("unexpected %q in:\n%s", w, got)
		}
	}
}

// Without vocabulary figures (cpu.txt) the section says so; with laze's
// but no NumPy (peers: missing) the NumPy cells are empty, the NumPy
// targets unchecked, and the note says why.
func TestVocabularyNotInRun(t *testing.T) {
	got, err := vocabularyTable(load(t, "cpu.txt"))
	if err != nil || !strings.HasPrefix(got, "Not in this run: no `Gather`, `Sort`, `Structured` or `Einsum` figures") {
		t.Errorf("vocabularyTable without figures = %q, %v", got, err)
	}

	var b strings.Builder
	b.WriteString("peers: missing\n")
	for range 3 {
		b.WriteString("BenchmarkSort/median/laze \t 10\t 8000000 ns/op\n")
		b.WriteString("BenchmarkSort/sort/laze \t 10\t 40000000 ns/op\n")
	}
	rs, err := readResults(strings.NewReader(b.String()), "no-numpy.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err = vocabularyTable(rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"| sort, 1e6 float64, vs `np.sort(x)` | 40.00 ms | — | — | ≥ 1.00× | — |",
		"| median, 1e6 float64, vs `np.median(x)` | 8.00 ms | — | — | ≥ 1.00× | — |",
		": not in this run (no figures to check them against).",
		"- NumPy: the peers did not run: python3-numpy is not installed (`make bench-deps`).",
		"- laze's `Gather` figures:",
		"- laze's `Einsum` figures:",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
	if strings.Contains(got, "reference (laze)") {
		t.Errorf("a laze-against-laze table without its figures:\n%s", got)
	}
}

// TestVocabularyPeersParse runs the four peer scripts, where Debian's
// python has NumPy, at their fewest runs, and reads their output as the
// report does: every name the section pairs with laze's has a time at -1.
func TestVocabularyPeersParse(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import numpy").Run(); err != nil {
		t.Skipf("%s cannot import numpy (make bench-deps): %v", py, err)
	}
	var out strings.Builder
	for _, args := range [][]string{
		{"../peers/gather.py", "--count", "1"},
		{"../peers/sort.py", "--count", "1"},
		{"../peers/structured.py", "--count", "1"},
		{"../peers/einsum.py", "--count", "1", "--sizes", "64"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, py, args...)
		cmd.Env = append(cmd.Environ(), "OPENBLAS_NUM_THREADS=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("%s: %v\n%s\n%s", args[0], err, b, stderr.String())
		}
		out.Write(b)
	}
	rs, err := readResults(strings.NewReader(out.String()), "peers")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range []string{"take", "rows", "cols"} {
		want = append(want, "Gather/"+c+"/numpy", "Gather/"+c+"/numpy-take")
	}
	want = append(want, "Gather/fused/numpy", "Sort/sort/numpy", "Sort/sort/numpy-stable", "Sort/argsort/numpy",
		"Sort/rows/numpy", "Sort/median/numpy", "Einsum/float64/64/numpy-einsum", "Einsum/float64/64/numpy-matmul")
	for _, f := range []string{"pad-constant", "pad-reflect", "tile", "repeat", "roll", "diff"} {
		want = append(want, "Structured/"+f+"/numpy")
	}
	for _, name := range want {
		if sec, ok := rs.median(name, 1, unitTime); !ok || sec <= 0 {
			t.Errorf("%s: no time at -1 (%v)", name, sec)
		}
	}
	// Every NumPy row the section would draw for laze's figures names one
	// of these benchmarks (a renamed peer would leave its cells empty).
	var lazeLines strings.Builder
	for _, name := range want {
		base := name[:strings.LastIndex(name, "/")]
		lazeLines.WriteString("Benchmark" + base + "/laze \t 1\t 1 ns/op\n")
		if strings.HasPrefix(base, "Einsum/") {
			lazeLines.WriteString("Benchmark" + base + "/einsum \t 1\t 1 ns/op\n")
		}
	}
	both, err := readResults(strings.NewReader(lazeLines.String()+out.String()), "both")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range both.vocabNumPyRows() {
		if _, ok := both.median(r.ref, 1, unitTime); !ok {
			t.Errorf("row %q: the peers print no %s", r.label, r.ref)
		}
	}
}
