package alloc_test

import (
	"fmt"

	"github.com/laze-go/laze/alloc"
)

func ExampleCaching() {
	c := alloc.NewCaching(1 << 20)
	a, _ := c.Alloc(1000) // rounded up to the 1024-byte class
	_ = a.Release()
	b, _ := c.Alloc(1000) // served from the cache
	st := c.Stats()
	fmt.Println(b.Size(), b.Capacity(), st.Allocations, st.Reuses)
	fmt.Println(b.Release(), b.Release() != nil)
	// Output:
	// 1000 1024 2 1
	// <nil> true
}

func ExampleDevice() {
	fmt.Println(alloc.CPU, alloc.CUDA(1), alloc.CUDA(0) == alloc.CUDA(0))
	// Output: cpu cuda:1 true
}
