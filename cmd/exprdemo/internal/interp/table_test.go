package interp

import (
	"slices"
	"strings"
	"testing"

	"github.com/laze-go/laze/internal/ops"
)

// TestEveryOpHasAFunction fails when an op of the table has no CLI function
// under one of its names, when the function does not evaluate on float64
// and int32 arrays (int32 alone for the ops defined on integers only,
// which must refuse floats), or when the usage text's list leaves the name
// out; a truth op's result must be bool.
func TestEveryOpHasAFunction(t *testing.T) {
	in := testInputs(t)
	listed := ElementwiseNames()
	for _, op := range ops.All() {
		for _, name := range CLINames(op) {
			f, ok := functions[name]
			if !ok {
				t.Errorf("%v: no CLI function %q", op, name)
				continue
			}
			// where also takes one argument, np.where(cond) (searching.go).
			if f.min != op.Arity() && !(name == "where" && f.min == 1) || f.max != op.Arity() {
				t.Errorf("%s takes %d to %d arguments, the op %d", name, f.min, f.max, op.Arity())
			}
			if !slices.Contains(listed, name) {
				t.Errorf("the usage text's list leaves out %s", name)
			}
			for _, x := range []string{"a", "i"} {
				args := slices.Repeat([]string{x}, op.Arity())
				if op == ops.Ldexp {
					args[1] = "i" // the exponent is an integer
				}
				src := name + "(" + strings.Join(args, ", ") + ")"
				r, err := Run(src, in, false)
				if x == "a" && op.Def().Domain == ops.IntOnly {
					if err == nil {
						t.Errorf("%s: no error for floats, where NumPy has no loop", src)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", src, err)
					continue
				}
				if op.Def().Truth && r.DType != Bool {
					t.Errorf("%s: dtype %s, want bool", src, r.DType)
				}
			}
		}
	}
}
