package npy_test

import (
	"bytes"
	"fmt"

	"github.com/laze-go/laze/tensor"
	"github.com/laze-go/laze/tensor/npy"
)

// Write a tensor as NumPy would save it, and read it back; a column-major
// tensor travels as a Fortran-order file and comes back column-major.
func Example() {
	a, _ := tensor.Arange[float32](0, 6, 1).View(2, 3)
	var file bytes.Buffer
	if err := npy.Write(&file, a.T()); err != nil {
		fmt.Println(err)
		return
	}
	b, err := npy.Read[float32](&file)
	fmt.Println(b, b.Strides(), err)
	// Output:
	// [[0. 3.]
	//  [1. 4.]
	//  [2. 5.]] [1 3] <nil>
}

// ReadAny returns the tensor in the file's own element type.
func ExampleReadAny() {
	var file bytes.Buffer
	_ = npy.Write(&file, tensor.Arange[int16](0, 4, 1))
	t, h, err := npy.ReadAny(&file)
	fmt.Printf("%T %s %v %v\n", t, h.Descr, h.Shape, err)
	// Output:
	// *tensor.Tensor[int16] <i2 (4,) <nil>
}
