package kernels

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// counting is a fresh tensor of shape dims holding start, start+1, ….
func counting(start float64, dims ...int) *tensor.Tensor[float64] {
	n, _ := shape.Shape(dims).Size()
	v, err := tensor.Arange(start, start+float64(n), 1).View(dims...)
	if err != nil {
		panic(err)
	}
	return v
}

// TestSpreadAndLift checks the two rewrites of spread.go against the
// oracle, element by element, and that they save the temporary where they
// apply: a concatenation on the spine written part by part (Roll, Pad,
// Stack, with operands cut along the axis, broadcast along it, or of lower
// rank), a merge of a broadcast run in the unmerged shape (Repeat, Tile,
// Ravel of a transpose, with operands split), destinations that are
// strided views or overlap the operands, and the trees the rewrites must
// leave alone (a concatenation broadcast along its axis, a gather, a merge
// broadcast by the tree).
func TestSpreadAndLift(t *testing.T) {
	type fixture struct {
		dst *tensor.Tensor[float64]
		e   expr.Exp[float64]
	}
	tests := []struct {
		name  string
		make  func() fixture
		temps int // the Program's temporaries: 0 where a rewrite applies; -1: not checked
	}{
		{"roll", func() fixture {
			return fixture{tensor.Zeros[float64](4, 7), expr.Of(expr.Roll[float64](counting(0, 4, 7), 3, 1)).MulScalar(2).AddScalar(1).E}
		}, 0},
		{"roll+full", func() fixture {
			return fixture{tensor.Zeros[float64](4, 7), expr.Add(expr.Roll[float64](counting(0, 4, 7), -2, 1), expr.Of[float64](counting(100, 4, 7)))}
		}, 0},
		{"roll+broadcasts", func() fixture {
			r := expr.Roll[float64](counting(0, 4, 7), 2, 0)
			return fixture{tensor.Zeros[float64](4, 7),
				expr.Where(expr.Of[float64](counting(0, 4, 1)), expr.Add(r, expr.Of[float64](counting(70, 7))), r)}
		}, 0},
		{"roll-leading-rank", func() fixture {
			return fixture{tensor.Zeros[float64](3, 4, 5), expr.Mul(expr.Roll[float64](counting(0, 4, 5), 1, 1), expr.Of[float64](counting(1, 3, 1, 5)))}
		}, 0},
		{"stack", func() fixture {
			s := expr.Stack(1, expr.Of[float64](counting(0, 3, 5)), counting(20, 3, 5))
			return fixture{tensor.Zeros[float64](3, 2, 5), expr.Sub(s, expr.Of[float64](counting(40, 3, 2, 5)))}
		}, 0},
		{"stack-broadcast-operand", func() fixture {
			s := expr.Stack(0, expr.Of[float64](counting(0, 3)), counting(5, 3), counting(9, 3))
			return fixture{tensor.Zeros[float64](3, 3), expr.Mul(s, expr.Of[float64](counting(2, 1, 3)))}
		}, 0},
		{"shared-join", func() fixture {
			r := expr.Roll[float64](counting(0, 6), 2, 0)
			return fixture{tensor.Zeros[float64](6), expr.Mul(r, expr.Add(r, expr.Scalar(1.0)))}
		}, 0},
		{"named-spine", func() fixture {
			r := expr.Name("r", expr.Roll[float64](counting(0, 6), 4, 0))
			return fixture{tensor.Zeros[float64](6), expr.Name("y", expr.Neg[float64](r))}
		}, 0},
		{"pad-reflect-2d", func() fixture {
			p := expr.Pad[float64](counting(0, 4, 5), [][2]int{{2, 1}, {1, 3}}, expr.PadReflect, 0)
			return fixture{tensor.Zeros[float64](7, 9), expr.Of(p).MulScalar(2).AddScalar(1).E}
		}, 0},
		{"pad-constant-2d+operand", func() fixture {
			p := expr.Pad[float64](counting(0, 4, 5), [][2]int{{1, 1}}, expr.PadConstant, -1)
			return fixture{tensor.Zeros[float64](6, 7), expr.Add(p, expr.Of[float64](counting(0, 6, 7)))}
		}, 0},
		{"join-broadcast-along-axis", func() fixture {
			c := expr.Concatenate(0, expr.Of[float64](counting(0, 1, 5)))
			return fixture{tensor.Zeros[float64](3, 5), expr.Add(c, expr.Of[float64](counting(10, 3, 5)))}
		}, -1},
		{"join-with-gather", func() fixture {
			idx, _ := tensor.FromSlice([]int64{2, 0, 1}, shape.Shape{3})
			g := expr.Take[float64](counting(0, 3), idx, 0)
			return fixture{tensor.Zeros[float64](6), expr.Add(expr.Concatenate(0, g, g), expr.Of[float64](counting(1, 6)))}
		}, -1},
		{"repeat", func() fixture {
			return fixture{tensor.Zeros[float64](4, 6), expr.Of(expr.Repeat[float64](counting(0, 4, 3), 2, 1)).MulScalar(2).AddScalar(1).E}
		}, 0},
		{"repeat+operands", func() fixture {
			rep := expr.Repeat[float64](counting(0, 4, 3), 2, 0)
			return fixture{tensor.Zeros[float64](8, 3), expr.Add(expr.Mul(rep, expr.Of[float64](counting(5, 8, 3))), expr.Of[float64](counting(1, 1, 3)))}
		}, 0},
		{"tile-leading-rank", func() fixture {
			tile := expr.Tile[float64](counting(0, 2, 3), 2, 2)
			return fixture{tensor.Zeros[float64](3, 4, 6), expr.Sub(tile, expr.Of[float64](counting(0, 3, 1, 1)))}
		}, 0},
		{"ravel-of-transpose", func() fixture {
			return fixture{tensor.Zeros[float64](12), expr.Add(expr.Ravel(expr.T[float64](counting(0, 3, 4))), expr.Of[float64](counting(0, 12)))}
		}, 0},
		{"repeat-into-transposed-dst", func() fixture {
			return fixture{tensor.Zeros[float64](6, 4).T(), expr.Neg(expr.Repeat[float64](counting(0, 4, 3), 2, 1))}
		}, 0},
		{"repeat-broadcast-by-tree", func() fixture {
			rep := expr.Repeat[float64](counting(0, 1, 3), 2, 1)
			return fixture{tensor.Zeros[float64](4, 6), expr.Add(rep, expr.Of[float64](counting(0, 4, 6)))}
		}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.make()
			want := refEval(f.e, f.dst.Shape())
			if err := Assign(f.dst, f.e); err != nil {
				t.Fatalf("Assign(%v): %v", f.e, err)
			}
			if diff := cmp.Diff(want, slices.Collect(f.dst.Values())); diff != "" {
				t.Errorf("Assign(%v) (-oracle +got):\n%s", f.e, diff)
			}
			if tt.temps < 0 {
				return
			}
			prog, err := Compile(f.dst, f.e)
			if err != nil {
				t.Fatal(err)
			}
			defer prog.Release()
			if len(prog.temps) != tt.temps {
				t.Errorf("Compile(%v) holds %d temporaries, want %d", f.e, len(prog.temps), tt.temps)
			}
		})
	}
}

// TestSpreadAndLiftAliased checks the rewrites where the destination is
// also read: a roll of the destination itself (a part written early must
// not be read by a later one) and a repeat of a slice of it.
func TestSpreadAndLiftAliased(t *testing.T) {
	tests := []struct {
		name string
		make func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64])
	}{
		{"roll-self", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Add(expr.Roll[float64](a, 1, 1), expr.Of[float64](a))
		}},
		{"roll-self-axis0", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Of(expr.Roll[float64](a, -1, 0)).MulScalar(3).E
		}},
		{"repeat-own-half", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Add(expr.Repeat[float64](a.Slice(1, 0, 3, 1), 2, 1), expr.Of[float64](a))
		}},
		{"tile-own-rows", func(a *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Exp[float64]) {
			return a, expr.Neg(expr.Tile[float64](a.Slice(0, 2, 4, 1), 2, 1))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := counting(1, 4, 6)
			dst, e := tt.make(a)
			want := refEval(e, dst.Shape())
			if err := Assign(dst, e); err != nil {
				t.Fatalf("Assign(%v): %v", e, err)
			}
			if diff := cmp.Diff(want, slices.Collect(dst.Values())); diff != "" {
				t.Errorf("Assign(%v) (-oracle +got):\n%s", e, diff)
			}
		})
	}
}

// TestSpreadExplained checks that Explain shows a spread concatenation as
// one step per part, each writing its slice of the destination, named as
// NumPy writes the slice, and a lifted merge as a pass into the
// destination split.
func TestSpreadExplained(t *testing.T) {
	x := counting(0, 4, 7)
	tests := []struct {
		name string
		dst  *tensor.Tensor[float64]
		e    expr.Exp[float64]
		want []string // in order
	}{
		{"roll", tensor.Zeros[float64](4, 7), expr.Of(expr.Roll[float64](x, 3, 1)).MulScalar(2).E,
			[]string{"step 1: dst[:, 0:3] (4,3) float64 = (", "step 2: dst[:, 3:7] (4,4) float64 = ("}},
		{"stack", tensor.Zeros[float64](2, 4, 7), expr.Neg(expr.Stack[float64](0, x, x)),
			[]string{"step 1: dst[0] (4,7) float64 = (-", "step 2: dst[1] (4,7) float64 = (-"}},
		{"repeat", tensor.Zeros[float64](4, 14), expr.Neg(expr.Repeat[float64](x, 2, 1)),
			[]string{"step 1: dst.reshape(4, 7, 2) (4,7,2) float64 = (-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Explain(tt.dst, tt.e)
			if err != nil {
				t.Fatal(err)
			}
			rest := got
			for _, w := range tt.want {
				k := strings.Index(rest, w)
				if k < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
				}
				rest = rest[k+len(w):]
			}
			if strings.Contains(got, "step 3") || strings.Contains(got, " t1 ") {
				t.Errorf("a temporary or a step beyond the parts:\n%s", got)
			}
		})
	}
}
