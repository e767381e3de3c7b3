// Command asmgen writes kernels/internal/vmath's amd64 assembly (AVX2 and FMA) with
// avo and its arm64 assembly (NEON, neon.go), from the kernel descriptions
// in kernels.go (written against lang, lang.go), and the Go declarations
// and wrappers that call it. It lives in a module of its own so that avo is
// no dependency of laze; kernels/internal/vmath runs it by go generate:
//
//	go run -C asmgen .          # write the files
//	go run -C asmgen . -check   # fail if the committed files differ
//
// It writes, in the package directory (-dir, default ..):
//
//   - zvmath_amd64.s: the kernels whose results do not depend on how Go
//     code is compiled (exp, log, sigmoid and pow, which mirror math's
//     assembly, log10, log2 and cosh, whose Go has no multiply-add the
//     compiler fuses, and the float32 polynomials);
//   - zvmath_goref_amd64.s and zvmath_goref_fma_amd64.s: the kernels that
//     mirror a reference written in Go with multiply-adds (math.Tanh,
//     math.Sin, math.Cos, math.Sinh, math.Exp2, math.Expm1, math.Log1p,
//     math.Tan, math.Atan, math.Asin, math.Acos, math.Asinh,
//     math.Acosh, math.Atanh), once as the compiler
//     builds it at GOAMD64 v1 and v2 (separate multiplies and adds) and
//     once as it builds it at v3 and above, where it fuses additions of
//     products into FMAs (see kern.goMulAdd);
//   - zvmath_amd64.go: the functions' declarations and the Go wrappers that
//     run the loop, recompute the lanes out of a kernel's domain with the
//     scalar reference and do the tail;
//   - zvmath_arm64.s and zvmath_arm64.go: the same for arm64's NEON
//     kernels (float64 ones mirroring arm64's math, float32 polynomials).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/template"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/mmcloughlin/avo/reg"
)

// unary is one elementwise function.
type unary struct {
	Name   string
	core64 core
	core32 core // nil: the float64 core on widened halves
	goRef  bool // core64 mirrors a reference written in Go
	// neon64 is the float64 core of arm64, which mirrors arm64's
	// reference (core64 mirrors amd64's, and arm64's math computes exp
	// with an algorithm of its own and the Go references with fused
	// multiply-adds); arm64's float32 core is core32.
	neon64 core
	// ok32, where set, makes the float32 cores the float64 ones (core64,
	// neon64) on widened halves (via64), with ok32's lanes computed; with
	// goRef, the float32 kernel then goes where core64 goes, a file per
	// fusion rule.
	ok32 func(k lang, x Op) Op
}

// float32Core is u's float32 core on amd64 (nil: core64 on widened halves,
// by the loop).
func (u unary) float32Core() core {
	if u.ok32 != nil {
		return via64(u.core64, u.ok32)
	}
	return u.core32
}

// neon32 is u's float32 core on arm64.
func (u unary) neon32() core {
	if u.ok32 != nil {
		return via64(u.neon64, u.ok32)
	}
	return u.core32
}

var unaries = []unary{
	{"exp", exp64, exp32, false, expArm64, nil},
	{"log", log64, log32, false, logArm64, nil},
	{"tanh", tanh64, tanh32, true, tanhArm64, nil},
	{"sigmoid", sigmoid64, sigmoid32, false, sigmoidArm64, nil},
	{"sin", sin64, sin32, true, sin64, nil},
	{"cos", cos64, cos32, true, cos64, nil},
	{"log10", log10_64, log10_32, false, log10Arm64, nil},
	{"log2", log2_64, log2_32, false, log2Arm64, nil},
	{"cosh", cosh64, cosh32, false, coshArm64, nil},
	{"sinh", sinh64, sinh32, true, sinhArm64, nil},
	{"exp2", exp2_64, exp2_32, true, exp2_64, nil},
	{"expm1", expm1_64, expm1_32, true, expm1Arm64, nil},
	{"log1p", log1p64, log1p32, true, log1pArm64, nil},
	{"tan", tan64, tan32, true, tan64, nil},
	{"atan", atan64, atan32, true, atan64, nil},
	{"asin", asin64, asin32, true, asin64, nil},
	{"acos", acos64, acos32, true, acos64, nil},
	{"asinh", asinh64, asinh32, true, asinhArm64, nil},
	{"acosh", acosh64, acosh32, true, acoshArm64, nil},
	{"atanh", atanh64, atanh32, true, atanhArm64, nil},
	{"cbrt", cbrt64, cbrt32, true, cbrt64, nil},
	{"erf", erf64, nil, true, erfArm64, finite32},
	{"erfc", erfc64, nil, true, erfcArm64, below26_32},
}

// stem is the part of a function's names before the element width: its
// name, with an underscore after a final digit (log10_64, not log1064).
func stem(name string) string {
	if c := name[len(name)-1]; c >= '0' && c <= '9' {
		return name + "_"
	}
	return name
}

// core2 is a kernel of two operands written in lang (see core).
type core2 func(k lang, x, y Op) (r, ok Op)

// binaryFn is one elementwise function of two operands. Its float32
// kernels compute core64 (neon64 on arm64) on float64 halves: the
// reference's bits.
type binaryFn struct {
	Name   string // the vec-vec form's name; the others add Scalar
	Ref    string // the reference's name without the element width
	core64 core2
	neon64 core2
	goRef  bool // core64 mirrors a reference written in Go with multiply-adds
	// core32, where set, is the float32 kernel of every level (a method
	// of its own in float32 lanes, within the float32 rule); nil: core64
	// (neon64) on float64 halves.
	core32 core2
	// f32 are the amd64 widths (bits) with a float32 kernel: a float32
	// kernel through float64 with more live values than the registers
	// hold (16 ymm for AVX2; avo's allocator at 512 bits) is left out,
	// and the level runs the narrower kernel or the scalar loop.
	f32 []int
}

var binaries = []binaryFn{
	{"pow", "powRef", powDD, powDD, false, nil, []int{256, 512}},
	{"hypot", "hypotRef", hypot64, hypotArm64, false, nil, []int{256, 512}},
	{"atan2", "atan2Ref", atan2_64, atan2Arm64, true, atan2_32, []int{256, 512}},
	{"logaddexp", "logaddexpRef", logaddexp64, logaddexpArm64, true, nil, nil},
	{"logaddexp2", "logaddexp2Ref", logaddexp2_64, logaddexp2Arm64, true, nil, nil},
}

// powForm is one of a binary function's three operand patterns.
type powForm struct {
	Name       string
	XVec, YVec bool
}

// Stem is the form's name before the element width (see stem).
func (p powForm) Stem() string { return stem(p.Name) }

// forms are b's three operand patterns: vec-vec (its name), vec-scalar
// (nameScalar) and scalar-vec (scalarName).
func (b binaryFn) forms() []powForm {
	return []powForm{
		{Name: b.Name, XVec: true, YVec: true},
		{Name: b.Name + "Scalar", XVec: true},
		{Name: "scalar" + strings.ToUpper(b.Name[:1]) + b.Name[1:], YVec: true},
	}
}

// asmFile is one assembly file being built.
type asmFile struct {
	name       string
	constraint string
	fused      bool
	target     target
	c          *build.Context
	pool       *pool
	label      int
}

// target is an amd64 vector width: its bits and the suffix of its
// functions' names.
type target struct {
	bits int
	isa  string
}

var (
	avx2   = target{256, "AVX2"}
	avx512 = target{512, "AVX512"}
)

// binaryElems are the element widths of t's kernels of b (see f32).
func (t target) binaryElems(b binaryFn) []int {
	if slices.Contains(b.f32, t.bits) {
		return []int{64, 32}
	}
	return []int{64}
}

// binaryWrappers is one binary function's part of a Go file: its forms and
// the element types with a kernel.
type binaryWrappers struct {
	Name, Stem, Ref string
	Forms           []powForm
	Types           []unaryFn
}

func binaryData(types func(binaryFn) []unaryFn) []binaryWrappers {
	var bs []binaryWrappers
	for _, b := range binaries {
		bs = append(bs, binaryWrappers{b.Name, stem(b.Name), b.Ref, b.forms(), types(b)})
	}
	return bs
}

func newFile(name, constraint string, fused bool, t target) *asmFile {
	f := &asmFile{name: name, constraint: constraint, fused: fused, target: t, c: build.NewContext()}
	if constraint != "" {
		f.c.ConstraintExpr(constraint)
	}
	f.pool = newPool("vmconst", t.bits/8)
	return f
}

func (f *asmFile) kern(elem int) *kern {
	return &kern{c: f.c, bits: f.target.bits, elem: elem, fused: f.fused, pool: f.pool, label: &f.label}
}

// fn is a generated function, for the Go file.
type fn struct {
	Name, Sig string
}

// funcs are the generated functions by target (isa).
var funcs map[string][]fn

func (f *asmFile) text(name, sig string) {
	f.c.Function(name)
	f.c.Attributes(attr.NOSPLIT)
	f.c.SignatureExpr(sig)
	if !f.fused {
		if funcs == nil {
			funcs = map[string][]fn{}
		}
		funcs[f.target.isa] = append(funcs[f.target.isa], fn{name, sig})
	}
}

// unaryLoop writes name(d, x []T, xs *[L]T) (done int, bad uint): it computes
// full vectors of d from x until the end or a vector with a lane out of the
// kernel's domain; then it stores that vector's results and inputs (in xs)
// and returns the index past it and the lanes out (bit k: lane k), else the
// index where the full vectors end and 0.
func (f *asmFile) unaryLoop(name string, elem int, core func(*kern, V) (V, Op), widen bool) {
	k := f.kern(elem)
	c := k.c
	L := k.lanes()
	t := map[int]string{64: "float64", 32: "float32"}[elem]
	f.text(name, fmt.Sprintf("func(d, x []%s, xs *[%d]%s) (done int, bad uint)", t, L, t))
	dp := c.Load(c.Param("d").Base(), c.GP64())
	n := c.Load(c.Param("d").Len(), c.GP64())
	xp := c.Load(c.Param("x").Base(), c.GP64())
	c.ANDQ(operand.I8(int8(-L)), n)
	i := c.GP64()
	c.XORQ(i, i)
	loop, done, bad := k.newLabel("loop"), k.newLabel("done"), k.newLabel("out")
	c.Label(loop)
	c.CMPQ(i, n)
	c.JAE(operand.LabelRef(done))
	esz := uint8(elem / 8)
	prefetch(c, xp, i, esz)
	v := k.load(operand.Mem{Base: xp, Index: i, Scale: esz})
	var m reg.GPVirtual
	if widen {
		var r V
		r, m = f.widened(k, []V{v}, func(k64 *kern, h []V) (V, Op) { return core(k64, h[0]) })
		k.store(r, operand.Mem{Base: dp, Index: i, Scale: esz})
	} else {
		r, ok := core(k, v)
		k.store(r, operand.Mem{Base: dp, Index: i, Scale: esz})
		m = k.bitsOf(ok)
	}
	c.ADDQ(operand.U8(L), i)
	k.flipLanes(m)
	c.JNZ(operand.LabelRef(bad))
	c.JMP(operand.LabelRef(loop))
	c.Label(bad)
	xs := c.Load(c.Param("xs"), c.GP64())
	k.store(v, operand.Mem{Base: xs})
	f.ret(i, m)
	c.Label(done)
	z := c.GP64()
	c.XORQ(z, z)
	f.ret(i, z)
}

// prefetchAhead is how far ahead of the vector it loads (in bytes) a loop
// asks for its input (PREFETCHT0): measured on the Intel AVX-512 machine,
// the float64 log at 1e6 ran 12% faster with 1024 or 2048, 5% with 512
// (docs/performance.md). The hardware's streamer does not cross a 4 KiB
// page; the request does. A prefetch never faults, past the end included.
const prefetchAhead = 2048

// prefetch emits PREFETCHT0 prefetchAhead bytes past element i of base.
func prefetch(c *build.Context, base, i reg.Register, esz uint8) {
	c.PREFETCHT0(operand.Mem{Base: base, Index: i, Scale: esz, Disp: prefetchAhead})
}

// flipLanes turns m's bits of the lanes computed into those of the lanes
// not computed (setting the flags: zero when there are none).
func (k *kern) flipLanes(m reg.GPVirtual) {
	if full := k.full(); full > 0xff {
		k.c.XORQ(operand.U32(full), m)
	} else {
		k.c.XORQ(operand.U8(full), m)
	}
}

func (f *asmFile) ret(done, bad reg.GPVirtual) {
	f.c.Store(done, f.c.ReturnIndex(0))
	f.c.Store(bad, f.c.ReturnIndex(1))
	f.c.VZEROUPPER()
	f.c.RET()
}

// widened runs a float64 core on the two halves of float32 vectors, each
// converted to float64 lanes, and returns the float32 results and the bit
// set of the lanes the core computed.
func (f *asmFile) widened(k *kern, in []V, core func(*kern, []V) (V, Op)) (V, reg.GPVirtual) {
	if k.wide() {
		return widened512(k, in, core)
	}
	c := k.c
	k64 := k.as(64)
	half := func(hi bool) (reg.VecVirtual, reg.GPVirtual) {
		h := make([]V, len(in))
		for j, v := range in {
			h[j] = c.YMM()
			if hi {
				x := c.XMM()
				c.VEXTRACTF128(operand.U8(1), v, x)
				c.VCVTPS2PD(x, h[j])
			} else {
				c.VCVTPS2PD(v.AsX(), h[j])
			}
		}
		r, ok := core(k64, h)
		x := c.XMM()
		c.VCVTPD2PSY(r, x)
		return x, k64.bitsOf(ok)
	}
	lo, mlo := half(false)
	hi, mhi := half(true)
	out := c.YMM()
	c.VINSERTF128(operand.U8(1), hi, lo.AsY(), out)
	c.SHLQ(operand.U8(4), mhi)
	c.ORQ(mhi, mlo)
	return out, mlo
}

// widened512 is widened on the 512-bit target: halves of 8 lanes.
func widened512(k *kern, in []V, core func(*kern, []V) (V, Op)) (V, reg.GPVirtual) {
	c := k.c
	k64 := k.as(64)
	half := func(hi bool) (reg.VecVirtual, reg.GPVirtual) {
		h := make([]V, len(in))
		for j, v := range in {
			h[j] = widen512(c, v, hi)
		}
		r, ok := core(k64, h)
		y := c.YMM()
		c.VCVTPD2PS(r, y)
		return y, k64.bitsOf(ok)
	}
	lo, mlo := half(false)
	hi, mhi := half(true)
	out := c.ZMM()
	c.VINSERTF64X4(operand.U8(1), hi, lo.AsZ(), out)
	c.SHLQ(operand.U8(8), mhi)
	c.ORQ(mhi, mlo)
	return out, mlo
}

// powLoop is unaryLoop for pow's forms: a scalar operand is broadcast, and
// only the vector operands are saved for the fix-up.
func (f *asmFile) powLoop(b binaryFn, form powForm, elem int) {
	k := f.kern(elem)
	c := k.c
	L := k.lanes()
	t := map[int]string{64: "float64", 32: "float32"}[elem]
	name := fmt.Sprintf("%s%d%sLoop", form.Stem(), elem, f.target.isa)
	arg := func(vec bool) string {
		if vec {
			return "[]" + t
		}
		return t
	}
	var saves []string
	if form.XVec {
		saves = append(saves, "xs")
	}
	if form.YVec {
		saves = append(saves, "ys")
	}
	f.text(name, fmt.Sprintf("func(d []%s, x %s, y %s, %s *[%d]%s) (done int, bad uint)",
		t, arg(form.XVec), arg(form.YVec), strings.Join(saves, ", "), L, t))
	dp := c.Load(c.Param("d").Base(), c.GP64())
	n := c.Load(c.Param("d").Len(), c.GP64())
	var xp, yp reg.Register
	if form.XVec {
		xp = c.Load(c.Param("x").Base(), c.GP64())
	}
	if form.YVec {
		yp = c.Load(c.Param("y").Base(), c.GP64())
	}
	c.ANDQ(operand.I8(int8(-L)), n)
	i := c.GP64()
	c.XORQ(i, i)
	loop, done, bad := k.newLabel("loop"), k.newLabel("done"), k.newLabel("out")
	c.Label(loop)
	c.CMPQ(i, n)
	c.JAE(operand.LabelRef(done))
	esz := uint8(elem / 8)
	operandOf := func(vec bool, p reg.Register, param string) V {
		if vec {
			prefetch(c, p, i, esz)
			return k.load(operand.Mem{Base: p, Index: i, Scale: esz})
		}
		b, err := c.Param(param).Resolve()
		if err != nil {
			log.Fatal(err)
		}
		v := k.vreg()
		if elem == 64 {
			c.VBROADCASTSD(b.Addr, v)
		} else {
			c.VBROADCASTSS(b.Addr, v)
		}
		return v
	}
	x := operandOf(form.XVec, xp, "x")
	y := operandOf(form.YVec, yp, "y")
	var m reg.GPVirtual
	core32 := core32On(b, f.target)
	switch {
	case elem == 32 && core32 != nil:
		r, ok := core32(avx{k}, x, y)
		k.store(k.reg(r), operand.Mem{Base: dp, Index: i, Scale: esz})
		m = k.bitsOf(ok)
	case elem == 32:
		core := b.core64
		if c, ok := float32Via64[b.Name]; ok {
			core = c
		}
		var r V
		r, m = f.widened(k, []V{x, y}, func(k64 *kern, h []V) (V, Op) {
			r, ok := core(avx{k64}, h[0], h[1])
			return k64.reg(r), ok
		})
		k.store(r, operand.Mem{Base: dp, Index: i, Scale: esz})
	default:
		r, ok := b.core64(avx{k}, x, y)
		k.store(k.reg(r), operand.Mem{Base: dp, Index: i, Scale: esz})
		m = k.bitsOf(ok)
	}
	c.ADDQ(operand.U8(L), i)
	k.flipLanes(m)
	c.JNZ(operand.LabelRef(bad))
	c.JMP(operand.LabelRef(loop))
	c.Label(bad)
	if form.XVec {
		k.store(x, operand.Mem{Base: c.Load(c.Param("xs"), c.GP64())})
	}
	if form.YVec {
		k.store(y, operand.Mem{Base: c.Load(c.Param("ys"), c.GP64())})
	}
	f.ret(i, m)
	c.Label(done)
	z := c.GP64()
	c.XORQ(z, z)
	f.ret(i, z)
}

// asm compiles the file and returns its text.
func (f *asmFile) asm() []byte { return f.asmFor("vmath") }

// asmFor compiles the file, for package pkg, and returns its text.
func (f *asmFile) asmFor(pkg string) []byte {
	f.pool.emit(f.c)
	file, err := f.c.Result()
	if err != nil {
		if list, ok := err.(build.ErrorList); ok {
			for _, e := range list[:min(len(list), 10)] {
				log.Printf("%s: %v", f.name, e)
			}
		}
		log.Fatalf("%s: %v", f.name, err)
	}
	if err := pass.Compile.Execute(file); err != nil {
		log.Fatalf("%s: %v", f.name, err)
	}
	cfg := printer.Config{Name: "kernels/internal/vmath/asmgen", Pkg: pkg}
	b, err := printer.NewGoAsm(cfg).Print(file)
	if err != nil {
		log.Fatalf("%s: %v", f.name, err)
	}
	return f.pool.broadcastPool(pruneSelfMoves(b))
}

// pruneSelfMoves drops the vector moves of a register to itself, which the
// allocator leaves where a copy's source was dead (avo prunes only
// general-purpose ones).
func pruneSelfMoves(b []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		f := strings.Fields(strings.ReplaceAll(string(line), ",", " "))
		if len(f) == 3 && f[0] == "VMOVUPS" && f[1] == f[2] {
			continue
		}
		out = append(out, line...)
	}
	return out
}

// generate returns the files asmgen writes, by name.
func generate() map[string][]byte {
	funcs = map[string][]fn{}
	out := map[string][]byte{}
	amd64Files(out, avx2, "")
	amd64Files(out, avx512, "_avx512")
	out["zvmath_amd64.go"] = goFile(avx2, "zvmath_amd64.go", "zvmath_*amd64.s")
	out["zvmath_avx512_amd64.go"] = goFile(avx512, "zvmath_avx512_amd64.go", "zvmath_*avx512_amd64.s")
	arm := &neonFile{pool: neonPool{off: map[[2]uint64]int{}}}
	var armFns []unaryFn
	for _, u := range unaries {
		arm.unaryLoop(stem(u.Name)+"64NEONLoop", 64, u.neon64)
		arm.unaryLoop(stem(u.Name)+"32NEONLoop", 32, u.neon32())
		armFns = append(armFns, unaryFn{u.Name, stem(u.Name), "64", "float64", "2"}, unaryFn{u.Name, stem(u.Name), "32", "float32", "4"})
	}
	for _, b := range binaries {
		for _, form := range b.forms() {
			arm.powLoop(form, 64, b.neon64, false)
			if c, ok := float32Via64[b.Name]; ok {
				arm.powLoop(form, 32, c, false)
			} else if b.core32 != nil {
				arm.powLoop(form, 32, b.core32, true)
			} else {
				arm.powLoop(form, 32, b.neon64, false)
			}
		}
	}
	out["zvmath_arm64.s"] = arm.asm()
	out["zvmath_arm64.go"] = goFileFor("zvmath_arm64.go", goData{ISA: "NEON", Asm: "zvmath_arm64.s", Funcs: arm.funcs, Unaries: armFns, Fast: neonFastNames(),
		Binaries: binaryData(func(binaryFn) []unaryFn {
			return []unaryFn{{Bits: "64", T: "float64", Lanes: "2"}, {Bits: "32", T: "float32", Lanes: "4"}}
		})})
	return out
}

// amd64Files writes target t's three assembly files into out: zvmath_amd64.s
// and the two goref files, with suffix before "_amd64".
func amd64Files(out map[string][]byte, t target, suffix string) {
	plain := newFile("zvmath"+suffix+"_amd64.s", "", false, t)
	goref := newFile("zvmath_goref"+suffix+"_amd64.s", "!amd64.v3", false, t)
	gorefFMA := newFile("zvmath_goref_fma"+suffix+"_amd64.s", "amd64.v3", true, t)
	loop := func(u unary, bits string) string { return stem(u.Name) + bits + t.isa + "Loop" }
	for _, u := range unaries {
		files := []*asmFile{plain}
		if u.goRef {
			files = []*asmFile{goref, gorefFMA}
		}
		if c, fast := fastCore(u, t); fast {
			plain.unaryLoop(loop(u, "64"), 64, onAVX(c), false)
		} else {
			for _, f := range files {
				f.unaryLoop(loop(u, "64"), 64, onAVX(u.core64), false)
			}
		}
		c32, fast32 := fastCore32(u, t)
		switch {
		case fast32:
			plain.unaryLoop(loop(u, "32"), 32, onAVX(c32), false)
		case u.ok32 != nil:
			for _, f := range files {
				f.unaryLoop(loop(u, "32"), 32, onAVX(u.float32Core()), false)
			}
		case u.core32 != nil:
			plain.unaryLoop(loop(u, "32"), 32, onAVX(u.core32), false)
		default:
			for _, f := range files {
				f.unaryLoop(loop(u, "32"), 32, onAVX(u.core64), true)
			}
		}
	}
	for _, b := range binaries {
		files := []*asmFile{plain}
		if b.goRef {
			files = []*asmFile{goref, gorefFMA}
		}
		for _, form := range b.forms() {
			for _, elem := range t.binaryElems(b) {
				if c, fast := fastCore2(b, t); fast && elem == 64 {
					fb := b
					fb.core64 = c
					plain.powLoop(fb, form, elem)
					continue
				}
				if elem == 32 && core32On(b, t) != nil {
					plain.powLoop(b, form, elem) // no reference's fusion to mirror
					continue
				}
				for _, f := range files {
					f.powLoop(b, form, elem)
				}
			}
		}
	}
	for _, f := range []*asmFile{plain, goref, gorefFMA} {
		out[f.name] = f.asm()
	}
}

// goFile writes the declarations and wrappers of target t's functions.
func goFile(t target, name, asm string) []byte {
	l64, l32 := fmt.Sprint(t.bits/64), fmt.Sprint(t.bits/32)
	var us []unaryFn
	for _, u := range unaries {
		us = append(us, unaryFn{u.Name, stem(u.Name), "64", "float64", l64}, unaryFn{u.Name, stem(u.Name), "32", "float32", l32})
	}
	pt := []unaryFn{{Bits: "64", T: "float64", Lanes: l64}, {Bits: "32", T: "float32", Lanes: l32}}
	return goFileFor(name, goData{ISA: t.isa, Asm: asm, Funcs: funcs[t.isa], Unaries: us, Fast: fastNames(t),
		Binaries: binaryData(func(b binaryFn) []unaryFn { return pt[:len(t.binaryElems(b))] })})
}

// unaryFn is one generated function's wrapper: the op, the stem of its
// functions' names, its element type and the lanes of a vector.
type unaryFn struct{ Name, Stem, Bits, T, Lanes string }

// goData is what goTemplate writes from.
type goData struct {
	ISA      string // the functions' suffix
	Asm      string // the assembly files, for the comment
	Funcs    []fn
	Unaries  []unaryFn
	Binaries []binaryWrappers
	Fast     []string // the exported stems of the functions with a kernel of the level's own (fast512)
}

func goFileFor(name string, data goData) []byte {
	var b bytes.Buffer
	if err := goTemplate.Execute(&b, data); err != nil {
		log.Fatal(err)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		os.WriteFile(name+".bad", b.Bytes(), 0o644)
		log.Fatalf("%s: %v", name, err)
	}
	return src
}

var goTemplate = template.Must(template.New("go").Funcs(template.FuncMap{
	"decl": func(name, sig string) string { return "func " + name + strings.TrimPrefix(sig, "func") },
}).Parse(`// Code generated by kernels/internal/vmath/asmgen. DO NOT EDIT.

package vmath

// The assembly loops ({{.Asm}}). Each computes full vectors of d
// from its operands until the end or a vector with a lane out of the
// kernel's domain; it then stores that vector's results and its vector
// operands (in xs, ys) and returns the index past it and the lanes out (bit
// k: lane k), else the index where the full vectors end and 0.
{{if .Fast}}
// fast{{.ISA}} names the float64 functions (Exp for Exp64) that this level
// computes with kernels of its own, within the accuracy rule, rather than
// with their references' algorithms bit for bit (asmgen's fast512 and
// ownEverywhere).
var fast{{.ISA}} = map[string]bool{ {{range .Fast}}"{{.}}": true, {{end}} }
{{end}}
{{range .Funcs}}
//go:noescape
{{decl .Name .Sig}}
{{end}}
{{range $t := .Unaries}}{{$u := $t}}
// {{$u.Stem}}{{$t.Bits}}{{$.ISA}} sets d[i] = {{$u.Name}}(x[i]) with the {{$.ISA}} assembly,
// recomputing the lanes out of its domain with the reference.
func {{$u.Stem}}{{$t.Bits}}{{$.ISA}}(d, x []{{$t.T}}) {
	x = x[:len(d)]
	var xs [{{$t.Lanes}}]{{$t.T}}
	i := 0
	for i+{{$t.Lanes}} <= len(d) {
		done, bad := {{$u.Stem}}{{$t.Bits}}{{$.ISA}}Loop(d[i:], x[i:], &xs)
		i += done
		if bad == 0 {
			break
		}
		fix{{$t.Bits}}(d[i-{{$t.Lanes}}:i], xs[:], bad, {{$u.Name}}Ref{{$t.Bits}})
	}
	if i < len(d) {
		// the tail, padded with ones (in every kernel's domain)
		var rs [{{$t.Lanes}}]{{$t.T}}
		for k := range xs {
			xs[k] = 1
		}
		n := copy(xs[:], x[i:])
		_, bad := {{$u.Stem}}{{$t.Bits}}{{$.ISA}}Loop(rs[:], xs[:], &xs)
		copy(d[i:], rs[:n])
		fix{{$t.Bits}}(d[i:], xs[:n], bad, {{$u.Name}}Ref{{$t.Bits}})
	}
}
{{end}}
{{range $b := .Binaries}}{{range $p := $b.Forms}}{{range $t := $b.Types}}
// {{$p.Stem}}{{$t.Bits}}{{$.ISA}} sets d[i] = {{$b.Name}}({{if $p.XVec}}x[i]{{else}}x{{end}}, {{if $p.YVec}}y[i]{{else}}y{{end}}) with the {{$.ISA}} assembly,
// recomputing the lanes out of its domain with the reference.
func {{$p.Stem}}{{$t.Bits}}{{$.ISA}}(d []{{$t.T}}, x {{if $p.XVec}}[]{{end}}{{$t.T}}, y {{if $p.YVec}}[]{{end}}{{$t.T}}) {
	{{if $p.XVec}}x = x[:len(d)]{{end}}
	{{if $p.YVec}}y = y[:len(d)]{{end}}
	var xs, ys [{{$t.Lanes}}]{{$t.T}}
	{{if not $p.XVec}}for k := range xs {
		xs[k] = x
	}{{end}}
	{{if not $p.YVec}}for k := range ys {
		ys[k] = y
	}{{end}}
	i := 0
	for i+{{$t.Lanes}} <= len(d) {
		done, bad := {{$p.Stem}}{{$t.Bits}}{{$.ISA}}Loop(d[i:], {{if $p.XVec}}x[i:]{{else}}x{{end}}, {{if $p.YVec}}y[i:]{{else}}y{{end}}{{if $p.XVec}}, &xs{{end}}{{if $p.YVec}}, &ys{{end}})
		i += done
		if bad == 0 {
			break
		}
		fix2_{{$t.Bits}}(d[i-{{$t.Lanes}}:i], xs[:], ys[:], bad, {{$b.Ref}}{{$t.Bits}})
	}
	if i < len(d) {
		// the tail, padded with ones
		var rs [{{$t.Lanes}}]{{$t.T}}
		n := len(d) - i
		{{if $p.XVec}}for k := range xs {
			xs[k] = 1
		}
		copy(xs[:], x[i:]){{end}}
		{{if $p.YVec}}for k := range ys {
			ys[k] = 1
		}
		copy(ys[:], y[i:]){{end}}
		_, bad := {{$b.Stem}}{{$t.Bits}}{{$.ISA}}Loop(rs[:], xs[:], ys[:], &xs, &ys)
		copy(d[i:], rs[:n])
		fix2_{{$t.Bits}}(d[i:], xs[:n], ys[:], bad, {{$b.Ref}}{{$t.Bits}})
	}
}
{{end}}{{end}}{{end}}`))

func main() {
	dir := flag.String("dir", "..", "the package directory (kernels/internal/vmath)")
	loopsDir := flag.String("loops", "", "the CPU loops' package directory (default: dir/../loops: kernels/internal/vmath sits beside kernels/internal/loops)")
	check := flag.Bool("check", false, "compare the files in dir with what asmgen writes instead of writing them")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("asmgen: ")
	if *loopsDir == "" {
		*loopsDir = filepath.Join(*dir, "..", "loops")
	}
	files := map[string][]byte{}
	for name, b := range generate() {
		files[filepath.Join(*dir, name)] = b
	}
	for name, b := range generateLanes() {
		files[filepath.Join(*loopsDir, name)] = b
	}
	stale := 0
	for _, path := range sortedNames(files) {
		if *check {
			old, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(old, files[path]) {
				fmt.Fprintf(os.Stderr, "asmgen: %s is not what asmgen writes (run go generate ./kernels/internal/vmath)\n", path)
				stale++
			}
			continue
		}
		if err := os.WriteFile(path, files[path], 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote", path)
	}
	if stale > 0 {
		os.Exit(1)
	}
}

func sortedNames(m map[string][]byte) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
