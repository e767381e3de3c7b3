package tensor

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/laze-go/laze/shape"

	"golang.org/x/exp/constraints"
)

// Number is the set of element types a Tensor can hold: every Go integer and
// floating-point type, and types defined on them.
type Number interface {
	constraints.Integer | constraints.Float
}

// Float is the set of floating-point element types, for operations that only
// make sense on them (Rand, Randn).
type Float = constraints.Float

// Integer is the set of integer element types, for the operations NumPy
// defines on integers only (the bitwise ops, the shifts, gcd and lcm).
type Integer = constraints.Integer

// DType is an element type as a value: what a Tensor[T] holds, what an .npy
// file stores, what the CLI computes in and what a device backend is asked
// for. Its String is NumPy's name. Bool is no Tensor element type (a
// boolean array is held as uint8 0 or 1) but a dtype files and the CLI
// name. Int, Uint and Uintptr are Go's platform-sized types. The zero value
// is Invalid. Within each kind the constants are ordered by size (Int8 <
// Int16 < Int32 < Int64, Uint8 < … < Uint64, Float32 < Float64), which
// promotion rules use.
type DType uint8

// The dtypes.
const (
	Invalid DType = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float32
	Float64
	Int
	Uint
	Uintptr
)

// dtypeInfo is a dtype's name and size.
var dtypeInfo = [...]struct {
	name string
	size int
}{
	Invalid: {"invalid", 0}, Bool: {"bool", 1},
	Int8: {"int8", 1}, Int16: {"int16", 2}, Int32: {"int32", 4}, Int64: {"int64", 8},
	Uint8: {"uint8", 1}, Uint16: {"uint16", 2}, Uint32: {"uint32", 4}, Uint64: {"uint64", 8},
	Float32: {"float32", 4}, Float64: {"float64", 8},
	Int: {"int", int(unsafe.Sizeof(int(0)))}, Uint: {"uint", int(unsafe.Sizeof(uint(0)))},
	Uintptr: {"uintptr", int(unsafe.Sizeof(uintptr(0)))},
}

// String returns NumPy's name ("float64", "int32", "bool"; "int", "uint"
// and "uintptr" for Go's platform-sized types).
func (d DType) String() string {
	if int(d) >= len(dtypeInfo) {
		return fmt.Sprintf("dtype(%d)", uint8(d))
	}
	return dtypeInfo[d].name
}

// Size returns the size of one element in bytes (1 for Bool, 0 for
// Invalid).
func (d DType) Size() int {
	if int(d) >= len(dtypeInfo) {
		return 0
	}
	return dtypeInfo[d].size
}

// Bits returns the size of one element in bits.
func (d DType) Bits() int { return 8 * d.Size() }

// IsFloat reports whether d is Float32 or Float64.
func (d DType) IsFloat() bool { return d == Float32 || d == Float64 }

// IsSigned reports whether d is a signed integer type.
func (d DType) IsSigned() bool { return d >= Int8 && d <= Int64 || d == Int }

// IsUnsigned reports whether d is an unsigned integer type.
func (d DType) IsUnsigned() bool { return d >= Uint8 && d <= Uint64 || d == Uint || d == Uintptr }

// IsInteger reports whether d is an integer type (Bool is not).
func (d DType) IsInteger() bool { return d.IsSigned() || d.IsUnsigned() }

// Sized returns d with a platform-sized type (Int, Uint, Uintptr) replaced
// by the fixed-size type of its size on this platform: what a file or a
// device holds.
func (d DType) Sized() DType {
	switch d {
	case Int:
		return SignedOf(d.Bits())
	case Uint, Uintptr:
		return UnsignedOf(d.Bits())
	}
	return d
}

// SignedOf returns the signed integer dtype of bits bits (8, 16, 32, 64), or
// Invalid.
func SignedOf(bits int) DType {
	switch bits {
	case 8:
		return Int8
	case 16:
		return Int16
	case 32:
		return Int32
	case 64:
		return Int64
	}
	return Invalid
}

// UnsignedOf returns the unsigned integer dtype of bits bits, or Invalid.
func UnsignedOf(bits int) DType {
	if s := SignedOf(bits); s != Invalid {
		return s - Int8 + Uint8
	}
	return Invalid
}

// ParseDType reads a dtype's name (as String writes it); an unknown name is
// an *shape.ArgumentError listing the names.
func ParseDType(name string) (DType, error) {
	for d := Bool; int(d) < len(dtypeInfo); d++ {
		if dtypeInfo[d].name == name {
			return d, nil
		}
	}
	return Invalid, &shape.ArgumentError{Op: "ParseDType", Name: "name", Value: name,
		Reason: "not a dtype; the dtypes are " + strings.Join(DTypeNames(), ", ")}
}

// DTypeNames lists every dtype's name but Invalid's, in order.
func DTypeNames() []string {
	names := make([]string, 0, len(dtypeInfo)-1)
	for d := Bool; int(d) < len(dtypeInfo); d++ {
		names = append(names, d.String())
	}
	return names
}

// DTypeOf returns T's dtype. A type defined on a Number (type Celsius
// float64) has the dtype of its underlying type's size and kind.
func DTypeOf[T Number]() DType {
	var zero T
	switch any(zero).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case int:
		return Int
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case uint:
		return Uint
	case uintptr:
		return Uintptr
	}
	return underlyingDType[T]()
}

// underlyingDType is the dtype of a type defined on a Number, by its
// underlying kind and size.
func underlyingDType[T Number]() DType {
	var zero T
	bits := 8 * int(unsafe.Sizeof(zero))
	switch {
	case IsFloat[T]() && bits == 32:
		return Float32
	case IsFloat[T]():
		return Float64
	case zero-1 < zero:
		return SignedOf(bits)
	}
	return UnsignedOf(bits)
}

// ItemSize returns the size of one element of T in bytes.
func ItemSize[T Number]() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// IsFloat reports whether T is a floating-point type (float32, float64 or
// a type defined on one). It is a constant in each instantiation, so branches
// on it cost nothing in compiled loops.
func IsFloat[T Number]() bool {
	var half T = T(1) / 2 // becomes 0 for integers, without a conversion from a float constant
	return half != 0
}
