package ops

import (
	"fmt"
	"math"

	"github.com/laze-go/laze/tensor"
)

// Reducer names one reduction (sum, argmax…). The zero Reducer is invalid.
type Reducer uint8

// The reductions.
const (
	InvalidReducer Reducer = iota
	Sum
	Mean
	Prod
	Max
	Min
	ArgMax
	ArgMin

	reducerCount
)

// Identity is the value a reduction starts from.
type Identity uint8

const (
	// Zero starts sums.
	Zero Identity = iota
	// One starts products.
	One
	// Lowest starts maxima: -Inf for floats, the type's minimum for integers.
	Lowest
	// Highest starts minima: +Inf for floats, the type's maximum for integers.
	Highest
)

// ReducerDef is one row of the reduction table. A reduction folds the
// reduced elements with Combine, an elementwise op of the op table (so the
// CPU loops and the CUDA source share its definition), starting from
// Identity. Arg reductions keep the index of the element Combine picks, the
// first one on ties, a NaN before any number.
type ReducerDef struct {
	Name      string   // NumPy's name: "sum", "argmax"
	Combine   Op       // the elementwise op that folds two partial results
	Identity  Identity // the starting value
	Arg       bool     // the result is the index of the chosen element (int64)
	Average   bool     // the sum is divided by the number of elements reduced (mean)
	NeedsData bool     // a reduction over no elements is an error (no identity in NumPy)
	Domain    Domain   // element types accepted
}

var reducers = [reducerCount]ReducerDef{
	Sum:    {Name: "sum", Combine: Add, Identity: Zero},
	Mean:   {Name: "mean", Combine: Add, Identity: Zero, Average: true, NeedsData: true, Domain: FloatOnly},
	Prod:   {Name: "prod", Combine: Mul, Identity: One},
	Max:    {Name: "max", Combine: Maximum, Identity: Lowest, NeedsData: true},
	Min:    {Name: "min", Combine: Minimum, Identity: Highest, NeedsData: true},
	ArgMax: {Name: "argmax", Combine: Maximum, Identity: Lowest, Arg: true, NeedsData: true},
	ArgMin: {Name: "argmin", Combine: Minimum, Identity: Highest, Arg: true, NeedsData: true},
}

// Def returns r's row of the reduction table. It panics when r is invalid.
func (r Reducer) Def() ReducerDef {
	if !r.Valid() {
		panic(fmt.Sprintf("laze: ops: invalid reducer %d", uint8(r)))
	}
	return reducers[r]
}

// Valid reports whether r is one of the defined reductions.
func (r Reducer) Valid() bool { return r > InvalidReducer && r < reducerCount }

// String returns the reduction's name, or "reducer(N)" for an invalid one.
func (r Reducer) String() string {
	if !r.Valid() {
		return fmt.Sprintf("reducer(%d)", uint8(r))
	}
	return reducers[r].Name
}

// Reducers returns every valid reduction, in table order.
func Reducers() []Reducer {
	all := make([]Reducer, 0, reducerCount-1)
	for r := InvalidReducer + 1; r < reducerCount; r++ {
		all = append(all, r)
	}
	return all
}

// Start returns the identity id as a value of T.
func Start[T tensor.Number](id Identity) T {
	switch id {
	case One:
		return 1
	case Lowest:
		return lowest[T]()
	case Highest:
		return highest[T]()
	}
	return 0
}

func lowest[T tensor.Number]() T {
	switch {
	case tensor.IsFloat[T]():
		return T(math.Inf(-1))
	case isUnsigned[T]():
		return 0
	}
	v := int64(-1) << (8*tensor.ItemSize[T]() - 1)
	return T(v)
}

func highest[T tensor.Number]() T {
	switch {
	case tensor.IsFloat[T]():
		return T(math.Inf(1))
	case isUnsigned[T]():
		v := ^uint64(0)
		return T(v)
	}
	v := int64(-1) << (8*tensor.ItemSize[T]() - 1)
	return T(^v)
}

func isUnsigned[T tensor.Number]() bool {
	var zero T
	return zero-1 > 0
}

// ArgBetter reports whether element v at index vi replaces best at index bi
// as the element an arg reduction keeps, combine being Maximum (argmax) or
// Minimum (argmin): a NaN beats any number, and of two equal elements (or
// two NaNs) the one with the lower index wins, so the result is the first
// such element whatever order the elements are visited in. Start from the
// reduction's identity at index math.MaxInt64. Prelude's laze_better is the
// same rule in CUDA.
func ArgBetter[T tensor.Number](combine Op, v T, vi int64, best T, bi int64) bool {
	vNaN, bNaN := v != v, best != best
	switch {
	case vNaN || bNaN:
		if vNaN && bNaN {
			return vi < bi
		}
		return vNaN
	case v == best:
		return vi < bi
	case combine == Maximum:
		return v > best
	}
	return v < best
}
