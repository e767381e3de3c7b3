package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestNEONEncodings checks the arm64 target's encoder: each case records one
// instruction with d = V1, n = V2, m = V3 and compares the word with the
// one GNU as (binutils-aarch64-linux-gnu 2.40) assembles for the assembly
// in the case's name.
func TestNEONEncodings(t *testing.T) {
	cases := []struct {
		asm  string
		elem int
		emit func(k *neon, a, b Op) Op
		want uint32
	}{
		{"fadd v1.2d, v2.2d, v3.2d", 64, func(k *neon, a, b Op) Op { return k.add(a, b) }, 0x4e63d441},
		{"fsub v1.4s, v2.4s, v3.4s", 32, func(k *neon, a, b Op) Op { return k.sub(a, b) }, 0x4ea3d441},
		{"fmul v1.2d, v2.2d, v3.2d", 64, func(k *neon, a, b Op) Op { return k.mul(a, b) }, 0x6e63dc41},
		{"fdiv v1.4s, v2.4s, v3.4s", 32, func(k *neon, a, b Op) Op { return k.div(a, b) }, 0x6e23fc41},
		{"fmax v1.2d, v2.2d, v3.2d", 64, func(k *neon, a, b Op) Op { return k.max(a, b) }, 0x4e63f441},
		{"fmin v1.4s, v2.4s, v3.4s", 32, func(k *neon, a, b Op) Op { return k.min(a, b) }, 0x4ea3f441},
		{"fcmeq v1.2d, v2.2d, v3.2d", 64, func(k *neon, a, b Op) Op { return k.cmp(eq, a, b) }, 0x4e63e441},
		{"fcmge v1.4s, v2.4s, v3.4s", 32, func(k *neon, a, b Op) Op { return k.cmp(ge, a, b) }, 0x6e23e441},
		{"fcmgt v1.2d, v2.2d, v3.2d", 64, func(k *neon, a, b Op) Op { return k.cmp(gt, a, b) }, 0x6ee3e441},
		{"frintn v1.4s, v2.4s", 32, func(k *neon, a, _ Op) Op { return k.round(a, 0) }, 0x4e218841},
		{"frintz v1.2d, v2.2d", 64, func(k *neon, a, _ Op) Op { return k.round(a, 3) }, 0x4ee19841},
		{"fsqrt v1.4s, v2.4s", 32, func(k *neon, a, _ Op) Op { return k.sqrt(a) }, 0x6ea1f841},
		{"fcvtzs v1.4s, v2.4s", 32, func(k *neon, a, _ Op) Op { return k.toInt(a) }, 0x4ea1b841},
		{"scvtf v1.4s, v2.4s", 32, func(k *neon, a, _ Op) Op { return k.toFloat(a) }, 0x4e21d841},
		{"and v1.16b, v2.16b, v3.16b", 64, func(k *neon, a, b Op) Op { return k.and(a, b) }, 0x4e231c41},
		{"orr v1.16b, v2.16b, v3.16b", 64, func(k *neon, a, b Op) Op { return k.or(a, b) }, 0x4ea31c41},
		{"eor v1.16b, v2.16b, v3.16b", 64, func(k *neon, a, b Op) Op { return k.xor(a, b) }, 0x6e231c41},
		{"bic v1.16b, v2.16b, v3.16b", 64, func(k *neon, a, b Op) Op { return k.andNot(a, b) }, 0x4e631c41},
		{"mvn v1.16b, v2.16b", 64, func(k *neon, a, _ Op) Op { return k.not(a) }, 0x6e205841},
		{"add v1.2d, v2.2d, v3.2d", 64, func(k *neon, a, b Op) Op { return k.addI(a, b) }, 0x4ee38441},
		{"sub v1.4s, v2.4s, v3.4s", 32, func(k *neon, a, b Op) Op { return k.subI(a, b) }, 0x6ea38441},
		{"cmeq v1.2d, v2.2d, v3.2d", 64, func(k *neon, a, b Op) Op { return k.eqI(a, b) }, 0x6ee38c41},
		{"shl v1.2d, v2.2d, #52", 64, func(k *neon, a, _ Op) Op { return k.shl(a, 52) }, 0x4f745441},
		{"shl v1.4s, v2.4s, #23", 32, func(k *neon, a, _ Op) Op { return k.shl(a, 23) }, 0x4f375441},
		{"ushr v1.2d, v2.2d, #52", 64, func(k *neon, a, _ Op) Op { return k.shr(a, 52) }, 0x6f4c0441},
		{"ushr v1.4s, v2.4s, #23", 32, func(k *neon, a, _ Op) Op { return k.shr(a, 23) }, 0x6f290441},
		{"fcvtzs v1.2d, v2.2d", 64, func(k *neon, a, _ Op) Op { return k.toInt(a) }, 0x4ee1b841},
		{"scvtf v1.2d, v2.2d", 64, func(k *neon, a, _ Op) Op { return k.toFloat(a) }, 0x4e61d841},
		{"fcvtl v1.2d, v2.2s", 32, func(k *neon, a, _ Op) Op { return k.widen(a, false) }, 0x0e617841},
		{"fcvtl2 v1.2d, v2.4s", 32, func(k *neon, a, _ Op) Op { return k.widen(a, true) }, 0x4e617841},
	}
	for _, c := range cases {
		k := newNEON(c.elem, &neonPool{off: map[[2]uint64]int{}})
		a, b := k.vreg(), k.vreg()
		d := c.emit(k, a, b).(*nv)
		phys := map[*nv]int{a: 2, b: 3, d: 1}
		in := k.code[len(k.code)-1]
		if got := wordOf(t, in.render(func(v *nv) int { return phys[v] })); got != c.want {
			t.Errorf("%s: encoded %#08x, want %#08x", c.asm, got, c.want)
		}
	}
	// the accumulating forms: d starts as a copy of c (here V1 itself)
	for _, c := range []struct {
		asm  string
		elem int
		emit func(k *neon, a, b, c Op) Op
		want uint32
	}{
		{"fmla v1.2d, v2.2d, v3.2d", 64, func(k *neon, a, b, c Op) Op { return k.fma(a, b, c) }, 0x4e63cc41},
		{"fmls v1.4s, v2.4s, v3.4s", 32, func(k *neon, a, b, c Op) Op { return k.fnma(a, b, c) }, 0x4ea3cc41},
		{"bsl v1.16b, v2.16b, v3.16b", 64, func(k *neon, a, b, c Op) Op { return k.sel(c, a, b) }, 0x6e631c41},
	} {
		k := newNEON(c.elem, &neonPool{off: map[[2]uint64]int{}})
		a, b, acc := k.vreg(), k.vreg(), k.vreg()
		d := c.emit(k, a, b, acc).(*nv)
		phys := map[*nv]int{a: 2, b: 3, acc: 1, d: 1}
		for _, in := range k.code {
			if in.move {
				phys[in.d] = 1
			}
		}
		in := k.code[len(k.code)-1]
		if got := wordOf(t, in.render(func(v *nv) int { return phys[v] })); got != c.want {
			t.Errorf("%s: encoded %#08x, want %#08x", c.asm, got, c.want)
		}
	}
}

// TestNEONNarrowing checks the two-instruction narrowings: the first
// writes the low half of V1 from V2 (lo), the second the high half from V3
// (hi), keeping the low half (tied).
func TestNEONNarrowing(t *testing.T) {
	for _, c := range []struct {
		name      string
		emit      func(k *neon, lo, hi Op) Op
		want1, w2 uint32
	}{
		{"fcvtn v1.2s, v2.2d; fcvtn2 v1.4s, v3.2d", func(k *neon, lo, hi Op) Op { return k.narrow(lo, hi) }, 0x0e616841, 0x4e616861},
		{"xtn v1.2s, v2.2d; xtn2 v1.4s, v3.2d", func(k *neon, lo, hi Op) Op { return k.narrowInt(lo, hi) }, 0x0ea12841, 0x4ea12861},
	} {
		k := newNEON(32, &neonPool{off: map[[2]uint64]int{}})
		lo, hi := k.vreg(), k.vreg()
		d := c.emit(k, lo, hi).(*nv)
		n := len(k.code)
		first, second := k.code[n-2], k.code[n-1]
		phys := map[*nv]int{first.uses[0]: 2, second.uses[1]: 3, first.d: 1, d: 1}
		reg := func(v *nv) int { return phys[v] }
		if got := wordOf(t, first.render(reg)); got != c.want1 {
			t.Errorf("%s: first word %#08x, want %#08x", c.name, got, c.want1)
		}
		if got := wordOf(t, second.render(reg)); got != c.w2 {
			t.Errorf("%s: second word %#08x, want %#08x", c.name, got, c.w2)
		}
	}
}

func wordOf(t *testing.T, line string) uint32 {
	t.Helper()
	f := strings.Fields(strings.TrimPrefix(line, "WORD\t$"))
	w, err := strconv.ParseUint(f[0], 0, 32)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return uint32(w)
}

// TestNEONAllocation checks the register allocator and its checker on a
// function with a long chain (28 values live at once, so registers are
// reused), an accumulating (tied) instruction, copies and a loop whose
// variables are read across the back edge: verify, which simulates the
// code, must pass; and with two values that are live at once given the
// same register it must panic (so it can fail).
func TestNEONAllocation(t *testing.T) {
	build := func() (*neon, Op) {
		k := newNEON(64, &neonPool{off: map[[2]uint64]int{}})
		x := k.vreg()
		k.text(x, "VLD1\t(R0), [V%d.D2]")
		vals := []Op{x}
		for i := range 27 {
			vals = append(vals, k.add(vals[i], k.f(float64(i))))
		}
		sum := vals[0]
		for _, v := range vals[1:] {
			sum = k.add(sum, v)
		}
		i, acc := Op(k.shr(x, 1)), k.fma(sum, x, k.f(1))
		k.whileNonzero(&i, []*Op{&acc}, func() {
			acc = k.sel(k.cmp(lt, acc, x), k.mul(acc, sum), acc)
			i = k.shr(i, 1)
		})
		k.text(nil, "VST1\t[V%d.D2], (R1)", k.reg(acc))
		k.prune()
		return k, x
	}
	k, _ := build()
	phys := k.allocate()
	k.verify(phys)
	var b bytes.Buffer
	k.print(&b, phys)
	for _, want := range []string{"fadd", "fmla", "bsl", "while1:", "JMP\twhile1"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	// x is read inside the loop: give its register to a value made in the loop
	k, x := build()
	phys = k.allocate()
	xr := phys[x.(*nv)]
	for _, in := range k.code {
		if in.d != nil && in.d != x && strings.Contains(in.render(func(v *nv) int { return phys[v] }), "fmul") {
			phys[in.d] = xr
			break
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("verify accepted x overwritten inside the loop that reads it")
		}
	}()
	k.verify(phys)
}
