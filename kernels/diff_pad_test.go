package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// padOperand draws Pad's operand of shape s over a fresh tensor: the
// tensor itself, a view of a larger one (transposed, flipped or strided),
// or an elementwise expression of it, so that the pieces of every mode are
// views of tensors, of views and of computed nodes.
func padOperand[T tensor.Number](r *rand.Rand, s shape.Shape) expr.Exp[T] {
	n, _ := s.Size()
	switch r.IntN(4) {
	case 0: // the tensor
		return padShaped(tensor.Arange[T](0, T(n), 1), s...)
	case 1: // an expression of it
		return expr.Of[T](padShaped(tensor.Arange[T](0, T(n), 1), s...)).MulScalar(2).AddScalar(1).E
	case 2: // flipped along every axis
		return padShaped(tensor.Arange[T](0, T(n), 1), s...).Flip()
	}
	// every other element of a tensor twice as long along axis 0
	if len(s) == 0 {
		return tensor.Scalar(T(3))
	}
	big := s.Clone()
	big[0] *= 2
	m, _ := big.Size()
	return padShaped(tensor.Arange[T](0, T(m), 1), big...).Slice(0, tensor.None, tensor.None, 2)
}

// padShaped is t viewed as shape s (t has s's size).
func padShaped[T tensor.Number](t *tensor.Tensor[T], s ...int) *tensor.Tensor[T] {
	v, err := t.View(s...)
	if err != nil {
		panic(err)
	}
	return v
}

// padReference is what Assign must give: e's elements by the oracle,
// which reads a node with At over its operands' values (refEval).
func padReference[T tensor.Number](e expr.Exp[T], s shape.Shape) []T {
	return refEval(e, s)
}

// TestPadMatchesAt draws pads (ranks 0 to 3, sizes 0 to 4, widths 0 to 9
// (so several periods; 0 to 3 in rank 3); every mode) of tensors, views and expressions, alone
// and inside a fused tree, and compares Assign with At element by element.
func TestPadMatchesAt(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 4))
	for k := range 300 {
		rank := r.IntN(4)
		s := make(shape.Shape, rank)
		mode := expr.PadMode(r.IntN(5))
		for d := range s {
			s[d] = r.IntN(5)
			if mode != expr.PadConstant && s[d] == 0 {
				s[d] = 1 + r.IntN(4)
			}
		}
		widths := make([][2]int, rank)
		for d := range widths {
			w := 10 // several periods
			if rank == 3 {
				w = 4 // keeps the operands of rank 3 small
			}
			widths[d] = [2]int{r.IntN(w), r.IntN(w)}
		}
		x := padOperand[float64](r, s)
		var e expr.Exp[float64] = expr.Pad(x, widths, mode, -2.5)
		if r.IntN(2) == 0 {
			e = expr.Of(e).MulScalar(3).Sub(expr.Scalar(0.5)).E // inside a fused tree
		}
		info, err := expr.Check(e)
		if err != nil {
			t.Fatalf("%d: %v: %v", k, e, err)
		}
		dst := tensor.Zeros[float64](info.Shape...)
		if err := Assign(dst, e); err != nil {
			t.Fatalf("%d: %v: %v", k, e, err)
		}
		want := padReference(e, info.Shape)
		got := dst.Contiguous().Data()
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d: np.pad(x of shape %v, %v, %s): element %d is %v, At gives %v", k, s, widths, mode, i, got[i], want[i])
			}
		}
	}
}

// TestPadAliasing assigns pads whose operand overlaps the destination:
// the result must be NumPy's, as if the pad were computed before any
// element is written (here, At over a copy of the destination taken
// before).
func TestPadAliasing(t *testing.T) {
	for _, mode := range []expr.PadMode{expr.PadConstant, expr.PadEdge, expr.PadReflect, expr.PadSymmetric, expr.PadWrap} {
		cases := []struct {
			name  string
			dst   func(x *tensor.Tensor[int32]) *tensor.Tensor[int32]
			build func(x *tensor.Tensor[int32]) expr.Exp[int32]
		}{
			{"x = pad(x[1:-1, 2:])", func(x *tensor.Tensor[int32]) *tensor.Tensor[int32] { return x },
				func(x *tensor.Tensor[int32]) expr.Exp[int32] {
					return expr.Pad[int32](x.Slice(0, 1, -1, 1).Slice(1, 2, tensor.None, 1), [][2]int{{1, 1}, {0, 2}}, mode, 7)
				}},
			{"x[::-1] = pad(x[:, 1:3]) + x", func(x *tensor.Tensor[int32]) *tensor.Tensor[int32] { return x.Flip(0) },
				func(x *tensor.Tensor[int32]) expr.Exp[int32] {
					return expr.Of(expr.Pad[int32](x.Slice(1, 1, 3, 1), [][2]int{{0, 0}, {1, 1}}, mode, -1)).Add(x).E
				}},
			{"x.T = pad(x.T[1:, :2]) large widths", func(x *tensor.Tensor[int32]) *tensor.Tensor[int32] { return x.T() },
				func(x *tensor.Tensor[int32]) expr.Exp[int32] {
					return expr.Pad[int32](x.T().Slice(0, 3, tensor.None, 1).Slice(1, 0, 1, 1), [][2]int{{3, 0}, {2, 1}}, mode, 5)
				}},
		}
		for _, tt := range cases {
			t.Run(fmt.Sprintf("%s/%s", mode, tt.name), func(t *testing.T) {
				x := padShaped(tensor.Arange[int32](0, 16, 1), 4, 4)
				before := x.Clone()
				want := padReference(tt.build(before), tt.dst(before).Shape())
				dst := tt.dst(x)
				if err := Assign(dst, tt.build(x)); err != nil {
					t.Fatal(err)
				}
				got := dst.Contiguous().Data()
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("element %d is %d, NumPy's (At over a copy) %d\n got %v\nwant %v", i, got[i], want[i], got, want)
					}
				}
			})
		}
	}
}
