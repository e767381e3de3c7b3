package kernels

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/cpu"
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
// or from memory (the last-level cache size made small), a pass that
// gathers an operand (flipped, or a diagonal), and a tiled walk.
func TestBlockLengthRules(t *testing.T) {
	oldCache := cpu.LastLevelCache
	defer func() { cpu.LastLevelCache = oldCache }()
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
		{"one fused pass", lowered(t, dst, poly4), 1 << 30, cpu.PassBlock},
		{"one fused pass, operands beyond the cache", lowered(t, dst, poly4), 1, cpu.PassBlock},
		{"passes in cache", lowered(t, dst, twoPass), 5 * 8 * n, cpu.BlockSize},
		{"passes beyond the cache", lowered(t, dst, twoPass), 5*8*n - 1, *cpu.StreamBlockFor()},
		{"a flipped operand, in cache", lowered(t, dst, expr.Add(a.Flip(), b)), 1 << 30, *cpu.StreamBlockFor()},
		{"a diagonal", lowered(t, tensor.Zeros[float64](64), expr.Add(m.Diagonal(0, 0, 1), a.Slice(0, 0, 64, 1))), 1 << 30, *cpu.StreamBlockFor()},
		{"a broadcast row, no gather", lowered(t, dstM, expr.Add(m, a.Slice(0, 0, 64, 1))), 1 << 30, cpu.PassBlock},
		{"tiled", lowered(t, dstM, expr.Add(m.T(), m)), 1, min(cpu.TileBlock, cpu.BlockSize)},
	}
	for _, tc := range cases {
		cpu.LastLevelCache = func() int { return tc.cache }
		if got := cpu.WalkOf(&tc.p.Pass).Block; got != tc.want {
			t.Errorf("%s: block %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := lowered(t, dst, poly4); len(got.Code) != 1 || got.Code[0].Triple == 0 {
		t.Errorf("a*b + c - e lowers to %d instructions (triple %d), want one fused triple", len(got.Code), got.Code[0].Triple)
	}
}

// TestReductionKeepsItsBlockOverAGather checks that a reduction whose
// operand is gathered (a flipped matrix) keeps BlockSize, as every
// reduction does, so that its folding order does not depend on the ISA
// level, while the same operand in an elementwise pass streams in the
// level's stream blocks.
func TestReductionKeepsItsBlockOverAGather(t *testing.T) {
	m := tensor.Rand[float64](5, 64, 64)
	flipped := expr.Of(m.Flip(1)).Mul(m)
	for _, c := range []struct {
		name  string
		dst   *tensor.Tensor[float64]
		e     expr.Exp[float64]
		block int
	}{
		{"row sums", tensor.Zeros[float64](64), expr.Sum(flipped, expr.Axis(1)), cpu.BlockSize},
		{"elementwise", tensor.Zeros[float64](64, 64), flipped, *cpu.StreamBlockFor()},
	} {
		text, err := Explain(c.dst, c.e)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(text, "\nstep 2")
		if want := fmt.Sprintf("in blocks of up to %d,", c.block); !strings.Contains(first, want) {
			t.Errorf("%s: the first step does not say %q:\n%s", c.name, want, text)
		}
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

// TestFusedTripleOverConstants checks that a fused pair followed by an op
// whose other operand is a constant, or whose own operands include one,
// fuses into one triple (the CPU executor spreads the constants over
// registers of their own), with the values of the same arithmetic written
// out, under every evaluator configuration; that a broadcast tensor (one
// value per block, not a constant) still keeps the triple apart; and that
// a cached plan run again with other constants computes with the new ones.
func TestFusedTripleOverConstants(t *testing.T) {
	t.Run("float64", fusedTripleOverConstants[float64])
	t.Run("float32", fusedTripleOverConstants[float32])
	t.Run("int32", fusedTripleOverConstants[int32])
}

func fusedTripleOverConstants[T float32 | float64 | int32](t *testing.T) {
	const n = 1000
	a := tensor.Arange[T](0, n, 1)
	b := expr.Of[T](tensor.Arange[T](0, n, 1)).MulScalar(3).E // b = 3i, into a tensor below
	bt := tensor.Zeros[T](n)
	if err := Assign(bt, b); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		e    func(c0, c1 T) expr.Exp[T]
		want func(x, y, c0, c1 T) T
	}{
		{"(a - b)·c0 + c1", func(c0, c1 T) expr.Exp[T] { return expr.Of[T](a).Sub(bt).MulScalar(c0).AddScalar(c1).E },
			func(x, y, c0, c1 T) T { return T(T(x-y)*c0) + c1 }},
		{"(a·c0 + b) - c1", func(c0, c1 T) expr.Exp[T] { return expr.Of[T](a).MulScalar(c0).Add(bt).SubScalar(c1).E },
			func(x, y, c0, c1 T) T { return T(T(x*c0)+y) - c1 }},
		{"((a - b)·c0 + b)·c0, the constant twice", func(c0, c1 T) expr.Exp[T] {
			return expr.Of[T](a).Sub(bt).MulScalar(c0).Add(bt).MulScalar(c0).E
		}, func(x, y, c0, c1 T) T { return T(T(T(x-y)*c0)+y) * c0 }},
	}
	for _, cfg := range evaluatorConfigs {
		withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
			for _, c := range cases {
				dst := tensor.Zeros[T](n)
				if p := lowered(t, dst, c.e(2, 1)); p.Code[0].Triple == 0 {
					t.Errorf("%s: %s lowers to %d instructions, the first no triple", cfg.name, c.name, len(p.Code))
				}
				for _, k := range [][2]T{{2, 1}, {5, 7}} { // the second run reuses the cached plan with other constants
					if err := Assign(dst, c.e(k[0], k[1])); err != nil {
						t.Fatal(err)
					}
					want := make([]T, n)
					for i := range want {
						want[i] = c.want(a.Data()[i], bt.Data()[i], k[0], k[1])
					}
					if diff := cmp.Diff(want, dst.Data()); diff != "" {
						t.Errorf("%s: %s with constants %v (-want +got):\n%s", cfg.name, c.name, k, diff)
					}
				}
			}
			one, err := tensor.Full[T](2, 1).Expand(n) // one value per block, but not a constant
			if err != nil {
				t.Fatal(err)
			}
			dst := tensor.Zeros[T](n)
			if p := lowered(t, dst, expr.Of[T](a).Sub(bt).Mul(one).AddScalar(1).E); len(p.Code) != 2 {
				t.Errorf("%s: (a - b)·broadcast + 1 lowers to %d instructions, want a pair and an op", cfg.name, len(p.Code))
			}
		})
	}
}
