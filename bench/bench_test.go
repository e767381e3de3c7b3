package bench

import (
	"fmt"
	"math"
	"testing"
)

// BenchmarkElementwise runs every case with every implementation at every
// size; b.SetBytes makes the MB/s column the bytes read and written per
// second.
func BenchmarkElementwise(b *testing.B) {
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for _, n := range sizes {
				p := c.prepare(n)
				for _, im := range p.impls {
					b.Run(fmt.Sprintf("%s/%d", im.name, n), func(b *testing.B) {
						b.SetBytes(p.bytes)
						b.ReportAllocs()
						for b.Loop() {
							im.run()
						}
					})
				}
			}
		})
	}
}

// TestImplementationsAgree runs each implementation of each case once and
// compares its result with the hand loop's, so that the benchmarks compare
// the same computation. The sizes cover laze's serial and parallel paths.
func TestImplementationsAgree(t *testing.T) {
	for _, c := range cases {
		for _, n := range []int{1000, 200000} {
			p := c.prepare(n)
			want := map[string][]float64{}
			for _, im := range p.impls {
				im.run()
				want[im.name] = p.result()
			}
			ref := want["handloop"]
			if len(ref) == 0 {
				t.Fatalf("%s: no hand loop", c.name)
			}
			for name, got := range want {
				if len(got) != len(ref) {
					t.Fatalf("%s/%s/%d: %d elements, hand loop %d", c.name, name, n, len(got), len(ref))
				}
				for i := range ref {
					if math.Abs(got[i]-ref[i]) > 1e-12*math.Max(1, math.Abs(ref[i])) {
						t.Fatalf("%s/%s/%d: element %d = %v, hand loop %v", c.name, name, n, i, got[i], ref[i])
					}
				}
			}
		}
	}
}
