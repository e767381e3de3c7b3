package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// This file is lang's arm64 target: 128-bit Advanced SIMD vectors (two
// float64 or four float32 lanes) in the 32 V registers. avo targets amd64
// only, so the target is the generator's own: a function is recorded as a
// list of instructions over virtual registers, dead ones are dropped, the
// registers are allocated by a linear scan (a value's register is free after
// its last use; a value made before a loop and read in it lives to the
// loop's end, so the back edge finds it), the allocation is checked by
// simulating the code (verify) and the text is printed. Go's arm64
// assembler (as of Go 1.26) has no vector FADD, FSUB, FMUL, FDIV, compares,
// roundings or conversions, so the target encodes every vector instruction
// itself (one encoder, tested against GNU as: TestNEONEncodings) and writes
// it as WORD, with the instruction in GNU syntax in the comment. Constants
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
	into   *nv  // a loop variable this instruction writes (whileNonzero's moves)
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
	pool   *neonPool
	code   []ninst
	n      int // virtual registers made
	labels int // loop labels made
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

// vreg returns a new virtual register.
func (k *neon) vreg() *nv { k.n++; return &nv{id: k.n} }

// lanes is the number of elements of a vector.
func (k *neon) lanes() int { return 128 / k.elem }

// arr is the arrangement of a full vector of elements (GNU syntax).
func (k *neon) arr() string {
	if k.elem == 64 {
		return "2d"
	}
	return "4s"
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

// emit records an instruction.
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

// enc emits the instruction encoded as base with register fields d (bits
// 0–4), n (5–9) and m (16–20; m may be nil), and returns d. op and arr
// (the arrangement of d, n and m) and imm (≥ 0: a shift) give its GNU form
// for the comment. When tied, d is a copy made for this instruction (an
// accumulator, or a vector whose other half it keeps): the result is a new
// value in d's register.
func (k *neon) enc(base uint32, op string, arr [3]string, d, n, m *nv, imm int, tied bool) *nv {
	uses := []*nv{n}
	if tied {
		uses = []*nv{d, n}
		d = k.vreg()
	}
	if m != nil {
		uses = append(uses, m)
	}
	k.emit(ninst{d: d, uses: uses, tied: tied, render: func(reg func(*nv) int) string {
		w := base | uint32(reg(d)) | uint32(reg(n))<<5
		asm := fmt.Sprintf("%s v%d.%s, v%d.%s", op, reg(d), arr[0], reg(n), arr[1])
		if m != nil {
			w |= uint32(reg(m)) << 16
			asm += fmt.Sprintf(", v%d.%s", reg(m), arr[2])
		}
		if imm >= 0 {
			asm += fmt.Sprintf(", #%d", imm)
		}
		return fmt.Sprintf("WORD\t$%#08x // %s", w, asm)
	}})
	return d
}

// same is the arrangement arr for every operand.
func same(arr string) [3]string { return [3]string{arr, arr, arr} }

// widen converts the low (or high) two float32 lanes of x to float64
// (FCVTL, FCVTL2).
func (k *neon) widen(x Op, hi bool) Op {
	if hi {
		return k.enc(neonFCVTL2, "fcvtl2", [3]string{"2d", "4s"}, k.vreg(), k.reg(x), nil, -1, false)
	}
	return k.enc(neonFCVTL, "fcvtl", [3]string{"2d", "2s"}, k.vreg(), k.reg(x), nil, -1, false)
}

// narrow rounds two float64 vectors to one float32 vector, lo's lanes
// first (FCVTN, FCVTN2).
func (k *neon) narrow(lo, hi Op) Op {
	h := k.reg(hi)
	d := k.enc(neonFCVTN, "fcvtn", [3]string{"2s", "2d"}, k.vreg(), k.reg(lo), nil, -1, false)
	return k.enc(neonFCVTN2, "fcvtn2", [3]string{"4s", "2d"}, d, h, nil, -1, true)
}

// narrowInt converts two float64 vectors holding integers to one vector
// of int32 lanes (FCVTZS to int64, XTN, XTN2).
func (k *neon) narrowInt(lo, hi Op) Op {
	k64 := k.as(64)
	return k.xtn(k64.toInt(lo), k64.toInt(hi))
}

// xtn packs the low halves of two vectors of 64-bit lanes into one of
// 32-bit lanes, lo's first (XTN, XTN2): int64 lanes that fit in int32, or
// float64 lane masks (a lane's low half is all ones or zeros as the lane
// is).
func (k *neon) xtn(lo, hi Op) Op {
	h := k.reg(hi)
	d := k.enc(neonXTN, "xtn", [3]string{"2s", "2d"}, k.vreg(), k.reg(lo), nil, -1, false)
	return k.enc(neonXTN2, "xtn2", [3]string{"4s", "2d"}, d, h, nil, -1, true)
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

// constComment is a constant's bits and value, for the load's comment.
func constComment(c nconst) string {
	if c.elem == 64 {
		return fmt.Sprintf("%#x (%g)", c.bits, math.Float64frombits(c.bits))
	}
	return fmt.Sprintf("%#x (%g)", c.bits, math.Float32frombits(uint32(c.bits)))
}

// three is a three-register instruction d = n op m.
func (k *neon) three(enc uint32, name string, a, b Op) Op {
	n, m := k.reg(a), k.reg(b)
	return k.enc(enc, name, same(k.arr()), k.vreg(), n, m, -1, false)
}

// bytes16 is three on the whole register (bitwise instructions).
func (k *neon) bytes16(enc uint32, name string, a, b Op) Op {
	n, m := k.reg(a), k.reg(b)
	return k.enc(enc, name, same("16b"), k.vreg(), n, m, -1, false)
}

// two is a two-register instruction d = op n.
func (k *neon) two(enc uint32, name string, a Op) Op {
	return k.enc(enc, name, same(k.arr()), k.vreg(), k.reg(a), nil, -1, false)
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
	return k.enc(enc, name, same(arr), k.copy(c), n, m, -1, true)
}

func (k *neon) f(v float64) Op {
	if k.elem == 32 {
		return nconst{uint64(math.Float32bits(float32(v))), 32}
	}
	return nconst{math.Float64bits(v), 64}
}

func (k *neon) u(v uint64) Op { return nconst{v, k.elem} }

func (k *neon) add(a, b Op) Op { return k.three(neonFADD|k.sz(), "fadd", a, b) }
func (k *neon) sub(a, b Op) Op { return k.three(neonFSUB|k.sz(), "fsub", a, b) }
func (k *neon) mul(a, b Op) Op { return k.three(neonFMUL|k.sz(), "fmul", a, b) }
func (k *neon) div(a, b Op) Op { return k.three(neonFDIV|k.sz(), "fdiv", a, b) }
func (k *neon) min(a, b Op) Op { return k.three(neonFMIN|k.sz(), "fmin", a, b) }
func (k *neon) max(a, b Op) Op { return k.three(neonFMAX|k.sz(), "fmax", a, b) }
func (k *neon) sqrt(a Op) Op   { return k.two(neonFSQRT|k.sz(), "fsqrt", a) }

func (k *neon) round(a Op, mode uint8) Op {
	switch mode {
	case 0:
		return k.two(neonFRINTN|k.sz(), "frintn", a)
	case 3:
		return k.two(neonFRINTZ|k.sz(), "frintz", a)
	}
	panic(fmt.Sprintf("neon: rounding mode %d", mode))
}

func (k *neon) fma(a, b, c Op) Op {
	return k.acc(neonFMLA|k.sz(), "fmla", k.arr(), a, b, c)
}

func (k *neon) fnma(a, b, c Op) Op {
	return k.acc(neonFMLS|k.sz(), "fmls", k.arr(), a, b, c)
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
	k.labels++
	top, done := fmt.Sprintf("while%d", k.labels), fmt.Sprintf("wend%d", k.labels)
	k.label(top)
	k.code[len(k.code)-1].loop = +1
	k.text(nil, "VMOV\tV%d.D[0], R5", regs[0])
	k.text(nil, "VMOV\tV%d.D[1], R6", regs[0])
	k.gp("ORR\tR6, R5, R5")
	k.gp("CBZ\tR5, %s", done)
	body()
	checkNext(all, regs)
	for j, v := range all {
		next, dst := k.reg(*v), regs[j]
		if next != dst {
			k.emit(ninst{uses: []*nv{next, dst}, into: dst, effect: true, render: func(reg func(*nv) int) string {
				return fmt.Sprintf("VMOV\tV%d.B16, V%d.B16", reg(next), reg(dst))
			}})
		}
		*v = dst
	}
	k.gp("JMP\t%s", top)
	k.code[len(k.code)-1].loop = -1
	k.label(done)
}

// checkNext panics when a loop variable's next value is another one's
// current value: the moves at the end of a trip are made one after the
// other, so that variable would be overwritten before it is read.
func checkNext[R comparable](vars []*Op, regs []R) {
	for j, v := range vars {
		for m, r := range regs {
			if m != j && any(*v) == any(r) {
				panic("whileNonzero: a loop variable's next value is another variable's current one; copy it")
			}
		}
	}
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

func (k *neon) and(a, b Op) Op    { return k.bytes16(neonAND, "and", a, b) }
func (k *neon) or(a, b Op) Op     { return k.bytes16(neonORR, "orr", a, b) }
func (k *neon) xor(a, b Op) Op    { return k.bytes16(neonEOR, "eor", a, b) }
func (k *neon) andNot(a, b Op) Op { return k.bytes16(neonBIC, "bic", a, b) }
func (k *neon) not(a Op) Op {
	return k.enc(neonNOT, "mvn", same("16b"), k.vreg(), k.reg(a), nil, -1, false)
}

func (k *neon) addI(a, b Op) Op { return k.three(neonADD|k.isize(), "add", a, b) }
func (k *neon) subI(a, b Op) Op { return k.three(neonSUB|k.isize(), "sub", a, b) }
func (k *neon) eqI(a, b Op) Op  { return k.three(neonCMEQ|k.isize(), "cmeq", a, b) }

// shl and shr shift each lane by n bits: the immediate field immh:immb
// (bits 16–22) is the element width plus n for SHL, twice the width minus
// n for USHR.
func (k *neon) shl(a Op, n int) Op {
	return k.enc(neonSHL|uint32(k.elem+n)<<16, "shl", same(k.arr()), k.vreg(), k.reg(a), nil, n, false)
}

func (k *neon) shr(a Op, n int) Op {
	return k.enc(neonUSHR|uint32(2*k.elem-n)<<16, "ushr", same(k.arr()), k.vreg(), k.reg(a), nil, n, false)
}

// toInt and toFloat convert at the element width on arm64 (int64 lanes for
// float64).
func (k *neon) toInt(a Op) Op   { return k.two(neonFCVTZS|k.sz(), "fcvtzs", a) }
func (k *neon) toFloat(a Op) Op { return k.two(neonSCVTF|k.sz(), "scvtf", a) }

// cmp maps the predicates onto FCMEQ, FCMGE and FCMGT (lt and le swap the
// operands; neq and unord are complements).
func (k *neon) cmp(pred uint8, a, b Op) Op {
	switch pred {
	case eq:
		return k.three(neonFCMEQ|k.sz(), "fcmeq", a, b)
	case ge:
		return k.three(neonFCMGE|k.sz(), "fcmge", a, b)
	case gt:
		return k.three(neonFCMGT|k.sz(), "fcmgt", a, b)
	case le:
		return k.three(neonFCMGE|k.sz(), "fcmge", b, a)
	case lt:
		return k.three(neonFCMGT|k.sz(), "fcmgt", b, a)
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
func (k *neon) sel(m, a, b Op) Op { return k.acc(neonBSL, "bsl", "16b", a, b, m) }

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

// loopBounds pairs each loop's first and last instruction (nested loops
// close innermost first).
func (k *neon) loopBounds() [][2]int {
	var loops [][2]int
	var open []int
	for i, in := range k.code {
		switch in.loop {
		case +1:
			open = append(open, i)
		case -1:
			if len(open) == 0 {
				panic("neon: a loop closed that was not opened")
			}
			loops = append(loops, [2]int{open[len(open)-1], i})
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		panic("neon: a loop left open")
	}
	return loops
}

// verify simulates the allocated code in program order, running each loop
// body a second time as its back edge would, and panics when an
// instruction reads a register that no longer holds the value it reads.
func (k *neon) verify(phys map[*nv]int) {
	back := map[int]int{}
	for _, l := range k.loopBounds() {
		back[l[1]] = l[0]
	}
	holder := map[int]*nv{}
	again := map[int]bool{}
	for i := 0; i < len(k.code); i++ {
		in := k.code[i]
		for _, u := range in.uses {
			if holder[phys[u]] != u {
				panic(fmt.Sprintf("neon: instruction %d reads %s from V%d, which holds %v", i, u.Asm(), phys[u], holder[phys[u]]))
			}
		}
		if in.d != nil {
			holder[phys[in.d]] = in.d
		}
		if in.into != nil {
			holder[phys[in.into]] = in.into
		}
		if start, ok := back[i]; ok && !again[i] {
			again[i] = true
			i = start - 1
		}
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
	loops := k.loopBounds()
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
// each half, or pow itself where native (a float32 kernel).
func (f *neonFile) powLoop(form powForm, elem int, pow func(k lang, x, y Op) (Op, Op), native bool) {
	name := fmt.Sprintf("%s%dNEONLoop", form.Stem(), elem)
	f.vectorLoop(name, elem, []loopOperand{{"x", form.XVec}, {"y", form.YVec}}, func(k *neon, in []Op) (Op, Op) {
		if elem == 64 || native {
			return pow(k, in[0], in[1])
		}
		k64 := k.as(64)
		rlo, oklo := pow(k64, k.widen(in[0], false), k.widen(in[1], false))
		rhi, okhi := pow(k64, k.widen(in[0], true), k.widen(in[1], true))
		return k.narrow(rlo, rhi), k.xtn(oklo, okhi)
	})
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
	// a scalar operand is broadcast once, before the loop
	in := make([]Op, len(ops))
	for j, o := range ops {
		if !o.vec {
			s, v := k.vreg(), k.vreg()
			mov, lane := "FMOVD", "D"
			if elem == 32 {
				mov, lane = "FMOVS", "S"
			}
			k.text(s, fmt.Sprintf("%s\t%s+%d(FP), F%%d", mov, o.name, at[o.name]))
			k.text(v, fmt.Sprintf("VDUP\tV%%[2]d.%s[0], V%%[1]d.%s", lane, neonLoadArr(elem)), s)
			in[j] = v
		}
	}
	k.label("loop")
	k.code[len(k.code)-1].loop = +1
	k.gp("CMP\tR1, R4")
	k.gp("BGE\tdone")
	for j, o := range ops {
		if o.vec {
			v := k.vreg()
			k.text(v, "VLD1.P\t16("+ptr[o.name]+"), [V%d."+neonLoadArr(elem)+"]")
			in[j] = v
		}
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
	k.code[len(k.code)-1].loop = -1
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
	phys := k.allocate()
	k.verify(phys)
	k.print(&f.body, phys)
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
	b.WriteString("// Code generated by kernels/internal/vmath/asmgen. DO NOT EDIT.\n\n#include \"textflag.h\"\n")
	b.Write(f.body.Bytes())
	b.WriteString("\n")
	for i, d := range f.pool.data {
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
