package kernels

import (
	"github.com/laze-go/laze/tensor"
)

// contiguousOn returns t, or a contiguous copy of it on the device.
func contiguousOn[T tensor.Number](d *onDevice, t *tensor.Tensor[T]) (*tensor.Tensor[T], error) {
	if t.IsContiguous() {
		return t, nil
	}
	return deviceCopy(d.ev, t)
}
