package ops

import (
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// RefusesNegativeExponent reports whether Pow on T refuses a negative
// exponent: T is a signed integer type. NumPy raises "Integers to negative
// integer powers are not allowed" for integer arrays; laze's evaluators
// return NegativeExponentError before writing anything (expr.Check for a
// constant exponent, package kernels for any other). Unsigned exponents
// cannot be negative, and a float base takes any exponent. Apply and the
// generated loops stay total: for a negative exponent they give the
// integer part of the real result, which no evaluator lets through.
func RefusesNegativeExponent[T tensor.Number]() bool {
	var zero T
	return !tensor.IsFloat[T]() && zero-1 < zero
}

// NegativeExponentError is the error of an integer raised to a negative
// integer power: value is the exponent at fault and index, when not nil,
// its index in the exponent operand.
func NegativeExponentError(value any, index []int) error {
	name := "exponent"
	if index != nil {
		name = "exponent at index " + shape.FormatInts(index)
	}
	return &shape.ArgumentError{Op: Pow.String(), Name: name, Value: value,
		Reason: "integers to negative integer powers are not allowed (as NumPy); cast the base to a float type"}
}
