package main

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
)

// lang is the vector language the portable kernels (kernels.go) are written
// in, implemented once per target: avx (vec.go's kern, 256-bit AVX2 + FMA
// through avo) and neon (neon.go, 128-bit arm64 Advanced SIMD). Values are
// operands: a vector register of the target or a constant that the target
// places where it can (a memory operand on amd64, a register loaded from the
// pool on arm64). A mask is a vector of all-ones and all-zeros lanes.
type lang interface {
	// f is the float constant v in every lane; u the integer constant v
	// (of the element width).
	f(v float64) Op
	u(v uint64) Op

	add(a, b Op) Op
	sub(a, b Op) Op
	mul(a, b Op) Op
	div(a, b Op) Op
	// min and max may return either operand when one is NaN: the kernels
	// use them only where NaN lanes are out of the domain.
	min(a, b Op) Op
	max(a, b Op) Op
	sqrt(a Op) Op
	// round rounds to an integer: mode 0 to nearest even, 3 toward zero.
	round(a Op, mode uint8) Op
	// fma is a·b + c with one rounding, fnma c - a·b.
	fma(a, b, c Op) Op
	fnma(a, b, c Op) Op
	// goMulAdd is a·b + c as the Go compiler compiles it in a reference
	// written in Go (shared: the product has another use, or c is a named
	// constant of the reference rather than an element of a coefficient
	// array; see kern.goMulAdd).
	goMulAdd(a, b, c Op, shared bool) Op
	// goMulSub is c - a·b as the Go compiler compiles it: a product and
	// a subtraction on amd64, one FMSUB on arm64.
	goMulSub(a, b, c Op) Op
	// horner is ((c[0]·x + c[1])·x + ...)·x + c[n-1] with FMAs.
	horner(x Op, cs ...float64) Op

	and(a, b Op) Op
	or(a, b Op) Op
	xor(a, b Op) Op
	andNot(a, b Op) Op // a &^ b

	// Integer lanes of the element width.
	addI(a, b Op) Op
	subI(a, b Op) Op
	eqI(a, b Op) Op
	shl(a Op, n int) Op
	shr(a Op, n int) Op
	// toInt converts float lanes holding integers to integer lanes of the
	// same width, toFloat integer lanes to float (amd64: float32 only).
	toInt(a Op) Op
	toFloat(a Op) Op

	// cmp compares lane by lane with one of the predicates eq … gt.
	cmp(pred uint8, a, b Op) Op
	mAnd(a, b Op) Op
	mOr(a, b Op) Op
	mAndNot(a, b Op) Op
	// sel is m ? a : b lane by lane.
	sel(m, a, b Op) Op

	// as is the language at the other element width, in the same
	// function (float32 kernels that compute parts in float64).
	as(elem int) lang
	// widen converts the low (hi false) or high half of a float32
	// vector to a float64 vector; narrow rounds two float64 vectors to one
	// float32 vector, lo's lanes first; narrowInt converts two float64
	// vectors holding integers to one of int32 lanes.
	widen(x Op, hi bool) Op
	narrow(lo, hi Op) Op
	narrowInt(lo, hi Op) Op

	// whileNonzero runs body while some lane of *i is not zero (checked
	// before each trip). *i and *vars are the loop's variables: the body
	// reads them and assigns their next values; after the loop they hold
	// the last ones.
	whileNonzero(i *Op, vars []*Op, body func())
}

// avx is kern seen through lang.
type avx struct{ k *kern }

func (a avx) f(v float64) Op                      { return a.k.f(v) }
func (a avx) u(v uint64) Op                       { return a.k.u(v) }
func (a avx) add(x, y Op) Op                      { return a.k.add(x, y) }
func (a avx) sub(x, y Op) Op                      { return a.k.sub(x, y) }
func (a avx) mul(x, y Op) Op                      { return a.k.mul(x, y) }
func (a avx) div(x, y Op) Op                      { return a.k.div(x, y) }
func (a avx) min(x, y Op) Op                      { return a.k.min(x, y) }
func (a avx) max(x, y Op) Op                      { return a.k.max(x, y) }
func (a avx) sqrt(x Op) Op                        { return a.k.sqrt(x) }
func (a avx) round(x Op, mode uint8) Op           { return a.k.round(x, mode) }
func (a avx) fma(x, y, z Op) Op                   { return a.k.fma(x, y, z) }
func (a avx) fnma(x, y, z Op) Op                  { return a.k.fnma(x, y, z) }
func (a avx) goMulAdd(x, y, z Op, shared bool) Op { return a.k.goMulAdd(x, y, z, shared) }
func (a avx) goMulSub(x, y, z Op) Op              { return a.k.sub(z, a.k.mul(x, y)) }
func (a avx) horner(x Op, cs ...float64) Op       { return a.k.horner(a.k.reg(x), cs...) }
func (a avx) and(x, y Op) Op                      { return a.k.and(x, y) }
func (a avx) or(x, y Op) Op                       { return a.k.or(x, y) }
func (a avx) xor(x, y Op) Op                      { return a.k.xor(x, y) }
func (a avx) andNot(x, y Op) Op                   { return a.k.andNot(x, y) }
func (a avx) addI(x, y Op) Op                     { return a.k.addI(x, y) }
func (a avx) subI(x, y Op) Op                     { return a.k.subI(x, y) }
func (a avx) shl(x Op, n int) Op                  { return a.k.shl(a.k.reg(x), n) }
func (a avx) shr(x Op, n int) Op                  { return a.k.shr(a.k.reg(x), n) }
func (a avx) toInt(x Op) Op                       { return a.k.toInt(a.k.reg(x)) }
func (a avx) toFloat(x Op) Op                     { return a.k.toFloat(a.k.reg(x)) }

func (a avx) as(elem int) lang { return avx{a.k.as(elem)} }

// The masks: vectors on the 256-bit target, opmask registers on the 512-bit
// one (where a mask used as a vector, or a vector as a mask, is converted).

// kMasks reports whether masks are opmask registers.
func (a avx) kMasks() bool { return a.k.wide() }

func (a avx) eqI(x, y Op) Op {
	if a.kMasks() {
		return a.k.eqK(x, y)
	}
	if a.k.wide() {
		return a.k.reg(a.k.eqK(x, y))
	}
	return a.k.eqI(x, y)
}

func (a avx) cmp(pred uint8, x, y Op) Op {
	if a.kMasks() {
		return a.k.cmpK(pred, x, y)
	}
	if a.k.wide() {
		return a.k.reg(a.k.cmpK(pred, x, y))
	}
	return a.k.cmp(pred, x, y)
}

func (a avx) mAnd(x, y Op) Op {
	if a.kMasks() {
		return a.k.mAndK(x, y)
	}
	return a.k.mAnd(a.k.reg(x), a.k.reg(y))
}

func (a avx) mOr(x, y Op) Op {
	if a.kMasks() {
		return a.k.mOrK(x, y)
	}
	return a.k.mOr(a.k.reg(x), a.k.reg(y))
}

func (a avx) mAndNot(x, y Op) Op {
	if a.kMasks() {
		return a.k.mAndNotK(x, y)
	}
	return a.k.mAndNot(a.k.reg(x), a.k.reg(y))
}

func (a avx) sel(m, x, y Op) Op {
	if a.k.wide() {
		return a.k.selK(m, x, y)
	}
	return a.k.sel(a.k.reg(m), x, y)
}

// widen is VCVTPS2PD of the low half, or of the high half extracted.
func (a avx) widen(x Op, hi bool) Op {
	c, v := a.k.c, a.k.reg(x)
	if a.k.wide() {
		return widen512(c, v, hi)
	}
	d := c.YMM()
	if hi {
		h := c.XMM()
		c.VEXTRACTF128(operand.U8(1), v, h)
		c.VCVTPS2PD(h, d)
	} else {
		c.VCVTPS2PD(v.AsX(), d)
	}
	return d
}

// narrow is VCVTPD2PS of each half and VINSERTF128 (VINSERTF64X4 on the
// 512-bit target).
func (a avx) narrow(lo, hi Op) Op {
	if a.k.wide() {
		return a.pack(lo, hi, a.k.c.VCVTPD2PS, a.k.c.VINSERTF64X4)
	}
	return a.pack(lo, hi, a.k.c.VCVTPD2PSY, four(a.k.c.VINSERTF128))
}

// narrowInt is VCVTPD2DQ of each half (exact: the lanes hold integers)
// and VINSERTI128 (VINSERTI64X4).
func (a avx) narrowInt(lo, hi Op) Op {
	if a.k.wide() {
		return a.pack(lo, hi, a.k.c.VCVTPD2DQ, a.k.c.VINSERTI64X4)
	}
	return a.pack(lo, hi, a.k.c.VCVTPD2DQY, four(a.k.c.VINSERTI128))
}

// pack converts two float64 vectors to half-width vectors and joins them.
func (a avx) pack(lo, hi Op, convert func(...operand.Op), insert func(...operand.Op)) Op {
	c := a.k.c
	half := c.XMM
	if a.k.wide() {
		half = c.YMM
	}
	l, h := half(), half()
	convert(a.k.reg(lo), l)
	convert(a.k.reg(hi), h)
	d := a.k.vreg()
	if a.k.wide() {
		insert(operand.U8(1), h, l.AsZ(), d)
	} else {
		insert(operand.U8(1), h, l.AsY(), d)
	}
	return d
}

// widen512 is widen on the 512-bit target: VCVTPS2PD of the low 256 bits,
// or of the high ones extracted.
func widen512(c *build.Context, v V, hi bool) V {
	d := c.ZMM()
	if hi {
		h := c.YMM()
		c.VEXTRACTF64X4(operand.U8(1), v, h)
		c.VCVTPS2PD(h, d)
	} else {
		c.VCVTPS2PD(v.AsY(), d)
	}
	return d
}

// whileNonzero keeps each variable in a register of its own (a copy), tests
// *i with VPTEST and moves the body's results into the variables' registers
// at the end of each trip.
func (a avx) whileNonzero(i *Op, vars []*Op, body func()) {
	k, c := a.k, a.k.c
	all := append([]*Op{i}, vars...)
	regs := a.ownRegisters(all)
	loop, done := k.newLabel("while"), k.newLabel("whiledone")
	c.Label(loop)
	if k.wide() {
		m := c.K()
		k.pd(k.c.VPTESTMQ, k.c.VPTESTMD, regs[0], regs[0], m)
		c.KORTESTW(m, m)
	} else {
		c.VPTEST(regs[0], regs[0])
	}
	c.JZ(operand.LabelRef(done))
	body()
	a.moveNext(all, regs)
	c.JMP(operand.LabelRef(loop))
	c.Label(done)
}

// ifMask runs body, which may assign the variables vars point to, where
// some lane of the opmask m is set (KORTESTW and one branch), on the
// 512-bit target: ifAny's form there, without the mask turned into a
// vector and tested again.
func (a avx) ifMask(m Op, vars []*Op, body func()) {
	k, c := a.k, a.k.c
	regs := a.ownRegisters(vars)
	done := k.newLabel("ifdone")
	mk := k.mask(m)
	c.KORTESTW(mk, mk)
	c.JZ(operand.LabelRef(done))
	body()
	a.moveNext(vars, regs)
	c.Label(done)
}

// ownRegisters copies each variable into a register of its own (a
// branch's or a loop's variables: both paths must leave them there) and
// points the variables at them.
func (a avx) ownRegisters(vars []*Op) []V {
	regs := make([]V, len(vars))
	for j, v := range vars {
		regs[j] = a.k.copy(*v)
		*v = regs[j]
	}
	return regs
}

// moveNext moves the values the body gave the variables into their
// registers (ownRegisters') and points the variables at them again.
func (a avx) moveNext(vars []*Op, regs []V) {
	checkNext(vars, regs)
	for j, v := range vars {
		if next := a.k.reg(*v); next != regs[j] {
			a.k.c.VMOVUPS(next, regs[j])
		}
		*v = regs[j]
	}
}

// core is a kernel written in lang: the results of one vector of lanes and
// the mask of the lanes it computed.
type core func(k lang, x Op) (r, ok Op)

// onAVX runs a portable core on kern: its result in a register and its
// mask (a vector or, on the 512-bit target, an opmask register).
func onAVX(c core) func(*kern, V) (V, Op) {
	return func(k *kern, x V) (V, Op) {
		r, ok := c(avx{k}, x)
		if !k.wide() {
			ok = k.reg(ok)
		}
		return k.reg(r), ok
	}
}
