package tensor

import (
	"unsafe"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
)

// region returns the memory t addresses, in bytes (see shape.Region).
func (t *Tensor[T]) region() shape.Region {
	return shape.Region{
		Space:    addressSpace(t.st.device),
		Base:     t.st.base(),
		ItemSize: ItemSize[T](),
		Offset:   t.offset,
		Shape:    t.shape,
		Strides:  t.strides,
	}
}

// base returns the address of the storage's element 0: on the host the
// address of the slice's first element (whoever allocated it, so two
// wrappers of one slice agree), on a device the block's address.
func (st *storage[T]) base() uintptr {
	if !st.device.IsCPU() {
		if st.mem == nil {
			return 0
		}
		return st.mem.Ptr()
	}
	if cap(st.data) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(st.data)))
}

// addressSpace numbers the address space of a device's memory: 0 for the
// host, one number per device otherwise.
func addressSpace(d alloc.Device) uint64 {
	if d.IsCPU() {
		return 0
	}
	return uint64(d.Kind())<<32 | uint64(uint32(d.ID()))
}

// MayShareMemory reports whether writing to one of a and b may change an
// element of the other (NumPy's may_share_memory, refined by element
// positions): it compares the memory they address, not the storage object
// they were made from, so separately wrapped views of one slice, and views
// of one block as two element types, count. False is a proof; true may be
// conservative for views whose elements interleave. This is the rule the
// evaluator, CopyFrom and the products use to decide when an operand must
// be copied before the destination is written.
// It panics with an ArgumentError when a or b is nil.
func MayShareMemory[T, U Number](a *Tensor[T], b *Tensor[U]) bool {
	mustNotBeNil("MayShareMemory", "a", a)
	mustNotBeNil("MayShareMemory", "b", b)
	return shape.MayOverlap(a.region(), b.region())
}
