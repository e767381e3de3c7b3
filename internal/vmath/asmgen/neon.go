package main

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"
)

// This file is lang's arm64 target: 128-bit Advanced SIMD vectors (two
// float64 or four float32 lanes) in the 32 V registers. avo targets amd64
// only, so the target is the generator's own: a kernel is recorded as a
// list of instructions over virtual registers, dead ones are dropped, the
// registers are allocated by a linear scan (a value's register is free
// after its last use; everything a loop trip computes is defined in that
// trip) and the text is printed. Go's arm64 assembler (as of Go 1.26) has no
// vector floating-point arithmetic, so every vector instruction is encoded
// here (neonEnc) and written as WORD with the instruction in the comment;
// TestNEONEncodings checks the encoder against GNU as's words. Constants
// live in a pool and are loaded into a register (LDR Q) next to each use.

// nv is a virtual vector register.
type nv struct{ id int }

func (v *nv) Asm() string { return fmt.Sprintf("v%d", v.id) }

// nconst is a constant repeated in every lane.
type nconst struct {
	bits uint64
	elem int
}

func (c nconst) Asm() string { return fmt.Sprintf("$%#x", c.bits) }

// ninst is one recorded instruction: it defines d (or nothing), reads uses,
// and, when tied, overwrites uses[0] (which dies there) to give d.
type ninst struct {
	d      *nv
	uses   []*nv
	tied   bool
	move   bool // a copy: d takes uses[0]'s register where that dies here
	effect bool // kept even when d is unused (stores, branches)
	loop   int  // +1 opens a loop (its top label), -1 closes it (its jump back)
	render func(reg func(*nv) int) string
}

// neonPool is a file's constants, 16 bytes each.
type neonPool struct {
	off  map[[2]uint64]int
	data [][2]uint64 // bits, element width
}

func (p *neonPool) get(bits uint64, elem int) int {
	key := [2]uint64{bits, uint64(elem)}
	off, ok := p.off[key]
	if !ok {
		off = 16 * len(p.data)
		p.off[key] = off
		p.data = append(p.data, key)
	}
	return off
}

// neon records one function's instructions at one element width.
type neon struct {
	elem int // 64 or 32
	*recorder
}

// recorder is what the widths of one function share.
type recorder struct {
	pool *neonPool
	code []ninst
	n    int // virtual registers made
}

// newNEON returns a neon recording a new function with constants in pool.
func newNEON(elem int, pool *neonPool) *neon {
	return &neon{elem: elem, recorder: &recorder{pool: pool}}
}

// as returns a neon for the other element width, recording into the same
// function.
func (k *neon) as(elem int) lang { return &neon{elem: elem, recorder: k.recorder} }

// The general-purpose registers of the generated loops.
const neonPoolReg = "R3" // the constant pool's address

func (k *neon) vreg() *nv { k.n++; return &nv{id: k.n} }

func (k *neon) lanes() int { return 128 / k.elem }

// arr is the arrangement of a full vector of elements.
func (k *neon) arr() string {
	if k.elem == 64 {
		return "2D"
	}
	return "4S"
}

// sz is the size bit (22) of the floating-point encodings.
func (k *neon) sz() uint32 {
	if k.elem == 64 {
		return 1 << 22
	}
	return 0
}

// isize is the size field (bits 22–23) of the integer encodings.
func (k *neon) isize() uint32 {
	if k.elem == 64 {
		return 3 << 22
	}
	return 2 << 22
}

func (k *neon) emit(in ninst) { k.code = append(k.code, in) }

// text emits an instruction written in Go's syntax, with %[1]d… standing
// for the registers of d (when not nil) and then of uses.
func (k *neon) text(d *nv, format string, uses ...*nv) {
	k.emit(ninst{d: d, uses: uses, effect: d == nil, render: func(reg func(*nv) int) string {
		var args []any
		if d != nil {
			args = append(args, reg(d))
		}
		for _, u := range uses {
			args = append(args, reg(u))
		}
		return fmt.Sprintf(format, args...)
	}})
}

// word emits the encoded instruction enc with register fields d (bits
// 0–4), n (5–9) and m (16–20); name is its assembly form for the comment,
// with the arrangement in place of %s.
func (k *neon) word(enc uint32, name, arr string, d, n, m *nv, tied bool) *nv {
	uses := []*nv{n}
	if tied { // d is the accumulator's copy: the result is a new value in its register
		uses = []*nv{d, n}
		d = k.vreg()
	}
	if m != nil {
		uses = append(uses, m)
	}
	k.emit(ninst{d: d, uses: uses, tied: tied, render: func(reg func(*nv) int) string {
		w := enc | uint32(reg(d)) | uint32(reg(n))<<5
		ops := fmt.Sprintf("V%d.%s, V%d.%s", reg(d), arr, reg(n), arr)
		if m != nil {
			w |= uint32(reg(m)) << 16
			ops += fmt.Sprintf(", V%d.%s", reg(m), arr)
		}
		return fmt.Sprintf("WORD\t$%#08x // %s %s", w, name, ops)
	}})
	return d
}

// wordf emits the encoded instruction enc with register fields d and n;
// format is its assembly form for the comment, with %d for each.
func (k *neon) wordf(enc uint32, format string, d, n *nv, tied bool) *nv {
	uses := []*nv{n}
	if tied {
		uses = []*nv{d, n}
		d = k.vreg()
	}
	k.emit(ninst{d: d, uses: uses, tied: tied, render: func(reg func(*nv) int) string {
		return fmt.Sprintf("WORD\t$%#08x // "+format, enc|uint32(reg(d))|uint32(reg(n))<<5, reg(d), reg(n))
	}})
	return d
}

// widen converts the low (or high) two float32 lanes of x to float64
// (FCVTL, FCVTL2).
func (k *neon) widen(x Op, hi bool) Op {
	if hi {
		return k.wordf(neonFCVTL2, "FCVTL2 V%d.2D, V%d.4S", k.vreg(), k.reg(x), false)
	}
	return k.wordf(neonFCVTL, "FCVTL V%d.2D, V%d.2S", k.vreg(), k.reg(x), false)
}

// narrow rounds two float64 vectors to one float32 vector, lo's lanes
// first (FCVTN, FCVTN2).
func (k *neon) narrow(lo, hi Op) Op {
	h := k.reg(hi)
	d := k.wordf(neonFCVTN, "FCVTN V%d.2S, V%d.2D", k.vreg(), k.reg(lo), false)
	return k.wordf(neonFCVTN2, "FCVTN2 V%d.4S, V%d.2D", d, h, true)
}

// narrowInt converts two float64 vectors holding integers to one vector
// of int32 lanes (FCVTZS to int64, XTN, XTN2).
func (k *neon) narrowInt(lo, hi Op) Op {
	k64 := k.as(64).(*neon)
	l, h := k64.toInt(lo).(*nv), k64.toInt(hi).(*nv)
	d := k.wordf(neonXTN, "XTN V%d.2S, V%d.2D", k.vreg(), l, false)
	return k.wordf(neonXTN2, "XTN2 V%d.4S, V%d.2D", d, h, true)
}

// reg returns o in a register, loading a constant from the pool.
func (k *neon) reg(o Op) *nv {
	switch o := o.(type) {
	case *nv:
		return o
	case nconst:
		d := k.vreg()
		k.text(d, fmt.Sprintf("FMOVQ\t%d(%s), F%%d // %s", k.pool.get(o.bits, o.elem), neonPoolReg, constComment(o)))
		return d
	}
	panic(fmt.Sprintf("neon: operand %T", o))
}

func constComment(c nconst) string {
	if c.elem == 64 {
		return fmt.Sprintf("%#x (%g)", c.bits, math.Float64frombits(c.bits))
	}
	return fmt.Sprintf("%#x (%g)", c.bits, math.Float32frombits(uint32(c.bits)))
}

// three is a three-register instruction d = n op m.
func (k *neon) three(enc uint32, name string, a, b Op) Op {
	n, m := k.reg(a), k.reg(b)
	return k.word(enc, name, k.arr(), k.vreg(), n, m, false)
}

// bytes16 is three on the whole register (bitwise instructions).
func (k *neon) bytes16(enc uint32, name string, a, b Op) Op {
	n, m := k.reg(a), k.reg(b)
	return k.word(enc, name, "B16", k.vreg(), n, m, false)
}

// two is a two-register instruction d = op n.
func (k *neon) two(enc uint32, name string, a Op) Op {
	return k.word(enc, name, k.arr(), k.vreg(), k.reg(a), nil, false)
}

// copy returns a new register holding o: a constant loaded afresh, or a
// register's copy (MOV, elided where the source dies there).
func (k *neon) copy(o Op) *nv {
	if _, ok := o.(nconst); ok {
		return k.reg(o)
	}
	n := k.reg(o)
	d := k.vreg()
	k.emit(ninst{d: d, uses: []*nv{n}, move: true, render: func(reg func(*nv) int) string {
		if reg(d) == reg(n) {
			return ""
		}
		return fmt.Sprintf("VMOV\tV%d.B16, V%d.B16", reg(n), reg(d))
	}})
	return d
}

// acc is an accumulating instruction d = c op (a, b), d starting as a copy
// of c.
func (k *neon) acc(enc uint32, name, arr string, a, b, c Op) Op {
	n, m := k.reg(a), k.reg(b)
	return k.word(enc, name, arr, k.copy(c), n, m, true)
}

func (k *neon) f(v float64) Op {
	if k.elem == 32 {
		return nconst{uint64(math.Float32bits(float32(v))), 32}
	}
	return nconst{math.Float64bits(v), 64}
}

func (k *neon) u(v uint64) Op { return nconst{v, k.elem} }

func (k *neon) add(a, b Op) Op { return k.three(neonFADD|k.sz(), "FADD", a, b) }
func (k *neon) sub(a, b Op) Op { return k.three(neonFSUB|k.sz(), "FSUB", a, b) }
func (k *neon) mul(a, b Op) Op { return k.three(neonFMUL|k.sz(), "FMUL", a, b) }
func (k *neon) div(a, b Op) Op { return k.three(neonFDIV|k.sz(), "FDIV", a, b) }
func (k *neon) min(a, b Op) Op { return k.three(neonFMIN|k.sz(), "FMIN", a, b) }
func (k *neon) max(a, b Op) Op { return k.three(neonFMAX|k.sz(), "FMAX", a, b) }
func (k *neon) sqrt(a Op) Op   { return k.two(neonFSQRT|k.sz(), "FSQRT", a) }

func (k *neon) round(a Op, mode uint8) Op {
	switch mode {
	case 0:
		return k.two(neonFRINTN|k.sz(), "FRINTN", a)
	case 3:
		return k.two(neonFRINTZ|k.sz(), "FRINTZ", a)
	}
	panic(fmt.Sprintf("neon: rounding mode %d", mode))
}

func (k *neon) fma(a, b, c Op) Op {
	return k.acc(neonFMLA|k.sz(), "FMLA", k.arr(), a, b, c)
}

func (k *neon) fnma(a, b, c Op) Op {
	return k.acc(neonFMLS|k.sz(), "FMLS", k.arr(), a, b, c)
}

// goMulAdd fuses: Go's arm64 compiler turns every addition of a product
// into FMADD.
func (k *neon) goMulAdd(a, b, c Op, _ bool) Op { return k.fma(a, b, c) }

// whileNonzero copies the variables into registers of their own, tests
// *i's two halves at the top of each trip and moves the body's results into
// the variables' registers at its end. The allocator keeps every value
// made before the loop and read in it alive to the loop's end.
func (k *neon) whileNonzero(i *Op, vars []*Op, body func()) {
	all := append([]*Op{i}, vars...)
	regs := make([]*nv, len(all))
	for j, v := range all {
		regs[j] = k.copy(*v)
		*v = regs[j]
	}
	k.n++
	top, done := fmt.Sprintf("while%d", k.n), fmt.Sprintf("wend%d", k.n)
	k.label(top)
	k.code[len(k.code)-1].loop = +1
	k.text(nil, "VMOV\tV%d.D[0], R5", regs[0])
	k.text(nil, "VMOV\tV%d.D[1], R6", regs[0])
	k.gp("ORR\tR6, R5, R5")
	k.gp("CBZ\tR5, %s", done)
	body()
	for j, v := range all {
		next, dst := k.reg(*v), regs[j]
		if next != dst {
			k.emit(ninst{uses: []*nv{next, dst}, effect: true, render: func(reg func(*nv) int) string {
				return fmt.Sprintf("VMOV\tV%d.B16, V%d.B16", reg(next), reg(dst))
			}})
		}
		*v = dst
	}
	k.gp("JMP\t%s", top)
	k.code[len(k.code)-1].loop = -1
	k.label(done)
}

// goMulSub fuses too (FMSUB).
func (k *neon) goMulSub(a, b, c Op) Op { return k.fnma(a, b, c) }

func (k *neon) horner(x Op, cs ...float64) Op {
	p := k.fma(k.f(cs[0]), x, k.f(cs[1]))
	for _, c := range cs[2:] {
		p = k.fma(p, x, k.f(c))
	}
	return p
}

func (k *neon) and(a, b Op) Op    { return k.bytes16(neonAND, "VAND", a, b) }
func (k *neon) or(a, b Op) Op     { return k.bytes16(neonORR, "VORR", a, b) }
func (k *neon) xor(a, b Op) Op    { return k.bytes16(neonEOR, "VEOR", a, b) }
func (k *neon) andNot(a, b Op) Op { return k.bytes16(neonBIC, "BIC", a, b) }
func (k *neon) not(a Op) Op       { return k.word(neonNOT, "NOT", "B16", k.vreg(), k.reg(a), nil, false) }

func (k *neon) addI(a, b Op) Op { return k.three(neonADD|k.isize(), "ADD", a, b) }
func (k *neon) subI(a, b Op) Op { return k.three(neonSUB|k.isize(), "SUB", a, b) }
func (k *neon) eqI(a, b Op) Op  { return k.three(neonCMEQ|k.isize(), "CMEQ", a, b) }

// shl and shr shift each lane by n bits: the immediate field immh:immb
// (bits 16–22) is the element width plus n for SHL, twice the width minus
// n for USHR.
func (k *neon) shl(a Op, n int) Op {
	return k.word(neonSHL|uint32(k.elem+n)<<16, fmt.Sprintf("SHL $%d,", n), k.arr(), k.vreg(), k.reg(a), nil, false)
}

func (k *neon) shr(a Op, n int) Op {
	return k.word(neonUSHR|uint32(2*k.elem-n)<<16, fmt.Sprintf("USHR $%d,", n), k.arr(), k.vreg(), k.reg(a), nil, false)
}

// toInt and toFloat convert at the element width on arm64 (int64 lanes for
// float64).
func (k *neon) toInt(a Op) Op   { return k.two(neonFCVTZS|k.sz(), "FCVTZS", a) }
func (k *neon) toFloat(a Op) Op { return k.two(neonSCVTF|k.sz(), "SCVTF", a) }

// cmp maps the predicates onto FCMEQ, FCMGE and FCMGT (lt and le swap the
// operands; neq and unord are complements).
func (k *neon) cmp(pred uint8, a, b Op) Op {
	switch pred {
	case eq:
		return k.three(neonFCMEQ|k.sz(), "FCMEQ", a, b)
	case ge:
		return k.three(neonFCMGE|k.sz(), "FCMGE", a, b)
	case gt:
		return k.three(neonFCMGT|k.sz(), "FCMGT", a, b)
	case le:
		return k.three(neonFCMGE|k.sz(), "FCMGE", b, a)
	case lt:
		return k.three(neonFCMGT|k.sz(), "FCMGT", b, a)
	case neq:
		return k.not(k.cmp(eq, a, b))
	case unord:
		return k.not(k.and(k.cmp(eq, a, a), k.cmp(eq, b, b)))
	}
	panic(fmt.Sprintf("neon: predicate %#x", pred))
}

func (k *neon) mAnd(a, b Op) Op    { return k.and(a, b) }
func (k *neon) mOr(a, b Op) Op     { return k.or(a, b) }
func (k *neon) mAndNot(a, b Op) Op { return k.andNot(a, b) }

// sel is BSL on a copy of the mask: d = (d & a) | (^d & b).
func (k *neon) sel(m, a, b Op) Op { return k.acc(neonBSL, "BSL", "B16", a, b, m) }

// The encodings, with every register field zero: three-register
// floating-point (size bit 22 set for float64), two-register
// floating-point, bitwise on 16 bytes, integer (size in bits 22–23) and
// shifts by an immediate (immh:immb in bits 16–22).
const (
	neonFADD   = 0x4e20d400
	neonFSUB   = 0x4ea0d400
	neonFMUL   = 0x6e20dc00
	neonFDIV   = 0x6e20fc00
	neonFMAX   = 0x4e20f400
	neonFMIN   = 0x4ea0f400
	neonFMLA   = 0x4e20cc00
	neonFMLS   = 0x4ea0cc00
	neonFCMEQ  = 0x4e20e400
	neonFCMGE  = 0x6e20e400
	neonFCMGT  = 0x6ea0e400
	neonFRINTN = 0x4e218800
	neonFRINTZ = 0x4ea19800
	neonFSQRT  = 0x6ea1f800
	neonFCVTZS = 0x4ea1b800
	neonSCVTF  = 0x4e21d800
	neonAND    = 0x4e201c00
	neonORR    = 0x4ea01c00
	neonEOR    = 0x6e201c00
	neonBIC    = 0x4e601c00
	neonBSL    = 0x6e601c00
	neonNOT    = 0x6e205800
	neonADD    = 0x4e208400
	neonSUB    = 0x6e208400
	neonCMEQ   = 0x6e208c00
	neonSHL    = 0x4f005400
	neonUSHR   = 0x6f000400
	neonFCVTL  = 0x0e617800
	neonFCVTL2 = 0x4e617800
	neonFCVTN  = 0x0e616800
	neonFCVTN2 = 0x4e616800
	neonXTN    = 0x0ea12800
	neonXTN2   = 0x4ea12800
)

// prune drops the instructions whose results nothing uses.
func (k *neon) prune() {
	for {
		used := map[*nv]bool{}
		for _, in := range k.code {
			for _, u := range in.uses {
				used[u] = true
			}
		}
		var kept []ninst
		for _, in := range k.code {
			if in.effect || in.d == nil || used[in.d] {
				kept = append(kept, in)
			}
		}
		if len(kept) == len(k.code) {
			return
		}
		k.code = kept
	}
}

// allocate gives every virtual register a physical one, V0–V31, and
// returns the map.
func (k *neon) allocate() map[*nv]int {
	last, def := map[*nv]int{}, map[*nv]int{}
	for i, in := range k.code {
		for _, u := range in.uses {
			last[u] = i
		}
		if in.d != nil {
			def[in.d] = i
		}
	}
	// a value made before a loop and read in it lives to the loop's end
	var loops [][2]int
	for i, in := range k.code {
		switch in.loop {
		case +1:
			loops = append(loops, [2]int{i, -1})
		case -1:
			loops[len(loops)-1][1] = i
		}
	}
	for _, l := range loops {
		for i := l[0]; i <= l[1]; i++ {
			for _, u := range k.code[i].uses {
				if def[u] < l[0] && last[u] < l[1] {
					last[u] = l[1]
				}
			}
		}
	}
	phys := map[*nv]int{}
	var free [32]bool
	for r := range free {
		free[r] = true
	}
	take := func() int {
		for r := range free {
			if free[r] {
				free[r] = false
				return r
			}
		}
		panic("neon: out of vector registers")
	}
	for i, in := range k.code {
		if in.tied {
			if last[in.uses[0]] != i {
				panic("neon: a tied operand lives on")
			}
		}
		for _, u := range in.uses {
			if last[u] == i && !((in.tied || in.move) && u == in.uses[0]) {
				free[phys[u]] = true
			}
		}
		if in.d == nil {
			continue
		}
		if in.tied || (in.move && last[in.uses[0]] == i) {
			phys[in.d] = phys[in.uses[0]]
		} else {
			phys[in.d] = take()
		}
		if l, ok := last[in.d]; !ok || l < i {
			free[phys[in.d]] = true // never read
		}
	}
	return phys
}

// print writes the instructions.
func (k *neon) print(b *bytes.Buffer, phys map[*nv]int) {
	reg := func(v *nv) int {
		r, ok := phys[v]
		if !ok {
			panic(fmt.Sprintf("neon: %s has no register", v.Asm()))
		}
		return r
	}
	for _, in := range k.code {
		line := in.render(reg)
		if line == "" {
			continue
		}
		if strings.HasSuffix(line, ":") {
			fmt.Fprintf(b, "%s\n", line)
			continue
		}
		fmt.Fprintf(b, "\t%s\n", line)
	}
}

// label emits a label.
func (k *neon) label(name string) {
	k.emit(ninst{effect: true, render: func(func(*nv) int) string { return name + ":" }})
}

// gp emits an instruction on general-purpose registers only.
func (k *neon) gp(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	k.emit(ninst{effect: true, render: func(func(*nv) int) string { return line }})
}

// neonFile is the arm64 assembly file being written.
type neonFile struct {
	body  bytes.Buffer
	pool  neonPool
	funcs []fn
}

// unaryLoop writes name(d, x []T, xs *[L]T) (done int, bad uint), the
// arm64 form of asmFile.unaryLoop.
func (f *neonFile) unaryLoop(name string, elem int, c core) {
	f.vectorLoop(name, elem, []loopOperand{{"x", true}}, func(k *neon, in []Op) (Op, Op) { return c(k, in[0]) })
}

// powLoop is unaryLoop for pow's forms, the arm64 form of asmFile.powLoop:
// a scalar operand is broadcast; float32 vectors run the float64 kernel on
// each half.
func (f *neonFile) powLoop(form powForm, elem int, pow func(k lang, x, y Op) (Op, Op)) {
	name := fmt.Sprintf("%s%dNEONLoop", form.Name, elem)
	f.vectorLoop(name, elem, []loopOperand{{"x", form.XVec}, {"y", form.YVec}}, func(k *neon, in []Op) (Op, Op) {
		if elem == 64 {
			return pow(k, in[0], in[1])
		}
		k64 := k.as(64)
		rlo, oklo := pow(k64, k.widen(in[0], false), k.widen(in[1], false))
		rhi, okhi := pow(k64, k.widen(in[0], true), k.widen(in[1], true))
		return k.narrow(rlo, rhi), k.narrowMask(oklo, okhi)
	})
}

// narrowMask packs two float64 lane masks into one float32 lane mask (XTN,
// XTN2: a lane's low half is all ones or all zeros as the lane is).
func (k *neon) narrowMask(lo, hi Op) Op {
	h := k.reg(hi)
	d := k.wordf(neonXTN, "XTN V%d.2S, V%d.2D", k.vreg(), k.reg(lo), false)
	return k.wordf(neonXTN2, "XTN2 V%d.4S, V%d.2D", d, h, true)
}

// loopOperand is an operand of a generated loop: a slice read a vector at a
// time (its vector saved in name+"s" when a lane is out) or a scalar
// broadcast to every lane.
type loopOperand struct {
	name string
	vec  bool
}

// vectorLoop writes name(d []T, operands…, saves…) (done int, bad uint):
// it computes full vectors of d with compute until the end or a vector with
// a lane out of the kernel's domain; it then stores that vector's results
// and vector operands (in the saves) and returns the index past it and the
// lanes out (bit k: lane k), else the index where the full vectors end and
// 0. Registers: R0 d, R1 the full vectors' end, R2 and R9 the operands, R3
// the constant pool, R4 the index, R5–R8 scratch.
func (f *neonFile) vectorLoop(name string, elem int, ops []loopOperand, compute func(k *neon, in []Op) (Op, Op)) {
	k := newNEON(elem, &f.pool)
	L, esz := k.lanes(), elem/8
	t := map[int]string{64: "float64", 32: "float32"}[elem]
	// the frame: Go's ABI0 offsets, each argument aligned to its size
	off, params, saves := 24, []string{"d []" + t}, []string{}
	at := map[string]int{}
	for _, o := range ops {
		if o.vec {
			off = (off + 7) &^ 7
			at[o.name] = off
			off += 24
			params = append(params, o.name+" []"+t)
		} else {
			at[o.name] = off
			off += esz
			params = append(params, o.name+" "+t)
		}
	}
	for _, o := range ops {
		if o.vec {
			off = (off + 7) &^ 7
			at[o.name+"s"] = off
			off += 8
			saves = append(saves, o.name+"s")
		}
	}
	sig := fmt.Sprintf("func(%s, %s *[%d]%s) (done int, bad uint)", strings.Join(params, ", "), strings.Join(saves, ", "), L, t)
	off = (off + 7) &^ 7
	ret := off
	f.funcs = append(f.funcs, fn{name, sig})
	fmt.Fprintf(&f.body, "\n// %s\nTEXT ·%s(SB), NOSPLIT, $0-%d\n", strings.Replace(sig, "func", "func "+name, 1), name, ret+16)
	ptr := map[string]string{}
	k.gp("MOVD\td_base+0(FP), R0")
	k.gp("MOVD\td_len+8(FP), R1")
	for j, o := range ops {
		if o.vec {
			ptr[o.name] = []string{"R2", "R9"}[j]
			k.gp("MOVD\t%s_base+%d(FP), %s", o.name, at[o.name], ptr[o.name])
		}
	}
	k.gp("MOVD\t$vmconst<>(SB), %s", neonPoolReg)
	k.gp("AND\t$%d, R1, R1", -L)
	k.gp("MOVD\tZR, R4")
	k.label("loop")
	k.gp("CMP\tR1, R4")
	k.gp("BGE\tdone")
	in := make([]Op, len(ops))
	for j, o := range ops {
		v := k.vreg()
		if o.vec {
			k.text(v, "VLD1.P\t16("+ptr[o.name]+"), [V%d."+neonLoadArr(elem)+"]")
		} else {
			s := k.vreg()
			mov, lane := "FMOVD", "D"
			if elem == 32 {
				mov, lane = "FMOVS", "S"
			}
			k.text(s, fmt.Sprintf("%s\t%s+%d(FP), F%%d", mov, o.name, at[o.name]))
			k.text(v, fmt.Sprintf("VDUP\tV%%[2]d.%s[0], V%%[1]d.%s", lane, neonLoadArr(elem)), s)
		}
		in[j] = v
	}
	r, ok := compute(k, in)
	k.text(nil, "VST1.P\t[V%d."+neonLoadArr(elem)+"], 16(R0)", k.reg(r))
	okv := k.reg(ok)
	k.gp("ADD\t$%d, R4, R4", L)
	// every lane in: both halves of the mask all ones
	k.text(nil, "VMOV\tV%d.D[0], R5", okv)
	k.text(nil, "VMOV\tV%d.D[1], R6", okv)
	k.gp("AND\tR6, R5, R5")
	k.gp("CMN\t$1, R5")
	k.gp("BNE\tout")
	k.gp("JMP\tloop")
	k.label("out")
	// bit j of bad: lane j's mask is zero (zero + 1 has bit 0 set, all
	// ones + 1 has not)
	k.gp("MOVD\tZR, R7")
	lane := map[int]string{64: "D", 32: "S"}[elem]
	for j := range L {
		k.text(nil, fmt.Sprintf("VMOV\tV%%d.%s[%d], R5", lane, j), okv)
		k.gp("ADD\t$1, R5, R5")
		k.gp("AND\t$1, R5, R5")
		if j == 0 {
			k.gp("ORR\tR5, R7, R7")
		} else {
			k.gp("ORR\tR5<<%d, R7, R7", j)
		}
	}
	for j, o := range ops {
		if o.vec {
			k.gp("MOVD\t%ss+%d(FP), R8", o.name, at[o.name+"s"])
			k.text(nil, "VST1\t[V%d."+neonLoadArr(elem)+"], (R8)", in[j].(*nv))
		}
	}
	k.gp("MOVD\tR4, done+%d(FP)", ret)
	k.gp("MOVD\tR7, bad+%d(FP)", ret+8)
	k.gp("RET")
	k.label("done")
	k.gp("MOVD\tR4, done+%d(FP)", ret)
	k.gp("MOVD\tZR, bad+%d(FP)", ret+8)
	k.gp("RET")
	k.prune()
	k.print(&f.body, k.allocate())
}

// neonLoadArr is the arrangement VLD1 and VST1 name for a vector of elem.
func neonLoadArr(elem int) string {
	if elem == 64 {
		return "D2"
	}
	return "S4"
}

// asm returns the file's text: the functions and the pool.
func (f *neonFile) asm() []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/vmath/asmgen. DO NOT EDIT.\n\n#include \"textflag.h\"\n")
	b.Write(f.body.Bytes())
	b.WriteString("\n")
	keys := make([]int, 0, len(f.pool.data))
	for i := range f.pool.data {
		keys = append(keys, i)
	}
	sort.Ints(keys)
	for _, i := range keys {
		d := f.pool.data[i]
		for o := 0; o < 16; o += 8 {
			v := d[0]
			if d[1] == 32 {
				v = d[0] | d[0]<<32
			}
			fmt.Fprintf(&b, "DATA\tvmconst<>+%d(SB)/8, $%#016x\n", 16*i+o, v)
		}
	}
	fmt.Fprintf(&b, "GLOBL\tvmconst<>(SB), RODATA|NOPTR, $%d\n", 16*len(f.pool.data))
	return b.Bytes()
}
