package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// This file is the vector language the kernels are written in: values are
// virtual vector registers (avo allocates the physical ones), constants are
// memory operands in a per-file pool, and each method emits the instruction
// for the target's width and element type. A kernel written against it is
// one description for every width: 256 bits (AVX2 + FMA, ymm registers,
// masks as all-ones lanes in a vector register) and 512 bits (AVX-512 F and
// DQ, zmm registers, masks in opmask registers: the few width-dependent
// methods say how).

// V is a vector value (or, on the 256-bit target, a lane mask).
type V = reg.VecVirtual

// Op is a vector operand: a V or a constant from the pool (memory).
type Op = operand.Op

// Comparison predicates of VCMPPD/VCMPPS (the quiet forms: NaN compares
// false except for neq).
const (
	eq    = 0x00 // EQ_OQ
	lt    = 0x11 // LT_OQ
	le    = 0x12 // LE_OQ
	unord = 0x03 // UNORD_Q
	neq   = 0x04 // NEQ_UQ: true for NaN, as Go's !=
	ge    = 0x1d // GE_OQ
	gt    = 0x1e // GT_OQ
)

// pool is a file's constant pool: every constant is stored once, so that it
// can be used as a memory operand. On the 256-bit target an entry is a
// whole vector, the value repeated in every lane. On the 512-bit target
// (broadcast) an entry is one 8-byte slot that instructions read with
// EVEX embedded broadcast (see broadcastPool): a 64-byte entry would cross
// a cache line on every load, as Go's linker aligns data to 32 bytes at
// most, which halved the AVX-512 kernels' speed on Intel cores. Tables
// (distinct lanes) are whole vectors on both.
type pool struct {
	name      string
	bytes     int  // vector size
	broadcast bool // entries are scalars read by embedded broadcast
	off       map[string]int
	entries   []poolEntry
	size      int
}

// poolEntry is one constant: its lanes as raw words (one word: the value
// of every lane), their element width (64 or 32) and its offset.
type poolEntry struct {
	words []uint64
	elem  int
	off   int
}

// scalar reports whether e is stored once for every lane (an 8-byte slot
// read by broadcast) rather than as a whole vector.
func (p *pool) scalar(e poolEntry) bool { return p.broadcast && len(e.words) == 1 }

func newPool(name string, bytes int) *pool {
	return &pool{name: name, bytes: bytes, broadcast: bytes == 64, off: map[string]int{}}
}

// add stores an entry under key once and returns its memory operand.
func (p *pool) add(key string, words []uint64, elem int) operand.Mem {
	off, ok := p.off[key]
	if !ok {
		e := poolEntry{words: words, elem: elem, off: p.size}
		off = e.off
		p.off[key] = off
		p.entries = append(p.entries, e)
		if p.scalar(e) {
			p.size += 8
		} else {
			p.size += p.bytes
		}
	}
	return operand.Mem{Symbol: operand.Symbol{Name: p.name, Static: true}, Base: reg.StaticBase, Disp: off}
}

func (p *pool) get(bits uint64, elem int) operand.Mem {
	return p.add(fmt.Sprintf("%d:%#x", elem, bits), []uint64{bits}, elem)
}

// table is a vector constant of distinct lanes (64-bit words, one per
// lane of the pool's vector size), stored once like get's.
func (p *pool) table(words []uint64) operand.Mem {
	if len(words)*8 != p.bytes {
		panic(fmt.Sprintf("pool.table: %d words for a %d-byte vector", len(words), p.bytes))
	}
	return p.add(fmt.Sprintf("table:%#x", words), words, 64)
}

// at is the entry at offset off.
func (p *pool) at(off int) (poolEntry, bool) {
	for _, e := range p.entries {
		if e.off == off {
			return e, true
		}
	}
	return poolEntry{}, false
}

// emit writes the pool's GLOBL and DATA directives.
func (p *pool) emit(c *build.Context) {
	if len(p.entries) == 0 {
		return
	}
	c.StaticGlobal(p.name)
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, e := range p.entries {
		switch {
		case p.scalar(e) && e.elem == 64:
			c.AddDatum(e.off, operand.U64(e.words[0]))
		case p.scalar(e):
			c.AddDatum(e.off, operand.U32(uint32(e.words[0])))
			c.AddDatum(e.off+4, operand.U32(0))
		case e.elem == 64:
			for o := 0; o < p.bytes; o += 8 {
				c.AddDatum(e.off+o, operand.U64(e.words[(o/8)%len(e.words)]))
			}
		default:
			for o := 0; o < p.bytes; o += 4 {
				c.AddDatum(e.off+o, operand.U32(uint32(e.words[0])))
			}
		}
	}
}

// broadcastPool rewrites the 512-bit target's instructions that read a
// scalar pool entry into their embedded-broadcast forms (".BCST", reading
// 8 or 4 bytes for every lane), loads into broadcasts (VBROADCASTSD, SS;
// zero-masking loads into zero-masking broadcasts),
// and the bitwise instructions, which the kernels emit in their 64-bit EVEX
// form whatever the element, into the element's form (VPANDD for float32
// entries), so that the broadcast reads the entry's width.
func (p *pool) broadcastPool(asm []byte) []byte {
	if !p.broadcast {
		return asm
	}
	prefix := p.name + "<>+"
	var out []byte
	for _, line := range bytes.SplitAfter(asm, []byte("\n")) {
		s := string(line)
		i := strings.Index(s, prefix)
		if i < 0 || strings.HasPrefix(s, "DATA") || strings.HasPrefix(s, "GLOBL") {
			out = append(out, line...)
			continue
		}
		var off int
		fmt.Sscanf(s[i+len(prefix):], "%d", &off)
		e, ok := p.at(off)
		if !ok {
			panic(fmt.Sprintf("broadcastPool: no entry at %d in %q", off, s))
		}
		if !p.scalar(e) {
			out = append(out, line...)
			continue
		}
		f := strings.Fields(s)
		mn := f[0]
		switch {
		case mn == "VMOVUPS" && e.elem == 64:
			mn = "VBROADCASTSD"
		case mn == "VMOVUPS":
			mn = "VBROADCASTSS"
		case mn == "VMOVUPD.Z" || mn == "VMOVUPS.Z":
			mn = map[int]string{64: "VBROADCASTSD.Z", 32: "VBROADCASTSS.Z"}[e.elem]
		case e.elem == 32 && bitwiseQ[mn]:
			mn = strings.TrimSuffix(mn, "Q") + "D.BCST"
		default:
			mn += ".BCST"
		}
		j := strings.Index(s, f[0])
		out = append(out, s[:j]+mn+" "+strings.TrimLeft(s[j+len(f[0]):], " \t")...)
	}
	return out
}

// bitwiseQ are the 64-bit EVEX bitwise instructions kern.bitwise emits.
var bitwiseQ = map[string]bool{"VPANDQ": true, "VPORQ": true, "VPXORQ": true, "VPANDNQ": true}

// kern emits vector code for one width and element type.
type kern struct {
	c     *build.Context
	bits  int  // vector width in bits (256)
	elem  int  // element width in bits: 64 (float64) or 32 (float32)
	fused bool // contract a*b + c as the Go compiler does at GOAMD64=v3 (see goMulAdd)
	pool  *pool
	label *int // counter for unique label names within a function
}

// newLabel returns a label name not used before in the file.
func (k *kern) newLabel(prefix string) string {
	*k.label++
	return fmt.Sprintf("%s%d", prefix, *k.label)
}

// lanes is the number of elements of a vector.
func (k *kern) lanes() int { return k.bits / k.elem }

// full is the bit set of every lane.
func (k *kern) full() uint64 { return 1<<k.lanes() - 1 }

// as returns a kern for the other element type (the float32 kernels convert
// to float64 halves and back).
func (k *kern) as(elem int) *kern {
	k2 := *k
	k2.elem = elem
	return &k2
}

func (k *kern) vreg() V {
	if k.wide() {
		return k.c.ZMM()
	}
	return k.c.YMM()
}

// wide reports whether k is the 512-bit target.
func (k *kern) wide() bool { return k.bits == 512 }

// K is an opmask register: a mask of the 512-bit target (bit k: lane k).
type K = reg.OpmaskVirtual

// isMask reports whether o is an opmask register (K's interface is
// reg.Virtual's, which every virtual register has: the kind tells).
func isMask(o Op) bool {
	r, ok := o.(reg.Register)
	return ok && r.Kind() == reg.KindOpmask
}

// mask returns o as an opmask register (512-bit target): a vector of
// all-ones and all-zeros lanes becomes one by its lanes' sign bits
// (VPMOVQ2M, AVX-512 DQ).
func (k *kern) mask(o Op) K {
	if isMask(o) {
		return o.(K)
	}
	m := k.c.K()
	k.pd(two(k.c.VPMOVQ2M), two(k.c.VPMOVD2M), k.reg(o), m)
	return m
}

// f is the float constant v in every lane.
func (k *kern) f(v float64) operand.Mem {
	if k.elem == 32 {
		return k.pool.get(uint64(math.Float32bits(float32(v))), 32)
	}
	return k.pool.get(math.Float64bits(v), 64)
}

// u is the integer constant v in every lane (of the element width).
func (k *kern) u(v uint64) operand.Mem { return k.pool.get(v, k.elem) }

// pd picks the float64 or float32 form of an instruction.
func (k *kern) pd(f64, f32 func(...operand.Op), ops ...operand.Op) {
	if k.elem == 64 {
		f64(ops...)
	} else {
		f32(ops...)
	}
}

func isMem(o Op) bool { _, ok := o.(operand.Mem); return ok }

// reg returns o in a register, loading it if it is a constant; an opmask
// becomes a vector of all-ones and all-zeros lanes (VPMOVM2Q).
func (k *kern) reg(o Op) V {
	if v, ok := o.(V); ok {
		return v
	}
	if isMask(o) {
		d := k.vreg()
		k.pd(two(k.c.VPMOVM2Q), two(k.c.VPMOVM2D), o, d)
		return d
	}
	return k.load(o.(operand.Mem))
}

// load reads a vector from memory (unaligned).
func (k *kern) load(m operand.Mem) V {
	d := k.vreg()
	k.c.VMOVUPS(m, d)
	return d
}

// store writes v to memory (unaligned).
func (k *kern) store(v V, m operand.Mem) { k.c.VMOVUPS(v, m) }

// copy returns a new register holding o.
func (k *kern) copy(o Op) V {
	d := k.vreg()
	k.c.VMOVUPS(o, d)
	return d
}

// bin emits a two-operand instruction d = a op b, where the instruction's
// Go operand order is (b, a, d) and b may be memory; comm says a and b may
// be swapped.
func (k *kern) bin(ins func(...operand.Op), a, b Op, comm bool) V {
	if isMask(a) {
		a = k.reg(a)
	}
	if isMask(b) {
		b = k.reg(b)
	}
	if isMem(a) {
		if comm && !isMem(b) {
			a, b = b, a
		} else {
			a = k.reg(a)
		}
	}
	d := k.vreg()
	ins(b, a, d)
	return d
}

func (k *kern) add(a, b Op) V { return k.bin(k.op(k.c.VADDPD, k.c.VADDPS), a, b, true) }
func (k *kern) sub(a, b Op) V { return k.bin(k.op(k.c.VSUBPD, k.c.VSUBPS), a, b, false) }
func (k *kern) mul(a, b Op) V { return k.bin(k.op(k.c.VMULPD, k.c.VMULPS), a, b, true) }
func (k *kern) div(a, b Op) V { return k.bin(k.op(k.c.VDIVPD, k.c.VDIVPS), a, b, false) }

// min and max are x86's: the second operand when either is NaN.
func (k *kern) min(a, b Op) V { return k.bin(k.op(k.c.VMINPD, k.c.VMINPS), a, b, false) }
func (k *kern) max(a, b Op) V { return k.bin(k.op(k.c.VMAXPD, k.c.VMAXPS), a, b, false) }

// and is a & b; on the 512-bit target an opmask ANDed with a vector or a
// constant is one zero-masking move (no conversion of the mask to a
// vector first).
func (k *kern) and(a, b Op) V {
	if isMask(b) && !isMask(a) {
		a, b = b, a
	}
	if isMask(a) && !isMask(b) {
		d := k.vreg()
		k.pd(three(k.c.VMOVUPD_Z), three(k.c.VMOVUPS_Z), b, a, d)
		return d
	}
	return k.bin(k.bitwise(three(k.c.VPAND), k.c.VPANDQ), a, b, true)
}
func (k *kern) or(a, b Op) V  { return k.bin(k.bitwise(three(k.c.VPOR), k.c.VPORQ), a, b, true) }
func (k *kern) xor(a, b Op) V { return k.bin(k.bitwise(three(k.c.VPXOR), k.c.VPXORQ), a, b, true) }

// andNot is a &^ b: VPANDN computes ^first & second.
func (k *kern) andNot(a, b Op) V {
	return k.bin(k.bitwise(three(k.c.VPANDN), k.c.VPANDNQ), b, a, false)
}

// bitwise picks the VEX form of a bitwise instruction or, on the 512-bit
// target, its EVEX form (whose element width does not matter unmasked).
func (k *kern) bitwise(vex, evex func(...operand.Op)) func(...operand.Op) {
	if k.wide() {
		return evex
	}
	return vex
}

// two adapts an instruction of two fixed operands.
func two(f func(a, b operand.Op)) func(...operand.Op) {
	return func(o ...operand.Op) { f(o[0], o[1]) }
}

// four adapts an instruction of four fixed operands.
func four(f func(a, b, c, d operand.Op)) func(...operand.Op) {
	return func(o ...operand.Op) { f(o[0], o[1], o[2], o[3]) }
}

// three adapts an instruction of three fixed operands.
func three(f func(a, b, c operand.Op)) func(...operand.Op) {
	return func(o ...operand.Op) { f(o[0], o[1], o[2]) }
}

// Integer lane arithmetic at the element width.
func (k *kern) addI(a, b Op) V { return k.bin(k.op(k.c.VPADDQ, k.c.VPADDD), a, b, true) }
func (k *kern) subI(a, b Op) V { return k.bin(k.op(k.c.VPSUBQ, k.c.VPSUBD), a, b, false) }
func (k *kern) eqI(a, b Op) V  { return k.bin(k.op(k.c.VPCMPEQQ, k.c.VPCMPEQD), a, b, true) }

func (k *kern) shl(a V, n int) V {
	d := k.vreg()
	k.pd(k.c.VPSLLQ, k.c.VPSLLD, operand.U8(n), a, d)
	return d
}

func (k *kern) shr(a V, n int) V {
	d := k.vreg()
	k.pd(k.c.VPSRLQ, k.c.VPSRLD, operand.U8(n), a, d)
	return d
}

func (k *kern) op(f64, f32 func(...operand.Op)) func(...operand.Op) {
	if k.elem == 64 {
		return f64
	}
	return f32
}

func (k *kern) sqrt(a Op) V {
	d := k.vreg()
	k.pd(k.c.VSQRTPD, k.c.VSQRTPS, a, d)
	return d
}

// round rounds to an integer: mode 0 to nearest even, 3 toward zero.
func (k *kern) round(a Op, mode uint8) V {
	d := k.vreg()
	if k.wide() {
		// VRNDSCALE with scale 0 rounds to an integer by the mode in its low bits
		k.pd(k.c.VRNDSCALEPD, k.c.VRNDSCALEPS, operand.U8(mode), a, d)
		return d
	}
	if k.elem == 64 {
		k.c.VROUNDPD(operand.U8(mode), a, d)
	} else {
		k.c.VROUNDPS(operand.U8(mode), a, d)
	}
	return d
}

// toInt converts float32 lanes holding integers to int32 lanes (exact).
func (k *kern) toInt(a V) V {
	if k.elem != 32 {
		panic("toInt: float32 only")
	}
	d := k.vreg()
	k.c.VCVTPS2DQ(a, d)
	return d
}

// toFloat converts int32 lanes to float32.
func (k *kern) toFloat(a V) V {
	if k.elem != 32 {
		panic("toFloat: float32 only")
	}
	d := k.vreg()
	k.c.VCVTDQ2PS(a, d)
	return d
}

// fma is a*b + c with one rounding.
func (k *kern) fma(a, b, c Op) V {
	if isMem(a) {
		a, b = b, a
	}
	if isMem(c) {
		// d = b·d + c with d = a
		d := k.copy(a)
		k.pd(k.c.VFMADD213PD, k.c.VFMADD213PS, c, k.reg(b), d)
		return d
	}
	d := k.copy(c)
	k.pd(k.c.VFMADD231PD, k.c.VFMADD231PS, b, k.reg(a), d) // d = a·b + d
	return d
}

// fms is a*b - c with one rounding.
func (k *kern) fms(a, b, c Op) V {
	if isMem(a) {
		a, b = b, a
	}
	if isMem(c) {
		d := k.copy(a)
		k.pd(k.c.VFMSUB213PD, k.c.VFMSUB213PS, c, k.reg(b), d) // d = b·d - c
		return d
	}
	d := k.copy(c)
	k.pd(k.c.VFMSUB231PD, k.c.VFMSUB231PS, b, k.reg(a), d) // d = a·b - d
	return d
}

// fnma is c - a*b with one rounding.
func (k *kern) fnma(a, b, c Op) V {
	if isMem(a) {
		a, b = b, a
	}
	if isMem(c) {
		d := k.copy(a)
		k.pd(k.c.VFNMADD213PD, k.c.VFNMADD213PS, c, k.reg(b), d)
		return d
	}
	d := k.copy(c)
	k.pd(k.c.VFNMADD231PD, k.c.VFNMADD231PS, b, k.reg(a), d)
	return d
}

// goMulAdd is a*b + c as the Go compiler (1.26) compiles it in the
// references written in Go (math.Tanh, math.Sin, math.Cos, math.Sinh, ...:
// the kernels of zvmath_goref*_amd64.s). At GOAMD64 v1 and v2 it is a
// multiplication and an addition, each rounded. At v3 the rule (ADDSD
// (MULSD x y) z) => VFMADD231SD fuses them, except where the addend is
// loaded from a package-level variable (the coefficient arrays of sin.go,
// tanh.go, tan.go) and the product has no other use: the load is then
// merged into the addition first (ADDSDload), which the rule does not
// match. So a Horner step c·x + k[i] is not fused, but x*x + k[i] is when
// x*x is used elsewhere, p*q + v is when v is computed, and c·x + K is
// when K is a named constant (sinh.go, atan.go, expm1.go, log1p.go,
// exp.go's expmulti: the constant is materialized in a register, never
// merged); shared says the product has another use or the addend is such
// a constant. The tests at GOAMD64=v3 check it.
func (k *kern) goMulAdd(a, b, c Op, shared bool) V {
	if k.fused && (shared || !isMem(c)) {
		return k.fma(a, b, c)
	}
	return k.add(k.mul(a, b), c)
}

// cmp compares a and b lane by lane with predicate pred. The result is a
// mask: on the 256-bit target a vector of all-ones and all-zeros lanes (a
// 512-bit target returns an opmask register from the same call).
func (k *kern) cmp(pred uint8, a, b Op) V {
	a = k.reg(a)
	d := k.vreg()
	k.pd(k.c.VCMPPD, k.c.VCMPPS, operand.U8(pred), b, a, d)
	return d
}

// cmpK is cmp on the 512-bit target: the mask in an opmask register.
func (k *kern) cmpK(pred uint8, a, b Op) K {
	a = k.reg(a)
	d := k.c.K()
	k.pd(k.c.VCMPPD, k.c.VCMPPS, operand.U8(pred), b, a, d)
	return d
}

// eqK is eqI on the 512-bit target.
func (k *kern) eqK(a, b Op) K {
	if isMem(a) {
		a, b = b, a
	}
	d := k.c.K()
	k.pd(k.c.VPCMPEQQ, k.c.VPCMPEQD, b, k.reg(a), d)
	return d
}

// Masks of the 512-bit target combine with the opmask instructions (16
// bits: the compares clear the bits above the lanes).
func (k *kern) mAndK(a, b Op) K {
	d := k.c.K()
	k.c.KANDW(k.mask(b), k.mask(a), d)
	return d
}

func (k *kern) mOrK(a, b Op) K {
	d := k.c.K()
	k.c.KORW(k.mask(b), k.mask(a), d)
	return d
}

// mAndNotK is a &^ b: KANDNW computes ^first & second in Intel's order.
func (k *kern) mAndNotK(a, b Op) K {
	d := k.c.K()
	k.c.KANDNW(k.mask(a), k.mask(b), d)
	return d
}

// selK is sel on the 512-bit target: VBLENDMPD takes its second source
// where the mask is set.
func (k *kern) selK(m Op, a, b Op) V {
	b = k.reg(b)
	d := k.vreg()
	k.pd(k.c.VBLENDMPD, k.c.VBLENDMPS, a, b, k.mask(m), d)
	return d
}

// Masks combine with the bitwise operations on the 256-bit target.
func (k *kern) mAnd(a, b V) V    { return k.and(a, b) }
func (k *kern) mOr(a, b V) V     { return k.or(a, b) }
func (k *kern) mAndNot(a, b V) V { return k.andNot(a, b) }

// sel is m ? a : b lane by lane.
func (k *kern) sel(m V, a, b Op) V {
	b = k.reg(b)
	d := k.vreg()
	if k.elem == 64 {
		k.c.VBLENDVPD(m, a, b, d)
	} else {
		k.c.VBLENDVPS(m, a, b, d)
	}
	return d
}

// bitsOf moves the mask's lane bits (bit k set: lane k true) into a general
// register.
func (k *kern) bitsOf(o Op) reg.GPVirtual {
	r := k.c.GP64()
	if k.wide() {
		k.c.KMOVW(k.mask(o), r.As32())
		return r
	}
	m := k.reg(o)
	if k.elem == 64 {
		k.c.VMOVMSKPD(m, r.As32())
	} else {
		k.c.VMOVMSKPS(m, r.As32())
	}
	return r
}

// horner is ((c[0]·x + c[1])·x + ...)·x + c[n-1] with FMAs.
func (k *kern) horner(x V, cs ...float64) V {
	p := k.fma(k.f(cs[0]), x, k.f(cs[1]))
	for _, c := range cs[2:] {
		k.pd(k.c.VFMADD213PD, k.c.VFMADD213PS, k.f(c), x, p) // p = x·p + c
	}
	return p
}
