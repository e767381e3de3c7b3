package interp

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

// TestDepthLimits checks that Run and Grad accept an expression at their
// depth limit and refuse one a level deeper, promptly (before any work
// that grows with the square of the depth), with the limit in the message.
func TestDepthLimits(t *testing.T) {
	chain := func(depth int) string { return "a" + strings.Repeat(".T", depth) }
	in := testInputs(t)
	for _, tt := range []struct {
		cmd   string
		limit int
		run   func(src string) error
	}{
		{"eval", MaxEvalDepth, func(src string) error { _, err := Run(src, in, false); return err }},
		{"grad", MaxGradDepth, func(src string) error { _, err := Grad(src, in, []string{"a"}, GradOptions{}); return err }},
	} {
		if _, err := parseWithin(chain(tt.limit), tt.limit, tt.cmd); err != nil {
			t.Errorf("%s at its limit, %d: %v", tt.cmd, tt.limit, err)
		}
		err := tt.run(chain(tt.limit + 1))
		want := &Error{Pos: 0, End: 1 + 2*(tt.limit+1), Msg: fmt.Sprintf("the expression is %d operations deep (one applied over another: a + b + c is 2, x[0][1] is 2); %s accepts at most %d", tt.limit+1, tt.cmd, tt.limit)}
		var got *Error
		if !errors.As(err, &got) {
			t.Fatalf("%s at %d: %v, want an *Error", tt.cmd, tt.limit+1, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s at %d (-want +got):\n%s", tt.cmd, tt.limit+1, diff)
		}
	}
}
