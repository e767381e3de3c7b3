package kernels

import (
	"math"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels/internal/loops"
	"github.com/laze-go/laze/kernels/internal/vmath"
	"github.com/laze-go/laze/tensor"
)

// vmathApprox reports whether the evaluator's results for the tree e may
// differ from the oracle's in the last bits: e holds a float32 op that the
// lane loops compute with kernels/internal/vmath's float32 kernels
// (loops.ApproxFloat32: the unary functions, cbrt and arctan2 among them,
// where vmath.Approx32 says so: the AVX2 and AVX-512 assembly, arm64's
// NEON) or a float64 op that the selected level computes
// with a kernel of its own (loops.ApproxFloat64: most float64 functions at the AVX-512 level),
// which are within 4 ulp of the op table's results rather than equal to
// them. The differential tests then compare with
// vmathClose.
func vmathApprox(e expr.Node) bool {
	found := false
	expr.Walk(e, func(n expr.Node, _ int) bool {
		switch u := n.(type) {
		case *expr.Unary[float32]:
			found = found || vmath.Approx32() && loops.ApproxFloat32(u.Op)
		case *expr.Unary[float64]:
			found = found || loops.ApproxFloat64(u.Op)
		case *expr.Binary[float32]:
			found = found || vmath.Approx32() && loops.ApproxFloat32(u.Op)
		case *expr.Binary[float64]:
			found = found || loops.ApproxFloat64(u.Op)
		}
		return !found
	})
	return found
}

// vmathClose compares results computed through vmath's kernels of their own
// with the oracle's: NaNs equal, infinities equal, else within a relative
// tolerance of 1e-3 for float32 and 1e-9 for float64 (a few ulp, with room
// for the ops after them to magnify a difference, as a subtraction of near
// values does).
func vmathClose[T tensor.Number](a, b T) bool {
	if sameNumber(a, b) {
		return true
	}
	tol := 1e-3
	if _, ok := any(a).(float64); ok {
		tol = 1e-9
	}
	x, y := float64(a), float64(b)
	return math.Abs(x-y) <= tol*(1+math.Max(math.Abs(x), math.Abs(y)))
}
