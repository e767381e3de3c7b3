package shape_test

import (
	"errors"
	"fmt"

	"github.com/laze-go/laze/shape"
)

func ExampleOf() {
	s := shape.Of(2, 3, 4)
	n, _ := s.Size()
	fmt.Println(s, s.NDim(), n, s.Dim(-1), shape.Of(5), shape.Of())
	// Output: (2,3,4) 3 24 4 (5,) ()
}

func ExampleBroadcast() {
	s, _ := shape.Broadcast(shape.Of(8, 1, 6, 1), shape.Of(7, 1, 5))
	fmt.Println(s)
	_, err := shape.Broadcast(shape.Of(2, 3), shape.Of(4))
	fmt.Println(errors.Is(err, shape.ErrShape), err)
	// Output:
	// (8,7,6,5)
	// true laze: Broadcast: shapes (2,3) and (4,) cannot be broadcast together (sizes disagree in result dimension 1)
}

func ExampleContiguousStrides() {
	s := shape.Of(2, 5)
	st := shape.ContiguousStrides(s, shape.RowMajor)
	fmt.Println(st, shape.ByteStrides(st, 4), shape.ContiguousStrides(s, shape.ColMajor))
	off, _ := shape.Offset(s, st, []int{1, 2})
	fmt.Println(off)
	// Output:
	// [5 1] [20 4] [1 2]
	// 7
}

func ExampleCoalesce() {
	// dst (2,3,4) contiguous; an operand broadcast along the last dim.
	s, strides := shape.Coalesce(shape.Of(2, 3, 4), []int{12, 4, 1}, []int{3, 1, 0})
	fmt.Println(s, strides)
	// Output: (6,4) [[4 1] [1 0]]
}

func ExampleConvertLayout() {
	s, _ := shape.ConvertLayout(shape.Of(32, 3, 224, 224), shape.NCHW, shape.NHWC)
	fmt.Println(s)
	// Output: (32,224,224,3)
}

func ExampleShape_FlatTo2D() {
	s := shape.Of(2, 3, 4)
	fmt.Println(s.FlatTo1D(), s.FlatTo2D(), s.SubShape(), s.Slice(1, 3), s.ProdShape(0, 2))
	// Output: (24,) (6,4) (3,4) (3,4) 6
}
