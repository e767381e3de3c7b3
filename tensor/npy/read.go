package npy

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// chunk is how many bytes of data are read at a time, so that a file whose
// header promises more data than it holds fails before allocating it all.
const chunk = 1 << 24

// Read reads an .npy file into a tensor of T. The file's dtype must be T's
// kind and size (bool reads as uint8, 0 or 1: any byte other than 0 is
// True, as NumPy reads it; int64 reads into int on 64-bit platforms);
// otherwise Read returns a shape.DTypeError naming both. A Fortran-order
// file gives a tensor with column-major strides. A shape whose element or
// byte count overflows int is a FormatError wrapping a shape.OverflowError.
// The tensor owns new memory, never recycled by an allocator.
func Read[T tensor.Number](r io.Reader) (*tensor.Tensor[T], error) {
	h, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	if !holds[T](h.DType) {
		return nil, &shape.DTypeError{Op: "npy.Read", DType: h.DType.String(),
			Reason: fmt.Sprintf("the file holds %s, which does not fit a Tensor[%s]; use ReadAny, or a tensor of the file's type", h.DType, tensor.DTypeOf[T]())}
	}
	return readTensor[T](r, h)
}

// ReadAny reads an .npy file of any supported dtype and returns the tensor
// as an any holding a *tensor.Tensor[T] of the file's type (uint8 0 or 1
// for bool, as Read), with the file's header.
func ReadAny(r io.Reader) (any, Header, error) {
	h, err := readHeader(r)
	if err != nil {
		return nil, Header{}, err
	}
	var t any
	switch tensorDType(h.DType) {
	case tensor.Float32:
		t, err = readTensor[float32](r, h)
	case tensor.Float64:
		t, err = readTensor[float64](r, h)
	case tensor.Int8:
		t, err = readTensor[int8](r, h)
	case tensor.Int16:
		t, err = readTensor[int16](r, h)
	case tensor.Int32:
		t, err = readTensor[int32](r, h)
	case tensor.Int64:
		t, err = readTensor[int64](r, h)
	case tensor.Uint8:
		t, err = readTensor[uint8](r, h)
	case tensor.Uint16:
		t, err = readTensor[uint16](r, h)
	case tensor.Uint32:
		t, err = readTensor[uint32](r, h)
	default:
		t, err = readTensor[uint64](r, h)
	}
	if err != nil {
		return nil, Header{}, err
	}
	return t, h, nil
}

// Load reads the .npy file at path with Read.
func Load[T tensor.Number](path string) (*tensor.Tensor[T], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read[T](f)
}

// LoadAny reads the .npy file at path with ReadAny.
func LoadAny(path string) (any, Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Header{}, err
	}
	defer f.Close()
	return ReadAny(f)
}

// readTensor reads the data the header describes and wraps it.
func readTensor[T tensor.Number](r io.Reader, h Header) (*tensor.Tensor[T], error) {
	n, _ := h.Shape.Size() // checked by the header's parse (checkSize)
	data, err := readData[T](r, n, h.elem)
	if err != nil {
		return nil, err
	}
	order := tensor.InOrder(shape.RowMajor)
	if h.Fortran {
		order = tensor.ColMajor()
	}
	return tensor.Wrap(data, h.Shape, order)
}

// readData reads n elements of T, chunk by chunk, swapping bytes when the
// file's order is not the host's and making bools 0 or 1.
func readData[T tensor.Number](r io.Reader, n int, e elem) ([]T, error) {
	per := max(chunk/e.size, 1)
	data := make([]T, 0, min(n, per))
	for len(data) < n {
		k := min(n-len(data), per)
		data = slices.Grow(data, k)
		part := data[len(data) : len(data)+k]
		if got, err := io.ReadFull(r, bytesOf(part)); err != nil {
			have := len(data)*e.size + got
			return nil, formatErr("the file ends after %d of its %d data bytes (%d × %s)", have, n*e.size, n, e.dtype().String())
		}
		if needsSwap(e.order, e.size) {
			swapBytes(bytesOf(part), e.size)
		}
		if e.kind == boolKind {
			normaliseBools(bytesOf(part))
		}
		data = data[:len(data)+k]
	}
	return data, nil
}

// normaliseBools makes every non-zero byte 1: NumPy takes any non-zero bool
// byte as True, and laze holds a bool as the uint8 0 or 1 and computes on
// that value (b == 1, sum(b), b * c would be wrong for a True of 2).
func normaliseBools(b []byte) {
	for i, v := range b {
		if v > 1 {
			b[i] = 1
		}
	}
}
