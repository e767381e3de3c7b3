package expr_test

import (
	"fmt"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// Einsum takes NumPy's subscripts; the tree it builds is MatMul, views
// and Sum, so "ij,jk->ik" is the matrix product itself and a trace a sum
// over a diagonal view.
func ExampleEinsum() {
	a, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	b, _ := tensor.Arange[float64](0, 12, 1).View(3, 4)
	m, _ := tensor.Arange[float64](0, 9, 1).View(3, 3)
	for _, e := range []expr.Exp[float64]{
		expr.Einsum[float64]("ij,jk->ik", a, b),       // np.einsum('ij,jk->ik', a, b): a @ b
		expr.Einsum[float64]("ii", m),                 // np.einsum('ii', m): the trace
		expr.Einsum[float64]("ij,ij->i", a, a),        // row-wise dot products
		expr.Einsum[float64]("ij,jk,kl", a, b, b.T()), // a chain, contracted greedily
	} {
		out, _ := kernels.Eval(e)
		fmt.Println(e)
		fmt.Println(out)
	}
	// Output:
	// (tensor(2,3) @ tensor(3,4))
	// [[20. 23. 26. 29.]
	//  [56. 68. 80. 92.]]
	// sum(tensor(3,3).diagonal(0, 0, 1), axis=0)
	// 12.0
	// sum((tensor(2,3) * tensor(2,3)), axis=1)
	// [ 5. 50.]
	// ((tensor(2,3) @ tensor(3,4)) @ tensor(4,3))
	// [[ 162.  554.  946.]
	//  [ 504. 1688. 2872.]]
}

// Dot, Inner and Tensordot follow numpy.dot, numpy.inner and
// numpy.tensordot; each is one GEMM between views of its operands.
func ExampleTensordot() {
	a, _ := tensor.Arange[float64](0, 24, 1).View(2, 3, 4)
	b, _ := tensor.Arange[float64](0, 12, 1).View(4, 3)
	v, _ := tensor.FromSlice([]float64{1, 2, 3}, []int{3})
	for _, e := range []expr.Exp[float64]{
		expr.Tensordot[float64](a, b, []int{1, 2}, []int{1, 0}), // np.tensordot(a, b, axes=([1, 2], [1, 0]))
		expr.TensordotN[float64](b, v, 1),                       // np.tensordot(b, v, axes=1)
		expr.Dot[float64](a, b),                                 // np.dot(a, b): a's last axis against b's second-to-last
		expr.Inner[float64](v, v),                               // np.inner(v, v)
	} {
		out, _ := kernels.Eval(e)
		fmt.Println(out)
	}
	// Output:
	// [ 440. 1232.]
	// [ 8. 26. 44. 62.]
	// [[[ 42.  48.  54.]
	//   [114. 136. 158.]
	//   [186. 224. 262.]]
	//
	//  [[258. 312. 366.]
	//   [330. 400. 470.]
	//   [402. 488. 574.]]]
	// 14.0
}
