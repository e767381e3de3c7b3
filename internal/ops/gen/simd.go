package main

import (
	"bytes"
	"fmt"
	"go/format"
	"regexp"
	"strings"

	"github.com/laze-go/laze/internal/ops"
)

// vecType is one simd/archsimd vector type that the SIMD build's loops are
// written for.
type vecType struct {
	name  string // archsimd type: Float64x8
	elem  string // element type: float64
	lanes int
	mask  string // mask type of a comparison: Mask64x8
	bits  string // unsigned integer vector of the same lanes: Uint64x8
	sign  string // the element's sign bit, as a constant of bits' element type
	width int    // register width in bits: 512 (AVX-512) or 256 (AVX2)
	round string // what follows Floor, Ceil, Trunc, RoundToEven: "()" (AVX), or "Scaled(0)" (AVX-512's VRNDSCALE, 0 fraction bits: the same result)
	max   string // the largest finite element value
}

// vecTypes are the vector types: AVX-512's alone. The AVX2 blocks of both
// builds go through the lane assembly (kernels/internal/loops/zlanes_amd64.s, compiled
// from the same SIMD column by kernels/internal/vmath/asmgen), so each ISA has one
// implementation; archsimd adds AVX-512, which the assembly does not have.
var vecTypes = []vecType{
	{"Float64x8", "float64", 8, "Mask64x8", "Uint64x8", "1 << 63", 512, "Scaled(0)", "math.MaxFloat64"},
	{"Float32x16", "float32", 16, "Mask32x16", "Uint32x16", "1 << 31", 512, "Scaled(0)", "math.MaxFloat32"},
}

// vmathSuffix is the suffix of kernels/internal/vmath's functions for an element
// type: Exp64, Exp32.
func vmathSuffix(elem string) string { return strings.TrimPrefix(elem, "float") }

// laneHelpers are the helpers a SIMD definition may call, written once per
// vector type from this template ({{V}} the vector type, {{M}} its mask,
// {{U}} the unsigned vector of its lanes, {{SIGN}} the sign bit, {{R}} the
// rounding methods' suffix, {{MAX}} the largest finite value). Each gives
// the Go column's result bit for bit: maximum and minimum keep NumPy's NaN
// rule and scalar.Maximum's choice of b when a and b compare equal (so
// maximum(-0, +0) is +0, as in the scalar loops).
const laneHelpers = `
// neg{{V}} flips the sign bit of every lane, as -a does (-(+0) is -0).
func neg{{V}}(a archsimd.{{V}}) archsimd.{{V}} {
	return a.As{{U}}().Xor(archsimd.Broadcast{{U}}({{SIGN}})).As{{V}}()
}

// abs{{V}} clears the sign bit of every lane, as math.Abs does.
func abs{{V}}(a archsimd.{{V}}) archsimd.{{V}} {
	return a.As{{U}}().AndNot(archsimd.Broadcast{{U}}({{SIGN}})).As{{V}}()
}

// maximum{{V}} is scalar.Maximum per lane: a where a > b or a is NaN, else b.
func maximum{{V}}(a, b archsimd.{{V}}) archsimd.{{V}} {
	return a.Merge(b, a.Greater(b).Or(a.IsNaN()))
}

// minimum{{V}} is scalar.Minimum per lane: a where a < b or a is NaN, else b.
func minimum{{V}}(a, b archsimd.{{V}}) archsimd.{{V}} {
	return a.Merge(b, a.Less(b).Or(a.IsNaN()))
}

// relu{{V}} is scalar.ReLU per lane: a where a > 0 or a is NaN, else +0.
func relu{{V}}(a archsimd.{{V}}) archsimd.{{V}} {
	return maximum{{V}}(a, archsimd.{{V}}{})
}

// truth{{V}} is 1 in the lanes where m is set and 0 elsewhere.
func truth{{V}}(m archsimd.{{M}}) archsimd.{{V}} {
	return archsimd.Broadcast{{V}}(1).Masked(m)
}

// where{{V}} is scalar.Where per lane: b where a is nonzero (NaN included),
// else c.
func where{{V}}(a, b, c archsimd.{{V}}) archsimd.{{V}} {
	return b.Merge(c, a.NotEqual(archsimd.{{V}}{}))
}

// floor{{V}}, ceil{{V}}, trunc{{V}} and rint{{V}} round every lane as
// math.Floor, math.Ceil, math.Trunc and math.RoundToEven do (exactly: -0,
// ±Inf and NaN stay themselves).
func floor{{V}}(a archsimd.{{V}}) archsimd.{{V}} { return a.Floor{{R}} }
func ceil{{V}}(a archsimd.{{V}}) archsimd.{{V}}  { return a.Ceil{{R}} }
func trunc{{V}}(a archsimd.{{V}}) archsimd.{{V}} { return a.Trunc{{R}} }
func rint{{V}}(a archsimd.{{V}}) archsimd.{{V}}  { return a.RoundToEven{{R}} }

// sign{{V}} is scalar.Sign per lane: 1 where a > 0, -1 where a < 0, NaN
// where a is NaN, else +0.
func sign{{V}}(a archsimd.{{V}}) archsimd.{{V}} {
	zero := archsimd.{{V}}{}
	r := a.Merge(zero, a.IsNaN())
	r = archsimd.Broadcast{{V}}(-1).Merge(r, a.Less(zero))
	return archsimd.Broadcast{{V}}(1).Merge(r, a.Greater(zero))
}

// reciprocal{{V}} is 1 / a per lane.
func reciprocal{{V}}(a archsimd.{{V}}) archsimd.{{V}} {
	return archsimd.Broadcast{{V}}(1).Div(a)
}

// isfinite{{V}} is set where |a| is at most the largest finite value (so
// not ±Inf, and not NaN, which compares false).
func isfinite{{V}}(a archsimd.{{V}}) archsimd.{{M}} {
	return abs{{V}}(a).LessEqual(archsimd.Broadcast{{V}}({{MAX}}))
}

// isinf{{V}} is set where |a| is above the largest finite value: ±Inf.
func isinf{{V}}(a archsimd.{{V}}) archsimd.{{M}} {
	return abs{{V}}(a).Greater(archsimd.Broadcast{{V}}({{MAX}}))
}

// nonzero{{V}} is set where a is nonzero (NaN included), iszero{{V}}
// where it is ±0.
func nonzero{{V}}(a archsimd.{{V}}) archsimd.{{M}} { return a.NotEqual(archsimd.{{V}}{}) }
func iszero{{V}}(a archsimd.{{V}}) archsimd.{{M}}  { return a.Equal(archsimd.{{V}}{}) }

// xor{{V}} is 1 where exactly one of a and b is nonzero, else 0.
func xor{{V}}(a, b archsimd.{{V}}) archsimd.{{V}} {
	return truth{{V}}(truth{{V}}(nonzero{{V}}(a)).NotEqual(truth{{V}}(nonzero{{V}}(b))))
}
`

// helperCall matches a call of a lane helper in a SIMD definition: the
// helpers laneHelpers defines, so that a new helper is written once.
var helperCall = regexp.MustCompile(`\b(` + strings.Join(helperNames(laneHelpers), "|") + `)\(`)

// helperNames lists the helpers a template defines (func name{{V}}(…)).
func helperNames(template string) []string {
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^func (\w+)\{\{V\}\}\(`).FindAllStringSubmatch(template, -1) {
		names = append(names, m[1])
	}
	return names
}

// laneDefinition returns op's SIMD definition for vector type v, its helper
// calls renamed to v's helpers.
func laneDefinition(def string, v vecType) string {
	return helperCall.ReplaceAllString(def, "${1}"+v.name+"(")
}

// simdSource writes kernels/internal/loops/loops_simd_gen.go: for each vector type, the
// lane helpers, one function per operand pattern with a vector loop per op
// that has a SIMD definition, the fused pairs' loops, and the dispatchers
// that the scalar compute and computeFused call first in the SIMD build.
func simdSource(names map[ops.Op]string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("//go:build goexperiment.simd && amd64\n\n")
	b.WriteString(header)
	b.WriteString("package loops\n\nimport (\n\t\"math\"\n\t\"simd/archsimd\"\n\n\t\"github.com/laze-go/laze/internal/ops\"\n\t\"github.com/laze-go/laze/tensor\"\n)\n\n")
	writeSIMDDispatch(&b)
	writeTripleDispatch(&b)
	for _, elem := range []string{"float64", "float32"} {
		writeElemDispatch(&b, names, elem)
	}
	for _, v := range vecTypes {
		r := strings.NewReplacer("{{V}}", v.name, "{{M}}", v.mask, "{{U}}", v.bits, "{{SIGN}}", v.sign, "{{R}}", v.round, "{{MAX}}", v.max)
		b.WriteString(r.Replace(laneHelpers))
		b.WriteString("\n")
		for arity := 1; arity <= 3; arity++ {
			for _, p := range patterns(arity) {
				writeLaneLoop(&b, names, v, p)
			}
		}
		for _, p := range patterns(3) {
			writeFusedLaneLoop(&b, v, p)
		}
		writeTripleLaneLoop(&b, v)
	}
	return format.Source(b.Bytes())
}

// writeSIMDDispatch writes computeWide and computeFusedWide, which hand a
// float32 or float64 block to its element type's dispatcher.
func writeSIMDDispatch(b *bytes.Buffer) {
	for _, fused := range []bool{false, true} {
		name, sel, selParam := "computeWide", "op", "op ops.Op"
		if fused {
			name, sel, selParam = "computeFusedWide", "pair", "pair uint8"
		}
		fmt.Fprintf(b, "// %s computes a block with the AVX-512 lane loops when T is float32 or\n", name)
		b.WriteString("// float64, the CPU runs them and a loop exists for the instruction; it\n// reports whether it did.\n")
		fmt.Fprintf(b, "func %s[T tensor.Number](%s, pat uint8, d []T, args *[3]Value[T]) bool {\n", name, selParam)
		b.WriteString("\tswitch d := any(d).(type) {\n")
		for _, elem := range []string{"float64", "float32"} {
			fmt.Fprintf(b, "\tcase []%s:\n\t\treturn %s%s(%s, pat, d, any(args).(*[3]Value[%s]))\n", elem, name, exported(elem), sel, elem)
		}
		b.WriteString("\t}\n\treturn false\n}\n\n")
	}
}

// exported capitalises an element type's name: Float64.
func exported(elem string) string { return strings.ToUpper(elem[:1]) + elem[1:] }

// writeElemDispatch writes one element type's dispatchers: the loop of the
// run-time vector width for the pattern.
func writeElemDispatch(b *bytes.Buffer, names map[ops.Op]string, elem string) {
	fmt.Fprintf(b, "func computeWide%s(op ops.Op, pat uint8, d []%s, args *[3]Value[%s]) bool {\n", exported(elem), elem, elem)
	writeWidthSwitch(b, elem, func(v vecType) {
		for arity := 1; arity <= 3; arity++ {
			for _, p := range patterns(arity) {
				fmt.Fprintf(b, "\t\tcase pat%s:\n\t\t\treturn %s(op, d, %s)\n", p, laneLoopName(p, v), loopArgs(p))
			}
		}
	})
	b.WriteString("\treturn false\n}\n\n")
	fmt.Fprintf(b, "func computeFusedWide%s(pair, pat uint8, d []%s, args *[3]Value[%s]) bool {\n", exported(elem), elem, elem)
	writeWidthSwitch(b, elem, func(v vecType) {
		for _, p := range patterns(3) {
			fmt.Fprintf(b, "\t\tcase pat%s:\n\t\t\treturn %s(pair, d, %s)\n", p, fusedLaneLoopName(p, v), loopArgs(p))
		}
	})
	b.WriteString("\treturn false\n}\n\n")
}

// writeWidthSwitch writes a switch on the run-time vector width whose cases
// switch on pat, with cases written by patCases per vector type.
func writeWidthSwitch(b *bytes.Buffer, elem string, patCases func(v vecType)) {
	b.WriteString("\tswitch simdWidth {\n")
	for _, v := range vecTypes {
		if v.elem != elem {
			continue
		}
		fmt.Fprintf(b, "\tcase %d:\n\t\tswitch pat {\n", v.width)
		patCases(v)
		b.WriteString("\t\t}\n")
	}
	b.WriteString("\t}\n")
}

// writeVMathCases writes the calls of kernels/internal/vmath's slice functions for
// the ops that have one: vector operands, or pow with a scalar exponent or
// base.
func writeVMathCases(b *bytes.Buffer, names map[ops.Op]string, elem string) {
	suffix := vmathSuffix(elem)
	b.WriteString("\tswitch pat {\n")
	for _, c := range []struct {
		pat, call string
		arity     int
	}{
		{"patV", "vmath.%s%s(d, args[0].Vec)", 1},
		{"patVV", "vmath.%s%s(d, args[0].Vec, args[1].Vec)", 2},
		{"patVS", "vmath.%sScalar%s(d, args[0].Vec, args[1].S)", 2}, // the name without its underscore (Atan2Scalar64)
		{"patSV", "vmath.Scalar%s%s(d, args[0].S, args[1].Vec)", 2},
	} {
		call, sfx := c.call, suffix
		var cases []string
		for _, op := range ops.All() {
			if def := op.Def(); def.VMath != "" && def.Arity == c.arity {
				name := def.VMath
				if c.pat == "patVS" {
					name = strings.TrimSuffix(name, "_")
				}
				cases = append(cases, fmt.Sprintf("\t\tcase ops.%s:\n\t\t\t"+call+"\n\t\t\treturn true\n", names[op], name, sfx))
			}
		}
		if len(cases) > 0 {
			fmt.Fprintf(b, "\tcase %s:\n\t\tswitch op {\n%s\t\t}\n", c.pat, strings.Join(cases, ""))
		}
	}
	b.WriteString("\t}\n")
}

func laneLoopName(p pattern, v vecType) string      { return "lanes" + p.String() + v.name }
func fusedLaneLoopName(p pattern, v vecType) string { return "fusedLanes" + p.String() + v.name }

// laneParams returns the operand parameters of a lane loop for pattern p
// and element type elem, and the statements that cut each slice to the
// block's length and broadcast each scalar into a vector.
func laneParams(p pattern, v vecType) (params, prologue []string) {
	for i := range p.arity {
		if p.scalar(i) {
			params = append(params, operandNames[i]+" "+v.elem)
			prologue = append(prologue, fmt.Sprintf("%sv := archsimd.Broadcast%s(%s)", operandNames[i], v.name, operandNames[i]))
			continue
		}
		params = append(params, vectorNames[i]+" []"+v.elem)
		prologue = append(prologue, fmt.Sprintf("%s = %s[:len(d)]", vectorNames[i], vectorNames[i]))
	}
	return params, prologue
}

// laneLoads returns the statements at the top of a vector loop's body that
// give the operands a, b, c as vectors: loaded from the slices at i, or the
// broadcast scalars.
func laneLoads(p pattern, v vecType) string {
	var s strings.Builder
	for i := range p.arity {
		if p.scalar(i) {
			fmt.Fprintf(&s, "\t\t\t%s := %sv\n", operandNames[i], operandNames[i])
			continue
		}
		fmt.Fprintf(&s, "\t\t\t%s := archsimd.Load%s((*[%d]%s)(%s[i : i+%d]))\n", operandNames[i], v.name, v.lanes, v.elem, vectorNames[i], v.lanes)
	}
	return s.String()
}

// tailArgs are the arguments that pass the elements from i on to the scalar
// loop.
func tailArgs(p pattern) string {
	args := make([]string, p.arity)
	for i := range args {
		if p.scalar(i) {
			args[i] = operandNames[i]
		} else {
			args[i] = vectorNames[i] + "[i:]"
		}
	}
	return strings.Join(args, ", ")
}

// writeLaneLoop writes the lane loops of one vector type and pattern: per op
// with a SIMD definition, a loop over whole vectors, then the scalar loop
// for the remaining elements. It reports false for the ops it has no loop
// for.
func writeLaneLoop(b *bytes.Buffer, names map[ops.Op]string, v vecType, p pattern) {
	params, prologue := laneParams(p, v)
	name := laneLoopName(p, v)
	fmt.Fprintf(b, "// %s computes an op over a block with %s lanes, operands %s, into d;\n// it reports false, computing nothing, when the op has no lane definition.\n", name, v.name, p)
	fmt.Fprintf(b, "func %s(op ops.Op, d []%s, %s) bool {\n", name, v.elem, strings.Join(params, ", "))
	var cases []string
	for _, op := range ops.All() {
		def := op.Def()
		if def.Arity != p.arity || def.SIMD == "" {
			continue
		}
		cases = append(cases, fmt.Sprintf("\tcase ops.%s:\n%s", names[op], laneBody(p, v, "("+laneDefinition(def.SIMD, v)+")")))
	}
	if len(cases) == 0 {
		b.WriteString("\treturn false\n}\n\n")
		return
	}
	for _, s := range prologue {
		fmt.Fprintf(b, "\t%s\n", s)
	}
	fmt.Fprintf(b, "\ti := 0\n\tswitch op {\n%s\tdefault:\n\t\treturn false\n\t}\n", strings.Join(cases, ""))
	fmt.Fprintf(b, "\t%s(op, d[i:], %s)\n\treturn true\n}\n\n", loopName(p), tailArgs(p))
}

// laneBody writes a vector loop storing result (an expression over a, b, c)
// into d, leaving i at the first element it did not compute. The variable i
// is declared once per function, before the switch.
func laneBody(p pattern, v vecType, result string) string {
	return fmt.Sprintf("\t\tfor ; i+%d <= len(d); i += %d {\n%s\t\t\t%s.Store((*[%d]%s)(d[i : i+%d]))\n\t\t}\n",
		v.lanes, v.lanes, laneLoads(p, v), result, v.lanes, v.elem, v.lanes)
}

// writeFusedLaneLoop writes the fused pairs' lane loops of one vector type
// and three-operand pattern: d = (a op1 b) op2 c, each op rounded on its own
// as in the scalar fused loops (no fused multiply-add).
func writeFusedLaneLoop(b *bytes.Buffer, v vecType, p pattern) {
	params, prologue := laneParams(p, v)
	name := fusedLaneLoopName(p, v)
	fmt.Fprintf(b, "// %s computes a fused pair (a op1 b) op2 c over a block with %s\n// lanes, operands %s, into d.\n", name, v.name, p)
	fmt.Fprintf(b, "func %s(pair uint8, d []%s, %s) bool {\n", name, v.elem, strings.Join(params, ", "))
	for _, s := range prologue {
		fmt.Fprintf(b, "\t%s\n", s)
	}
	b.WriteString("\ti := 0\n\tswitch pair {\n")
	for i, pair := range ops.FusedPairs() {
		fmt.Fprintf(b, "\tcase %d: // %s then %s\n%s", i+1, pair[0], pair[1], laneBody(p, v, "("+laneChain(pair[:], v)+")"))
	}
	b.WriteString("\tdefault:\n\t\treturn false\n\t}\n")
	fmt.Fprintf(b, "\tfused%s(pair, d[i:], %s)\n\treturn true\n}\n\n", p, tailArgs(p))
}

// laneChain is a fused pair's or triple's lane definition for vector type
// v: the ops' SIMD columns composed as chainDefinition composes the Go
// ones. Each lane op rounds on its own, as the scalar loops' conversions do.
func laneChain(chain []ops.Op, v vecType) string {
	return chainDefinition(chain, func(op ops.Op) string { return laneDefinition(op.Def().SIMD, v) }, "")
}

func tripleLaneLoopName(v vecType) string { return "tripleLanes" + v.name }

// writeTripleDispatch writes computeTripleSIMD, which hands a float32 or
// float64 block to the fused triple's lane loop of the run-time width.
func writeTripleDispatch(b *bytes.Buffer) {
	b.WriteString("// computeTripleWide computes a fused triple over a block with the\n")
	b.WriteString("// AVX-512 lane loops when T is float32 or float64; it reports whether it did.\n")
	b.WriteString("func computeTripleWide[T tensor.Number](triple uint8, d, x, y, z, w []T) bool {\n")
	b.WriteString("\tswitch d := any(d).(type) {\n")
	for _, elem := range []string{"float64", "float32"} {
		fmt.Fprintf(b, "\tcase []%s:\n\t\tswitch simdWidth {\n", elem)
		for _, v := range vecTypes {
			if v.elem == elem {
				fmt.Fprintf(b, "\t\tcase %d:\n\t\t\treturn %s(triple, d, any(x).([]%s), any(y).([]%s), any(z).([]%s), any(w).([]%s))\n",
					v.width, tripleLaneLoopName(v), elem, elem, elem, elem)
			}
		}
		b.WriteString("\t\t}\n")
	}
	b.WriteString("\t}\n\treturn false\n}\n\n")
}

// writeTripleLaneLoop writes the fused triples' lane loop of one vector
// type: d = ((a op1 b) op2 c) op3 e over four vector operands.
func writeTripleLaneLoop(b *bytes.Buffer, v vecType) {
	p := triplePattern
	params, prologue := laneParams(p, v)
	name := tripleLaneLoopName(v)
	fmt.Fprintf(b, "// %s computes a fused triple ((a op1 b) op2 c) op3 e over a block\n// with %s lanes, four vector operands, into d.\n", name, v.name)
	fmt.Fprintf(b, "func %s(triple uint8, d []%s, %s) bool {\n", name, v.elem, strings.Join(params, ", "))
	for _, s := range prologue {
		fmt.Fprintf(b, "\t%s\n", s)
	}
	b.WriteString("\ti := 0\n\tswitch triple {\n")
	for i, t := range ops.FusedTriples() {
		fmt.Fprintf(b, "\tcase %d: // %s, %s then %s\n%s", i+1, t[0], t[1], t[2], laneBody(p, v, "("+laneChain(t[:], v)+")"))
	}
	b.WriteString("\tdefault:\n\t\treturn false\n\t}\n")
	fmt.Fprintf(b, "\tfusedTripleVVVV(triple, d[i:], %s)\n\treturn true\n}\n\n", tailArgs(p))
}

// vmathSource writes kernels/internal/loops/loops_vmath_gen.go, both builds' use of
// kernels/internal/vmath: computeVMath hands a float64 or float32 block of an op
// that has a vmath function to it when the selected ISA level has vector
// kernels (vmath.Width() > 1: AVX2 and AVX-512 on amd64, NEON on arm64): the float64
// kernels are math's algorithms lane by lane (the scalar loops' bits; at
// AVX-512 most are kernels of that level's own, vmath.Approx64), the
// float32 ones vmath's float32 polynomials, within vmath's accuracy rule
// (4 ulp) of the scalar loops' float32(f(float64(x))), at twice the lanes.
func vmathSource(names map[ops.Op]string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("package loops\n\nimport (\n\t\"github.com/laze-go/laze/internal/ops\"\n\t\"github.com/laze-go/laze/kernels/internal/vmath\"\n\t\"github.com/laze-go/laze/tensor\"\n)\n\n")
	b.WriteString(`// computeVMath computes a float64 or float32 block of an op kernels/internal/vmath
// has a function for with its vector kernels, when the selected ISA level
// has them; it reports whether it did. float64 results are the scalar
// loops' bits (but those of vmath.Approx64's functions) and float32 ones
// are within kernels/internal/vmath's accuracy rule of them (4 ulp; NaN,
// ±Inf and ±0 exact).
func computeVMath[T tensor.Number](op ops.Op, pat uint8, d []T, args *[3]Value[T]) bool {
	if vmath.Width() == 1 {
		return false
	}
	switch d := any(d).(type) {
	case []float64:
		return computeVMathFloat64(op, pat, d, any(args).(*[3]Value[float64]))
	case []float32:
		return computeVMathFloat32(op, pat, d, any(args).(*[3]Value[float32]))
	}
	return false
}

`)
	for _, elem := range []string{"float64", "float32"} {
		fmt.Fprintf(&b, "func computeVMath%s(op ops.Op, pat uint8, d []%s, args *[3]Value[%s]) bool {\n", exported(elem), elem, elem)
		writeVMathCases(&b, names, elem)
		b.WriteString("\treturn false\n}\n\n")
	}
	return format.Source(b.Bytes())
}
