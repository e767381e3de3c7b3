package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"log"
	"math"
	"strings"

	"github.com/laze-go/laze/internal/ops"
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The lane loops: kernels' elementwise loops for float32 and float64 blocks
// in every amd64 build, compiled from the op table's SIMD column (the lane
// definitions the GOEXPERIMENT=simd build writes with archsimd) into AVX2
// assembly. A definition is a Go expression over the operands a, b, c
// (e for a fused triple's fourth), built from archsimd's methods (Add, Sub,
// Mul, Div, Sqrt, the comparisons, IsNaN, And, Or) and the lane helpers of
// internal/ops/gen (neg, abs, maximum, minimum, relu, truth, where, floor,
// ceil, trunc, rint, sign, reciprocal, isfinite, isinf, nonzero, iszero,
// xor); laneExpr below gives each the instructions that compute it bit for
// bit as the op's Go column does. The fused pairs and triples are the ops'
// definitions composed, each op rounded on its own (no FMA), as in the
// scalar loops.

// laneLoop is one generated loop: d = expr(a, b, c, e) over n elements.
type laneLoop struct {
	Name  string // the assembly function
	Index int    // its index in the dispatch table: the op, or the pair's or triple's number
	What  string // what it computes, for the comment
	expr  ast.Expr
}

// laneTables are the loops of one element type: per op, per fused pair,
// per fused triple.
type laneTables struct {
	Ops, Pairs, Triples []laneLoop
}

// laneIdent makes an op's name an identifier part: logical_not → LogicalNot.
func laneIdent(name string) string {
	var b strings.Builder
	for _, part := range strings.Split(name, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func parseLane(def string) ast.Expr {
	e, err := parser.ParseExpr(def)
	if err != nil {
		log.Fatalf("lane definition %q: %v", def, err)
	}
	return e
}

// substitute returns e with the identifiers in m replaced (by copies of the
// replacements' trees, which are shared read-only).
func substitute(e ast.Expr, m map[string]ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.Ident:
		if r, ok := m[e.Name]; ok {
			return r
		}
		return e
	case *ast.ParenExpr:
		return &ast.ParenExpr{X: substitute(e.X, m)}
	case *ast.CallExpr:
		c := &ast.CallExpr{Fun: e.Fun}
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			c.Fun = &ast.SelectorExpr{X: substitute(sel.X, m), Sel: sel.Sel}
		}
		for _, a := range e.Args {
			c.Args = append(c.Args, substitute(a, m))
		}
		return c
	}
	log.Fatalf("lane definition: unsupported expression %T", e)
	return nil
}

// chainExpr composes binary definitions as the scalar fused loops do: the
// value so far is the next op's a, the next operand its b.
func chainExpr(chain []ops.Op) ast.Expr {
	names := []string{"a", "b", "c", "e"}
	e := parseLane(chain[0].Def().SIMD)
	for k, op := range chain[1:] {
		e = substitute(parseLane(op.Def().SIMD), map[string]ast.Expr{"a": e, "b": ast.NewIdent(names[k+2])})
	}
	return e
}

func chainName(chain []ops.Op) string {
	var parts []string
	for _, op := range chain {
		parts = append(parts, op.Def().Name)
	}
	return strings.Join(parts, ", ")
}

// laneLoops lists the loops for the element type with suffix sfx (64, 32).
func laneLoops(sfx string) laneTables {
	var t laneTables
	for _, op := range ops.All() {
		def := op.Def()
		if def.SIMD == "" {
			continue
		}
		t.Ops = append(t.Ops, laneLoop{Name: "lane" + laneIdent(def.Name) + sfx, Index: int(op), What: def.Name, expr: parseLane(def.SIMD)})
	}
	for i, p := range ops.FusedPairs() {
		t.Pairs = append(t.Pairs, laneLoop{Name: fmt.Sprintf("lanePair%d_%s", i+1, sfx), Index: i + 1, What: chainName(p[:]), expr: chainExpr(p[:])})
	}
	for i, p := range ops.FusedTriples() {
		t.Triples = append(t.Triples, laneLoop{Name: fmt.Sprintf("laneTriple%d_%s", i+1, sfx), Index: i + 1, What: chainName(p[:]), expr: chainExpr(p[:])})
	}
	return t
}

// laneFunc writes one loop: func(d *T, p *[4]*T, inc *[4]int, n int). p
// holds the operands' addresses and inc their steps in bytes per vector (0
// for a scalar, which the caller has broadcast into a vector of its own);
// n, a multiple of the lane count, is the number of elements.
func (f *asmFile) laneFunc(l laneLoop, elem int) {
	k := f.kern(elem)
	c := k.c
	t := map[int]string{64: "float64", 32: "float32"}[elem]
	f.c.Function(l.Name)
	f.c.Attributes(attr.NOSPLIT)
	f.c.SignatureExpr(fmt.Sprintf("func(d *%s, p *[4]*%s, inc *[4]int, n int)", t, t))
	used := map[string]bool{}
	ast.Inspect(l.expr, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	dp := c.Load(c.Param("d"), c.GP64())
	pp := c.Load(c.Param("p"), c.GP64())
	ip := c.Load(c.Param("inc"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	type stream struct {
		name     string
		ptr, inc reg.GPVirtual
	}
	var streams []stream
	for i, name := range []string{"a", "b", "c", "e"} {
		if !used[name] {
			continue
		}
		s := stream{name: name, ptr: c.GP64(), inc: c.GP64()}
		c.MOVQ(operand.Mem{Base: pp, Disp: 8 * i}, s.ptr)
		c.MOVQ(operand.Mem{Base: ip, Disp: 8 * i}, s.inc)
		streams = append(streams, s)
	}
	loop, done := k.newLabel("loop"), k.newLabel("done")
	c.Label(loop)
	c.TESTQ(n, n)
	c.JLE(operand.LabelRef(done))
	env := map[string]Op{}
	for _, s := range streams {
		c.PREFETCHT0(operand.Mem{Base: s.ptr, Disp: prefetchAhead}) // a scalar's stream (inc 0) asks for nothing new
		env[s.name] = k.load(operand.Mem{Base: s.ptr})
	}
	r := k.reg(laneExpr(k, l.expr, env))
	k.store(r, operand.Mem{Base: dp})
	for _, s := range streams {
		c.ADDQ(s.inc, s.ptr)
	}
	c.ADDQ(operand.U8(k.bits/8), dp)
	c.SUBQ(operand.U8(k.lanes()), n)
	c.JMP(operand.LabelRef(loop))
	c.Label(done)
	c.VZEROUPPER()
	c.RET()
}

// laneExpr emits the instructions of a lane definition and returns the
// register (or constant) that holds its value.
func laneExpr(k *kern, e ast.Expr, env map[string]Op) Op {
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := env[e.Name]
		if !ok {
			log.Fatalf("lane definition: unknown operand %s", e.Name)
		}
		return v
	case *ast.ParenExpr:
		return laneExpr(k, e.X, env)
	case *ast.CallExpr:
		args := make([]Op, len(e.Args))
		for i, a := range e.Args {
			args[i] = laneExpr(k, a, env)
		}
		switch fn := e.Fun.(type) {
		case *ast.SelectorExpr:
			return laneMethod(k, fn.Sel.Name, laneExpr(k, fn.X, env), args)
		case *ast.Ident:
			return laneHelper(k, fn.Name, args)
		}
	}
	log.Fatalf("lane definition: unsupported expression %T", e)
	return nil
}

// laneMethod is archsimd's method name on receiver x with arguments args.
// The comparisons are Go's: false where either operand is NaN, but for
// NotEqual, which is true there.
func laneMethod(k *kern, name string, x Op, args []Op) Op {
	arg := func() Op {
		if len(args) != 1 {
			log.Fatalf("lane definition: %s takes one argument", name)
		}
		return args[0]
	}
	switch name {
	case "Add":
		return k.add(x, arg())
	case "Sub":
		return k.sub(x, arg())
	case "Mul":
		return k.mul(x, arg())
	case "Div":
		return k.div(x, arg())
	case "Sqrt":
		return k.sqrt(x)
	case "Equal":
		return k.cmp(eq, x, arg())
	case "NotEqual":
		return k.cmp(neq, x, arg())
	case "Less":
		return k.cmp(lt, x, arg())
	case "LessEqual":
		return k.cmp(le, x, arg())
	case "Greater":
		return k.cmp(gt, x, arg())
	case "GreaterEqual":
		return k.cmp(ge, x, arg())
	case "IsNaN":
		return k.cmp(unord, x, x)
	case "And":
		return k.and(x, arg())
	case "Or":
		return k.or(x, arg())
	}
	log.Fatalf("lane definition: no instruction for method %s", name)
	return nil
}

// laneHelper is the lane helper name (internal/ops/gen's laneHelpers) over
// args, with the same results.
func laneHelper(k *kern, name string, args []Op) Op {
	zero, one := k.f(0), k.f(1)
	sign := k.u(1 << (k.elem - 1))
	largest := k.f(math.MaxFloat64)
	if k.elem == 32 {
		largest = k.f(math.MaxFloat32)
	}
	a := args[0]
	abs := func(x Op) Op { return k.andNot(x, sign) }
	switch name {
	case "neg":
		return k.xor(a, sign)
	case "abs":
		return abs(a)
	case "maximum", "minimum", "relu":
		b := Op(zero)
		if name != "relu" {
			b = args[1]
		}
		pred := uint8(gt)
		if name == "minimum" {
			pred = lt
		}
		// a where a > b (a < b) or a is NaN, else b
		m := k.mOr(k.cmp(pred, a, b), k.cmp(unord, a, a))
		return k.sel(m, a, b)
	case "truth":
		return k.and(a, one)
	case "where":
		return k.sel(k.cmp(neq, a, zero), args[1], args[2])
	case "floor":
		return k.round(a, 1)
	case "ceil":
		return k.round(a, 2)
	case "trunc":
		return k.round(a, 3)
	case "rint":
		return k.round(a, 0)
	case "sign":
		r := k.sel(k.cmp(unord, a, a), a, zero)
		r = k.sel(k.cmp(lt, a, zero), k.f(-1), r)
		return k.sel(k.cmp(gt, a, zero), one, r)
	case "reciprocal":
		return k.div(one, a)
	case "isfinite":
		return k.cmp(le, abs(a), largest)
	case "isinf":
		return k.cmp(gt, abs(a), largest)
	case "nonzero":
		return k.cmp(neq, a, zero)
	case "iszero":
		return k.cmp(eq, a, zero)
	case "xor":
		return k.and(k.xor(k.cmp(neq, a, zero), k.cmp(neq, args[1], zero)), one)
	}
	log.Fatalf("lane definition: no instructions for helper %s", name)
	return nil
}

// generateLanes returns the lane loop files of kernels/internal/loops: the assembly and the Go
// declarations with the dispatch tables.
func generateLanes() map[string][]byte {
	f := newFile("zlanes_amd64.s", "", false, avx2)
	f.pool = newPool("laneconst", 32)
	var tables []laneTables
	for _, elem := range []int{64, 32} {
		t := laneLoops(fmt.Sprint(elem))
		for _, group := range [][]laneLoop{t.Ops, t.Pairs, t.Triples} {
			for _, l := range group {
				f.laneFunc(l, elem)
			}
		}
		tables = append(tables, t)
		for _, fo := range foldOps {
			f.foldFunc(fo, elem)
		}
		f.reverseFunc(elem)
		f.interleaveFunc(elem)
	}
	return map[string][]byte{"zlanes_amd64.s": f.asmFor("loops"), "zlanes_amd64.go": lanesGoFile(tables)}
}

func lanesGoFile(tables []laneTables) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by kernels/internal/vmath/asmgen. DO NOT EDIT.\n\npackage loops\n\n")
	b.WriteString("// The lane loops (zlanes_amd64.s), compiled from the op table's SIMD\n")
	b.WriteString("// column: each sets d[i] = op(a[i], b[i], ...) for n elements, a multiple\n")
	b.WriteString("// of the lane count, with p the operands' addresses and inc their steps in\n")
	b.WriteString("// bytes per vector (0: a scalar broadcast into a vector of its own).\n\n")
	for i, elem := range []string{"float64", "float32"} {
		t := tables[i]
		for _, group := range [][]laneLoop{t.Ops, t.Pairs, t.Triples} {
			for _, l := range group {
				fmt.Fprintf(&b, "//go:noescape\nfunc %s(d *%s, p *[4]*%s, inc *[4]int, n int)\n\n", l.Name, elem, elem)
			}
		}
		sfx := strings.TrimPrefix(elem, "float")
		for _, fo := range foldOps {
			ret := elem
			if fo.nanFlag {
				ret = "(r " + elem + ", nan int)"
			}
			fmt.Fprintf(&b, "//go:noescape\nfunc lane%s%s(x *%s, n int) %s\n\n", fo.Name, sfx, elem, ret)
		}
		fmt.Fprintf(&b, "//go:noescape\nfunc laneReverse%s(d, s *%s, n int)\n\n", sfx, elem)
		fmt.Fprintf(&b, "//go:noescape\nfunc laneTwice%s(d, s *%s, n int)\n\n", sfx, elem)
		if i == 0 {
			b.WriteString("// laneSumVectors is the number of vector accumulators of laneSum64 and\n")
			fmt.Fprintf(&b, "// laneSum32.\nconst laneSumVectors = %d\n\n", sumAccumulators)
		}
		fmt.Fprintf(&b, "// lanes%s runs the %s lane loop of an op (kind laneOp, k the op), a fused\n", sfx, elem)
		b.WriteString("// pair (lanePair, k its number) or a fused triple (laneTriple); it reports\n")
		b.WriteString("// false, computing nothing, when there is none.\n")
		fmt.Fprintf(&b, "func lanes%s(kind laneKind, k int, d *%s, p *[4]*%s, inc *[4]int, n int) bool {\n\tswitch kind {\n", sfx, elem, elem)
		for _, g := range []struct {
			kind  string
			loops []laneLoop
		}{{"laneOp", t.Ops}, {"lanePair", t.Pairs}, {"laneTriple", t.Triples}} {
			fmt.Fprintf(&b, "\tcase %s:\n\t\tswitch k {\n", g.kind)
			for _, l := range g.loops {
				fmt.Fprintf(&b, "\t\tcase %d: // %s\n\t\t\t%s(d, p, inc, n)\n\t\t\treturn true\n", l.Index, l.What, l.Name)
			}
			b.WriteString("\t\t}\n")
		}
		b.WriteString("\t}\n\treturn false\n}\n\n")
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("zlanes_amd64.go: %v", err)
	}
	return src
}

// foldOp is a reduction's vector instruction: add for a sum, max and min
// (x86's: the second operand where either is NaN or both are zero, which
// the caller's fallback covers).
type foldOp struct {
	Name    string
	nanFlag bool // returns whether a lane was NaN (max, min)
	vec     func(k *kern) func(...operand.Op)
}

var foldOps = []foldOp{
	{"Sum", false, func(k *kern) func(...operand.Op) { return k.op(k.c.VADDPD, k.c.VADDPS) }},
	{"Max", true, func(k *kern) func(...operand.Op) { return k.op(k.c.VMAXPD, k.c.VMAXPS) }},
	{"Min", true, func(k *kern) func(...operand.Op) { return k.op(k.c.VMINPD, k.c.VMINPS) }},
}

// sumAccumulators is the number of vector accumulators of the lane sums:
// eight, so that the additions' latency (three or four cycles) does not
// bound a sum of data in the cache, as it did with four. Max and min keep
// four: their instructions take one cycle.
const sumAccumulators = 8

// foldFunc writes laneSum64(x *float64, n int) float64 and its kin: the
// fold of n elements (a multiple of the lane count) in vector accumulators
// (eight for a sum, four for max and min), accumulator i taking vectors i,
// i+a, i+2a, ... of the whole steps of a vectors; after them, a step of
// four vectors where four remain (a sum), then the last vectors into the
// first accumulator; then the accumulators combined pairwise,
// ((acc0 op acc1) op (acc2 op acc3)) op (...), and across lanes pairwise.
// Max and Min also return nan = 1 where an element was NaN.
func (f *asmFile) foldFunc(fo foldOp, elem int) {
	k := f.kern(elem)
	c := k.c
	t := map[int]string{64: "float64", 32: "float32"}[elem]
	name := fmt.Sprintf("lane%s%d", fo.Name, elem)
	sig := fmt.Sprintf("func(x *%s, n int) %s", t, t)
	if fo.nanFlag {
		sig = fmt.Sprintf("func(x *%s, n int) (r %s, nan int)", t, t)
	}
	c.Function(name)
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr(sig)
	ins := fo.vec(k)
	xp := c.Load(c.Param("x"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())
	L := k.lanes()
	step := k.bits / 8
	count := 4
	if fo.Name == "Sum" {
		count = sumAccumulators
	}
	acc := make([]V, count)
	for i := range acc {
		acc[i] = k.vreg()
	}
	// the first vector starts every accumulator (n ≥ one vector)
	for i := range acc {
		c.VMOVUPS(operand.Mem{Base: xp}, acc[i])
	}
	var nan V
	if fo.nanFlag {
		nan = k.cmp(unord, acc[0], acc[0])
	}
	c.ADDQ(operand.U8(step), xp)
	c.SUBQ(operand.U8(L), n)
	if fo.Name == "Sum" {
		// a sum starts the others at zero, not at the first vector
		for _, a := range acc[1:] {
			c.VXORPS(a, a, a)
		}
	}
	// foldInto folds the next len(into) vectors into the accumulators into.
	foldInto := func(into []V) {
		for i, a := range into {
			c.PREFETCHT0(operand.Mem{Base: xp, Disp: i*step + prefetchAhead})
			v := k.load(operand.Mem{Base: xp, Disp: i * step})
			if fo.nanFlag {
				c.VORPS(k.cmp(unord, v, v), nan, nan)
			}
			ins(v, a, a)
		}
		c.ADDQ(operand.U32(len(into)*step), xp)
		c.SUBQ(operand.U32(len(into)*L), n)
	}
	all, one, done := k.newLabel("all"), k.newLabel("one"), k.newLabel("done")
	c.Label(all)
	c.CMPQ(n, operand.U32(count*L))
	c.JL(operand.LabelRef(one))
	foldInto(acc)
	c.JMP(operand.LabelRef(all))
	c.Label(one)
	if count > 4 {
		c.CMPQ(n, operand.U32(4*L))
		singles := k.newLabel("singles")
		c.JL(operand.LabelRef(singles))
		foldInto(acc[:4])
		c.Label(singles)
		one = singles
	}
	c.TESTQ(n, n)
	c.JLE(operand.LabelRef(done))
	foldInto(acc[:1])
	c.JMP(operand.LabelRef(one))
	c.Label(done)
	for width := 1; width < count; width *= 2 {
		for i := 0; i+width < count; i += 2 * width {
			ins(acc[i+width], acc[i], acc[i])
		}
	}
	// across lanes: the high half onto the low, then pairwise
	x := c.XMM()
	c.VEXTRACTF128(operand.U8(1), acc[0], x)
	lo := acc[0].AsX()
	ins(x, lo, lo)
	if elem == 32 {
		c.VMOVHLPS(lo, lo, x)
		ins(x, lo, lo)
		c.VMOVSHDUP(lo, x)
	} else {
		c.VPERMILPD(operand.U8(1), lo, x)
	}
	ins(x, lo, lo)
	c.Store(lo, c.ReturnIndex(0))
	if fo.nanFlag {
		m := k.bitsOf(nan)
		c.Store(m, c.ReturnIndex(1))
	}
	c.VZEROUPPER()
	c.RET()
}

// reversePrefetch is how far below its reads laneReverse prefetches: two
// pages. The hardware prefetchers do not run ahead of a falling stream
// across pages; with the prefetch a flipped operand's gather plus an add
// at 1e6 float64 runs at the plain add's speed, without it at up to 2× its
// time (AMD EPYC, docs/performance.md).
const reversePrefetch = 8192

// reverseFunc writes laneReverse64(d, s *float64, n int) and laneReverse32:
// d[i] = s[-i] for n elements (a multiple of the lane count), s the address
// of the first element read and the reads walking down memory, a vector at
// a time, its lanes put in reverse order by one or two permutes. It is the
// gather of a flipped operand (stride -1), which the scalar gather reads
// an element a load.
func (f *asmFile) reverseFunc(elem int) {
	k, dp, sp, n := f.moveFunc("laneReverse", elem)
	c := k.c
	step := k.bits / 8
	// sp at the lowest element of the first vector read
	c.SUBQ(operand.U8(step-elem/8), sp)
	loop, done := k.newLabel("reverse"), k.newLabel("done")
	c.Label(loop)
	c.TESTQ(n, n)
	c.JLE(operand.LabelRef(done))
	c.PREFETCHT0(operand.Mem{Base: sp, Disp: -reversePrefetch})
	v := k.load(operand.Mem{Base: sp})
	if elem == 64 {
		c.VPERMPD(operand.U8(0x1b), v, v) // lanes 3 2 1 0
	} else {
		c.VPERMILPS(operand.U8(0x1b), v, v) // each 128-bit half reversed,
		c.VPERMPD(operand.U8(0x4e), v, v)   // then the halves swapped
	}
	k.store(v, operand.Mem{Base: dp})
	c.SUBQ(operand.U8(step), sp)
	c.ADDQ(operand.U8(step), dp)
	c.SUBQ(operand.U8(k.lanes()), n)
	c.JMP(operand.LabelRef(loop))
	c.Label(done)
	c.VZEROUPPER()
	c.RET()
}

// interleaveFunc writes laneTwice64(d, s *float64, n int) and laneTwice32:
// d[2i] = d[2i+1] = s[i] for n elements of s (a multiple of the lane
// count), 2n of d: a vector of s unpacked against itself (each 128-bit
// half's low and high elements doubled) and the halves of the two results
// recombined into two vectors, stored side by side. It is the store of
// Repeat(x, 2) along the last axis, whose two copies share a block.
func (f *asmFile) interleaveFunc(elem int) {
	k, dp, sp, n := f.moveFunc("laneTwice", elem)
	c := k.c
	step := k.bits / 8
	unpackLow, unpackHigh := k.op(c.VUNPCKLPD, c.VUNPCKLPS), k.op(c.VUNPCKHPD, c.VUNPCKHPS)
	loop, done := k.newLabel("twice"), k.newLabel("done")
	c.Label(loop)
	c.TESTQ(n, n)
	c.JLE(operand.LabelRef(done))
	v := k.load(operand.Mem{Base: sp})
	lo, hi := k.vreg(), k.vreg()
	unpackLow(v, v, lo)
	unpackHigh(v, v, hi)
	c.VPERM2F128(operand.U8(0x20), hi, lo, v) // lo's low half, then hi's
	k.store(v, operand.Mem{Base: dp})
	c.VPERM2F128(operand.U8(0x31), hi, lo, v) // lo's high half, then hi's
	k.store(v, operand.Mem{Base: dp, Disp: step})
	c.ADDQ(operand.U8(step), sp)
	c.ADDQ(operand.U8(2*step), dp)
	c.SUBQ(operand.U8(k.lanes()), n)
	c.JMP(operand.LabelRef(loop))
	c.Label(done)
	c.VZEROUPPER()
	c.RET()
}

// moveFunc starts the lane loop name<elem>(d, s *float<elem>, n int) of a
// loop that moves bits (reverse, twice) and returns its kernel and its
// three arguments in registers.
func (f *asmFile) moveFunc(name string, elem int) (k *kern, dp, sp, n reg.Register) {
	k = f.kern(elem)
	c := k.c
	c.Function(fmt.Sprintf("%s%d", name, elem))
	c.Attributes(attr.NOSPLIT)
	c.SignatureExpr(fmt.Sprintf("func(d, s *float%d, n int)", elem))
	return k, c.Load(c.Param("d"), c.GP64()), c.Load(c.Param("s"), c.GP64()), c.Load(c.Param("n"), c.GP64())
}
