package npy

import (
	"fmt"
	"io"
	"os"

	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// WriteOption adjusts how Write describes the data.
type WriteOption func(*writeConfig)

type writeConfig struct{ asBool bool }

// AsBool writes a uint8 tensor of zeros and ones as NumPy bools ('|b1'), so
// that comparisons evaluated into uint8 come back to NumPy as bool arrays.
func AsBool() WriteOption { return func(c *writeConfig) { c.asBool = true } }

// Write writes t to w as an .npy file (version 1.0 header, little-endian
// data). A row-major tensor is written as it lies, a column-major one as a
// Fortran-order file, both without a copy; any other view is written in
// row-major order through a contiguous copy. t is not changed and its
// storage stays recyclable.
func Write[T tensor.Number](w io.Writer, t *tensor.Tensor[T], opts ...WriteOption) error {
	var c writeConfig
	for _, o := range opts {
		o(&c)
	}
	dtype := tensor.DTypeOf[T]().Sized()
	if c.asBool {
		if dtype != tensor.Uint8 {
			return &shape.DTypeError{Op: "npy.Write", DType: dtype.String(), Reason: "AsBool needs a uint8 tensor"}
		}
		dtype = tensor.Bool
	}
	e := elemOf(dtype)
	if dev := t.Device(); !dev.IsCPU() {
		return &shape.DeviceError{Op: "npy.Write", Devices: []fmt.Stringer{dev}, Reason: "copy the tensor to the CPU first"}
	}
	dims := t.Shape()
	fortran := !t.IsContiguous() && shape.IsContiguous(dims, t.Strides(), shape.ColMajor)
	if !t.IsContiguous() && !fortran {
		c := t.Contiguous()
		defer c.Release()
		t = c
	}
	if err := writeHeader(w, e, fortran, dims); err != nil {
		return err
	}
	return writeData(w, elements(t), e.size)
}

// Save writes t to the file at path with Write, creating or truncating it.
func Save[T tensor.Number](path string, t *tensor.Tensor[T], opts ...WriteOption) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, t, opts...); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// elements returns the storage a row- or column-major tensor spans, in
// memory order, without pinning it.
func elements[T tensor.Number](t *tensor.Tensor[T]) []T {
	n := t.Numel()
	if n == 0 {
		return nil
	}
	return t.Elems(friend.K)[t.Offset() : t.Offset()+n]
}

// writeData writes the elements little-endian, chunk by chunk.
func writeData[T tensor.Number](w io.Writer, data []T, size int) error {
	b := bytesOf(data)
	if !needsSwap(littleEndian, size) {
		_, err := w.Write(b)
		return err
	}
	buf := make([]byte, min(len(b), chunk))
	for len(b) > 0 {
		k := copy(buf, b)
		swapBytes(buf[:k], size)
		if _, err := w.Write(buf[:k]); err != nil {
			return err
		}
		b = b[k:]
	}
	return nil
}
