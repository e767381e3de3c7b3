package expr_test

import (
	"fmt"
	"slices"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// Package functions build a tree; nothing runs until kernels evaluates it.
func Example() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3})
	b, _ := tensor.FromSlice([]float64{10, 20, 30}, []int{3})
	e := expr.Add(expr.Mul(expr.Name("a", a), expr.Name("b", b)), expr.Scalar(2.0)) // b broadcasts over rows
	fmt.Println(e, "has shape", e.Shape())
	out, err := kernels.Eval(e)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// ((a * b) + 2) has shape (2,3)
	// [[ 12.  42.  92.]
	//  [ 42. 102. 182.]]
}

// The fluent form reads left to right and builds the same tree.
func Example_fluent() {
	a := expr.Name("a", tensor.Arange[float64](0, 4, 1))
	b := expr.Name("b", tensor.Full(0.5, 4))
	e := expr.Of(a).Mul(b).AddScalar(2).ReLU()
	fmt.Println(e)
	out, _ := kernels.Eval(e)
	fmt.Println(out)
	// Output:
	// relu(((a * b) + 2))
	// [2.  2.5 3.  3.5]
}

// A scalar may stand on either side of a binary op.
func ExampleScalar() {
	x := expr.Name("x", tensor.Full[float32](4, 3))
	fmt.Println(expr.Div(expr.Scalar[float32](2), x), expr.Of(x).DivScalar(2), expr.Of(x).RDiv(2))
	// Output: (2 / x) (x / 2) (2 / x)
}

// Check infers a tree's shape and finds its faults without evaluating it.
func ExampleCheck() {
	a := expr.Name("a", tensor.Zeros[float64](2, 3))
	b := expr.Name("b", tensor.Zeros[float64](4))
	info, _ := expr.Check(expr.Add(a, expr.Scalar(1.0)))
	fmt.Println(info.Shape, info.Device)
	_, err := expr.Check(expr.Exponential(expr.Add(a, b)))
	fmt.Println(err)
	// Output:
	// (2,3) cpu
	// laze: Check: at node (a + b): add: shapes (2,3) and (4,) cannot be broadcast together (sizes disagree in result dimension 1)
}

// Walk visits a tree, parents first.
func ExampleWalk() {
	a := expr.Name("a", tensor.Zeros[int64](3))
	e := expr.Where(expr.Gt(a, expr.Scalar[int64](0)), a, expr.Neg(a))
	expr.Walk(e, func(n expr.Node, depth int) bool {
		fmt.Printf("%*s%v\n", 2*depth, "", n)
		return depth < 1
	})
	// Output:
	// where((a > 0), a, (-a))
	//   (a > 0)
	//   a
	//   (-a)
}

// Integer division follows NumPy's floor rule, and division by zero gives 0.
func ExampleDiv() {
	a, _ := tensor.FromSlice([]int64{7, -7, 7, -7, 5}, []int{5})
	b, _ := tensor.FromSlice([]int64{2, 2, -2, -2, 0}, []int{5})
	q, _ := kernels.Eval(expr.Div(a, b))
	r, _ := kernels.Eval(expr.Mod(a, b))
	fmt.Println(q, r)
	// Output: [ 3 -4 -4  3  0] [ 1  1 -1 -1  0]
}

// MatMul follows NumPy's matmul: a transposed operand is read as it lies,
// and the elementwise rest of the tree fuses around the product.
func ExampleMatMul() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, []int{3, 2}) // used as a.T(), (2,3)
	b, _ := tensor.FromSlice([]float64{1, 0, -1, 0, 1, 0}, []int{3, 2})
	bias, _ := tensor.FromSlice([]float64{0.5, -10}, []int{2})
	e := expr.ReLU(expr.Add(expr.MatMul(expr.Name("a.T", a.T()), expr.Name("b", b)), expr.Name("bias", bias)))
	fmt.Println(e, e.Shape())
	out, _ := kernels.Eval(e)
	fmt.Println(out)
	// Output:
	// relu(((a.T @ b) + bias)) (2,2)
	// [[3.5 0. ]
	//  [4.5 0. ]]
}

// Reductions take NumPy's axis and keepdims as options; inside a tree they
// are computed once.
func ExampleSum() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3})
	rows, _ := kernels.Eval(expr.Sum[float64](a, expr.Axis(-1)))
	all, _ := kernels.Eval(expr.Sum[float64](expr.Mul[float64](a, a)))
	centred, _ := kernels.Eval(expr.Sub[float64](a, expr.Mean[float64](a, expr.Axis(-1), expr.KeepDims())))
	fmt.Println(rows)
	fmt.Println(all)
	fmt.Println(centred)
	// Output:
	// [ 6. 15.]
	// 91.0
	// [[-1.  0.  1.]
	//  [-1.  0.  1.]]
}

// ArgMax gives int64 indices, the first on ties, as NumPy's.
func ExampleArgMax() {
	a, _ := tensor.FromSlice([]float32{3, 9, 9, 7, 1, 8}, []int{2, 3})
	flat, _ := kernels.Eval(expr.ArgMax[float32](a))
	rows, _ := kernels.Eval(expr.ArgMax[float32](a, expr.Axis(1)))
	fmt.Println(flat, rows)
	// Output:
	// 1 [1 2]
}

// Cast converts element types inside a tree with Go's conversion rules.
func ExampleCast() {
	counts, _ := tensor.FromSlice([]int64{1, 2, 3}, []int{3})
	scale, _ := tensor.FromSlice([]float64{0.5, 0.25, 0.125}, []int{3})
	out, _ := kernels.Eval(expr.Mul(expr.Cast[float64](counts), scale))
	fmt.Println(out)
	trunc, _ := kernels.Eval(expr.Cast[int32](tensor.Full(-2.7, 2)))
	fmt.Println(trunc)
	// Output:
	// [0.5   0.5   0.375]
	// [-2 -2]
}

// MulScalar takes its constant's type from x: the 2 is a float64 with no
// type argument, where expr.Mul(x, expr.Scalar(2)) would make it an int and
// not compile. Every binary op has its XxxScalar function.
func ExampleMulScalar() {
	x, _ := tensor.FromSlice([]float64{0.5, 1.5, 2.5}, []int{3})
	out, _ := kernels.Eval(expr.MulScalar(x, 2))
	fmt.Println(out)
	// Output: [1. 3. 5.]
}

// Every constructor returns Exp[T], so one variable can take node after
// node in a loop.
func Example_loop() {
	var e expr.Exp[float64] = expr.Name("x", tensor.Arange[float64](0, 3, 1))
	for range 2 {
		e = expr.AddScalar(expr.Neg(e), 1)
	}
	out, _ := kernels.Eval(e)
	fmt.Println(e, out)
	// Output: ((-((-x) + 1)) + 1) [0. 1. 2.]
}

// Rint rounds halves to even, as NumPy's rint and round do; Floor and
// Trunc differ on negative values.
func ExampleRint() {
	x, _ := tensor.FromSlice([]float64{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5}, []int{6})
	for _, e := range []expr.Exp[float64]{expr.Rint(x), expr.Floor(x), expr.Trunc(x)} {
		out, _ := kernels.Eval(e)
		fmt.Println(out)
	}
	// Output:
	// [-2. -2. -0.  0.  2.  2.]
	// [-3. -2. -1.  0.  1.  2.]
	// [-2. -1. -0.  0.  1.  2.]
}

// Unwrap finds the node under names and chains: here the add.
func ExampleUnwrap() {
	x := tensor.Ones[float64](2)
	e := expr.Name("total", expr.Of(x).AddScalar(1))
	_, isAdd := expr.Unwrap(e).(*expr.Binary[float64])
	fmt.Println(e, isAdd)
	// Output: total true
}

// StopGradient keeps its operand's value and hides it from package grad:
// the loss is sum(x²), but its gradient is x rather than 2x, since the
// second factor counts as a constant.
func ExampleStopGradient() {
	x, _ := tensor.FromSlice([]float64{1, 2, 3}, []int{3})
	loss := expr.Sum(expr.Mul(x, expr.StopGradient[float64](x)))
	g, err := grad.Of(loss, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	l, _ := kernels.Eval(loss)
	dx, _ := kernels.Eval(g[0])
	fmt.Println(l.Item(), dx)
	// Output: 14 [1. 2. 3.]
}

// Apply and OpParts let code treat every op node alike: here a rewrite
// swaps the operands of each op node of a tree, whatever its op.
func ExampleApply() {
	a, b := tensor.Zeros[float64](2), tensor.Zeros[float64](2)
	var swap func(e expr.Exp[float64]) expr.Exp[float64]
	swap = func(e expr.Exp[float64]) expr.Exp[float64] {
		n, ok := e.(expr.Elementwise[float64])
		if !ok {
			return e
		}
		op, xs, k := n.OpParts()
		args := xs[:k]
		for i := range args {
			args[i] = swap(args[i])
		}
		slices.Reverse(args)
		return expr.Apply(op, args...)
	}
	e := expr.Sub(expr.Name("a", a), expr.Div(expr.Name("b", b), expr.Scalar(2.0)))
	fmt.Println(e)
	fmt.Println(swap(e))
	// Output:
	// (a - (b / 2))
	// ((2 / b) - a)
}
