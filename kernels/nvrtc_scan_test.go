//go:build nvrtc

package kernels

import (
	"strings"
	"testing"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/kernels/internal/cudasrc"
	"github.com/laze-go/laze/tensor"
)

// TestNVRTCScans compiles the scan kernel of every element type, cumsum
// and cumprod, with 32- and 64-bit indices, and the gather kernel of every
// element type, in one translation unit per architecture, and checks that
// each is in the PTX and that NVRTC warned about nothing.
func TestNVRTCScans(t *testing.T) {
	var unit strings.Builder
	var names []string
	for _, dtype := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64} {
		for _, r := range []ops.Reducer{ops.Sum, ops.Prod} {
			for _, wide := range []bool{false, true} {
				spec := cudasrc.ScanSpec(dtype, r.Def(), wide)
				name := cudasrc.KernelName(spec.Key())
				names = append(names, name)
				src := spec.Source(name)
				// one prelude for the whole unit
				unit.WriteString(src[strings.Index(src, "extern \"C\""):])
			}
		}
		spec := cudasrc.GatherSpec(dtype)
		name := cudasrc.KernelName(spec.Key())
		names = append(names, name)
		src := spec.Source(name)
		unit.WriteString(src[strings.Index(src, "extern \"C\""):])
	}
	src := ops.Prelude + cudasrc.KernelHelpers + unit.String()
	for _, arch := range nvrtcArchs {
		t.Run(arch, func(t *testing.T) {
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
		})
	}
}
