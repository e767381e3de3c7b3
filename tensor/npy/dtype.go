package npy

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/laze-go/laze/tensor"
)

// kind is the class of an element type: NumPy's dtype.kind.
type kind byte

const (
	boolKind     kind = 'b'
	signedKind   kind = 'i'
	unsignedKind kind = 'u'
	floatKind    kind = 'f'
)

// elem is an element type as a file describes it: kind, size in bytes and
// byte order.
type elem struct {
	kind  kind
	size  int
	order binary.ByteOrder
}

// dtype returns the element type as a dtype.
func (e elem) dtype() tensor.DType {
	switch e.kind {
	case boolKind:
		return tensor.Bool
	case signedKind:
		return tensor.SignedOf(8 * e.size)
	case unsignedKind:
		return tensor.UnsignedOf(8 * e.size)
	case floatKind:
		if e.size == 4 {
			return tensor.Float32
		}
		return tensor.Float64
	}
	return tensor.Invalid
}

// descr returns the descr string that writes the element type in little
// endian order ('<f8'; '|u1' for single bytes).
func (e elem) descr() string {
	if e.size == 1 {
		return fmt.Sprintf("|%c1", e.kind)
	}
	return fmt.Sprintf("<%c%d", e.kind, e.size)
}

// parseDescr reads a descr string such as '<f8', '>i4' or '|b1'.
func parseDescr(s string) (elem, error) {
	bad := func(reason string) (elem, error) {
		return elem{}, &FormatError{Reason: fmt.Sprintf("dtype %q: %s", s, reason)}
	}
	if len(s) < 3 {
		return bad("not a simple dtype (a byte order, a kind and a size, like '<f8')")
	}
	var e elem
	switch s[0] {
	case '<':
		e.order = binary.LittleEndian
	case '>':
		e.order = binary.BigEndian
	case '|', '=':
		e.order = binary.NativeEndian
	default:
		return bad("unknown byte order")
	}
	e.kind = kind(s[1])
	switch e.kind {
	case boolKind, signedKind, unsignedKind, floatKind:
	case 'c':
		return bad("complex numbers have no laze element type")
	default:
		return bad("not a numeric dtype laze can hold")
	}
	switch s[2:] {
	case "1", "2", "4", "8":
		e.size = int(s[2] - '0')
	default:
		return bad("unsupported size")
	}
	switch {
	case e.kind == boolKind && e.size != 1:
		return bad("a bool must be one byte")
	case e.kind == floatKind && e.size == 2:
		return bad("float16 has no laze element type; convert it with astype(np.float32) first")
	case e.kind == floatKind && e.size == 1:
		return bad("unsupported size")
	}
	return e, nil
}

// elemOf describes d (a sized dtype): its kind and size, little endian.
func elemOf(d tensor.DType) elem {
	e := elem{kind: unsignedKind, size: d.Size(), order: binary.LittleEndian}
	switch {
	case d == tensor.Bool:
		e.kind = boolKind
	case d.IsFloat():
		e.kind = floatKind
	case d.IsSigned():
		e.kind = signedKind
	}
	return e
}

// tensorDType is the dtype of the tensor a file's elements read into:
// the file's, with bool held as uint8.
func tensorDType(file tensor.DType) tensor.DType {
	if file == tensor.Bool {
		return tensor.Uint8
	}
	return file
}

// holds reports whether a tensor of T can take the file's elements as they
// are: the same dtype (a platform-sized type as its size), bool counting
// as uint8.
func holds[T tensor.Number](file tensor.DType) bool {
	return tensorDType(file) == tensor.DTypeOf[T]().Sized()
}

// bytesOf returns the memory of s as bytes.
func bytesOf[T tensor.Number](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// swapBytes reverses the bytes of each size-byte element of b in place.
func swapBytes(b []byte, size int) {
	for i := 0; i+size <= len(b); i += size {
		for j, k := i, i+size-1; j < k; j, k = j+1, k-1 {
			b[j], b[k] = b[k], b[j]
		}
	}
}

// nativeIsLittle reports the host's byte order.
var nativeIsLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// littleEndian is the byte order files are written in.
var littleEndian binary.ByteOrder = binary.LittleEndian

// needsSwap reports whether elements in order differ from the host's.
func needsSwap(order binary.ByteOrder, size int) bool {
	if size == 1 || order == binary.NativeEndian {
		return false
	}
	return (order == binary.LittleEndian) != nativeIsLittle
}
