package main

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// tile is one micro-kernel: its Go name, element type, shape and vector
// width. The same description (microKernel) writes every tile; only these
// parameters differ between float64 and float32, and between AVX2 and
// AVX-512.
type tile struct {
	name   string // the Go function's name
	elem   elem   // float64 or float32
	mr     int    // rows of C per tile: one broadcast of A each
	nv     int    // vectors per row of C: nr = nv·lanes columns
	bits   int    // vector width: 256 (AVX2: Y registers, 16 of them) or 512 (AVX-512: Z registers, 32)
	unroll int    // k steps per loop trip (a power of two)
	// prefetchC prefetches the tile of C into L1 before the loop, so
	// that its loads at the end do not wait for memory.
	prefetchC bool
}

// elem is an element type's size and the instructions on its vectors.
type elem struct {
	goName string // float64 or float32
	size   int    // bytes
	// The instructions, as methods of the context that emits them.
	broadcast func(ctx *build.Context) func(...operand.Op) // VBROADCASTSD/SS m, v
	fma       func(ctx *build.Context) func(...operand.Op) // VFMADD231PD/PS b, x, acc: acc += x·b
	move      func(ctx *build.Context) func(...operand.Op) // VMOVUPD/S: loads and stores, unaligned
	add       func(ctx *build.Context) func(...operand.Op) // VADDPD/S
	zero      func(ctx *build.Context) func(...operand.Op) // VXORPD/S v, v, v
}

var (
	f64 = elem{
		goName:    "float64",
		size:      8,
		broadcast: func(c *build.Context) func(...operand.Op) { return c.VBROADCASTSD },
		fma:       func(c *build.Context) func(...operand.Op) { return c.VFMADD231PD },
		move:      func(c *build.Context) func(...operand.Op) { return c.VMOVUPD },
		add:       func(c *build.Context) func(...operand.Op) { return c.VADDPD },
		zero:      func(c *build.Context) func(...operand.Op) { return c.VXORPD },
	}
	f32 = elem{
		goName:    "float32",
		size:      4,
		broadcast: func(c *build.Context) func(...operand.Op) { return c.VBROADCASTSS },
		fma:       func(c *build.Context) func(...operand.Op) { return c.VFMADD231PS },
		move:      func(c *build.Context) func(...operand.Op) { return c.VMOVUPS },
		add:       func(c *build.Context) func(...operand.Op) { return c.VADDPS },
		zero:      func(c *build.Context) func(...operand.Op) { return c.VXORPS },
	}
)

// lanes is the number of elements in one vector.
func (t tile) lanes() int { return t.bits / 8 / t.elem.size }

// nr is the tile's width in columns.
func (t tile) nr() int { return t.nv * t.lanes() }

// registers is the number of vector registers the width has.
func (t tile) registers() int {
	if t.bits == 512 {
		return 32
	}
	return 16
}

// check refuses a tile whose accumulators, B vectors and broadcast do not
// fit in the registers, or whose parameters make no sense.
func (t tile) check() error {
	switch {
	case t.bits != 256 && t.bits != 512:
		return fmt.Errorf("%s: width %d bits, want 256 or 512", t.name, t.bits)
	case t.mr < 1 || t.nv < 1:
		return fmt.Errorf("%s: tile %d×%d vectors", t.name, t.mr, t.nv)
	case t.unroll < 1 || t.unroll&(t.unroll-1) != 0:
		return fmt.Errorf("%s: unroll %d, want a power of two", t.name, t.unroll)
	case t.mr*t.nv+t.nv+1 > t.registers():
		return fmt.Errorf("%s: %d accumulators + %d B vectors + 1 broadcast > %d registers", t.name, t.mr*t.nv, t.nv, t.registers())
	}
	return nil
}

// signature is the Go signature every micro-kernel has, the one of package
// gemm's kernel.fn:
//
//	func(k int, a, b, c unsafe.Pointer, ldc int, acc bool)
func signature() *gotypes.Signature {
	v := func(name string, t types.BasicKind) *types.Var {
		return types.NewParam(token.NoPos, nil, name, types.Typ[t])
	}
	params := types.NewTuple(v("k", types.Int), v("a", types.UnsafePointer), v("b", types.UnsafePointer),
		v("c", types.UnsafePointer), v("ldc", types.Int), v("acc", types.Bool))
	return gotypes.NewSignature(nil, types.NewSignatureType(nil, nil, nil, params, nil, false))
}

// param returns the stack address of the named argument.
func param(ctx *build.Context, name string) operand.Mem {
	b, err := ctx.Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// microKernel writes the micro-kernel t into ctx: the mr × nr tile of C at
// c (rows ldc elements apart) from k steps of a packed A panel (mr elements
// a step) and a packed B panel (nr a step), c = a·b, or c += a·b when acc.
// Each step loads the step's nv vectors of B, then for each row broadcasts
// its element of A and adds its product with every B vector into that row's
// accumulators (mr·nv FMAs); the loop runs unroll steps a trip, then one at
// a time for the rest. It reads nothing past the panels' k steps.
func microKernel(ctx *build.Context, t tile) {
	if err := t.check(); err != nil {
		panic(err)
	}
	sz, nr := t.elem.size, t.nr()
	vec := ctx.YMM
	if t.bits == 512 {
		vec = ctx.ZMM
	}
	bcast, fma, move, add, zero := t.elem.broadcast(ctx), t.elem.fma(ctx), t.elem.move(ctx), t.elem.add(ctx), t.elem.zero(ctx)

	ctx.Function(t.name)
	ctx.Attributes(attr.NOSPLIT)
	ctx.Signature(signature())
	ctx.Pragma("noescape")
	ctx.Doc(wrap(fmt.Sprintf("%s computes the %d×%d %s tile c (rows ldc elements apart) from k steps "+
		"of a packed A panel (%d elements a step) and a packed B panel (%d a step): c = a·b, or c += a·b "+
		"when acc. %d-bit vectors, %d k steps a loop trip; written by asmgen (microKernel).",
		t.name, t.mr, nr, t.elem.goName, t.mr, nr, t.bits, t.unroll), 76)...)

	k, a, b, c, ldc := ctx.GP64(), ctx.GP64(), ctx.GP64(), ctx.GP64(), ctx.GP64()
	ctx.MOVQ(param(ctx, "k"), k)
	ctx.MOVQ(param(ctx, "a"), a)
	ctx.MOVQ(param(ctx, "b"), b)
	ctx.MOVQ(param(ctx, "c"), c)
	ctx.MOVQ(param(ctx, "ldc"), ldc)
	ctx.SHLQ(operand.U8(log2(sz)), ldc) // ldc in bytes

	ctx.Comment("Zero the accumulators: acc[i][v] is row i, columns v·lanes on.")
	accs := make([][]reg.VecVirtual, t.mr)
	for i := range accs {
		accs[i] = make([]reg.VecVirtual, t.nv)
		for v := range accs[i] {
			accs[i][v] = vec()
			zero(accs[i][v], accs[i][v], accs[i][v])
		}
	}

	// step emits one k step, u steps past a and b.
	step := func(u int) {
		bv := make([]reg.VecVirtual, t.nv)
		for v := range bv {
			bv[v] = vec()
			move(operand.Mem{Base: b, Disp: (u*nr + v*t.lanes()) * sz}, bv[v])
		}
		for i := range t.mr {
			x := vec()
			bcast(operand.Mem{Base: a, Disp: (u*t.mr + i) * sz}, x)
			for v := range t.nv {
				fma(bv[v], x, accs[i][v])
			}
		}
	}

	if t.prefetchC {
		row := ctx.GP64()
		ctx.MOVQ(c, row)
		for i := range t.mr {
			if i > 0 {
				ctx.ADDQ(ldc, row)
			}
			// The row's first and last byte: nr elements may span two
			// cache lines.
			ctx.PREFETCHT0(operand.Mem{Base: row})
			ctx.PREFETCHT0(operand.Mem{Base: row, Disp: nr*sz - 1})
		}
	}

	trips := ctx.GP64()
	ctx.MOVQ(k, trips)
	ctx.SHRQ(operand.U8(log2(t.unroll)), trips)
	ctx.JZ(operand.LabelRef("tail"))
	ctx.Label("loop")
	for u := range t.unroll {
		step(u)
	}
	ctx.ADDQ(operand.U32(t.unroll*t.mr*sz), a)
	ctx.ADDQ(operand.U32(t.unroll*nr*sz), b)
	ctx.DECQ(trips)
	ctx.JNZ(operand.LabelRef("loop"))

	ctx.Label("tail")
	ctx.ANDQ(operand.U32(t.unroll-1), k)
	ctx.JZ(operand.LabelRef("store"))
	ctx.Label("tailloop")
	step(0)
	ctx.ADDQ(operand.U32(t.mr*sz), a)
	ctx.ADDQ(operand.U32(nr*sz), b)
	ctx.DECQ(k)
	ctx.JNZ(operand.LabelRef("tailloop"))

	ctx.Label("store")
	accFlag := ctx.GP32()
	ctx.MOVBLZX(param(ctx, "acc"), accFlag)
	ctx.TESTL(accFlag, accFlag)
	ctx.JZ(operand.LabelRef("assign"))
	ctx.Comment("c += a·b")
	storeRows(ctx, t, c, ldc, accs, func(m operand.Mem, acc reg.VecVirtual) {
		add(m, acc, acc)
		move(acc, m)
	})
	ctx.VZEROUPPER()
	ctx.RET()

	ctx.Label("assign")
	ctx.Comment("c = a·b")
	storeRows(ctx, t, c, ldc, accs, func(m operand.Mem, acc reg.VecVirtual) { move(acc, m) })
	ctx.VZEROUPPER()
	ctx.RET()
}

// storeRows calls store with the address of each vector of the tile in C
// and its accumulator, row after row.
func storeRows(ctx *build.Context, t tile, c, ldc reg.GPVirtual, accs [][]reg.VecVirtual, store func(m operand.Mem, acc reg.VecVirtual)) {
	row := ctx.GP64()
	ctx.MOVQ(c, row)
	for i := range t.mr {
		if i > 0 {
			ctx.ADDQ(ldc, row)
		}
		for v := range t.nv {
			store(operand.Mem{Base: row, Disp: v * t.bits / 8}, accs[i][v])
		}
	}
}

// wrap cuts text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

func log2(n int) int {
	l := 0
	for n > 1 {
		n >>= 1
		l++
	}
	return l
}
