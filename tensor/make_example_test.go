package tensor_test

import (
	"errors"
	"fmt"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Make returns the error that New panics with, for shapes that come from
// data: here an allocator limited to 1 MiB refuses 8 MiB.
func ExampleMake() {
	small := alloc.NewCaching(0)
	small.SetLimit(1 << 20)
	t, err := tensor.Make[float64](shape.Of(1024, 1024), tensor.WithAllocator(small))
	var me *shape.MemoryError
	fmt.Println(t == nil, errors.As(err, &me), me.Bytes, me.Limit)
	fmt.Println(err)
	_, err = tensor.Make[float64](shape.Of(1<<30, 1<<30, 1<<30))
	fmt.Println(errors.Is(err, shape.ErrOverflow), err)
	// Output:
	// true true 8388608 1048576
	// laze: Make: unable to allocate 8.00 MiB for an array with shape (1024,1024) and data type float64: a block of 8.00 MiB with 0 bytes already in use would exceed the allocator's limit of 1.00 MiB (SetLimit)
	// true laze: Make: element count of shape (1073741824,1073741824,1073741824) overflows int
}
