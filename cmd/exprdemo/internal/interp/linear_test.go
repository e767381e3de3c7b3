package interp

import (
	"strings"
	"testing"
)

// TestWorkIsLinear checks, without timing anything, that building and
// evaluating an expression costs work in proportion to its length: the
// allocations of an expression twice as long must be about twice as many
// (at most 2.5 times), where a cost quadratic in the length would give 4
// times and an exponential one far more. Each case once was super-linear:
// a view's shape asked of its node, which checks the whole tree below it;
// a sole subscript item evaluated twice, so that nested subscripts cost
// 2^depth.
func TestWorkIsLinear(t *testing.T) {
	in := testInputs(t)
	tests := []struct {
		name string
		n    int
		src  func(n int) string
	}{
		{"chained subscripts of a computed value", 200, func(n int) string { return "(a+1)" + strings.Repeat("[::-1]", n) }},
		{"chained subscripts of an input", 200, func(n int) string { return "a" + strings.Repeat("[::-1]", n) }},
		{"chained .T of a computed value", 200, func(n int) string { return "(a+1)" + strings.Repeat(".T", n) }},
		{"chained transpose", 200, func(n int) string { return "(a+1)" + strings.Repeat(".transpose()", n) }},
		{"chained reshape", 200, func(n int) string { return "(a+1)" + strings.Repeat(".reshape(-1)", n) }},
		{"chained None subscripts", 100, func(n int) string { return "(a+1)" + strings.Repeat("[None][0]", n) }},
		{"nested failing subscripts", 12, func(n int) string { return strings.Repeat("a[", n) + "zz" + strings.Repeat("]", n) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := func(n int) float64 {
				src := tt.src(n)
				return testing.AllocsPerRun(2, func() { _, _ = Run(src, in, false) })
			}
			small, large := work(tt.n), work(2*tt.n)
			if large > 2.5*small {
				t.Errorf("%d allocations at length %d, %d at twice the length: %.1f times as many, want at most 2.5", int(small), tt.n, int(large), large/small)
			}
		})
	}
}
