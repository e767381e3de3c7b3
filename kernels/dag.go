package kernels

import (
	"reflect"

	"github.com/laze-go/laze/expr"
)

// Expression trees are graphs: a node may be the operand of several others
// (the same pointer used twice, as gradient trees reuse their forward
// nodes). The lowering computes such a node once per element (lowering.node
// memoises op nodes by pointer, and the evaluation computes each reduction,
// product, scan or concatenation once per call), the plan cache's signature
// says which nodes are shared (describeNode), and the walks below visit a
// shared node's operands once.

// walkLimit is the number of nodes walkOnce visits before it starts
// remembering them: a small tree is walked as it is, without the cost of
// a set, and a large graph is walked in time linear in its distinct nodes.
const walkLimit = 256

// walkOnce calls fn on e and the nodes below it, parents before operands,
// as expr.Walk does, but skips the operands of a node met before (once it
// has visited walkLimit nodes): fn may see a node more than once, and must
// only collect. fn returning false skips the node's operands.
func walkOnce(e expr.Node, fn func(n expr.Node) bool) {
	visits := 0
	var seen map[expr.Node]struct{}
	expr.Walk(e, func(n expr.Node, _ int) bool {
		if visits++; visits > walkLimit && isPointer(n) {
			if seen == nil {
				seen = map[expr.Node]struct{}{}
			}
			if _, ok := seen[n]; ok {
				return false
			}
			seen[n] = struct{}{}
		}
		return fn(n)
	})
}

// isPointer reports whether n is a non-nil pointer, which can key a map.
func isPointer(n expr.Node) bool {
	if n == nil {
		return false
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && !v.IsNil()
}
