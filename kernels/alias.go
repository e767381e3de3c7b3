package kernels

import (
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// needsCopy reports whether operand t must be copied before dst is written:
// it shares dst's storage, is not the very same view (same offset and, on
// every dimension of more than one element, the same strides once broadcast
// to dst's shape — then each element is read just before it is written, at
// the same position) and its elements may coincide with dst's. Two tests rule
// coincidence out without looking at elements: disjoint address ranges, and
// offsets that differ modulo the gcd of all strides (a[::2] against a[1::2]).
// Anything else is copied, which gives NumPy's result whatever the overlap.
func needsCopy[T tensor.Number](dst, t *tensor.Tensor[T]) bool {
	if !dst.SharesStorage(t) || t.Numel() == 0 {
		return false
	}
	dims, dstStrides := dst.ShapeView(friend.K), dst.StridesView(friend.K)
	if sameView(dims, dst.Offset(), dstStrides, t) {
		return false
	}
	return mayShareElements(dims, dst.Offset(), dstStrides, t.ShapeView(friend.K), t.Offset(), t.StridesView(friend.K))
}

// sameView reports whether t, broadcast to dims, reads exactly the elements
// a destination of that geometry writes, each at the same position.
func sameView[T tensor.Number](dims shape.Shape, offset int, strides []int, t *tensor.Tensor[T]) bool {
	if t.Offset() != offset {
		return false
	}
	bs, err := shape.BroadcastStrides(t.ShapeView(friend.K), t.StridesView(friend.K), dims)
	if err != nil {
		return false
	}
	for d, n := range dims {
		if n > 1 && bs[d] != strides[d] {
			return false
		}
	}
	return true
}

// mayShareElements reports whether two strided views of one storage might
// address a common element.
func mayShareElements(s1 shape.Shape, off1 int, st1 []int, s2 shape.Shape, off2 int, st2 []int) bool {
	lo1, hi1, ok1 := shape.Extent(s1, st1)
	lo2, hi2, ok2 := shape.Extent(s2, st2)
	if !ok1 || !ok2 {
		return false
	}
	if off1+hi1 < off2+lo2 || off2+hi2 < off1+lo1 {
		return false
	}
	g := stridesGCD(0, s1, st1)
	g = stridesGCD(g, s2, st2)
	diff := off1 - off2
	return g == 0 || diff%g == 0
}

// stridesGCD folds the strides of the dimensions longer than 1 into g.
func stridesGCD(g int, s shape.Shape, strides []int) int {
	for d, n := range s {
		if n > 1 {
			g = gcd(g, abs(strides[d]))
		}
	}
	return g
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
