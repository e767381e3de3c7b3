//go:build nvrtc

package kernels

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/tensor"
	"gorgonia.org/cu/nvrtc"
)

// The NVRTC tests compile generated kernels to PTX. They need NVRTC and the
// CUDA headers (make cuda-deps) but no GPU; make cuda-check runs them.

// nvrtcArchs are the architectures every kernel must compile for: Ampere
// (A100) and Hopper (H100, H200).
var nvrtcArchs = []string{"sm_80", "sm_90"}

// compileCUDA compiles source with NVRTC for arch ("sm_80") and returns the
// PTX and NVRTC's log; a failure is an error carrying the log.
func compileCUDA(source, arch string) (ptx, log string, err error) {
	prog, err := nvrtc.CreateProgram(source, "laze.cu")
	if err != nil {
		return "", "", err
	}
	defer prog.Destroy()
	err = prog.Compile(NVRTCOptions(arch)...)
	log, _ = prog.GetLog()
	if err != nil {
		return "", log, fmt.Errorf("nvrtc %s: %w\n%s", arch, err, log)
	}
	ptx, err = prog.GetPTX()
	return ptx, log, err
}

// TestNVRTCEveryOp compiles, per element type and architecture, one
// translation unit holding every op's kernel in every layout, and checks
// that each kernel is in the PTX and that NVRTC warned about nothing.
func TestNVRTCEveryOp(t *testing.T) {
	for _, dt := range cudaDTypes {
		var unit strings.Builder
		unit.WriteString(ops.Prelude)
		unit.WriteString(cudasrc.KernelHelpers)
		var names []string
		seen := map[string]bool{}
		for _, c := range dt.cases() {
			src, err := c.src()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for _, k := range kernelsIn(src) {
				if !seen[k.name] {
					seen[k.name] = true
					names = append(names, k.name)
					unit.WriteString(k.source)
				}
			}
		}
		for _, arch := range nvrtcArchs {
			t.Run(dt.name+"/"+arch, func(t *testing.T) {
				t.Parallel() // NVRTC compiles distinct programs concurrently: both cores
				ptx, log, err := compileCUDA(unit.String(), arch)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(log, "warning") {
					t.Errorf("NVRTC warned:\n%s", log)
				}
				for _, name := range names {
					if !strings.Contains(ptx, ".entry "+name) {
						t.Errorf("kernel %s is not in the PTX", name)
					}
				}
				t.Logf("%d kernels", len(names))
			})
		}
	}
}

// TestNVRTCWideAndConverted compiles the kernels the op sweep does not
// reach: 64-bit indexing, operands read from another element type, and
// generator leaves computed from the index (generatorSources).
func TestNVRTCWideAndConverted(t *testing.T) {
	var unit strings.Builder
	unit.WriteString(ops.Prelude)
	unit.WriteString(cudasrc.KernelHelpers)
	unit.WriteString(cudasrc.GeneratorHelpers)
	seen := map[string]bool{}
	add := func(src string) {
		for _, k := range kernelsIn(src) {
			if !seen[k.name] {
				seen[k.name] = true
				unit.WriteString(k.source)
			}
		}
	}
	for _, c := range goldenCases() {
		src, err := c.src()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		add(src)
	}
	i32 := tensor.Arange[int32](0, 12, 1)
	src, err := CUDASource(tensor.Zeros[float64](12), expr.Of[float64](expr.Add[float64](expr.Cast[float64](i32), tensor.Ones[float64](12))))
	if err != nil {
		t.Fatal(err)
	}
	add(src)
	for _, src := range generatorSources(t) {
		add(src)
	}
	for _, arch := range nvrtcArchs {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			if _, log, err := compileCUDA(unit.String(), arch); err != nil || strings.Contains(log, "warning") {
				t.Errorf("%s: %v\n%s", arch, err, log)
			}
		})
	}
}

// TestNVRTCStrategies compiles, per element type and architecture, one
// translation unit holding every kernel shape whose choice depends on sizes
// and addresses (strategyCases: the vectorised loop, every reduction
// strategy for every reducer, the finishing kernels, the generated matrix
// product), and checks that each kernel is in the PTX and that NVRTC warned
// about nothing.
func TestNVRTCStrategies(t *testing.T) {
	for _, dt := range []struct {
		name  string
		cases func() []cudaCase
	}{
		{"float32", strategyCases[float32]}, {"float64", strategyCases[float64]},
		{"int8", strategyCases[int8]}, {"int16", strategyCases[int16]}, {"int32", strategyCases[int32]}, {"int64", strategyCases[int64]},
		{"uint8", strategyCases[uint8]}, {"uint16", strategyCases[uint16]}, {"uint32", strategyCases[uint32]}, {"uint64", strategyCases[uint64]},
	} {
		var unit strings.Builder
		var names []string
		seen := map[string]bool{}
		for _, c := range dt.cases() {
			src, err := c.src()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for _, k := range kernelsIn(src) {
				if !seen[k.name] {
					seen[k.name] = true
					names = append(names, k.name)
					unit.WriteString(k.source)
				}
			}
		}
		src := ops.Prelude + cudasrc.KernelHelpers + unit.String()
		for _, arch := range nvrtcArchs {
			t.Run(dt.name+"/"+arch, func(t *testing.T) {
				t.Parallel()
				ptx, log, err := compileCUDA(src, arch)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(log, "warning") {
					t.Errorf("NVRTC warned:\n%s", log)
				}
				for _, name := range names {
					if !strings.Contains(ptx, ".entry "+name) {
						t.Errorf("kernel %s is not in the PTX", name)
					}
				}
				t.Logf("%d kernels", len(names))
			})
		}
	}
}

// TestNVRTCVectorised checks that the vectorised elementwise kernel really
// compiles to 16-byte loads and stores (ld.global.v4 / v2 of 32- or 64-bit
// words) for every element type: NVRTC could split a 16-byte struct into
// narrower accesses, which would lose the bandwidth it is for.
func TestNVRTCVectorised(t *testing.T) {
	wide16 := regexp.MustCompile(`ld\.global(\.nc)?\.v(4\.[bfsu]32|2\.[bfsu]64)`)
	store16 := regexp.MustCompile(`st\.global\.v(4\.[bfsu]32|2\.[bfsu]64)`)
	for _, dt := range []struct {
		name  string
		cases func() []cudaCase
	}{
		{"float32", strategyCases[float32]}, {"float64", strategyCases[float64]}, {"int8", strategyCases[int8]},
		{"int16", strategyCases[int16]}, {"int32", strategyCases[int32]}, {"uint64", strategyCases[uint64]},
	} {
		t.Run(dt.name, func(t *testing.T) {
			t.Parallel()
			src, err := dt.cases()[0].src() // the vectorised case
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(src, "vec=") {
				t.Fatalf("the first strategy case is not vectorised:\n%s", firstLines(src, 3))
			}
			ptx, _, err := compileCUDA(src, "sm_90")
			if err != nil {
				t.Fatal(err)
			}
			if !wide16.MatchString(ptx) || !store16.MatchString(ptx) {
				t.Errorf("no 16-byte global loads and stores in the PTX:\n%s", ptx)
			}
		})
	}
}

// TestNVRTCErrorCarriesLog checks that a kernel that does not compile gives
// NVRTC's log, which names the line at fault.
func TestNVRTCErrorCarriesLog(t *testing.T) {
	_, _, err := compileCUDA(`extern "C" __global__ void broken() { undeclared = 1; }`, "sm_80")
	if err == nil || !strings.Contains(err.Error(), "undeclared") {
		t.Fatalf("compiling a broken kernel: %v; want an error carrying the log", err)
	}
}

// kernelSource is one kernel's text in a CUDASource listing.
type kernelSource struct{ name, source string }

// kernelsIn splits a CUDASource listing into its kernels, without the
// prelude.
func kernelsIn(listing string) []kernelSource {
	var out []kernelSource
	for _, part := range strings.Split(listing, "extern \"C\" __global__ void ")[1:] {
		name := part[:strings.IndexByte(part, '(')]
		body := part
		if i := strings.Index(body, "\n// step "); i >= 0 {
			body = body[:i+1]
		}
		out = append(out, kernelSource{name: name, source: "extern \"C\" __global__ void " + body})
	}
	return out
}

// BenchmarkNVRTC times NVRTC compiling one new kernel (poly4, float32, with
// the prelude) to PTX, the host's part of a cache miss (loading the module
// on the GPU comes on top).
func BenchmarkNVRTC(b *testing.B) {
	in := make([]*tensor.Tensor[float32], 4)
	for i := range in {
		in[i] = tensor.Ones[float32](1 << 10)
	}
	src, err := CUDASource(tensor.Zeros[float32](1<<10), expr.Of(in[0]).Mul(in[1]).Add(in[2]).Sub(in[3]))
	if err != nil {
		b.Fatal(err)
	}
	for _, arch := range nvrtcArchs {
		b.Run(arch, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := compileCUDA(src, arch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestNVRTCNoContraction checks that a*b + c compiles to a product and a sum
// rounded apart, not to one fused multiply-add (NVRTCOptions' --fmad=false),
// so the GPU gives the CPU's and NumPy's results.
func TestNVRTCNoContraction(t *testing.T) {
	a, b, c := tensor.Zeros[float64](64), tensor.Zeros[float64](64), tensor.Zeros[float64](64)
	src, err := CUDASource(tensor.Zeros[float64](64), expr.Add(expr.Mul(a, b), c))
	if err != nil {
		t.Fatal(err)
	}
	for _, arch := range nvrtcArchs {
		ptx, _, err := compileCUDA(ops.Prelude+src, arch)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(ptx, "fma.rn.f64") {
			t.Errorf("%s: a*b + c was contracted into fma.rn.f64:\n%s", arch, ptx)
		}
		if !strings.Contains(ptx, "mul.rn.f64") || !strings.Contains(ptx, "add.rn.f64") {
			t.Errorf("%s: no separate mul.rn.f64 and add.rn.f64 in the PTX:\n%s", arch, ptx)
		}
	}
}

// generatorSources are the CUDA sources of trees of generator leaves (each
// kind, in float32, float64, int32 and uint8; the vectorised, scalar and
// tiled elementwise kernels and a reduction), whose formulas the
// generated code computes in the kernel.
func generatorSources(t *testing.T) []string {
	var out []string
	add := func(src string, err error) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, src)
	}
	add(generatorSourcesOf[float32]())
	add(generatorSourcesOf[float64]())
	add(generatorSourcesOf[int32]())
	add(generatorSourcesOf[uint8]())
	return out
}

// generatorSourcesOf is the CUDA source of generator trees over T.
func generatorSourcesOf[T tensor.Number]() (string, error) {
	one, n := T(1), 250 // n elements: arange's values fit every T
	stop := T(n)
	var b strings.Builder
	for _, c := range []struct {
		dst *tensor.Tensor[T]
		e   expr.Exp[T]
	}{
		{tensor.Zeros[T](n), expr.Add(expr.Mul[T](expr.Arange(0, stop, one), tensor.Ones[T](n)), expr.Linspace[T](0, 9, n, true))},
		{tensor.Zeros[T](n), expr.Add(expr.Flip(expr.Arange(0, stop, one)), expr.Full(one, n))},
		{tensor.Zeros[T](37, 29), expr.Add(expr.T(expr.Eye[T](29, 37, 2)), expr.Mul[T](expr.Tri[T](37, 29, -1), tensor.Ones[T](29, 37).T()))},
		{tensor.Zeros[T](29), expr.Sum(expr.Tri[T](37, 29, 3), expr.Axis(0))},
	} {
		src, err := CUDASource(c.dst, c.e)
		if err != nil {
			return "", err
		}
		b.WriteString(src)
	}
	return b.String(), nil
}
