package interp

import (
	"slices"

	"github.com/laze-go/laze/tensor"
)

// DType is an element type: laze's one dtype value (tensor.DType). Bool is
// held as uint8 (0 or 1) but promotes as NumPy's bool.
type DType = tensor.DType

// The dtypes the CLI computes in, in NumPy's order of kinds.
const (
	Bool    = tensor.Bool
	Int8    = tensor.Int8
	Int16   = tensor.Int16
	Int32   = tensor.Int32
	Int64   = tensor.Int64
	Uint8   = tensor.Uint8
	Uint16  = tensor.Uint16
	Uint32  = tensor.Uint32
	Uint64  = tensor.Uint64
	Float32 = tensor.Float32
	Float64 = tensor.Float64
)

// dtypes lists the CLI's dtypes (no platform-sized ones: NumPy's int is
// int64).
var dtypes = []DType{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float32, Float64}

// ParseDType reads the name of one of the CLI's dtypes.
func ParseDType(s string) (DType, bool) {
	d, err := tensor.ParseDType(s)
	return d, err == nil && slices.Contains(dtypes, d)
}

// DTypeNames lists the CLI's dtype names, for messages.
func DTypeNames() []string {
	names := make([]string, len(dtypes))
	for i, d := range dtypes {
		names[i] = d.String()
	}
	return names
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
	case a.IsFloat() && b.IsFloat():
		return max(a, b)
	case a.IsFloat() || b.IsFloat():
		f, i := a, b
		if b.IsFloat() {
			f, i = b, a
		}
		if f == Float32 && i.Bits() <= 16 {
			return Float32
		}
		return Float64
	case a.IsSigned() == b.IsSigned():
		return max(a, b)
	}
	s, u := a, b
	if b.IsSigned() {
		s, u = b, a
	}
	switch {
	case s.Bits() > u.Bits():
		return s
	case u.Bits() < 64:
		return tensor.SignedOf(2 * u.Bits())
	}
	return Float64
}

// floatFor is the dtype NumPy computes a float function (exp, sqrt, /…) of
// d in: d itself for floats; float32 for bool and 8- and 16-bit integers
// (NumPy uses float16 for the 8-bit ones, which laze does not have);
// float64 otherwise.
func floatFor(d DType) DType {
	switch {
	case d.IsFloat():
		return d
	case d.Bits() <= 16:
		return Float32
	}
	return Float64
}

// sumFor is the dtype NumPy sums and multiplies d in: integers narrower
// than 64 bits widen to int64 (uint64 for unsigned), bool to int64.
func sumFor(d DType) DType {
	switch {
	case d == Bool || d.IsSigned():
		return Int64
	case d.IsUnsigned():
		return Uint64
	}
	return d
}
