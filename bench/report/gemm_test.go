package main

import (
	"fmt"
	"strings"
	"testing"
)

// gemmLines writes synthetic Gemm lines, three runs each: laze takes
// lazeMs, gonum gonumMs and OpenBLAS blasMs milliseconds per product at
// every size; the epilogue's fused run takes fusedFrac times the product.
func gemmLines(lazeMs, gonumMs, blasMs, fusedFrac float64) string {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: github.com/laze-go/laze/bench\n")
	for range 3 {
		for _, dtype := range []string{"float64", "float32"} {
			for _, n := range []int{512, 1024} {
				fmt.Fprintf(&b, "BenchmarkGemm/%s/%d/laze 	 3	 %.0f ns/op\n", dtype, n, lazeMs*1e6)
				fmt.Fprintf(&b, "BenchmarkGemm/%s/%d/gonum 	 3	 %.0f ns/op\n", dtype, n, gonumMs*1e6)
				fmt.Fprintf(&b, "BenchmarkGemm/%s/%d/openblas-1 	 3	 %.0f ns/op\n", dtype, n, blasMs*1e6)
				fmt.Fprintf(&b, "BenchmarkGemm/epilogue/%s/%d/product 	 3	 %.0f ns/op\n", dtype, n, lazeMs*1e6)
				fmt.Fprintf(&b, "BenchmarkGemm/epilogue/%s/%d/fused 	 3	 %.0f ns/op\n", dtype, n, fusedFrac*lazeMs*1e6)
				fmt.Fprintf(&b, "BenchmarkGemm/epilogue/%s/%d/twopass 	 3	 %.0f ns/op\n", dtype, n, 1.1*lazeMs*1e6)
			}
		}
	}
	return b.String()
}

func TestGemmSections(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		lazeMs, gonumMs, blasMs, frac float64
		want                          []string
	}{
		{"met", 10, 40, 9, 1.02, []string{
			"| float64 | 1024 | 10.00 ms | 40.00 ms | 9.00 ms | 214.7 | 4.00× | 0.90× |",
			"laze ≥ 0.9× OpenBLAS at 256–2048, one core: float64 at 512 met (0.90×), float64 at 1024 met (0.90×), float32 at 512 met (0.90×), float32 at 1024 met (0.90×).",
			"at 1024², one core: float64 met (4.00×), float32 met (4.00×).",
			"| float64 | 1024 | 10.00 ms | 10.20 ms | +2.0% | 11.00 ms | +10.0% |",
			"≤ 5% of the product at 1024², one core: float64 met (+2.0%), float32 met (+2.0%).",
		}},
		{"missed", 20, 40, 10, 1.08, []string{
			"float64 at 1024 missed (0.50×)",
			"at 1024², one core: float64 missed (2.00×), float32 missed (2.00×).",
			"float64 missed (+8.0%), float32 missed (+8.0%).",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := readResults(strings.NewReader(gemmLines(tc.lazeMs, tc.gonumMs, tc.blasMs, tc.frac)), tc.name)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, f := range []func(*results) (string, error){gemmTable, gemmEpilogueTable} {
				s, err := f(rs)
				if err != nil {
					t.Fatal(err)
				}
				got += s
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
		})
	}
}

func TestGemmSectionsWithoutFigures(t *testing.T) {
	rs, err := readResults(strings.NewReader("BenchmarkMatMul/float64/512/laze 	 3	 1000 ns/op\n"), "no-gemm.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(*results) (string, error){gemmTable, gemmEpilogueTable} {
		got, err := f(rs)
		if err != nil || !strings.HasPrefix(got, "Not in this run") {
			t.Errorf("without Gemm figures: %q, %v; want a 'Not in this run' note", got, err)
		}
	}
}
