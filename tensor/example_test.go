package tensor_test

import (
	"errors"
	"fmt"

	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

func Example() {
	a := tensor.Arange[int64](0, 6, 1)
	m, _ := a.View(2, 3) // same storage, new shape
	m.T().Set(100, 2, 1) // write through the transpose
	fmt.Println(m)
	fmt.Println(a)
	// Output:
	// [[  0   1   2]
	//  [  3   4 100]]
	// [  0   1   2   3   4 100]
}

func ExampleFromSlice() {
	t, err := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, shape.Of(2, 3))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", t)
	f, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, shape.Of(2, 3), tensor.ColMajor())
	fmt.Println(f, f.Strides())
	// Output:
	// [[1. 2. 3.]
	//  [4. 5. 6.]]
	// dtype=float64 shape=(2,3) strides=(3,1) offset=0 device=cpu
	// [[1. 3. 5.]
	//  [2. 4. 6.]] [1 2]
}

func ExampleWrap() {
	data := []int32{1, 2, 3, 4}
	t, _ := tensor.Wrap(data, shape.Of(2, 2))
	t.Set(40, 1, 1)
	fmt.Println(data)
	// Output: [1 2 3 40]
}

func ExampleTensor_Slice() {
	v := tensor.Arange[int](0, 10, 1)
	fmt.Println(v.Slice(0, 1, 8, 3))                      // v[1:8:3]
	fmt.Println(v.Slice(0, tensor.None, tensor.None, -1)) // v[::-1]
	fmt.Println(v.Slice(0, -3, tensor.None, 1))           // v[-3:]
	// Output:
	// [1 4 7]
	// [9 8 7 6 5 4 3 2 1 0]
	// [7 8 9]
}

func ExampleTensor_Index() {
	a, _ := tensor.Arange[int](0, 24, 1).View(2, 3, 4)
	fmt.Println(a.Index(0, 1))  // a[1]
	fmt.Println(a.Index(2, -1)) // a[:, :, -1]
	// Output:
	// [[12 13 14 15]
	//  [16 17 18 19]
	//  [20 21 22 23]]
	// [[ 3  7 11]
	//  [15 19 23]]
}

func ExampleTensor_Select() {
	y, _ := tensor.Arange[int](0, 24, 1).View(2, 3, 4)
	fmt.Println(y.Select(tensor.At(0), tensor.All, tensor.At(0)))                      // y[0, :, 0]
	fmt.Println(y.Select(tensor.Ellipsis, tensor.Range(tensor.None, tensor.None, -2))) // y[..., ::-2]
	fmt.Println(y.Select(tensor.At(1), tensor.NewAxis, tensor.At(-1)).Shape())         // y[1, None, -1]
	// Output:
	// [0 4 8]
	// [[[ 3  1]
	//   [ 7  5]
	//   [11  9]]
	//
	//  [[15 13]
	//   [19 17]
	//   [23 21]]]
	// (1,4)
}

func ExampleTensor_Permute() {
	a, _ := tensor.Arange[int](0, 24, 1).View(2, 3, 4)
	p := a.Permute(2, 0, 1)
	fmt.Println(p.Shape(), p.Strides(), p.IsContiguous())
	// Output: (4,2,3) [1 12 4] false
}

func ExampleTensor_View() {
	a := tensor.Arange[int](0, 6, 1)
	m, _ := a.View(-1, 3)
	fmt.Println(m.Shape())
	_, err := m.T().View(6)
	fmt.Println(errors.Is(err, shape.ErrNotContiguous))
	r, _ := m.T().Reshape(6) // copies when a view is impossible
	fmt.Println(r)
	// Output:
	// (2,3)
	// true
	// [0 3 1 4 2 5]
}

func ExampleTensor_Expand() {
	col, _ := tensor.Arange[int](1, 4, 1).View(3, 1)
	e, _ := col.Expand(3, 4)
	fmt.Println(e)
	fmt.Println(e.Strides(), e.MemSize())
	// Output:
	// [[1 1 1 1]
	//  [2 2 2 2]
	//  [3 3 3 3]]
	// [1 0] 3
}

func ExampleTensor_CopyFrom() {
	a := tensor.Arange[int](0, 6, 1)
	// a[1:] = a[:-1], as NumPy: every element is read before any is written.
	_ = a.Slice(0, 1, tensor.None, 1).CopyFrom(a.Slice(0, tensor.None, -1, 1))
	fmt.Println(a)
	err := a.CopyFrom(tensor.Zeros[int](4))
	fmt.Println(err)
	// Output:
	// [0 0 1 2 3 4]
	// laze: CopyFrom: shapes (4,) and (6,) cannot be broadcast together (sizes disagree in result dimension 0)
}

func ExampleTensor_All() {
	m, _ := tensor.Arange[int](0, 4, 1).View(2, 2)
	for idx, v := range m.T().All() {
		fmt.Println(idx, v)
	}
	// Output:
	// [0 0] 0
	// [0 1] 2
	// [1 0] 1
	// [1 1] 3
}

func ExampleTensor_Values() {
	m, _ := tensor.Arange[float64](1, 5, 1).View(2, 2)
	sum := 0.0
	for v := range m.Values() {
		sum += v
	}
	fmt.Println(sum)
	// Output: 10
}

func ExampleTensor_At() {
	a := tensor.Zeros[int](2, 3)
	a.Set(7, -1, -1)
	fmt.Println(a.At(1, 2))
	defer func() {
		var ie *shape.IndexError
		err, _ := recover().(error)
		fmt.Println(errors.As(err, &ie), ie.Dim, ie.Index, ie.Size)
	}()
	a.At(0, 3)
	// Output:
	// 7
	// true 1 3 3
}

func ExampleTensor_Release() {
	a := tensor.Zeros[float32](1024)
	fmt.Println(a.Release())
	fmt.Println(errors.Is(a.Release(), shape.ErrReleased))
	// Output:
	// <nil>
	// true
}

func ExampleRandn() {
	x := tensor.Randn[float64](42, 2, 2)
	y := tensor.Randn[float64](42, 2, 2)
	fmt.Println(x.At(1, 1) == y.At(1, 1))
	// Output: true
}

func ExampleMayShareMemory() {
	data := []float64{0, 1, 2, 3, 4, 5}
	a, _ := tensor.Wrap(data, []int{2, 3})
	b, _ := tensor.Wrap(data, []int{3, 2}) // the same memory, wrapped again
	even := tensor.Arange[float64](0, 6, 1).Slice(0, 0, tensor.None, 2)
	odd := even.Storage()[1:]
	oddView, _ := tensor.Wrap(odd, []int{5})
	fmt.Println(a.SharesStorage(b), tensor.MayShareMemory(a, b))
	fmt.Println(tensor.MayShareMemory(even, oddView.Slice(0, 0, tensor.None, 2)))
	// Output:
	// false true
	// false
}

// DTypeOf gives a Go element type's dtype, ParseDType reads one by name.
func ExampleDTypeOf() {
	fmt.Println(tensor.DTypeOf[float32](), tensor.DTypeOf[float32]().Size())
	d, err := tensor.ParseDType("uint16")
	fmt.Println(d, d.IsUnsigned(), err)
	_, err = tensor.ParseDType("float16")
	fmt.Println(err != nil)
	// Output:
	// float32 4
	// uint16 true <nil>
	// true
}

// NumPy's view functions are O(1) views too: flip gives negative strides,
// diagonal a stride of columns+1, and writes go through to the storage.
func ExampleTensor_Diagonal() {
	m, _ := tensor.Arange[int](0, 9, 1).View(3, 3)
	fmt.Println(m.Flip(1))                   // np.flip(m, 1)
	fmt.Println(m.Diagonal(1, 0, 1))         // m.diagonal(1)
	fmt.Println(m.Flip(1).Diagonal(0, 0, 1)) // the anti-diagonal
	m.Diagonal(0, 0, 1).Fill(-1)
	fmt.Println(m.ExpandDims(0).MoveAxis([]int{0}, []int{-1}).Shape()) // np.moveaxis(m[None], 0, -1)
	fmt.Println(m)
	// Output:
	// [[2 1 0]
	//  [5 4 3]
	//  [8 7 6]]
	// [1 5]
	// [2 4 6]
	// (3,3,1)
	// [[-1  1  2]
	//  [ 3 -1  5]
	//  [ 6  7 -1]]
}
