package tensor

import (
	"fmt"

	"github.com/laze-go/laze/shape"
)

// Clone returns a contiguous row-major copy of t with its own storage
// (Paddle's Copy, PyTorch's clone).
func (t *Tensor[T]) Clone() *Tensor[T] {
	t.geometry("Clone")
	defer t.st.hold("Clone", t.shape).Drop()
	c := empty[T]("Clone", t.shape, configure(nil))
	copyStrided(c, t, t.strides)
	return c
}

// Contiguous returns t itself when it is contiguous in row-major order and a
// contiguous copy otherwise, as PyTorch's contiguous.
func (t *Tensor[T]) Contiguous() *Tensor[T] {
	if t.IsContiguous() {
		return t
	}
	return t.Clone()
}

// CopyFrom copies src's elements into t. src must have t's shape or
// broadcast to it (NumPy's np.copyto); t itself never broadcasts. Overlapping
// memory is handled by laze's one overlap rule (MayShareMemory): when src
// may share memory with t and is not the very same view of it, src is first
// copied aside, so the result is what it would be if all of src were read
// before anything was written. This holds for views of one storage and for
// tensors wrapped separately over one slice alike. It returns a ShapeError
// (a BroadcastError) naming both shapes, an ArgumentError when two elements
// of t share memory (a broadcast view: writing each is meaningless), or a
// DeviceError, and then t is unchanged.
func (t *Tensor[T]) CopyFrom(src *Tensor[T]) error {
	t.geometry("CopyFrom")
	mustNotBeNil("CopyFrom", "src", src)
	if t.Device() != src.Device() {
		return &shape.DeviceError{Op: "CopyFrom", Devices: []fmt.Stringer{t.Device(), src.Device()}}
	}
	strides, err := shape.BroadcastStrides(src.shape, src.strides, t.shape)
	if err != nil {
		return shape.Rename(err, "CopyFrom")
	}
	if err := shape.CheckWritable("CopyFrom", t.shape, t.strides); err != nil {
		return err
	}
	t.elems() // both must be live before anything is decided
	src.elems()
	defer t.st.hold("CopyFrom", t.shape).Drop()
	defer src.st.hold("CopyFrom", src.shape).Drop()
	if dst, from := t.region(), src.region(); shape.MayOverlap(dst, from) && !shape.Coincide(dst, from) {
		src = src.Clone()
		strides, _ = shape.BroadcastStrides(src.shape, src.strides, t.shape)
	}
	copyStrided(t, src, strides)
	return nil
}

// copyStrided copies src, read with srcStrides (already broadcast to dst's
// shape), into dst.
func copyStrided[T Number](dst, src *Tensor[T], srcStrides []int) {
	d, s := dst.elems(), src.elems()
	cs, cst := shape.Coalesce(dst.shape, dst.strides, srcStrides)
	shape.ForEachRun2(cs, cst[0], cst[1], dst.offset, src.offset, func(od, os, n, sd, ss int) bool {
		switch {
		case sd == 1 && ss == 1:
			copy(d[od:od+n], s[os:os+n])
		case ss == 0:
			v := s[os]
			for i := range n {
				d[od+i*sd] = v
			}
		default:
			for i := range n {
				d[od+i*sd] = s[os+i*ss]
			}
		}
		return true
	})
}

// Resize changes t in place to a contiguous row-major tensor of the given
// dimensions, as Paddle's resize followed by mutable_data: when the storage
// holds enough elements from t's offset onwards it is kept (t then views the
// elements that lie there, in storage order); otherwise t gets new storage,
// zero-filled, and the old contents are not copied. Other views of the old
// storage are untouched either way. It panics with a typed error for a
// negative or overflowing size.
func (t *Tensor[T]) Resize(dims ...int) {
	t.geometry("Resize")
	s := shape.Shape(dims)
	n := numelOf[T]("Resize", s)
	if t.st.released.Load() || n > len(t.st.data)-min(t.offset, len(t.st.data)) {
		t.st, t.offset = New[T](s).st, 0
	}
	t.setGeometry(s, shape.ContiguousStrides(s, shape.RowMajor))
}
