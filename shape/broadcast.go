package shape

// Broadcast returns the shape that the given shapes broadcast to under
// NumPy's rules: shapes are aligned on their last dimension, missing leading
// dimensions count as 1, and in each dimension the sizes must be equal or 1
// (a size-1 dimension stretches to the other size, even to 0). With no
// shapes it returns the scalar shape (). The error is a BroadcastError that
// names every shape involved, or, when the result breaks Size's rule, an
// OverflowError naming the result and every shape (broadcasting (2^40,1)
// with (1,2^40)) or an ArgumentError for a negative size.
func Broadcast(shapes ...Shape) (Shape, error) {
	ndim := 0
	for _, s := range shapes {
		ndim = max(ndim, len(s))
	}
	out := make(Shape, ndim)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		lead := ndim - len(s)
		for i, n := range s {
			switch o := out[lead+i]; {
			case o == n || n == 1:
			case o == 1:
				out[lead+i] = n
			default:
				return nil, &BroadcastError{Op: "Broadcast", Shapes: cloneAll(shapes), Dim: lead + i}
			}
		}
	}
	if _, err := out.Size(); err != nil {
		return nil, withInputs(err, "Broadcast", shapes)
	}
	return out, nil
}

// withInputs names op and, for an OverflowError, the shapes a result was
// computed from.
func withInputs(err error, op string, shapes []Shape) error {
	switch e := err.(type) {
	case *OverflowError:
		e.Op, e.Inputs = op, cloneAll(shapes)
	case *ArgumentError:
		e.Op = op
	}
	return err
}

// BroadcastStrides returns the strides with which a tensor of shape from and
// the given strides is read as a tensor of shape to: new leading dimensions
// and stretched size-1 dimensions get stride 0, so no data moves. It returns
// a BroadcastError when from cannot be broadcast to to (the destination never
// stretches: to's sizes are fixed), and Size's error when to is not a valid
// shape.
func BroadcastStrides(from Shape, strides []int, to Shape) ([]int, error) {
	if _, err := to.Size(); err != nil {
		return nil, withInputs(err, "BroadcastTo", nil)
	}
	if len(from) > len(to) {
		return nil, &BroadcastError{Op: "BroadcastTo", Shapes: []Shape{from.Clone(), to.Clone()}, Dim: 0}
	}
	out := make([]int, len(to))
	lead := len(to) - len(from)
	for i, n := range from {
		switch {
		case n == to[lead+i]:
			out[lead+i] = strides[i]
		case n == 1:
			out[lead+i] = 0
		default:
			return nil, &BroadcastError{Op: "BroadcastTo", Shapes: []Shape{from.Clone(), to.Clone()}, Dim: lead + i}
		}
	}
	return out, nil
}

func cloneAll(shapes []Shape) []Shape {
	out := make([]Shape, len(shapes))
	for i, s := range shapes {
		out[i] = s.Clone()
	}
	return out
}
