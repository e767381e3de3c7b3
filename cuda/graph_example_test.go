//go:build cuda

package cuda_test

import (
	"fmt"

	"github.com/laze-go/laze/cuda"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// Record two Assigns once and replay them: each replay is one driver call
// for both kernels. A replay reads and writes the recorded tensors, so new
// inputs go into x (an Assign into it), not into a new tensor. Compiled by
// make cuda-check, not run (it needs a GPU).
func ExampleDevice_Record() {
	dev, err := cuda.Open(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := tensor.New[float32](shape.Shape{1024}, tensor.WithAllocator(dev.Allocator()))
	h := tensor.New[float32](shape.Shape{1024}, tensor.WithAllocator(dev.Allocator()))
	y := tensor.New[float32](shape.Shape{1024}, tensor.WithAllocator(dev.Allocator()))
	graph, err := dev.Record(func(s *cuda.Stream) error {
		if err := cuda.Assign(s, h, expr.Of(x).MulScalar(2).AddScalar(1).Tanh()); err != nil {
			return err
		}
		return cuda.Assign(s, y, expr.Of(h).Mul(x))
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer graph.Close() // gives back what the recorded evaluations hold
	s := dev.DefaultStream()
	for step := range 3 {
		_ = kernels.Fill(x, float32(step)) // new contents, same tensor
		if err := graph.Launch(s); err != nil {
			fmt.Println(err)
			return
		}
		if err := s.Wait(); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(graph.Kernels(), "kernels per replay")
}
