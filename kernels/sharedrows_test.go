package kernels

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// TestSharedRowsMatchReference checks the walk whose rows share their
// values (every input broadcast along the rows: a block computed once a
// tile and stored into each row, or, for Repeat's two copies side by side,
// by one interleaved store) against the oracle, for float64, float32,
// int32 and int16 (the lane loops' interleave takes elements of 4 and 8
// bytes, the scalar loop the rest), under the default and the tiny
// evaluator configurations (tiles of 2 and 3 rows, parallel splits). It
// checks too that Explain says which walks share their rows.
func TestSharedRowsMatchReference(t *testing.T) {
	t.Run("float64", sharedRows[float64])
	t.Run("float32", sharedRows[float32])
	t.Run("int32", sharedRows[int32])
	t.Run("int16", sharedRows[int16])
}

// counted is a fresh tensor of shape dims holding start, start+1, ….
func counted[T tensor.Number](start int, dims ...int) *tensor.Tensor[T] {
	n := 1
	for _, d := range dims {
		n *= d
	}
	v, err := tensor.Arange(T(start), T(start+n), 1).View(dims...)
	if err != nil {
		panic(err)
	}
	return v
}

func sharedRows[T tensor.Number](t *testing.T) {
	type fixture struct {
		dst    *tensor.Tensor[T]
		e      expr.Exp[T]
		shared bool // Explain's first step says its rows share their values
	}
	twice := func(e expr.Exp[T]) expr.Exp[T] { return expr.Of(e).MulScalar(2).AddScalar(1).E }
	cases := []struct {
		name string
		make func() fixture
	}{
		{"row broadcast, 70 rows", func() fixture {
			return fixture{tensor.Zeros[T](70, 37), twice(expr.BroadcastTo[T](counted[T](1, 1, 37), 70, 37)), true}
		}},
		{"row broadcast plus a generator", func() fixture {
			return fixture{tensor.Zeros[T](9, 37), expr.Add[T](expr.BroadcastTo[T](counted[T](1, 37), 9, 37), expr.Arange[T](0, 37, 1)), true}
		}},
		{"row broadcast into a strided destination", func() fixture {
			return fixture{tensor.Zeros[T](20, 40).Slice(0, 1, 20, 3).Slice(1, 0, 40, 2), twice(expr.BroadcastTo[T](counted[T](3, 20), 7, 20)), true}
		}},
		{"repeat twice along the last axis", func() fixture {
			return fixture{tensor.Zeros[T](5, 74), twice(expr.Repeat[T](counted[T](0, 5, 37), 2, 1)), true}
		}},
		{"repeat three times along the last axis", func() fixture {
			return fixture{tensor.Zeros[T](5, 39), twice(expr.Repeat[T](counted[T](0, 5, 13), 3, 1)), true}
		}},
		{"repeat of a vector: walked as (33, 2), no rows to share", func() fixture {
			return fixture{tensor.Zeros[T](66), expr.Neg(expr.Repeat[T](counted[T](0, 33), 2, 0)), false}
		}},
		{"one value everywhere: one dimension, no rows", func() fixture {
			return fixture{tensor.Zeros[T](6, 5), twice(expr.BroadcastTo[T](counted[T](4, 1, 1), 6, 5)), false}
		}},
		{"one value everywhere, a strided destination", func() fixture {
			return fixture{tensor.Zeros[T](6, 20).Slice(1, 0, 10, 2), twice(expr.BroadcastTo[T](counted[T](4, 1, 1), 6, 5)), true}
		}},
		{"the destination's own first row, broadcast: copied first", func() fixture {
			m := counted[T](0, 6, 37)
			return fixture{m, twice(expr.BroadcastTo[T](m.Slice(0, 0, 1, 1), 6, 37)), false}
		}},
		{"a column broadcast: rows differ", func() fixture {
			return fixture{tensor.Zeros[T](6, 37), twice(expr.BroadcastTo[T](counted[T](0, 6, 1), 6, 37)), false}
		}},
		{"eye: rows differ", func() fixture {
			return fixture{tensor.Zeros[T](6, 6), expr.Add[T](counted[T](1, 6), expr.Eye[T](6, 6, 0)), false}
		}},
		{"a full operand: rows differ", func() fixture {
			return fixture{tensor.Zeros[T](6, 37), expr.Add[T](counted[T](1, 37), counted[T](0, 6, 37)), false}
		}},
	}
	for _, cfg := range evaluatorConfigs {
		for _, c := range cases {
			withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
				f := c.make()
				want := refEval(f.e, f.dst.Shape())
				if err := Assign(f.dst, f.e); err != nil {
					t.Fatalf("%s, %s: %v", cfg.name, c.name, err)
				}
				if diff := cmp.Diff(want, slices.Collect(f.dst.Values())); diff != "" {
					t.Errorf("%s, %s: Assign(%v) (-oracle +got):\n%s", cfg.name, c.name, f.e, diff)
				}
				text, err := Explain(f.dst, f.e)
				if err != nil {
					t.Fatal(err)
				}
				first, _, _ := strings.Cut(text, "\nstep 2")
				if got := strings.Contains(first, "whose values are the same"); got != f.shared {
					t.Errorf("%s, %s: Explain says the rows share their values: %v, want %v:\n%s", cfg.name, c.name, got, f.shared, text)
				}
			})
		}
	}
}
