package ops_test

import (
	"fmt"

	"github.com/laze-go/laze/internal/ops"
)

// Each op is one row of the table: its name, arity and domain, its cost,
// and the Go and CUDA expressions over its operands a, b, c. The CPU loops
// (make generate) and the CUDA kernels are both written from the row.
func ExampleOp_Def() {
	d := ops.Sigmoid.Def()
	fmt.Printf("%s arity=%d float-only=%v cost=%d\nGo:   %s\nCUDA: %s\n",
		d.Name, d.Arity, d.Domain == ops.FloatOnly, d.Cost, d.Go, d.CUDA)
	// Output:
	// sigmoid arity=1 float-only=true cost=16
	// Go:   T(1 / (1 + math.Exp(-float64(a))))
	// CUDA: laze_sigmoid(a)
}
