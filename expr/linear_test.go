package expr_test

import (
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/lineartest"
	"github.com/laze-go/laze/tensor"
)

// linearDepth is the depth of the deepest trees of the tests that check
// that a pass takes work linear in the depth (lineartest.Linear compares it
// with half of it).
const linearDepth = 10000

// viewChains are chains of views, alone or between elementwise nodes, over
// a named tensor plus one: the shape of the trees of the command exprdemo
// (its inputs are named), which PushViews rewrites into one elementwise
// node over one tensor view. want is the rewritten tree, printed.
var viewChains = []struct {
	name  string
	dims  []int
	depth int
	link  func(e expr.Exp[float64]) expr.Exp[float64]
	want  func(depth int) string
}{
	{"subscripts", []int{3}, linearDepth, func(e expr.Exp[float64]) expr.Exp[float64] {
		return expr.Slice(e, 0, tensor.None, tensor.None, -1)
	}, func(depth int) string { return "(a" + strings.Repeat("[::-1]", depth) + " + 1)" }},
	{"T", []int{3, 2}, linearDepth, func(e expr.Exp[float64]) expr.Exp[float64] { return expr.T(e) },
		func(depth int) string { return "(a" + strings.Repeat(".T", depth) + " + 1)" }},
	// Before, the work of this one grew with the cube of the depth (names
	// of every length rendered at every level): 2,000 took minutes.
	{"clip between subscripts", []int{3}, 2000, func(e expr.Exp[float64]) expr.Exp[float64] {
		return expr.Slice(expr.ClampScalar(e, 0, 9), 0, tensor.None, tensor.None, -1)
	}, func(depth int) string {
		return strings.Repeat("clip(", depth) + "(a" + strings.Repeat("[::-1]", depth) + " + 1)" + strings.Repeat(", 0, 9)", depth)
	}},
}

// TestPushViewsIsLinear checks that PushViews takes work linear in the
// depth of a chain of views: it pushed each view through the nodes below
// it already rewritten (clip(clip(x)[::-1])[::-1]… cost O(depth²) nodes),
// and named each pushed view of a named tensor by all the views above it,
// each name a copy of the one below (10,000 chained subscripts allocated
// 350 MB).
func TestPushViewsIsLinear(t *testing.T) {
	for _, c := range viewChains {
		t.Run(c.name, func(t *testing.T) {
			a := expr.Name("a", expr.Of(tensor.Full[float64](1, c.dims...)))
			lineartest.Linear(t, c.depth, func(depth int) {
				e := expr.AddScalar(a, 1)
				for range depth {
					e = c.link(e)
				}
				got, err := expr.PushViews(e)
				if err != nil {
					t.Fatal(err)
				}
				if s, want := expr.Render(got), c.want(depth); s != want {
					t.Fatalf("depth %d: PushViews = %.60s… (%d bytes), want %.60s… (%d bytes)", depth, s, len(s), want, len(want))
				}
			})
		})
	}
}
