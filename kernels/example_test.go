package kernels_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Build a tree (nothing runs), then evaluate it in one fused pass into a
// transposed view of another tensor.
func Example() {
	m, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	bias, _ := tensor.FromSlice([]float64{10, 20, 30}, []int{3})
	e := expr.Of(m).MulScalar(2).Add(bias).ReLU() // built, not computed
	fmt.Println(e)

	out := tensor.Zeros[float64](3, 2)
	if err := kernels.Assign(out.T(), e); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// relu(((tensor(2,3) * 2) + tensor(3,)))
	// [[10. 16.]
	//  [22. 28.]
	//  [34. 40.]]
}

// A tree holds its operands, not their values: what Assign reads is what
// the tensors hold when it runs.
func Example_lazy() {
	x := tensor.Full(1.0, 3)
	e := expr.Of(x).MulScalar(10) // nothing computed
	x.Set(5, 0)                   // changes the result
	out, _ := kernels.Eval(e)
	fmt.Println(out)
	// Output: [50. 10. 10.]
}

// Operands broadcast as in NumPy: a column and a row make a matrix. The
// destination does not broadcast: its shape must be the result's.
func Example_broadcasting() {
	col, _ := tensor.Arange[int64](0, 3, 1).View(3, 1)
	row := tensor.Arange[int64](0, 4, 1)
	grid := tensor.Zeros[int64](3, 4)
	_ = kernels.Assign(grid, expr.Add(expr.Mul(col, expr.Scalar[int64](10)), row))
	fmt.Println(grid)
	err := kernels.Assign(tensor.Zeros[int64](4), expr.Add(col, row))
	fmt.Println(err)
	// Output:
	// [[ 0  1  2  3]
	//  [10 11 12 13]
	//  [20 21 22 23]]
	// laze: Assign: (4,), (3,4): the destination's shape must equal the expression's (the destination does not broadcast)
}

// Assign writes into any strided view: here one column of a matrix.
func ExampleAssign() {
	m := tensor.Zeros[int32](2, 3)
	col := m.Index(1, 1) // column 1, shape (2,)
	v, _ := tensor.FromSlice([]int32{7, 9}, []int{2})
	if err := kernels.Assign(col, expr.Mul(v, expr.Scalar[int32](10))); err != nil {
		fmt.Println(err)
	}
	fmt.Println(m)
	// Output:
	// [[ 0 70  0]
	//  [ 0 90  0]]
}

// Compile lowers an assignment once; Run evaluates it again on the
// tensors' current contents, as a loop that updates its inputs needs.
func ExampleCompile() {
	x := tensor.Full[float64](1, 3)
	v := tensor.Zeros[float64](3)
	// v = 0.5·v + x, the exponential moving average's update
	step, err := kernels.Compile(v, expr.Add[float64](expr.Mul[float64](v, expr.Scalar(0.5)), x))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer step.Release()
	for i := range 3 {
		x.Fill(float64(i + 1))
		if err := step.Run(); err != nil {
			fmt.Println(err)
		}
		fmt.Println(v)
	}
	// Output:
	// [1. 1. 1.]
	// [2.5 2.5 2.5]
	// [4.25 4.25 4.25]
}

// A Program runs the tensors it was compiled for: one changed in place
// since (Resize) makes Run fail with a StaleError, writing nothing.
func ExampleProgram_Run() {
	x := tensor.Full[float64](2, 4)
	y := tensor.Zeros[float64](4)
	neg, _ := kernels.Compile(y, expr.Neg[float64](x))
	defer neg.Release()
	x.Resize(2, 2)
	err := neg.Run()
	fmt.Println(errors.Is(err, shape.ErrStale))
	// Output: true
}

// Eval returns a new contiguous tensor.
func ExampleEval() {
	x := tensor.Linspace[float64](0, 1, 5)
	y, _ := kernels.Eval(expr.Of(x).MulScalar(4).Sqrt())
	fmt.Println(y)
	// Output: [0.         1.         1.41421356 1.73205081 2.        ]
}

// The compound forms update in place, with the right side broadcast.
func ExampleAddAssign() {
	m, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	row, _ := tensor.FromSlice([]float64{100, 200, 300}, []int{3})
	_ = kernels.AddAssign(m, row)
	_ = kernels.DivAssign(m, expr.Scalar(2.0))
	fmt.Println(m)
	// Output:
	// [[ 50.  100.5 151. ]
	//  [ 51.5 102.  152.5]]
}

// Fill sets every element of a view.
func ExampleFill() {
	m := tensor.Zeros[uint8](3, 4)
	_ = kernels.Fill(m.Slice(1, 0, tensor.None, 2), 255) // columns 0 and 2
	fmt.Println(m)
	// Output:
	// [[255   0 255   0]
	//  [255   0 255   0]
	//  [255   0 255   0]]
}

// A destination may overlap its operands; the result is NumPy's.
func Example_aliasing() {
	a, _ := tensor.Arange[int64](0, 4, 1).View(2, 2)
	_ = kernels.Assign(a, expr.Of(a.T()).AddScalar(10)) // a = a.T + 10
	fmt.Println(a)
	v := tensor.Arange[int64](0, 5, 1)
	_ = kernels.Assign(v.Slice(0, 1, tensor.None, 1), expr.Of(v.Slice(0, 0, -1, 1)).MulScalar(2)) // v[1:] = v[:-1]*2
	fmt.Println(v)
	// Output:
	// [[10 12]
	//  [11 13]]
	// [0 0 2 4 6]
}

// Errors name the node at fault, and the destination is left as it was.
func Example_errors() {
	a := tensor.Ones[float64](2, 3)
	bad := expr.Exponential(expr.Add(expr.Name("a", a), expr.Name("b", tensor.Ones[float64](4))))
	err := kernels.Assign(a, bad)
	fmt.Println(err)
	fmt.Println(a.At(0, 0))
	// Output:
	// laze: Assign: at node (a + b): add: shapes (2,3) and (4,) cannot be broadcast together (sizes disagree in result dimension 1)
	// 1
}

// Explain shows the steps Assign would take and the program of each pass,
// without running them.
func ExampleExplain() {
	x, _ := tensor.Arange[float64](0, 6, 1).View(2, 3)
	w, _ := tensor.Arange[float64](0, 12, 1).View(3, 4)
	X, W := expr.Name("x", x), expr.Name("w", w)
	plan, err := kernels.Explain(tensor.Zeros[float64](2, 4), expr.Of[float64](expr.MatMul[float64](X, W)).AddScalar(1).ReLU())
	fmt.Print(plan, err)
	// Output:
	// step 1: dst (2,4) float64 = relu(((x @ w) + 1))
	//   first x @ w: BLAS dgemm (gonum), M=2 K=3 N=4; x read as stored, w read as stored, straight into dst
	//   loop over (8,) (coalesced) in blocks of up to 1024, one goroutine (work 24 < 524288)
	//   out  dst strides (1,) offset 0
	//   in0  dst strides (1,) offset 0, read in place
	//   c0   = 1
	//   v0   = add(in0, c0)
	//   out  = relu(v0)
	// <nil>
}

// ExampleCUDASource prints the kernel a GPU would run for a*2 + b: the
// scalar is a parameter (k0), so a*3 + b runs the same compiled kernel.
// The operands are contiguous and aligned, so the kernel reads and writes
// 16-byte vectors (x1.v[e]) and finishes the tail element by element.
func ExampleCUDASource() {
	a := tensor.Arange[float32](0, 6, 1)
	b := tensor.Ones[float32](6)
	src, err := kernels.CUDASource(tensor.Zeros[float32](6), expr.Of(a).MulScalar(2).Add(b))
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "extern") || strings.HasPrefix(line, "const T v") || strings.HasPrefix(line, "o0[") {
			fmt.Println(line)
		}
	}
	// Output:
	// extern "C" __global__ void laze_82ea497a6b6c4b4a(float* o0, const float* o1, const float* o2, double k0, long long n) {
	// const T v1 = (T)k0;
	// const T v0 = (T)x1.v[e];
	// const T v3 = (T)x2.v[e];
	// const T v4_ = (T)(v0 * v1);
	// const T v4 = (T)(v4_ + v3);
	// const T v0 = (T)o1[p1];
	// const T v3 = (T)o2[p2];
	// const T v4_ = (T)(v0 * v1);
	// const T v4 = (T)(v4_ + v3);
	// o0[p0] = v4;
}

// MaskedSelect is NumPy's a[a > 0]: the selected elements, in row-major
// order, as a new 1-D tensor.
func ExampleMaskedSelect() {
	a, _ := tensor.FromSlice([]float64{1, -2, 3, -4, 5, -6}, []int{2, 3})
	pos, _ := kernels.MaskedSelect[float64, float64](a, expr.Gt[float64](a, expr.Scalar(0.0)))
	fmt.Println(pos)
	// Output: [1. 3. 5.]
}

// Assign the gradients of sum(tanh(w*x)) with respect to w and x in one
// call: the trees share tanh(w*x) and 1 - tanh², computed once per element
// in one pass that writes both results.
func ExampleAssignAll() {
	w, _ := tensor.FromSlice([]float64{0, 0.5, 1}, []int{3})
	x, _ := tensor.FromSlice([]float64{1, 2, 3}, []int{3})
	h := expr.Of(expr.Tanh[float64](expr.Mul[float64](w, x)))
	dz := h.Mul(h).RSub(1) // shared by both gradients
	gw, gx := tensor.Zeros[float64](3), tensor.Zeros[float64](3)
	if err := kernels.AssignAll([]*tensor.Tensor[float64]{gw, gx}, []expr.Exp[float64]{dz.Mul(x), dz.Mul(w)}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f\n%.4f\n", gw.Data(), gx.Data())

	// NumPy's rule across pairs: each tree reads the values of before the call.
	a, _ := tensor.FromSlice([]float64{1, 2}, []int{2})
	b, _ := tensor.FromSlice([]float64{3, 4}, []int{2})
	_ = kernels.AssignAll([]*tensor.Tensor[float64]{a, b}, []expr.Exp[float64]{b, a})
	fmt.Println(a.Data(), b.Data())
	// Output:
	// [1.0000 0.8399 0.0296]
	// [0.0000 0.2100 0.0099]
	// [3 4] [1 2]
}
