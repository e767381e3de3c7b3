package kernels

import (
	"strings"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/tensor"
)

// The generated matrix product runs the products cuBLAS does not: every
// element type but float32 and float64. It is a classic tiled kernel: each
// block of gemmTile² threads computes a gemmTile×gemmTile tile of C,
// walking K a tile at a time through shared memory. Integers multiply and
// accumulate in the element type with wrap-around, as NumPy's integer
// matmul does (int32 @ int32 accumulates in int32); the arithmetic is done
// in the unsigned type of the same width (or unsigned int for narrower
// types), whose wrap-around C++ defines, and converted back.

// gemmTile is the side of a product tile; a block has gemmTile² threads.
const gemmTile = 16

// gemmKernel returns the launch of the tiled product for dtype, without
// parameters.
func gemmKernel(dtype string) *Kernel {
	s := gemmSpec(dtype)
	key := s.key()
	return &Kernel{Name: kernelName(key), Key: key, spec: s, Threads: gemmTile * gemmTile}
}

// gemmWide is the type a product of element type ctype accumulates in: the
// type itself for floats, else an unsigned type at least as wide as int.
func gemmWide(ctype string) string {
	switch {
	case ctype == "float" || ctype == "double":
		return ctype
	case strings.Contains(ctype, "long long"):
		return "unsigned long long"
	}
	return "unsigned int"
}

// gemm writes the tiled product: C (rows×cols, o0) = A (rows×inner, o1) ·
// B (inner×cols, o2), row-major and contiguous; the blocks loop
// grid-stride over C's tiles.
func (g *cudaWriter) gemm() {
	g.line(1, "typedef %s W;", gemmWide(g.spec.ctype))
	g.line(1, "__shared__ T ta[%d][%d];", gemmTile, gemmTile)
	g.line(1, "__shared__ T tb[%d][%d];", gemmTile, gemmTile)
	g.line(1, "const int tx = (int)(threadIdx.x %% %d), ty = (int)(threadIdx.x / %d);", gemmTile, gemmTile)
	g.line(1, "const I tilesAcross = (cols + %d) / %d, tiles = (rows + %d) / %d * tilesAcross;", gemmTile-1, gemmTile, gemmTile-1, gemmTile)
	g.line(1, "for (I t = (I)blockIdx.x; t < tiles; t += (I)gridDim.x) {")
	g.line(2, "const I r = t / tilesAcross * %d + ty, c = t %% tilesAcross * %d + tx;", gemmTile, gemmTile)
	g.line(2, "W acc = (W)0;")
	g.line(2, "for (I k0 = 0; k0 < inner; k0 += %d) {", gemmTile)
	g.line(3, "ta[ty][tx] = (r < rows && k0 + tx < inner) ? o1[r * inner + k0 + tx] : (T)0;")
	g.line(3, "tb[ty][tx] = (k0 + ty < inner && c < cols) ? o2[(k0 + ty) * cols + c] : (T)0;")
	g.line(3, "__syncthreads();")
	g.line(3, "#pragma unroll")
	g.line(3, "for (int kk = 0; kk < %d; ++kk) {", gemmTile)
	g.line(4, "acc = (W)(acc + (W)ta[ty][kk] * (W)tb[kk][tx]);")
	g.line(3, "}")
	g.line(3, "__syncthreads();")
	g.line(2, "}")
	g.line(2, "if (r < rows && c < cols) {")
	g.line(3, "o0[r * cols + c] = (T)acc;")
	g.line(2, "}")
	g.line(1, "}")
}

// queueGemmKernels queues the generated product kernel once per matrix of
// the (broadcast) batch of a product of contiguous operands.
func queueGemmKernels[T tensor.Number](d *onDevice, g expr.ProductGeometry, c, a, b *tensor.Tensor[T]) error {
	mc, ma, mb := memOf(c), memOf(a), memOf(b)
	tiles := ceilDiv(int64(g.M), gemmTile) * ceilDiv(int64(g.N), gemmTile)
	if tiles == 0 {
		return nil
	}
	var err error
	forEachMatrix(g, c, a, b, func(off []int, _ []*tensor.Tensor[T]) {
		if err != nil {
			return
		}
		k := gemmKernel(tensor.DType[T]())
		k.Work, k.Blocks = int64(g.M)*int64(g.N), tiles
		k.Params = []uint64{mc.address(off[0]), ma.address(off[1]), mb.address(off[2]), uint64(g.M), uint64(g.N), uint64(g.K)}
		err = d.backend.Launch(d.queue, k)
	})
	return err
}
