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
// lane loops compute with kernels/internal/vmath's float32 polynomials (exp, log,
// tanh, sigmoid, sin and cos where vmath.Approx32 says so: the AVX2
// assembly, arm64's NEON), which are within 4 ulp of the op table's results
// rather than equal to them. The differential tests then compare with
// vmathClose.
func vmathApprox(e expr.Node) bool {
	if !vmath.Approx32() {
		return false
	}
	found := false
	expr.Walk(e, func(n expr.Node, _ int) bool {
		if u, ok := n.(*expr.Unary[float32]); ok && loops.ApproxFloat32(u.Op) {
			found = true
		}
		return !found
	})
	return found
}

// vmathClose compares results computed through vmath's float32 polynomials
// with the oracle's: NaNs equal, infinities equal, else within a relative
// tolerance of 1e-3 (a few float32 ulp, with room for the ops after them to
// magnify a difference, as a subtraction of near values does).
func vmathClose[T tensor.Number](a, b T) bool {
	if sameNumber(a, b) {
		return true
	}
	x, y := float64(a), float64(b)
	return math.Abs(x-y) <= 1e-3*(1+math.Max(math.Abs(x), math.Abs(y)))
}
