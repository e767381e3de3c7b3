package shape

// Coalesce simplifies the iteration space of an elementwise loop. Given the
// destination's shape s and one stride vector per operand (the destination
// and every input, already broadcast to s, with stride 0 on broadcast
// dimensions), it drops dimensions of size 1 and merges each pair of
// neighbouring dimensions (outer i, inner i+1) that every operand walks as
// one, that is when s[i+1]·strides[k][i+1] == strides[k][i] for all k — the
// rule of PyTorch's TensorIterator. The result visits the same element
// offsets in the same order with fewer, longer loops.
//
// The returned shape has at least one dimension: a scalar or all-ones shape
// becomes (1,) with stride 0 everywhere, and a shape with a zero-size
// dimension becomes (0,). Inputs are not modified. It panics with a
// ShapeError when a stride vector's length differs from the rank.
func Coalesce(s Shape, strides ...[]int) (Shape, [][]int) {
	for _, st := range strides {
		if len(st) != len(s) {
			panic(&ShapeError{Op: "Coalesce", Shapes: []Shape{s.Clone(), Shape(st).Clone()},
				Reason: "a stride vector's length differs from the rank"})
		}
	}
	outShape := make(Shape, 0, len(s))
	outStrides := make([][]int, len(strides))
	for k := range strides {
		outStrides[k] = make([]int, 0, len(s))
	}
	for i, n := range s {
		if n == 0 {
			return Shape{0}, zeroStrides(len(strides))
		}
		if n == 1 {
			continue
		}
		last := len(outShape) - 1
		if last >= 0 && mergeable(n, i, strides, outStrides, last) {
			// Fold the previous (outer) dimension into this one: the merged
			// dimension keeps the inner stride.
			outShape[last] *= n
			for k := range strides {
				outStrides[k][last] = strides[k][i]
			}
			continue
		}
		outShape = append(outShape, n)
		for k := range strides {
			outStrides[k] = append(outStrides[k], strides[k][i])
		}
	}
	if len(outShape) == 0 {
		return Shape{1}, zeroStrides(len(strides))
	}
	return outShape, outStrides
}

// mergeable reports whether the kept outer dimension at position last can be
// folded into dimension i of size n for every operand.
func mergeable(n, i int, strides, out [][]int, last int) bool {
	for k := range strides {
		if p, ok := CheckedMul(n, strides[k][i]); !ok || p != out[k][last] {
			return false
		}
	}
	return true
}

func zeroStrides(operands int) [][]int {
	out := make([][]int, operands)
	for k := range out {
		out[k] = []int{0}
	}
	return out
}
