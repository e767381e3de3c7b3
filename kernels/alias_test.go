package kernels

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// TestAliasing checks overlapping assignments against NumPy's results
// (worked out by hand: NumPy evaluates the right side in full first) and
// whether a temporary copy was made.
func TestAliasing(t *testing.T) {
	type scene struct {
		dst *tensor.Tensor[int64]
		e   expr.Exp[int64]
		all *tensor.Tensor[int64] // the storage to compare
	}
	arange := func(n int) *tensor.Tensor[int64] { return tensor.Arange[int64](0, int64(n), 1) }
	square := func() *tensor.Tensor[int64] {
		m, _ := arange(9).View(3, 3)
		return m
	}
	tests := []struct {
		name  string
		make  func() scene
		want  []int64
		temps int
	}{
		{"a = a.T + 1", func() scene {
			a := square()
			return scene{a, expr.Of(a.T()).AddScalar(1), a}
		}, []int64{1, 4, 7, 2, 5, 8, 3, 6, 9}, 1},
		{"a[1:] = a[:-1] * 2", func() scene {
			a := arange(5)
			return scene{a.Slice(0, 1, tensor.None, 1), expr.Of(a.Slice(0, 0, -1, 1)).MulScalar(2), a}
		}, []int64{0, 0, 2, 4, 6}, 1},
		{"a[:-1] = a[1:] * 2", func() scene {
			a := arange(5)
			return scene{a.Slice(0, 0, -1, 1), expr.Of(a.Slice(0, 1, tensor.None, 1)).MulScalar(2), a}
		}, []int64{2, 4, 6, 8, 4}, 1},
		{"a = a[::-1]", func() scene {
			a := arange(5)
			return scene{a, a.Slice(0, tensor.None, tensor.None, -1), a}
		}, []int64{4, 3, 2, 1, 0}, 1},
		{"a += a[0] (a broadcast row)", func() scene {
			a := square()
			return scene{a, expr.Add(a, a.Index(0, 0)), a}
		}, []int64{0, 2, 4, 3, 5, 7, 6, 8, 10}, 1},
		{"a = a * a + a (same view, no copy)", func() scene {
			a := square()
			return scene{a, expr.Of(a).Mul(a).Add(a), a}
		}, []int64{0, 2, 6, 12, 20, 30, 42, 56, 72}, 0},
		{"same view through another tensor object", func() scene {
			a := square()
			again, _ := a.View(3, 3)
			return scene{a, expr.Of(again).AddScalar(10), a}
		}, []int64{10, 11, 12, 13, 14, 15, 16, 17, 18}, 0},
		{"a[::2] = a[1::2] (interleaved, no shared element)", func() scene {
			a := arange(8)
			return scene{a.Slice(0, 0, tensor.None, 2), expr.Of(a.Slice(0, 1, tensor.None, 2)).MulScalar(10), a}
		}, []int64{10, 1, 30, 3, 50, 5, 70, 7}, 0},
		{"a[:4] = a[4:] (disjoint ranges)", func() scene {
			a := arange(8)
			return scene{a.Slice(0, 0, 4, 1), a.Slice(0, 4, tensor.None, 1), a}
		}, []int64{4, 5, 6, 7, 4, 5, 6, 7}, 0},
		{"column = row (partial overlap, 2-D)", func() scene {
			a := square()
			return scene{a.Index(1, 1), expr.Of(a.Index(0, 0)).AddScalar(100), a}
		}, []int64{0, 100, 2, 3, 101, 5, 6, 102, 8}, 1},
		{"a[1:, 1:] = a[:-1, :-1] + a[1:, 1:] (shifted block)", func() scene {
			a := square()
			lo := a.Slice(0, 0, -1, 1).Slice(1, 0, -1, 1)
			hi := a.Slice(0, 1, tensor.None, 1).Slice(1, 1, tensor.None, 1)
			return scene{hi, expr.Add(lo, hi), a}
		}, []int64{0, 1, 2, 3, 4, 6, 6, 10, 12}, 1},
		{"a = np.flip(a) (lazy view of the destination)", func() scene {
			a := square()
			return scene{a, expr.Flip[int64](a), a}
		}, []int64{8, 7, 6, 5, 4, 3, 2, 1, 0}, 1},
		{"a.diagonal() = a[0] (the diagonal reads its own first element)", func() scene {
			a := square()
			return scene{a.Diagonal(0, 0, 1), expr.Of(a.Index(0, 0)).AddScalar(10), a}
		}, []int64{10, 1, 2, 3, 11, 5, 6, 7, 12}, 1},
		{"a.diagonal(1) = a.diagonal(-1) (disjoint diagonals, no copy)", func() scene {
			a := square()
			return scene{a.Diagonal(1, 0, 1), expr.Of(a.Diagonal(-1, 0, 1)).Ravel().MulScalar(1), a}
		}, []int64{0, 3, 2, 3, 4, 7, 6, 7, 8}, 0},
		{"a = np.moveaxis(a, 0, 1) + 0", func() scene {
			a := square()
			return scene{a, expr.Of(expr.MoveAxis[int64](a, []int{0}, []int{1})).AddScalar(0), a}
		}, []int64{0, 3, 6, 1, 4, 7, 2, 5, 8}, 1},
	}
	for _, cfg := range evaluatorConfigs {
		for _, tt := range tests {
			t.Run(cfg.name+"/"+tt.name, func(t *testing.T) {
				withConfig(cfg.block, cfg.threshold, cfg.procs, func() {
					sc := tt.make()
					ev := newEvaluation("Assign")
					if _, err := lower(ev, assignTo(sc.dst), sc.e, nil); err != nil {
						t.Fatal(err)
					}
					if len(ev.temps) != tt.temps {
						t.Errorf("%d temporaries, want %d", len(ev.temps), tt.temps)
					}
					ev.release()
					if err := Assign(sc.dst, sc.e); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(tt.want, values(sc.all)); diff != "" {
						t.Errorf("(-NumPy +laze):\n%s", diff)
					}
				})
			})
		}
	}
}
