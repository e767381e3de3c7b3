//go:build cuda && lazegraph

package bench

import (
	"fmt"
	"testing"

	"github.com/laze-go/laze/cuda"
	"github.com/laze-go/laze/expr"
)

// This file needs cuda.Device.Record and cuda.Graph, hence its second tag:
// make gpu-build adds lazegraph when the package has them (it vets the
// file first) and says so when it leaves the file out.

// graphSizes are the numbers of kernels per recorded graph.
var graphSizes = []int{10, 100}

// BenchmarkCUDAGraph times, on the host, k Assigns of a one-element tree
// on a stream of its own, recorded once into a CUDA graph and replayed
// (replay: Graph.Launch, then Wait) against the same k Assigns queued one
// by one (eager: k cuda.Assign, then Wait). ns/op is per replay (or per k
// Assigns); ns/kernel divides it by the graph's kernels.
func BenchmarkCUDAGraph(b *testing.B) {
	g := openGPU(b)
	s, err := g.d.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	x := g.empty(b, 1)
	out := g.empty(b, 1)
	tree := expr.Of(x).MulScalar(2).AddScalar(1)
	assignK := func(s *cuda.Stream, k int) error {
		for range k {
			if err := cuda.Assign(s, out, tree); err != nil {
				return err
			}
		}
		return nil
	}
	if err := assignK(s, 1); err != nil { // compile once
		b.Fatal(err)
	}
	if err := s.Wait(); err != nil {
		b.Fatal(err)
	}
	for _, k := range graphSizes {
		graph, err := g.d.Record(func(s *cuda.Stream) error { return assignK(s, k) })
		if err != nil {
			b.Fatal(err)
		}
		kernels := graph.Kernels()
		b.Run(fmt.Sprintf("replay/kernels=%d", k), func(b *testing.B) {
			for b.Loop() {
				if err := graph.Launch(s); err != nil {
					b.Fatal(err)
				}
				if err := s.Wait(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(kernels), "ns/kernel")
		})
		b.Run(fmt.Sprintf("eager/kernels=%d", k), func(b *testing.B) {
			for b.Loop() {
				if err := assignK(s, k); err != nil {
					b.Fatal(err)
				}
				if err := s.Wait(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(k), "ns/kernel")
		})
		if err := graph.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
