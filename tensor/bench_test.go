package tensor

import (
	"fmt"
	"testing"
)

// Views must cost the same whatever the tensor's size: each case runs on a
// 1e3- and a 1e6-element tensor, and docs/performance.md compares the two.
func BenchmarkViews(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		a := Zeros[float64](n/100, 10, 10) // (n/100, 10, 10)
		col := Zeros[float64](n, 1)
		cases := []struct {
			name string
			f    func()
		}{
			{"Transpose", func() { a.Transpose(0, 2) }},
			{"T", func() { a.T() }},
			{"Permute", func() { a.Permute(2, 0, 1) }},
			{"View", func() { _, _ = a.View(-1, 100) }},
			{"Reshape", func() { _, _ = a.Reshape(100, -1) }},
			{"Index", func() { a.Index(1, 3) }},
			{"Slice", func() { a.Slice(0, 1, -1, 2) }},
			{"Narrow", func() { a.Narrow(0, 1, 5) }},
			{"Expand", func() { _, _ = col.Expand(n, 4) }},
			{"Squeeze", func() { col.Squeeze() }},
			{"Unsqueeze", func() { a.Unsqueeze(1) }},
			{"FlatTo2D", func() { _, _ = a.FlatTo2D() }},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					c.f()
				}
			})
		}
	}
}

var sink float64

// BenchmarkAt reads every element of a 100×100 tensor with At; the
// reference reads the same elements by computing the offset by hand.
func BenchmarkAt(b *testing.B) {
	a := Rand[float64](1, 100, 100)
	b.Run("impl=At", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := 0.0
			for i := range 100 {
				for j := range 100 {
					s += a.At(i, j)
				}
			}
			sink = s
		}
	})
	b.Run("impl=handindex", func(b *testing.B) {
		data, st := a.Storage(), a.strides
		for b.Loop() {
			s := 0.0
			for i := range 100 {
				for j := range 100 {
					s += data[a.offset+i*st[0]+j*st[1]]
				}
			}
			sink = s
		}
	})
}

func BenchmarkSet(b *testing.B) {
	a := Zeros[float64](100, 100)
	b.ReportAllocs()
	for b.Loop() {
		for i := range 100 {
			for j := range 100 {
				a.Set(1, i, j)
			}
		}
	}
}

// BenchmarkValues sums 1e6 elements through the Values iterator, against a
// plain loop over the slice (handloop).
func BenchmarkValues(b *testing.B) {
	a := Rand[float64](1, 1000, 1000)
	for _, c := range []struct {
		name string
		t    *Tensor[float64]
	}{{"contiguous", a}, {"transposed", a.T()}} {
		b.Run(c.name+"/impl=Values", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := 0.0
				for v := range c.t.Values() {
					s += v
				}
				sink = s
			}
		})
	}
	b.Run("contiguous/impl=handloop", func(b *testing.B) {
		data := a.Data()
		for b.Loop() {
			s := 0.0
			for _, v := range data {
				s += v
			}
			sink = s
		}
	})
}
