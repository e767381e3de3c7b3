package tensor

import (
	"fmt"
	"unsafe"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
)

// To returns the tensor's elements on device dev (PyTorch's tensor.to):
// t itself when it is already there, else a contiguous row-major copy on
// dev. Copying to a GPU takes the allocator registered for it (package cuda
// registers one per device it opens); copying a device tensor to alloc.CPU
// reads back only the storage its elements span. A device with no
// registered allocator gives a DeviceError (errors.Is(err,
// shape.ErrDevice)); a failed copy leaves t as it was.
func (t *Tensor[T]) To(dev alloc.Device) (*Tensor[T], error) {
	if dev == t.Device() {
		t.live()
		return t, nil
	}
	defer t.st.hold("To", t.shape).Drop()
	switch {
	case dev.IsCPU():
		return t.toHost()
	case !t.Device().IsCPU():
		host, err := t.toHost() // between two devices, through the host
		if err != nil {
			return nil, err
		}
		return host.To(dev)
	}
	return t.toDevice(dev)
}

// toDevice copies a host tensor to a device.
func (t *Tensor[T]) toDevice(dev alloc.Device) (*Tensor[T], error) {
	a, err := alloc.DeviceFor(dev)
	if err != nil {
		return nil, shape.Rename(err, "To")
	}
	src := t.Contiguous()
	d := empty[T]("To", t.shape, config{order: shape.RowMajor, allocator: a})
	if n := src.Numel(); n > 0 {
		if err := a.CopyIn(d.st.mem, 0, asBytes(src.st.data[src.offset:src.offset+n])); err != nil {
			_ = d.Release()
			return nil, err
		}
	}
	return d, nil
}

// toHost copies a device tensor to the host: the span of storage its
// elements cover, viewed with its strides, made contiguous.
func (t *Tensor[T]) toHost() (*Tensor[T], error) {
	a, err := alloc.DeviceFor(t.Device())
	if err != nil {
		return nil, shape.Rename(err, "To")
	}
	lo, hi, ok := shape.Extent(t.shape, t.strides)
	if !ok {
		return New[T](t.shape), nil
	}
	span := empty[T]("To", shape.Shape{hi - lo + 1}, configure(nil))
	if err := a.CopyOut(asBytes(span.st.data), t.st.mem, (t.offset+lo)*ItemSize[T]()); err != nil {
		_ = span.Release()
		return nil, err
	}
	view := span.view(-lo, t.shape, t.strides)
	if view.IsContiguous() && lo == 0 && hi+1 == t.Numel() {
		return view, nil
	}
	defer span.Release()
	return view.Clone(), nil
}

// asBytes views elements as their bytes.
func asBytes[T Number](data []T) []byte {
	if len(data) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*ItemSize[T]())
}

// deviceString prints a device tensor through a host copy.
func (t *Tensor[T]) deviceString(prec int) string {
	host, err := t.toHost()
	if err != nil {
		return fmt.Sprintf("<%s tensor of shape %v: %v>", t.Device(), t.shape, err)
	}
	defer host.Release()
	return host.format(prec)
}
