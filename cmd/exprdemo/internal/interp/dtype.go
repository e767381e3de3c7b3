package interp

import "fmt"

// DType is an element type as NumPy names it. Bool is held as uint8 (0 or
// 1) but promotes as NumPy's bool.
type DType int

// The dtypes, in NumPy's order of kinds.
const (
	Bool DType = iota
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
)

var dtypeNames = [...]string{"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}

// String returns NumPy's name.
func (d DType) String() string {
	if d < 0 || int(d) >= len(dtypeNames) {
		return fmt.Sprintf("dtype(%d)", int(d))
	}
	return dtypeNames[d]
}

// ParseDType reads a NumPy dtype name.
func ParseDType(s string) (DType, bool) {
	for i, n := range dtypeNames {
		if n == s {
			return DType(i), true
		}
	}
	return 0, false
}

// DTypeNames lists the dtype names, for messages.
func DTypeNames() []string { return dtypeNames[:] }

func (d DType) isFloat() bool    { return d == Float32 || d == Float64 }
func (d DType) isSigned() bool   { return d >= Int8 && d <= Int64 }
func (d DType) isUnsigned() bool { return d >= Uint8 && d <= Uint64 }
func (d DType) isInteger() bool  { return d.isSigned() || d.isUnsigned() }

// bits is the element size in bits (8 for bool).
func (d DType) bits() int {
	switch d {
	case Int8, Uint8, Bool:
		return 8
	case Int16, Uint16:
		return 16
	case Int32, Uint32, Float32:
		return 32
	}
	return 64
}

func signedOf(bits int) DType {
	return map[int]DType{8: Int8, 16: Int16, 32: Int32, 64: Int64}[bits]
}

// promote returns NumPy's result type for two arrays of dtypes a and b
// (np.promote_types).
func promote(a, b DType) DType {
	switch {
	case a == b:
		return a
	case a == Bool:
		return b
	case b == Bool:
		return a
	case a.isFloat() && b.isFloat():
		return max(a, b)
	case a.isFloat() || b.isFloat():
		f, i := a, b
		if b.isFloat() {
			f, i = b, a
		}
		if f == Float32 && i.bits() <= 16 {
			return Float32
		}
		return Float64
	case a.isSigned() == b.isSigned():
		return max(a, b)
	}
	s, u := a, b
	if b.isSigned() {
		s, u = b, a
	}
	switch {
	case s.bits() > u.bits():
		return s
	case u.bits() < 64:
		return signedOf(2 * u.bits())
	}
	return Float64
}

// floatFor is the dtype NumPy computes a float function (exp, sqrt, /…) of
// d in: d itself for floats; float32 for bool and 8- and 16-bit integers
// (NumPy uses float16 for the 8-bit ones, which laze does not have);
// float64 otherwise.
func floatFor(d DType) DType {
	switch {
	case d.isFloat():
		return d
	case d.bits() <= 16:
		return Float32
	}
	return Float64
}

// sumFor is the dtype NumPy sums and multiplies d in: integers narrower
// than 64 bits widen to int64 (uint64 for unsigned), bool to int64.
func sumFor(d DType) DType {
	switch {
	case d == Bool || d.isSigned():
		return Int64
	case d.isUnsigned():
		return Uint64
	}
	return d
}
