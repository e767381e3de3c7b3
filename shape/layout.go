package shape

import "fmt"

// Layout names the order of the dimensions of an image batch, as mshadow's
// and cuDNN's layout constants do.
type Layout int

const (
	NCHW  Layout = iota // batch, channels, height, width
	NHWC                // batch, height, width, channels
	NCDHW               // batch, channels, depth, height, width
	NDHWC               // batch, depth, height, width, channels
)

// String returns the layout's name, "NCHW" and so on.
func (l Layout) String() string {
	switch l {
	case NCHW:
		return "NCHW"
	case NHWC:
		return "NHWC"
	case NCDHW:
		return "NCDHW"
	case NDHWC:
		return "NDHWC"
	}
	return fmt.Sprintf("Layout(%d)", int(l))
}

// rank returns 4 or 5 and the position of the channel dimension.
func (l Layout) rank() (ndim, channel int, ok bool) {
	switch l {
	case NCHW:
		return 4, 1, true
	case NHWC:
		return 4, 3, true
	case NCDHW:
		return 5, 1, true
	case NDHWC:
		return 5, 4, true
	}
	return 0, 0, false
}

// Perm returns the permutation that takes a tensor in layout from to layout
// to: if perm := Perm(from, to), then the dimension i of the result is
// dimension perm[i] of the source (the argument Permute expects).
func Perm(from, to Layout) ([]int, error) {
	nf, cf, okf := from.rank()
	nt, ct, okt := to.rank()
	if !okf || !okt || nf != nt {
		return nil, &ArgumentError{Op: "ConvertLayout", Name: "layouts", Value: from.String() + "→" + to.String(),
			Reason: "only NCHW↔NHWC and NCDHW↔NDHWC (or a layout to itself) are supported"}
	}
	// Spatial dimensions keep their relative order; only the channel moves.
	src := make([]int, 0, nf) // source dims other than batch and channel, in order
	for d := 1; d < nf; d++ {
		if d != cf {
			src = append(src, d)
		}
	}
	perm := make([]int, nf)
	next := 0
	for d := 1; d < nt; d++ {
		if d == ct {
			perm[d] = cf
			continue
		}
		perm[d] = src[next]
		next++
	}
	return perm, nil
}

// ConvertLayout reorders the dimensions of s from one layout to the other:
// ConvertLayout((2,3,4,5), NCHW, NHWC) is (2,4,5,3). It returns an error when
// s does not have the layouts' rank or the pair of layouts is not supported.
func ConvertLayout(s Shape, from, to Layout) (Shape, error) {
	perm, err := Perm(from, to)
	if err != nil {
		return nil, err
	}
	if len(s) != len(perm) {
		return nil, &ShapeError{Op: "ConvertLayout", Shapes: []Shape{s.Clone()},
			Reason: fmt.Sprintf("layout %v needs rank %d", from, len(perm))}
	}
	out := make(Shape, len(s))
	for i, p := range perm {
		out[i] = s[p]
	}
	return out, nil
}
