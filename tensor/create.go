package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
)

// Option adjusts how a constructor lays out or allocates a tensor.
type Option func(*config)

type config struct {
	order     shape.Order
	allocator alloc.Allocator
}

// ColMajor lays the tensor out in column-major (Fortran) order: the first
// dimension varies fastest.
func ColMajor() Option { return func(c *config) { c.order = shape.ColMajor } }

// InOrder lays the tensor out in the given order.
func InOrder(o shape.Order) Option { return func(c *config) { c.order = o } }

// WithAllocator takes the storage from a rather than alloc.Default().
func WithAllocator(a alloc.Allocator) Option { return func(c *config) { c.allocator = a } }

func configure(opts []Option) config {
	c := config{order: shape.RowMajor, allocator: alloc.Default()}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// numel returns the element count of s, panicking with the typed error when
// s is invalid: sizes given to a constructor are the caller's own.
func numel(op string, s shape.Shape) int {
	n, err := s.Size()
	if err != nil {
		panic(err)
	}
	if _, ok := mulNonNeg(n, 8); !ok {
		panic(&shape.OverflowError{Op: op, Shape: s.Clone(), What: "byte count"})
	}
	return n
}

// empty returns a tensor of shape s whose elements are unspecified (a reused
// block holds old data); constructors overwrite them.
func empty[T Number](op string, s shape.Shape, c config) *Tensor[T] {
	n := numel(op, s)
	t := &Tensor[T]{st: newStorage[T](c.allocator, n, op)}
	t.setGeometry(s, shape.ContiguousStrides(s, c.order))
	return t
}

// New returns a tensor of shape s filled with zeros, in row-major order
// unless an Option says otherwise. With a device's allocator
// (WithAllocator(cuda's)) the tensor lives on that device, zeroed there. It
// panics with a typed error when s has a negative size or too many elements.
func New[T Number](s shape.Shape, opts ...Option) *Tensor[T] {
	c := configure(opts)
	t := empty[T]("New", s, c)
	if da, ok := c.allocator.(alloc.DeviceAllocator); ok && !t.st.device.IsCPU() {
		if t.st.mem != nil {
			if err := da.Zero(t.st.mem); err != nil {
				panic(err)
			}
		}
		return t
	}
	clear(t.st.data)
	return t
}

// Zeros returns a row-major tensor of the given dimensions filled with
// zeros: Zeros[float64](2, 3).
func Zeros[T Number](dims ...int) *Tensor[T] { return New[T](shape.Shape(dims)) }

// Ones returns a row-major tensor filled with ones.
func Ones[T Number](dims ...int) *Tensor[T] { return Full(T(1), dims...) }

// Full returns a row-major tensor filled with v.
func Full[T Number](v T, dims ...int) *Tensor[T] {
	t := empty[T]("Full", shape.Shape(dims), configure(nil))
	fillSlice(t.st.data, v)
	return t
}

// ZerosLike returns a zero tensor with t's shape, in row-major order.
func ZerosLike[T Number](t *Tensor[T]) *Tensor[T] { return New[T](t.shape) }

// OnesLike returns a tensor of ones with t's shape.
func OnesLike[T Number](t *Tensor[T]) *Tensor[T] { return Full(T(1), t.shape...) }

// FullLike returns a tensor with t's shape filled with v.
func FullLike[T Number](t *Tensor[T], v T) *Tensor[T] { return Full(v, t.shape...) }

// Arange returns the 1-D tensor start, start+step, … up to but excluding
// stop, as NumPy's arange. Its length is ceil((stop-start)/step), or 0 when
// that is negative. It panics with an ArgumentError when step is zero.
func Arange[T Number](start, stop, step T) *Tensor[T] {
	if step == 0 {
		panic(&shape.ArgumentError{Op: "Arange", Name: "step", Value: step, Reason: "must not be zero"})
	}
	n := int(math.Ceil((float64(stop) - float64(start)) / float64(step)))
	t := empty[T]("Arange", shape.Shape{max(n, 0)}, configure(nil))
	for i := range t.st.data {
		t.st.data[i] = start + T(i)*step
	}
	return t
}

// Linspace returns num evenly spaced values from start to stop inclusive, as
// NumPy's linspace. Values are computed in float64 and converted to T (so an
// integer T truncates, as NumPy does with an integer dtype). It panics with an
// ArgumentError when num is negative.
func Linspace[T Number](start, stop T, num int) *Tensor[T] {
	if num < 0 {
		panic(&shape.ArgumentError{Op: "Linspace", Name: "num", Value: num, Reason: "must not be negative"})
	}
	t := empty[T]("Linspace", shape.Shape{num}, configure(nil))
	lo, hi := float64(start), float64(stop)
	step := 0.0
	if num > 1 {
		step = (hi - lo) / float64(num-1)
	}
	for i := range t.st.data {
		t.st.data[i] = T(lo + float64(i)*step)
	}
	if num > 1 {
		t.st.data[num-1] = stop
	}
	return t
}

// Eye returns the n×n identity matrix.
func Eye[T Number](n int) *Tensor[T] {
	t := Zeros[T](n, n)
	for i := range n {
		t.st.data[i*n+i] = 1
	}
	return t
}

// Rand returns a row-major tensor of values drawn uniformly from [0, 1). The
// same seed gives the same values on every platform (PCG generator).
func Rand[T Float](seed uint64, dims ...int) *Tensor[T] {
	return random[T]("Rand", seed, dims, (*rand.Rand).Float64)
}

// Randn returns a row-major tensor of values drawn from the standard normal
// distribution, reproducibly for a given seed.
func Randn[T Float](seed uint64, dims ...int) *Tensor[T] {
	return random[T]("Randn", seed, dims, (*rand.Rand).NormFloat64)
}

// random fills a new tensor with draws from a PCG generator seeded with seed.
func random[T Float](op string, seed uint64, dims []int, draw func(*rand.Rand) float64) *Tensor[T] {
	rng := rand.New(rand.NewPCG(seed, 0x6c617a65)) // "laze"
	t := empty[T](op, shape.Shape(dims), configure(nil))
	for i := range t.st.data {
		t.st.data[i] = T(draw(rng))
	}
	return t
}

// RandLike is Rand with t's shape.
func RandLike[T Float](t *Tensor[T], seed uint64) *Tensor[T] { return Rand[T](seed, t.shape...) }

// RandnLike is Randn with t's shape.
func RandnLike[T Float](t *Tensor[T], seed uint64) *Tensor[T] { return Randn[T](seed, t.shape...) }

// FromSlice returns a tensor of shape s holding a copy of data, read in
// row-major order (or column-major with the ColMajor option). It returns a
// ShapeError when len(data) differs from the shape's element count.
func FromSlice[T Number](data []T, s shape.Shape, opts ...Option) (*Tensor[T], error) {
	if err := checkLen("FromSlice", len(data), s); err != nil {
		return nil, err
	}
	t := empty[T]("FromSlice", s, configure(opts))
	copy(t.st.data, data)
	return t, nil
}

// Wrap returns a tensor of shape s over data itself, without copying: writes
// through the tensor change data and the reverse. The storage is never
// recycled. It returns a ShapeError when len(data) differs from the shape's
// element count. Of the options only the order applies.
func Wrap[T Number](data []T, s shape.Shape, opts ...Option) (*Tensor[T], error) {
	if err := checkLen("Wrap", len(data), s); err != nil {
		return nil, err
	}
	c := configure(opts)
	t := &Tensor[T]{st: wrapStorage(data)}
	t.setGeometry(s, shape.ContiguousStrides(s, c.order))
	return t, nil
}

// WrapStrided returns a tensor over data itself with the given shape,
// strides (in elements, negative allowed) and offset of element (0, 0, …),
// without copying: NumPy's as_strided, checked. It is how storage laid out
// by someone else (a *mat.Dense with a row stride, a Fortran-order file)
// becomes a tensor. It returns an ArgumentError naming the values at fault
// when strides and shape differ in length, or when some element would lie
// outside data. Strides may make elements share memory (stride 0); such a
// tensor is read-only in practice, as Assign refuses it as a destination.
func WrapStrided[T Number](data []T, s shape.Shape, strides []int, offset int) (*Tensor[T], error) {
	if err := checkStrided(len(data), s, strides, offset); err != nil {
		return nil, err
	}
	t := &Tensor[T]{st: wrapStorage(data), offset: offset}
	t.setGeometry(s, strides)
	return t, nil
}

// checkStrided checks that shape s with the given strides, starting at
// offset, reaches only elements of a storage of n elements.
func checkStrided(n int, s shape.Shape, strides []int, offset int) error {
	const op = "WrapStrided"
	if len(strides) != len(s) {
		return &shape.ArgumentError{Op: op, Name: "strides", Value: shape.FormatInts(strides),
			Reason: fmt.Sprintf("%d strides for shape %v of rank %d", len(strides), s, len(s))}
	}
	if _, err := s.Size(); err != nil {
		return renameOp(err, op)
	}
	lo, hi, ok := shape.Extent(s, strides)
	if !ok {
		return nil // no elements: nothing is read
	}
	if !stridesFit(n, s, strides) || offset+lo < 0 || offset+hi >= n {
		return &shape.ArgumentError{Op: op, Name: "offset and strides", Value: fmt.Sprintf("%d, %s", offset, shape.FormatInts(strides)),
			Reason: fmt.Sprintf("shape %v reaches elements %d to %d of a storage of %d", s, offset+lo, offset+hi, n)}
	}
	return nil
}

// stridesFit reports whether each dimension alone spans fewer than n
// elements, so that Extent's sums cannot overflow.
func stridesFit(n int, s shape.Shape, strides []int) bool {
	for d, size := range s {
		if st := strides[d]; st != 0 && size-1 > n/max(st, -st) {
			return false
		}
	}
	return true
}

// Scalar returns a rank-0 tensor holding v.
func Scalar[T Number](v T) *Tensor[T] { return Full(v) }

func checkLen(op string, n int, s shape.Shape) error {
	want, err := s.Size()
	if err != nil {
		return err
	}
	if want != n {
		return &shape.ShapeError{Op: op, Shapes: []shape.Shape{{n}, slices.Clone(s)},
			Reason: "a slice of this length cannot fill this shape"}
	}
	return nil
}

func fillSlice[T Number](data []T, v T) {
	for i := range data {
		data[i] = v
	}
}
