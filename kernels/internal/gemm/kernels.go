package gemm

import "github.com/laze-go/laze/internal/isa"

//go:generate go -C asmgen run . -out ../zkernel_amd64.s -stubs ../zkernel_amd64.go

// row is the micro-kernels Gemm runs at one isa.Level, one per element type.
type row struct {
	k64 kernel[float64]
	k32 kernel[float32]
}

// table is the kernel table: the kernels of each isa.Level that has its
// own. Generic's are the portable Go kernels; each architecture's file adds
// the rows of its levels at initialisation (kernel_amd64.go: AVX2 and
// AVX512) and nothing changes it after. A level without a row (another
// architecture's, or one whose kernels are not written yet) runs Generic's.
var table = map[isa.Level]row{
	isa.Generic: {k64: portable64, k32: portable32},
}

// kernelsAt returns the kernels Gemm runs at level l.
func kernelsAt(l isa.Level) row {
	if r, ok := table[l]; ok {
		return r
	}
	return table[isa.Generic]
}

// Available reports whether Gemm runs a micro-kernel of its own at the
// level selected now (isa.Selected, which LAZE_CPU and isa.Use set), rather
// than the portable Go one: callers (package kernels) then use Gemm, and
// another Gemm (gonum's) otherwise. In the default build it holds on amd64
// CPUs with AVX2 and FMA, unless LAZE_CPU=generic.
func Available() bool {
	l := isa.Selected()
	_, ok := table[l]
	return ok && l != isa.Generic
}
