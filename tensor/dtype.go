package tensor

import (
	"unsafe"

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

// DType returns the name of T as NumPy spells it: "float64", "int32",
// "uint8"; "int", "uint" and "uintptr" for Go's platform-sized types.
func DType[T Number]() string {
	var zero T
	switch any(zero).(type) {
	case float32:
		return "float32"
	case float64:
		return "float64"
	case int8:
		return "int8"
	case int16:
		return "int16"
	case int32:
		return "int32"
	case int64:
		return "int64"
	case int:
		return "int"
	case uint8:
		return "uint8"
	case uint16:
		return "uint16"
	case uint32:
		return "uint32"
	case uint64:
		return "uint64"
	case uint:
		return "uint"
	case uintptr:
		return "uintptr"
	}
	return underlyingName[T]()
}

// underlyingName names a type defined on a Number (type Celsius float64) by
// its underlying kind.
func underlyingName[T Number]() string {
	var zero T
	if IsFloat[T]() {
		if unsafe.Sizeof(zero) == 4 {
			return "float32"
		}
		return "float64"
	}
	signed := zero-1 < zero
	name := "uint"
	if signed {
		name = "int"
	}
	switch unsafe.Sizeof(zero) {
	case 1:
		return name + "8"
	case 2:
		return name + "16"
	case 4:
		return name + "32"
	}
	return name + "64"
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
