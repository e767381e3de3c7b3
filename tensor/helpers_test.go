package tensor

import (
	"errors"
	"slices"
	"testing"

	"github.com/laze-go/laze/shape"
)

// values lists t's elements in row-major order through At, the slowest and
// most direct accessor.
func values[T Number](t *Tensor[T]) []T {
	out := []T{}
	for idx := range indices(t.shape) {
		out = append(out, t.At(idx...))
	}
	return out
}

// indices iterates over every index of s in row-major order (fresh slices).
func indices(s shape.Shape) func(func([]int) bool) {
	return func(yield func([]int) bool) {
		n, _ := s.Size()
		idx := make([]int, len(s))
		for range n {
			if !yield(slices.Clone(idx)) {
				return
			}
			for d := len(s) - 1; d >= 0; d-- {
				idx[d]++
				if idx[d] < s[d] {
					break
				}
				idx[d] = 0
			}
		}
	}
}

func arange(n int, dims ...int) *Tensor[int64] {
	t, err := Arange[int64](0, int64(n), 1).View(dims...)
	if err != nil {
		panic(err)
	}
	return t
}

func mustT[T Number](data []T, dims ...int) *Tensor[T] {
	t, err := FromSlice(data, shape.Shape(dims))
	if err != nil {
		panic(err)
	}
	return t
}

// panicErr runs f and returns the error it panicked with (nil if none).
func panicErr(t *testing.T, f func()) (err error) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		e, ok := r.(error)
		if !ok {
			t.Fatalf("panicked with a %T, not an error: %v", r, r)
		}
		err = e
	}()
	f()
	return nil
}

func wantPanic(t *testing.T, kind error, f func()) error {
	t.Helper()
	err := panicErr(t, f)
	if !errors.Is(err, kind) {
		t.Fatalf("panic = %v, want %v", err, kind)
	}
	return err
}
