//go:build cuda

package bench

import (
	"fmt"
	"testing"
	"time"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/cuda"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/friend"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// The GPU suite (tag cuda; make bench-cuda on a GPU machine): poly4 and
// long8 on float32 at 2^24, 2^26 and 2^28 elements, fused (one launch per
// Assign) and unfused (one launch per op, through temporaries, the same
// library), against the device-to-device copy bandwidth measured in the
// same run. MB/s counts the bytes the fused kernel must read and write
// (inputs + output); the unfused path moves more, but is charged the same,
// so the columns compare time. Each Assign waits for its result.

var gpuSizes = []int{1 << 24, 1 << 26, 1 << 28}

// gpuCase is a tree over four device inputs, fused and op by op.
type gpuCase struct {
	name    string
	inputs  int
	fused   func(in []*tensor.Tensor[float32]) expr.Exp[float32]
	unfused func(in []*tensor.Tensor[float32], tmp func() *tensor.Tensor[float32]) []step
}

// step is one op of the unfused path: dst = e.
type step struct {
	dst *tensor.Tensor[float32]
	e   expr.Exp[float32]
}

var gpuCases = []gpuCase{
	{"poly4", 4, func(in []*tensor.Tensor[float32]) expr.Exp[float32] {
		return expr.Of(in[0]).Mul(in[1]).Add(in[2]).Sub(in[3])
	}, func(in []*tensor.Tensor[float32], tmp func() *tensor.Tensor[float32]) []step {
		t1, t2 := tmp(), tmp()
		return []step{{t1, expr.Mul[float32](in[0], in[1])}, {t2, expr.Add[float32](t1, in[2])}, {nil, expr.Sub[float32](t2, in[3])}}
	}},
	{"long8", 4, func(in []*tensor.Tensor[float32]) expr.Exp[float32] {
		return expr.Of(in[0]).Mul(in[1]).Add(in[2]).Tanh().Sub(expr.Of(in[3]).MulScalar(0.5).Exp().Mul(in[0])).Add(in[1])
	}, func(in []*tensor.Tensor[float32], tmp func() *tensor.Tensor[float32]) []step {
		t1, t2, t3 := tmp(), tmp(), tmp()
		return []step{
			{t1, expr.Mul[float32](in[0], in[1])}, {t1, expr.Add[float32](t1, in[2])}, {t1, expr.Tanh[float32](t1)},
			{t2, expr.Of(in[3]).MulScalar(0.5)}, {t2, expr.Exponential[float32](t2)}, {t3, expr.Mul[float32](t2, in[0])},
			{t1, expr.Sub[float32](t1, t3)}, {nil, expr.Add[float32](t1, in[1])},
		}
	}},
}

func openGPU(b *testing.B) *cuda.Device {
	d, err := cuda.Open(0)
	if err != nil {
		b.Skip("no GPU: ", err)
	}
	return d
}

// BenchmarkCUDA runs the copy reference, then each case fused and unfused,
// at each size; fused runs report their bandwidth as a share of the copy's
// (pct_of_copy), and the suite the NVRTC time per kernel it compiled.
func BenchmarkCUDA(b *testing.B) {
	d := openGPU(b)
	// Configuration lines in Go benchmark format: the report reads them.
	fmt.Printf("device: %s (%s)\ndate: %s\n", d.Name(), d.Arch(), time.Now().UTC().Format(time.DateOnly))
	for _, n := range gpuSizes {
		in := make([]*tensor.Tensor[float32], 4)
		for i := range in {
			h := tensor.Rand[float32](uint64(i+1), n)
			in[i], _ = h.To(alloc.CUDA(0))
		}
		dst := tensor.New[float32](shape.Shape{n}, tensor.WithAllocator(d.Allocator()))
		var copyBps float64
		b.Run(fmt.Sprintf("copy/n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(8 * n)) // read + written
			for b.Loop() {
				if err := d.Allocator().CopyDevice(dst.Mem(friend.K), in[0].Mem(friend.K), 4*n); err != nil {
					b.Fatal(err)
				}
				if err := d.Synchronize(); err != nil {
					b.Fatal(err)
				}
			}
			copyBps = float64(8*n) * float64(b.N) / b.Elapsed().Seconds()
		})
		for _, c := range gpuCases {
			bytes := int64(4 * n * (c.inputs + 1))
			tree := c.fused(in)
			b.Run(fmt.Sprintf("%s/fused/n=%d", c.name, n), func(b *testing.B) {
				b.SetBytes(bytes)
				for b.Loop() {
					if err := kernels.Assign(dst, tree); err != nil {
						b.Fatal(err)
					}
				}
				bps := float64(bytes) * float64(b.N) / b.Elapsed().Seconds()
				b.ReportMetric(100*bps/copyBps, "pct_of_copy")
			})
			var temps []*tensor.Tensor[float32]
			steps := c.unfused(in, func() *tensor.Tensor[float32] {
				t := tensor.New[float32](shape.Shape{n}, tensor.WithAllocator(d.Allocator()))
				temps = append(temps, t)
				return t
			})
			b.Run(fmt.Sprintf("%s/unfused/n=%d", c.name, n), func(b *testing.B) {
				b.SetBytes(bytes)
				for b.Loop() {
					for _, s := range steps {
						out := s.dst
						if out == nil {
							out = dst
						}
						if err := cuda.Assign(d.DefaultStream(), out, s.e); err != nil {
							b.Fatal(err)
						}
					}
					if err := d.DefaultStream().Wait(); err != nil {
						b.Fatal(err)
					}
				}
			})
			for _, t := range temps {
				_ = t.Release()
			}
		}
		for _, t := range append(in, dst) {
			_ = t.Release()
		}
	}
	st := d.KernelStats()
	if st.Compiled > 0 {
		fmt.Printf("nvrtc-kernels: %d\nnvrtc-ms-per-kernel: %.1f\n",
			st.Compiled, st.CompileTime.Seconds()*1000/float64(st.Compiled))
	}
}

// BenchmarkCUDAOverhead times a cached Assign of a one-element tree: the
// host's cost of lowering, looking the kernel up and launching it
// (queued: cuda.Assign on a stream, waiting every 1000 calls), and the
// same with the wait for the result (kernels.Assign).
func BenchmarkCUDAOverhead(b *testing.B) {
	d := openGPU(b)
	x := tensor.New[float32](shape.Shape{1}, tensor.WithAllocator(d.Allocator()))
	out := tensor.New[float32](shape.Shape{1}, tensor.WithAllocator(d.Allocator()))
	tree := expr.Of(x).MulScalar(2).AddScalar(1)
	if err := kernels.Assign(out, tree); err != nil { // compile once
		b.Fatal(err)
	}
	b.Run("queued", func(b *testing.B) {
		i := 0
		for b.Loop() {
			if err := cuda.Assign(d.DefaultStream(), out, tree); err != nil {
				b.Fatal(err)
			}
			if i++; i%1000 == 0 {
				_ = d.DefaultStream().Wait()
			}
		}
		_ = d.DefaultStream().Wait()
	})
	b.Run("waited", func(b *testing.B) {
		for b.Loop() {
			if err := kernels.Assign(out, tree); err != nil {
				b.Fatal(err)
			}
		}
	})
}
