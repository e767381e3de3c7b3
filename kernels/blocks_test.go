package kernels

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// lowered lowers dst = e and returns the program.
func lowered[T tensor.Number](t *testing.T, dst *tensor.Tensor[T], e expr.Exp[T]) *program[T] {
	t.Helper()
	if err := checkAssign("test", dst, e); err != nil {
		t.Fatal(err)
	}
	ev := newEvaluation("test")
	t.Cleanup(ev.release)
	p, err := lower(ev, assignTo(dst), e, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBlockLengthRules checks which block length walkShape gives each kind
// of program: one fused pass with no register, several passes from cache
// or from memory (the last-level cache size made small), and a tiled walk.
func TestBlockLengthRules(t *testing.T) {
	oldCache := lastLevelCache
	defer func() { lastLevelCache = oldCache }()
	const n = 4096
	a, b, c, e := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n), tensor.Rand[float64](4, n)
	m := tensor.Rand[float64](5, 64, 64)
	dst, dstM := tensor.Zeros[float64](n), tensor.Zeros[float64](64, 64)
	poly4 := expr.Of(a).Mul(b).Add(c).Sub(e)
	twoPass := expr.Of(a).Mul(b).Add(c).Mul(expr.Sub(e, a))
	cases := []struct {
		name  string
		p     *program[float64]
		cache int
		want  int
	}{
		{"one fused pass", lowered(t, dst, poly4), 1 << 30, passBlock},
		{"one fused pass, operands beyond the cache", lowered(t, dst, poly4), 1, passBlock},
		{"passes in cache", lowered(t, dst, twoPass), 5 * 8 * n, blockSize},
		{"passes beyond the cache", lowered(t, dst, twoPass), 5*8*n - 1, *streamBlockFor()},
		{"tiled", lowered(t, dstM, expr.Add(m.T(), m)), 1, min(tileBlock, blockSize)},
	}
	for _, tc := range cases {
		lastLevelCache = func() int { return tc.cache }
		if got := tc.p.walkShape().block; got != tc.want {
			t.Errorf("%s: block %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := lowered(t, dst, poly4); len(got.Code) != 1 || got.Code[0].Triple == 0 {
		t.Errorf("a*b + c - e lowers to %d instructions (triple %d), want one fused triple", len(got.Code), got.Code[0].Triple)
	}
}

// TestReadLastLevelCache reads a sysfs-like cache folder: the highest
// level's size, in any of the units sysfs uses, and the default where the
// folder says nothing.
func TestReadLastLevelCache(t *testing.T) {
	write := func(dir string, files map[string]string) {
		for name, text := range files {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name  string
		files map[string]string
		want  int
	}{
		{"L3 in K", map[string]string{"index0/level": "1\n", "index0/size": "32K\n", "index2/level": "2\n", "index2/size": "1024K\n", "index3/level": "3\n", "index3/size": "32768K\n"}, 32 << 20},
		{"L2 in M", map[string]string{"index0/level": "1\n", "index0/size": "48K\n", "index1/level": "2\n", "index1/size": "2M\n"}, 2 << 20},
		{"unreadable size", map[string]string{"index0/level": "3\n", "index0/size": "big\n"}, defaultLastLevelCache},
		{"empty", map[string]string{}, defaultLastLevelCache},
	}
	var got, want []int
	for _, tc := range cases {
		dir := t.TempDir()
		write(dir, tc.files)
		got, want = append(got, readLastLevelCache(dir)), append(want, tc.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("last-level cache sizes (-want +got):\n%s", diff)
	}
}

// TestFusedTripleValues checks fused triples' values against the same
// arithmetic written out, under the default block lengths and tiny blocks,
// including a triple whose last operand is the destination itself, read in
// place while it is written.
func TestFusedTripleValues(t *testing.T) {
	const n = 1000
	a, b, c := tensor.Rand[float64](1, n), tensor.Rand[float64](2, n), tensor.Rand[float64](3, n)
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			dst := tensor.Rand[float64](4, n)
			old := slices.Clone(dst.Data())
			e := expr.Of(a).Sub(b).Mul(c).Add(dst) // (a - b) * c + dst
			if p := lowered(t, dst, e); len(p.Code) != 1 || p.Code[0].Triple == 0 {
				t.Fatalf("%s: (a - b) * c + dst lowers to %d instructions, want one fused triple", cfg.name, len(p.Code))
			}
			if err := Assign(dst, e); err != nil {
				t.Fatal(err)
			}
			want := make([]float64, n)
			for i := range want {
				want[i] = float64((a.Data()[i]-b.Data()[i])*c.Data()[i]) + old[i] // rounded before the add, as the loop does
			}
			if diff := cmp.Diff(want, dst.Data()); diff != "" {
				t.Errorf("%s: (a - b) * c + dst (-want +got):\n%s", cfg.name, diff)
			}
		})
	}
}
