package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"

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

// WithAllocator takes the storage from a rather than alloc.Default(). A nil
// a (or a nil pointer of an allocator type) means alloc.Default().
func WithAllocator(a alloc.Allocator) Option {
	return func(c *config) {
		if a == nil || isNilPointer(a) {
			a = alloc.Default()
		}
		c.allocator = a
	}
}

// isNilPointer reports whether v holds a nil pointer of some type.
func isNilPointer(v any) bool {
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

func configure(opts []Option) config {
	c := config{order: shape.RowMajor, allocator: alloc.Default()}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// validShape returns the element count of s, or the typed error naming op
// when s is not a valid shape for a tensor of T: NumPy's rule, the sizes are
// not negative and the product of the non-zero sizes times T's size fits in
// an int (Shape.Size, Shape.Bytes), so that no stride or byte count of any
// layout of it overflows.
func validShape[T Number](op string, s shape.Shape) (int, error) {
	n, err := s.Size()
	if err == nil {
		_, err = s.Bytes(ItemSize[T]())
	}
	if err != nil {
		if oe, ok := err.(*shape.OverflowError); ok && oe.What == "byte count" {
			oe.DType = DTypeOf[T]().String()
		}
		return 0, shape.Rename(err, op)
	}
	return n, nil
}

// numelOf is validShape for constructors, which panic with the error: sizes
// given to a constructor are the caller's own.
func numelOf[T Number](op string, s shape.Shape) int {
	n, err := validShape[T](op, s)
	if err != nil {
		panic(err)
	}
	return n
}

// numel is numelOf for the widest element type (8 bytes), for callers that
// check a shape before they know which storage it will get.
func numel(op string, s shape.Shape) int { return numelOf[int64](op, s) }

// empty returns a tensor of shape s whose elements are unspecified (a reused
// block holds old data); constructors overwrite them.
func empty[T Number](op string, s shape.Shape, c config) *Tensor[T] {
	n := numelOf[T](op, s)
	t := &Tensor[T]{st: newStorage[T](c.allocator, s, n, op)}
	t.setGeometry(s, shape.ContiguousStrides(s, c.order))
	return t
}

// New returns a tensor of shape s filled with zeros, in row-major order
// unless an Option says otherwise. With a device's allocator
// (WithAllocator(cuda's)) the tensor lives on that device, zeroed there. It
// panics with a typed error when s has a negative size (ArgumentError), too
// many elements or bytes (OverflowError), or when the allocator cannot serve
// it (MemoryError); Make returns these errors instead.
func New[T Number](s shape.Shape, opts ...Option) *Tensor[T] { return zeroed[T]("New", s, opts) }

// zeroed is New for the constructor op.
func zeroed[T Number](op string, s shape.Shape, opts []Option) *Tensor[T] {
	c := configure(opts)
	t := empty[T](op, s, c)
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

// Make is New for a shape computed from data: it returns the typed error
// (ArgumentError, OverflowError, MemoryError, DeviceError) that New panics
// with, naming Make, and then a nil tensor.
func Make[T Number](s shape.Shape, opts ...Option) (t *Tensor[T], err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok || !isLaze(e) {
				panic(r)
			}
			t, err = nil, e
		}
	}()
	return zeroed[T]("Make", s, opts), nil
}

// isLaze reports whether err is one of laze's typed errors.
func isLaze(err error) bool {
	for _, kind := range lazeKinds {
		if errors.Is(err, kind) {
			return true
		}
	}
	return false
}

var lazeKinds = []error{shape.ErrShape, shape.ErrIndex, shape.ErrDimension, shape.ErrNotContiguous,
	shape.ErrDevice, shape.ErrOverflow, shape.ErrInvalid, shape.ErrDType, shape.ErrReleased, shape.ErrMemory}

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
func ZerosLike[T Number](t *Tensor[T]) *Tensor[T] { return New[T](like("ZerosLike", t)) }

// OnesLike returns a tensor of ones with t's shape.
func OnesLike[T Number](t *Tensor[T]) *Tensor[T] { return Full(T(1), like("OnesLike", t)...) }

// FullLike returns a tensor with t's shape filled with v.
func FullLike[T Number](t *Tensor[T], v T) *Tensor[T] { return Full(v, like("FullLike", t)...) }

// like returns t's shape for the constructor op, panicking with an
// ArgumentError when t is nil.
func like[T Number](op string, t *Tensor[T]) shape.Shape {
	mustNotBeNil(op, "t", t)
	return t.shape
}

// Arange returns the 1-D tensor start, start+step, … up to but excluding
// stop, as NumPy's arange. Its length is ceil((stop-start)/step), or 0 when
// that is negative; for integer types it is computed exactly, for floats in
// float64. It panics with an ArgumentError when step is zero or an argument
// is NaN or infinite (NumPy: "arange: cannot compute length"), and with an
// OverflowError naming start, stop and step when the length does not fit in
// an int (NumPy: "Maximum allowed size exceeded"), or the constructors'
// errors when the tensor is too large to allocate.
func Arange[T Number](start, stop, step T) *Tensor[T] {
	t := empty[T]("Arange", shape.Shape{arangeLen(start, stop, step)}, configure(nil))
	for i := range t.st.data {
		t.st.data[i] = start + T(T(i)*step) // T(…) rounds the product: no fused multiply-add on arm64
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
		t.st.data[i] = T(lo + float64(float64(i)*step)) // rounded product: no FMA on arm64
	}
	if num > 1 {
		t.st.data[num-1] = stop
	}
	return t
}

// Eye returns the n×n identity matrix. It panics as New does.
func Eye[T Number](n int) *Tensor[T] {
	t := empty[T]("Eye", shape.Shape{n, n}, configure(nil))
	clear(t.st.data)
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
func RandLike[T Float](t *Tensor[T], seed uint64) *Tensor[T] {
	return Rand[T](seed, like("RandLike", t)...)
}

// RandnLike is Randn with t's shape.
func RandnLike[T Float](t *Tensor[T], seed uint64) *Tensor[T] {
	return Randn[T](seed, like("RandnLike", t)...)
}

// FromSlice returns a tensor of shape s holding a copy of data, read in
// row-major order (or column-major with the ColMajor option). It returns a
// ShapeError when len(data) differs from the shape's element count.
func FromSlice[T Number](data []T, s shape.Shape, opts ...Option) (*Tensor[T], error) {
	if err := checkLen[T]("FromSlice", len(data), s); err != nil {
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
	if err := checkLen[T]("Wrap", len(data), s); err != nil {
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
// outside data (an offset and strides whose reach overflows an int included),
// or the offset is negative; an OverflowError when the shape breaks
// Shape.Size's rule or a stride in bytes does not fit in an int. Strides may make elements share
// memory (stride 0); such a tensor is read-only in practice, as Assign
// refuses it as a destination.
func WrapStrided[T Number](data []T, s shape.Shape, strides []int, offset int) (*Tensor[T], error) {
	if _, err := validShape[T]("WrapStrided", s); err != nil {
		return nil, err
	}
	if err := checkStrided(len(data), s, strides, offset, ItemSize[T]()); err != nil {
		return nil, err
	}
	t := &Tensor[T]{st: wrapStorage(data), offset: offset}
	t.setGeometry(s, strides)
	return t, nil
}

// checkStrided checks that shape s with the given strides, starting at
// offset, reaches only elements of a storage of n elements of itemsize bytes,
// with no sum or product overflowing on the way.
func checkStrided(n int, s shape.Shape, strides []int, offset, itemsize int) error {
	const op = "WrapStrided"
	if len(strides) != len(s) {
		return &shape.ArgumentError{Op: op, Name: "strides", Value: shape.FormatInts(strides),
			Reason: fmt.Sprintf("%d strides for shape %v of rank %d", len(strides), s, len(s))}
	}
	if offset < 0 {
		return &shape.ArgumentError{Op: op, Name: "offset", Value: offset, Reason: "must not be negative"}
	}
	outside := func(reach string) error {
		return &shape.ArgumentError{Op: op, Name: "offset and strides", Value: fmt.Sprintf("%d, %s", offset, shape.FormatInts(strides)),
			Reason: fmt.Sprintf("shape %v reaches %s of a storage of %d", s, reach, n)}
	}
	first, last, ok, err := shape.CheckedExtent(op, s, strides, offset)
	switch {
	case err != nil: // an element beyond the range of int lies outside any slice
		return outside("elements beyond the range of int")
	case ok && (first < 0 || last >= n):
		return outside(fmt.Sprintf("elements %d to %d", first, last))
	}
	// What remains are strides no element is addressed through (of a size-1
	// dimension, or of a tensor with no elements); they must still be valid
	// strides, whose byte form (ByteStrides) fits in an int.
	for d, st := range strides {
		if st > maxInt/itemsize || st < -(maxInt/itemsize) {
			return &shape.OverflowError{Op: op, Shape: s.Clone(),
				What: fmt.Sprintf("byte stride of dimension %d (%d elements of %d bytes)", d, st, itemsize)}
		}
	}
	return nil
}

// Scalar returns a rank-0 tensor holding v.
func Scalar[T Number](v T) *Tensor[T] { return Full(v) }

func checkLen[T Number](op string, n int, s shape.Shape) error {
	want, err := validShape[T](op, s)
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

// arangeLen returns Arange's length, ceil((stop-start)/step) or 0, or panics
// with the error Arange documents.
func arangeLen[T Number](start, stop, step T) int {
	const op = "Arange"
	args := fmt.Sprintf("start=%v, stop=%v, step=%v", start, stop, step)
	for _, a := range []struct {
		name string
		v    T
	}{{"start", start}, {"stop", stop}, {"step", step}} {
		if f := float64(a.v); math.IsNaN(f) || math.IsInf(f, 0) {
			panic(&shape.ArgumentError{Op: op, Name: a.name, Value: a.v,
				Reason: "must be finite: the length of start, stop, step cannot be computed (" + args + ")"})
		}
	}
	if step == 0 {
		panic(&shape.ArgumentError{Op: op, Name: "step", Value: step, Reason: "must not be zero"})
	}
	tooLong := func(length string) {
		panic(&shape.OverflowError{Op: op, What: "length ceil((stop-start)/step) = " + length + " for " + args})
	}
	if IsFloat[T]() {
		l := math.Ceil((float64(stop) - float64(start)) / float64(step))
		switch {
		case l <= 0:
			return 0
		case l >= math.MaxInt: // float64(MaxInt) is 2^63
			tooLong(strconv.FormatFloat(l, 'g', -1, 64))
		}
		return int(l)
	}
	// Integers: exactly, in big.Int, since stop-start may not fit in T.
	b, e, d := bigOf(start), bigOf(stop), bigOf(step)
	span := new(big.Int).Sub(e, b)
	if span.Sign() == 0 || span.Sign() != d.Sign() {
		return 0
	}
	span.Abs(span)
	d.Abs(d)
	l := span.Add(span, d).Sub(span, big.NewInt(1)).Quo(span, d) // ceil(|span|/|step|)
	if !l.IsInt64() || l.Int64() > math.MaxInt {
		tooLong(l.String())
	}
	return int(l.Int64())
}

// bigOf returns an integer v as a big.Int, whatever T's signedness.
func bigOf[T Number](v T) *big.Int {
	if v < 0 {
		return big.NewInt(int64(v))
	}
	return new(big.Int).SetUint64(uint64(v))
}
