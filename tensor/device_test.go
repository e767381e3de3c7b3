package tensor_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/internal/fakedev"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

var fakeGPU = fakedev.New(alloc.CUDA(3))

func TestToDeviceAndBack(t *testing.T) {
	a := tensor.Arange[float32](0, 24, 1)
	a3, _ := a.View(2, 3, 4)
	bcast, _ := a.Slice(0, 0, 3, 1).Unsqueeze(0).Expand(4, 3)
	cases := []struct {
		name string
		src  *tensor.Tensor[float32]
	}{
		{"contiguous", a3},
		{"transposed", a3.Permute(2, 0, 1)},
		{"stepped slice", a3.Slice(2, 0, 4, 2)},
		{"broadcast", bcast},
		{"scalar", tensor.Scalar[float32](7)},
		{"empty", tensor.Zeros[float32](0, 3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := c.src.To(alloc.CUDA(3))
			if err != nil {
				t.Fatal(err)
			}
			if d.Device() != alloc.CUDA(3) || !d.IsContiguous() || !d.Shape().Equal(c.src.Shape()) {
				t.Fatalf("on device: %+v", d)
			}
			// A view of the device tensor comes back as the same view of the source.
			for _, pair := range [][2]*tensor.Tensor[float32]{{d, c.src}, {d.T(), c.src.T()}} {
				back, err := pair[0].To(alloc.CPU)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(pair[1].Clone().Data(), back.Data()); diff != "" {
					t.Errorf("round trip (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestDeviceTensorRules(t *testing.T) {
	d, err := tensor.Arange[int64](0, 6, 1).To(alloc.CUDA(3))
	if err != nil {
		t.Fatal(err)
	}
	if same, _ := d.To(alloc.CUDA(3)); same != d {
		t.Error("To the tensor's own device must return the tensor itself")
	}
	if got := fmt.Sprintf("%+v", d); !strings.HasPrefix(got, "[0 1 2 3 4 5]") || !strings.Contains(got, "device=cuda:3") {
		t.Errorf("printing a device tensor: %q", got)
	}
	z := tensor.New[int32](shape.Shape{2, 2}, tensor.WithAllocator(fakeGPU))
	if back, _ := z.To(alloc.CPU); !cmp.Equal(back.Data(), []int32{0, 0, 0, 0}) {
		t.Errorf("New on a device is not zeroed: %v", back)
	}
	var de *shape.DeviceError
	func() {
		defer func() {
			r := recover()
			if err, ok := r.(error); !ok || !errors.As(err, &de) || !strings.Contains(err.Error(), "To(alloc.CPU)") {
				t.Errorf("host access to a device tensor: recovered %v; want a DeviceError naming the remedy", r)
			}
		}()
		d.At(1)
	}()
	if _, err := tensor.Zeros[float64](2).To(alloc.CUDA(9)); !errors.Is(err, shape.ErrDevice) || !strings.Contains(err.Error(), "cuda:9") {
		t.Errorf("To an unregistered device: %v", err)
	}
	before := fakeGPU.Stats().BytesInUse
	e := tensor.New[float64](shape.Shape{100}, tensor.WithAllocator(fakeGPU))
	if err := e.Release(); err != nil {
		t.Fatal(err)
	}
	if after := fakeGPU.Stats().BytesInUse; after > before { // cleanups of other tests' tensors may lower it meanwhile
		t.Errorf("device bytes in use: %d before, %d after New and Release", before, after)
	}
}
