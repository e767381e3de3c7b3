package kernels

import (
	"slices"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// viewNode makes a random view node (expr.View) whose shape is dims (when
// full) or broadcasts to it, over a random subtree of the shape the view
// needs: a transpose, a permutation, a reshape (with -1 at times), a slice
// with a positive or negative step, an index, an expansion, a squeeze or an
// unsqueeze. The subtree's operands often broadcast, so that pushing the
// view down expands them first, and a reshape of a transposed or broadcast
// operand must copy it.
func (sc *scene[T]) viewNode(src *byteSource, dims shape.Shape, depth int, full bool) expr.Exp[T] {
	want := dims
	if !full {
		want = ownShape(src, dims)
	}
	n := len(want)
	under := func(operand shape.Shape) expr.Exp[T] { return sc.node(src, operand, depth-1, true) }
	switch src.next(15) {
	case 0:
		return expr.T(under(reversed(want)))
	case 1:
		if n >= 1 {
			d0, d1 := src.next(n), src.next(n)
			operand := slices.Clone(want)
			operand[d0], operand[d1] = operand[d1], operand[d0]
			return expr.Transpose(under(operand), d0, d1-n) // a negative dimension too
		}
	case 2:
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		for i := n - 1; i > 0; i-- {
			j := src.next(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		operand := make(shape.Shape, n)
		for i, p := range perm {
			operand[p] = want[i]
		}
		return expr.Permute(under(operand), perm...)
	case 3:
		// The operand has want's sizes reversed, or flattened: the same
		// element count in another shape.
		operand := reversed(want)
		if src.next(2) == 0 {
			size, _ := want.Size()
			operand = shape.Shape{size}
		}
		args := slices.Clone([]int(want))
		if size, _ := want.Size(); n > 0 && size > 0 && src.next(3) == 0 {
			args[src.next(n)] = -1 // with no element, -1 is ambiguous: NumPy and Reshape refuse it
		}
		return expr.Reshape(under(operand), args...)
	case 4:
		if n >= 1 {
			d := src.next(n)
			step := []int{1, 2, -1, -3}[src.next(4)]
			operand := slices.Clone(want)
			if step > 0 {
				start := src.next(2)
				operand[d] = start + max(0, (want[d]-1)*step+1) + src.next(2)
				return expr.Slice(under(operand), d, start, start+want[d]*step, step)
			}
			operand[d] = max(0, (want[d]-1)*-step+1+src.next(-step))
			if want[d] == 0 {
				operand[d] = 0
			}
			return expr.Slice(under(operand), d-n, tensor.None, tensor.None, step)
		}
	case 5:
		d := src.next(n + 1)
		size := 1 + src.next(3)
		operand := slices.Insert(slices.Clone(want), d, size)
		i := src.next(2*size) - size // from -size to size-1
		return expr.Index(under(operand), d, i)
	case 6:
		// The operand has some of want's dimensions as 1, and may lack
		// leading ones; -1 keeps a size that does not change.
		lead := src.next(n + 1)
		operand := slices.Clone(want[lead:])
		args := slices.Clone([]int(want))
		for d := range operand {
			switch src.next(3) {
			case 0:
				operand[d] = 1
			case 1:
				args[lead+d] = -1
			}
		}
		return expr.Expand(under(operand), args...)
	case 7:
		d := src.next(n + 1)
		operand := slices.Insert(slices.Clone(want), d, 1)
		if src.next(2) == 0 && !slices.Contains(want, 1) {
			return expr.Squeeze(under(operand)) // every size-1 dimension
		}
		return expr.Squeeze(under(operand), d)
	case 8:
		for d, size := range want {
			if size == 1 {
				return expr.Unsqueeze(under(slices.Delete(slices.Clone(want), d, d+1)), d-n)
			}
		}
	case 9:
		var dims []int // none: every dimension
		for d := range n {
			if src.next(2) == 0 {
				dims = append(dims, d-n*src.next(2))
			}
		}
		return expr.Flip(under(want), dims...)
	case 10:
		if n >= 1 {
			k := 1 + src.next(n)
			from, to := sc.perm(src, n)[:k], sc.perm(src, n)[:k]
			operand := make(shape.Shape, n)
			for i, d := range tensor.MoveAxisOrder(want, from, to) {
				operand[d] = want[i]
			}
			return expr.MoveAxis(under(operand), from, to)
		}
	case 11:
		var axes []int // the size-1 dimensions of want, some of them
		var operand shape.Shape
		for d, size := range want {
			if size == 1 && src.next(2) == 0 {
				axes = append(axes, d-n*src.next(2))
				continue
			}
			operand = append(operand, size)
		}
		return expr.ExpandDims(under(operand), axes...)
	case 12:
		if n >= 1 {
			// The operand has want's leading dimensions and an r×c matrix
			// at two places whose diagonal at offset has want's last size.
			k := want[n-1]
			offset := src.next(4) - 1
			r, c := k+src.next(2), k+offset
			if offset < 0 {
				r, c = k-offset, k+src.next(2)
			}
			operand := slices.Clone(want[:n-1])
			a, b := src.next(n), src.next(n+1) // r's place, then c's
			operand = slices.Insert(operand, a, r)
			operand = slices.Insert(operand, b, c)
			if b <= a {
				a++ // c went in before r
			}
			return expr.Diagonal(under(operand), offset, a, b-(n+1)*src.next(2))
		}
	case 13:
		lead := src.next(n + 1)
		operand := slices.Clone(want[lead:])
		for d := range operand {
			if src.next(2) == 0 {
				operand[d] = 1
			}
		}
		return expr.BroadcastTo(under(operand), want...)
	case 14:
		if n == 1 {
			operand := shape.Shape{want[0]}
			if want[0]%2 == 0 && src.next(2) == 0 {
				operand = shape.Shape{want[0] / 2, 2}
			}
			return expr.Ravel(under(operand))
		}
		if n > 1 && src.next(2) == 0 {
			return sc.repeated(src, want, under)
		}
		if n > 1 {
			axis := src.next(n)
			return expr.Roll(under(want), src.next(11)-5, axis-n*src.next(2))
		}
	}
	return expr.T(under(reversed(want)))
}

// repeated makes a Repeat or a Tile of shape want (rank ≥ 1) over a
// subtree that under makes: each repeats or reps divides want's size
// there. Both merge a broadcast, which no strided view expresses: the
// evaluator runs the spine's pass in the unmerged shape (liftMerge).
func (sc *scene[T]) repeated(src *byteSource, want shape.Shape, under func(shape.Shape) expr.Exp[T]) expr.Exp[T] {
	divisor := func(size int) int {
		for _, r := range []int{1 + src.next(3), 2, 1} {
			if size%r == 0 {
				return r
			}
		}
		return 1
	}
	operand := slices.Clone(want)
	if src.next(2) == 0 {
		d := src.next(len(want))
		r := divisor(want[d])
		operand[d] /= r
		return expr.Repeat(under(operand), r, d-len(want)*src.next(2))
	}
	reps := make([]int, len(want))
	for d := range want {
		reps[d] = divisor(want[d])
		operand[d] /= reps[d]
	}
	return expr.Tile(under(operand), reps...)
}

// perm draws a permutation of 0, …, n-1.
func (sc *scene[T]) perm(src *byteSource, n int) []int {
	p := make([]int, n)
	for i := range p {
		j := src.next(i + 1)
		p[i], p[j] = p[j], i
	}
	return p
}

// reversed returns s with its dimensions in reverse order.
func reversed(s shape.Shape) shape.Shape {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}
