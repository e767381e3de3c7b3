package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/tensor"
	"github.com/laze-go/laze/tensor/npy"
)

// This file generates random eval command lines over the CLI's grammar:
// elementwise operators and functions, broadcasting, reductions, views
// (of inputs and of expressions), matrix products, casts, over inputs of
// several dtypes (-rand). TestRandomCLIExpressions runs them on the CPU;
// cuda_cli_test.go (tag cuda) compares -device cuda with -device cpu.

// kind is the coarse dtype of a generated value.
type kind int

const (
	kindFloat kind = iota
	kindInt
	kindBool
)

// gval is a generated subexpression: its source, the shape it has, its
// kind, and whether its value is exact: computed identically by the CPU
// and a GPU (integers; floats through correctly rounded IEEE operations
// only: + - * / sqrt, casts, max/min). An inexact value (a transcendental
// function, a float power, a float sum, mean or product, a float matrix
// product: GPUs round differently, and sum in another order) is kept away
// from the discontinuous operations (comparisons, // and %, argmax/argmin,
// where's condition), which would turn a last-bit difference into a
// different result.
type gval struct {
	src   string
	dims  []int
	kind  kind
	exact bool
}

// cliInput is one -rand input.
type cliInput struct {
	name, dtype string
	dims        []int
}

func (in cliInput) spec() string {
	parts := make([]string, len(in.dims))
	for i, d := range in.dims {
		parts[i] = fmt.Sprint(d)
	}
	return fmt.Sprintf("%s=%s:%s", in.name, strings.Join(parts, "x"), in.dtype)
}

func kindOf(dtype string) kind {
	switch {
	case strings.HasPrefix(dtype, "float"):
		return kindFloat
	case dtype == "bool":
		return kindBool
	}
	return kindInt
}

// cliGen draws one expression. dims is the full shape, (R, C) or (B, R,
// C); every value broadcasts to it.
type cliGen struct {
	r      *rand.Rand
	dims   []int
	k      int // the inner size of matrix products
	inputs []cliInput
	full   []cliInput // inputs of shape dims
}

// cliCase is a generated command line and what it must produce.
type cliCase struct {
	expr  string
	rands []string
	dims  []int
	kind  kind
}

var numericDTypes = []string{"float32", "float64", "float64", "int32", "int64", "int8", "uint8", "int16", "uint16"}

// newCLICase draws inputs and an expression of depth at most depth.
func newCLICase(r *rand.Rand, depth int) cliCase {
	g := &cliGen{r: r, k: 1 + r.IntN(4)}
	g.dims = []int{1 + r.IntN(4), 1 + r.IntN(5)}
	if r.IntN(4) == 0 {
		g.dims = append([]int{1 + r.IntN(3)}, g.dims...)
	}
	R, C := g.dims[len(g.dims)-2], g.dims[len(g.dims)-1]
	dt := func() string { return numericDTypes[r.IntN(len(numericDTypes))] }
	g.full = []cliInput{{"x", dt(), g.dims}, {"y", dt(), g.dims}}
	g.inputs = append(g.inputs, g.full...)
	g.inputs = append(g.inputs,
		cliInput{"row", dt(), []int{C}},
		cliInput{"col", dt(), []int{R, 1}},
		cliInput{"b", "bool", g.dims},
		cliInput{"w", dt(), []int{C, R}},         // read as w.T
		cliInput{"s", dt(), []int{R + 2, 2 * C}}, // read as s[1:-1, ::2]
		cliInput{"p", dt(), []int{R, g.k}},       // p @ q is (R, C)
		cliInput{"q", dt(), []int{g.k, C}},
	)
	v := g.node(depth, true)
	c := cliCase{expr: v.src, dims: v.dims, kind: v.kind}
	for _, in := range g.inputs {
		if strings.Contains(v.src, in.name) { // an input the expression does not use (s in sum) is harmless
			c.rands = append(c.rands, "-rand", in.spec())
		}
	}
	return c
}

// broadcast returns the shape a and b broadcast to (they always do).
func broadcast(a, b []int) []int {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := slices.Clone(a)
	for i := range b {
		j := len(a) - len(b) + i
		if out[j] == 1 {
			out[j] = b[i]
		}
	}
	return out
}

// leaf returns an input or a view of one, or a Python number.
func (g *cliGen) leaf(full bool) gval {
	in := func(name string) gval {
		for _, i := range g.inputs {
			if i.name == name {
				return gval{src: name, dims: i.dims, kind: kindOf(i.dtype), exact: true}
			}
		}
		panic(name)
	}
	R, C := g.dims[len(g.dims)-2], g.dims[len(g.dims)-1]
	choice := g.r.IntN(10)
	if full {
		choice = g.r.IntN(2)
	}
	switch choice {
	case 0:
		x := in(g.full[g.r.IntN(2)].name)
		switch g.r.IntN(4) { // a view of the same shape
		case 1:
			x.src += "[::-1]"
		case 2:
			x.src += "[..., ::-1]"
		}
		return x
	case 1:
		if len(g.dims) == 2 {
			if g.r.IntN(2) == 0 {
				x := in("w")
				return gval{src: "w.T", dims: []int{R, C}, kind: x.kind, exact: true}
			}
			x := in("s")
			return gval{src: "s[1:-1, ::2]", dims: []int{R, C}, kind: x.kind, exact: true}
		}
		x := in("x")
		x.src = fmt.Sprintf("x.transpose(%s)", permText(len(g.dims)))
		x.src = fmt.Sprintf("%s.transpose(%s)", x.src, permText(len(g.dims))) // reversed twice: x's shape
		return x
	case 2:
		return in("row")
	case 3:
		return in("col")
	case 4:
		x := in(g.full[g.r.IntN(2)].name)
		return gval{src: x.src + "[0]", dims: x.dims[1:], kind: x.kind, exact: true}
	case 5:
		return gval{src: fmt.Sprint(1 + g.r.IntN(5)), kind: kindInt, exact: true}
	case 6:
		return gval{src: []string{"0.5", "2.5", "1.25"}[g.r.IntN(3)], kind: kindFloat, exact: true}
	}
	return in(g.full[g.r.IntN(2)].name)
}

// pyTuple writes parts as a Python tuple: (2, 3), (3,).
func pyTuple(parts []string) string {
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// permText is the reversing permutation of n axes, as transpose's
// arguments.
func permText(n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprint(n - 1 - i)
	}
	return strings.Join(p, ", ")
}

// integerOperand returns an exact integer or bool value: a float drawn is
// replaced by a leaf, a float leaf by int32 of ten times it.
func (g *cliGen) integerOperand(depth int, full bool) gval {
	v := g.exactOperand(depth, full)
	if v.kind == kindFloat {
		v = g.leaf(full)
	}
	if v.kind == kindFloat {
		v = gval{src: fmt.Sprintf("int32(%s * 10)", v.src), dims: v.dims, kind: kindInt, exact: true}
	}
	return v
}

// exactOperand returns a value fit for a discontinuous operation: an
// exact one, drawn afresh when the first is not.
func (g *cliGen) exactOperand(depth int, full bool) gval {
	v := g.node(depth, full)
	if v.exact && v.kind != kindBool {
		return v
	}
	return g.leaf(full)
}

// node draws a value of depth at most depth; when full is set it has the
// full shape.
func (g *cliGen) node(depth int, full bool) gval {
	if depth <= 0 || g.r.IntN(5) == 0 {
		return g.leaf(full)
	}
	r := g.r
	switch r.IntN(16) {
	case 0, 1, 2: // arithmetic
		op := []string{"+", "-", "*", "/"}[r.IntN(4)]
		x, y := g.binaryOperands(depth, full)
		return g.combine(fmt.Sprintf("(%s %s %s)", x.src, op, y.src), x, y, op == "/")
	case 3: // floor division, modulo, integer powers: exact operands
		x, y := g.exactOperand(depth-1, full), g.exactOperand(depth-1, false)
		if r.IntN(3) == 0 {
			v := g.combine(fmt.Sprintf("(%s ** %d)", x.src, 2+r.IntN(2)), x, gval{kind: kindInt, exact: true}, false)
			v.exact = x.kind != kindFloat // a float power rounds as the platform's pow does
			return v
		}
		op := []string{"//", "%"}[r.IntN(2)]
		return g.combine(fmt.Sprintf("(%s %s %s)", x.src, op, y.src), x, y, false)
	case 4: // a comparison feeding where
		c1, c2 := g.exactOperand(depth-1, false), g.exactOperand(depth-1, false)
		cond := fmt.Sprintf("(%s %s %s)", c1.src, []string{"<", "<=", ">", ">=", "==", "!="}[r.IntN(6)], c2.src)
		if r.IntN(3) == 0 {
			cond = "b"
		}
		x, y := g.binaryOperands(depth, full)
		v := g.combine(fmt.Sprintf("where(%s, %s, %s)", cond, x.src, y.src), x, y, false)
		v.dims = broadcast(v.dims, broadcast(c1.dims, c2.dims))
		if cond == "b" {
			v.dims = broadcast(v.dims, g.dims)
		}
		return v
	case 5: // continuous functions of any value
		x := g.node(depth-1, full)
		f := []string{"exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "abs", "relu"}[r.IntN(9)]
		if f == "abs" || f == "relu" {
			return gval{src: fmt.Sprintf("%s(%s)", f, x.src), dims: x.dims, kind: x.kind, exact: x.exact}
		}
		if f == "exp" {
			lo := -20
			if x.kind != kindFloat {
				lo = 0 // -20 is out of bounds for an unsigned array (NumPy's rule), which the kinds do not tell apart
			}
			x.src = fmt.Sprintf("clip(%s, %d, 20)", x.src, lo) // keeps exp finite, so that tolerances mean something
		}
		return gval{src: fmt.Sprintf("%s(%s)", f, x.src), dims: x.dims, kind: kindFloat, exact: f == "sqrt" && x.exact}
	case 6: // maximum, minimum, clip
		x, y := g.binaryOperands(depth, full)
		if r.IntN(2) == 0 {
			return gval{src: fmt.Sprintf("clip(%s, 1, 4)", x.src), dims: x.dims, kind: x.kind, exact: x.exact}
		}
		return g.combine(fmt.Sprintf("%s(%s, %s)", []string{"maximum", "minimum"}[r.IntN(2)], x.src, y.src), x, y, false)
	case 7: // a reduction of a full value, broadcast back
		return g.reduction(depth, full)
	case 8: // a matrix product (R, k) @ (k, C)
		p, q := gval{src: "p", kind: g.kindOf("p"), exact: true}, gval{src: "q", kind: g.kindOf("q"), exact: true}
		if r.IntN(2) == 0 {
			p.src = fmt.Sprintf("(p * %d + 1)", 1+r.IntN(3))
		}
		if r.IntN(3) == 0 {
			q.src = "q[:, ::-1]"
		}
		v := g.combine(fmt.Sprintf("(%s @ %s)", p.src, q.src), p, q, false)
		v.dims = []int{g.dims[len(g.dims)-2], g.dims[len(g.dims)-1]}
		v.exact = v.kind != kindFloat
		if full && len(g.dims) == 3 {
			z := g.leaf(true)
			return g.combine(fmt.Sprintf("(%s + %s)", v.src, z.src), v, z, false)
		}
		return v
	case 9: // casts
		x := g.node(depth-1, full)
		to := numericDTypes[r.IntN(len(numericDTypes))]
		if kindOf(to) == kindInt && x.kind == kindFloat {
			// float to integer only of values known to be in range: the
			// conversion of others is not defined alike on every machine
			x = g.leaf(full)
			if x.kind == kindFloat {
				x.src = fmt.Sprintf("(%s * 10)", x.src)
			}
		}
		v := gval{src: fmt.Sprintf("%s(%s)", to, x.src), dims: x.dims, kind: kindOf(to), exact: x.exact}
		return v
	case 10: // a view of an expression (lazy: pushed down to the inputs, or a copy for a reshape)
		x := g.node(depth-1, full)
		if len(x.dims) == 0 {
			return x
		}
		dims := make([]string, len(x.dims))
		for i, d := range x.dims {
			dims[i] = fmt.Sprint(d)
		}
		last := dims[len(dims)-1]
		// Views that keep x's shape, so that the value fits where x did;
		// NumPy's view functions among them.
		views := []string{
			"(%s)[::-1]",
			"(%s).T.T",
			"(%s).reshape(-1).reshape(" + strings.Join(dims, ", ") + ")",
			"(%s).T[::-1].T",
			"(%s)[..., None][..., 0]",
			"(%s).transpose()[1:][::-1].transpose()",
			"np.flip(%s, 0)",
			"np.flip(%s)",
			"np.flipud(%s)",
			"np.swapaxes(np.swapaxes(%s, 0, -1), axis1=-1, axis2=0)",
			"np.moveaxis(np.moveaxis(%s, 0, -1), -1, 0)",
			"np.squeeze(np.expand_dims(%s, (0, -1)), axis=(0, -1))",
			"np.broadcast_to(%s, " + pyTuple(slices.Concat([]string{"2"}, dims)) + ")[1]",
			"np.ravel(%s).reshape(" + strings.Join(dims, ", ") + ")",
			"(%s).flatten().reshape(" + strings.Join(dims, ", ") + ")",
			// x[..., i, i] of x broadcast along a new last axis is x[..., i]
			"np.diagonal(np.broadcast_to((%s)[..., None], " + pyTuple(slices.Concat(dims, []string{last})) + "), 0, -2, -1)",
		}
		if len(x.dims) >= 2 {
			views = append(views, "np.fliplr(%s)")
		}
		view := views[r.IntN(len(views))]
		if strings.Contains(view, "[1:]") { // drops a row of the last dimension: keep x's shape otherwise
			view = "(%s).transpose()[::1].transpose()"
		}
		return gval{src: fmt.Sprintf(view, x.src), dims: x.dims, kind: x.kind, exact: x.exact}
	case 12: // bitwise operators and shifts of integers and bools
		x, y := g.integerOperand(depth-1, full), g.integerOperand(depth-1, false)
		op := []string{"&", "|", "^", "<<", ">>"}[r.IntN(5)]
		if op == "<<" || op == ">>" {
			y = gval{src: fmt.Sprint(r.IntN(9)), kind: kindInt, exact: true}
		}
		if r.IntN(4) == 0 {
			return gval{src: fmt.Sprintf("(~%s)", x.src), dims: x.dims, kind: x.kind, exact: true}
		}
		v := g.combine(fmt.Sprintf("(%s %s %s)", x.src, op, y.src), x, y, false)
		if (op == "<<" || op == ">>") && x.kind == kindBool {
			v.kind = kindInt // bool << int is int8, as NumPy
		}
		return v
	case 13: // NumPy's other continuous functions
		x := g.node(depth-1, full)
		f := []string{"arctan", "cbrt", "erf", "arcsinh", "expm1", "cosh", "log1p", "log2", "fabs", "tan"}[r.IntN(10)]
		if f == "expm1" || f == "cosh" {
			lo := -20
			if x.kind != kindFloat {
				lo = 0
			}
			x.src = fmt.Sprintf("clip(%s, %d, 20)", x.src, lo)
		}
		return gval{src: fmt.Sprintf("%s(%s)", f, x.src), dims: x.dims, kind: kindFloat, exact: f == "fabs" && x.exact}
	case 11: // negation
		x := g.node(depth-1, full)
		if x.kind == kindBool {
			return x
		}
		return gval{src: fmt.Sprintf("(-%s)", x.src), dims: x.dims, kind: x.kind, exact: x.exact}
	}
	x, y := g.binaryOperands(depth, full)
	return g.combine(fmt.Sprintf("(%s + %s)", x.src, y.src), x, y, false)
}

func (g *cliGen) kindOf(name string) kind {
	for _, in := range g.inputs {
		if in.name == name {
			return kindOf(in.dtype)
		}
	}
	panic(name)
}

// binaryOperands draws two operands, one of them full when full is set.
func (g *cliGen) binaryOperands(depth int, full bool) (gval, gval) {
	first := g.r.IntN(2) == 0
	x, y := g.node(depth-1, full && first), g.node(depth-1, full && !first)
	return x, y
}

// combine makes a binary node of x and y: the broadcast shape, the wider
// kind (true division gives a float), exact when both are.
func (g *cliGen) combine(src string, x, y gval, divide bool) gval {
	k := max(x.kind, y.kind)
	if x.kind == kindFloat || y.kind == kindFloat || divide {
		k = kindFloat
	} else if k == kindBool {
		k = kindInt
	}
	if x.kind == kindBool && y.kind == kindBool && !divide {
		k = kindBool
	}
	return gval{src: src, dims: broadcast(x.dims, y.dims), kind: k, exact: x.exact && y.exact}
}

// reduction reduces a full value along an axis (keeping it, or a leading
// one, so that the result broadcasts back) or entirely.
func (g *cliGen) reduction(depth int, full bool) gval {
	r := g.r
	fns := []string{"sum", "mean", "prod", "max", "min", "argmax", "argmin", "nansum", "nanmax", "nanmin", "ptp", "count_nonzero", "nanargmin"}
	fn := fns[r.IntN(len(fns))]
	arg := strings.Contains(fn, "arg")
	method := !strings.HasPrefix(fn, "nan") && fn != "ptp" && fn != "count_nonzero"
	var x gval
	if arg {
		x = g.exactOperand(depth-1, true)
	} else {
		x = g.node(depth-1, true)
	}
	if x.kind == kindBool {
		x = gval{src: fmt.Sprintf("int8(%s)", x.src), dims: x.dims, kind: kindInt, exact: x.exact}
	}
	if len(x.dims) < len(g.dims) { // a full value may be wider: reduce what is there
		x = g.leaf(true)
	}
	n := len(g.dims)
	var src string
	var dims []int
	switch r.IntN(3) {
	case 0:
		src, dims = fmt.Sprintf("%s(%s, axis=0)", fn, x.src), slices.Clone(g.dims[1:])
	case 1:
		axis := n - 1 - r.IntN(n)
		dims = slices.Clone(g.dims)
		dims[axis] = 1
		src = fmt.Sprintf("%s.%s(axis=%d, keepdims=True)", parenthesise(x.src), fn, axis)
		if !method {
			src = fmt.Sprintf("%s(%s, axis=%d, keepdims=True)", fn, x.src, axis)
		}
	default:
		src = fmt.Sprintf("%s(%s)", fn, x.src)
	}
	v := gval{src: src, dims: dims, kind: x.kind, exact: x.exact}
	switch {
	case arg || fn == "count_nonzero":
		v.kind, v.exact = kindInt, true
	case fn == "mean":
		v.kind, v.exact = kindFloat, false
	case (fn == "sum" || fn == "prod" || fn == "nansum") && x.kind == kindFloat:
		v.exact = false // a GPU sums in another order
	}
	if full {
		z := g.leaf(true)
		return g.combine(fmt.Sprintf("(%s + %s)", v.src, z.src), v, z, false)
	}
	return v
}

// parenthesise wraps src in parentheses unless it is a name or a call.
func parenthesise(src string) string {
	if strings.HasPrefix(src, "(") || !strings.ContainsAny(src, " ") {
		return src
	}
	return "(" + src + ")"
}

// cliCases draws n cases from seed.
func randomCLICases(seed uint64, n int) []cliCase {
	r := rand.New(rand.NewPCG(seed, 16))
	cases := make([]cliCase, n)
	for i := range cases {
		cases[i] = newCLICase(r, 1+r.IntN(4))
	}
	return cases
}

// evalToFile runs exprdemo eval in process on device, writing the result
// to an .npy file in dir; it returns the file, or the transcript of a
// failure.
func evalToFile(dir, device string, c cliCase, seed uint64) (string, string, bool) {
	out := filepath.Join(dir, device+".npy")
	args := append([]string{"eval", "-device", device, "-seed", fmt.Sprint(seed), "-o", out}, c.rands...)
	args = append(args, "--", c.expr)
	var stdout, stderr bytes.Buffer
	if status := run(args, &stdout, &stderr); status != 0 {
		return "", fmt.Sprintf("exprdemo %q: exit status %d\n%s%s", args, status, stdout.String(), stderr.String()), false
	}
	return out, "", true
}

// TestRandomCLIExpressions runs the generated command lines on the CPU:
// every one must evaluate, with the shape and the kind of dtype the
// generator predicts (a check of the generator the GPU test relies on).
func TestRandomCLIExpressions(t *testing.T) {
	for i, c := range randomCLICases(1, 300) {
		path, failure, ok := evalToFile(t.TempDir(), "cpu", c, uint64(i))
		if !ok {
			t.Errorf("case %d: %s", i, failure)
			continue
		}
		_, h, err := npy.LoadAny(path)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.dims, []int(h.Shape), cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
			t.Errorf("case %d: %s: shape (-generator +cli):\n%s", i, c.expr, diff)
		}
		// NumPy gives float64 for uint64 with a signed integer (a sum of
		// unsigned values is uint64), which the generator does not track:
		// an integer value may come out float64, its values still exact.
		if k := kindOf(h.DType.String()); k != c.kind && (c.kind != kindInt || h.DType != tensor.Float64) {
			t.Errorf("case %d: %s: dtype %s, the generator predicted kind %d", i, c.expr, h.DType, c.kind)
		}
	}
}

// tolerance is how far a GPU float result may be from the CPU's: within
// rel·max(|a|,|b|) + abs.
type tolerance struct{ rel, abs float64 }

var (
	float32Tolerance = tolerance{rel: 1e-4, abs: 1e-5}
	float64Tolerance = tolerance{rel: 1e-9, abs: 1e-12}
)

// computesInFloat32 reports whether any part of case c may be computed in
// float32: it has a float32 input, a bool or an integer input of 16 bits or
// fewer (the functions take those to float32), or a cast to float32. A
// float64 result may then carry a float32 function's last-bit difference
// between the GPU and the CPU (float32(tan(x)) off by an ulp, then
// widened), so its values get float32's tolerance.
func (c cliCase) computesInFloat32() bool {
	for _, r := range c.rands {
		k := strings.LastIndexByte(r, ':')
		switch r[k+1:] {
		case "float32", "bool", "int8", "uint8", "int16", "uint16":
			return true
		}
	}
	return strings.Contains(c.expr, "float32")
}

// closeEnough compares a CPU and a GPU element: exactly for integers and
// bools; for floats within tol, two NaNs and equal infinities matching, an
// infinity matching nothing else.
func closeEnough[T tensor.Number](a, b T, tol tolerance) bool {
	if !tensor.IsFloat[T]() {
		return a == b
	}
	x, y := float64(a), float64(b)
	if x == y || (x != x && y != y) {
		return true
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return false // unequal, and no tolerance makes up for an infinity
	}
	return math.Abs(x-y) <= tol.abs+tol.rel*math.Max(math.Abs(x), math.Abs(y))
}

// compareNPY compares two .npy results, returning a diff or "". Float
// results compare within float32Tolerance when the result is float32 or
// float32 took part in computing it (computesInFloat32), else within
// float64Tolerance.
func compareNPY(cpuPath, gpuPath string, float32Part bool) string {
	a, ha, err := npy.LoadAny(cpuPath)
	if err != nil {
		return err.Error()
	}
	b, hb, err := npy.LoadAny(gpuPath)
	if err != nil {
		return err.Error()
	}
	if ha.DType != hb.DType || !ha.Shape.Equal(hb.Shape) {
		return fmt.Sprintf("dtype %s shape %v on the CPU, %s %v on the GPU", ha.DType, ha.Shape, hb.DType, hb.Shape)
	}
	tol := float64Tolerance
	if float32Part || ha.DType == tensor.Float32 {
		tol = float32Tolerance
	}
	switch a := a.(type) {
	case *tensor.Tensor[float32]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[float64]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[int8]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[int16]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[int32]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[int64]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[uint8]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[uint16]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[uint32]:
		return diffValues(a, b, tol)
	case *tensor.Tensor[uint64]:
		return diffValues(a, b, tol)
	}
	return fmt.Sprintf("unexpected %T", a)
}

func diffValues[T tensor.Number](a *tensor.Tensor[T], b any, tol tolerance) string {
	return cmp.Diff(a.Contiguous().Data(), b.(*tensor.Tensor[T]).Contiguous().Data(),
		cmp.Comparer(func(x, y T) bool { return closeEnough(x, y, tol) }))
}

// TestCloseEnough checks the tolerance of the GPU comparison.
func TestCloseEnough(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"int32 equal", closeEnough[int32](7, 7, float64Tolerance), true},
		{"int32 off by one", closeEnough[int32](7, 8, float64Tolerance), false},
		{"uint8 off by one", closeEnough[uint8](0, 255, float64Tolerance), false},
		{"float64 last bits", closeEnough(1.0, math.Nextafter(1, 2), float64Tolerance), true},
		{"float64 1e-6 apart", closeEnough(1.0, 1.000001, float64Tolerance), false},
		{"float64 tiny", closeEnough(1e-13, 0.0, float64Tolerance), true},
		{"float32 last bits", closeEnough[float32](1, math.Nextafter32(1, 2), float32Tolerance), true},
		{"float32 1e-3 apart", closeEnough[float32](1, 1.001, float32Tolerance), false},
		{"NaNs", closeEnough(nan, nan, float64Tolerance), true},
		{"NaN and a number", closeEnough(nan, 0.0, float64Tolerance), false},
		{"infinities", closeEnough(math.Inf(1), math.Inf(1), float64Tolerance), true},
		{"opposite infinities", closeEnough(math.Inf(1), math.Inf(-1), float64Tolerance), false},
		// a GPU run's case 182: cosh(float64(tan(x))), x uint16, tan an ulp off in float32
		{"float64 carrying a float32 ulp", closeEnough(448.79479875027687, 448.79437074747057, float64Tolerance), false},
		{"float64 carrying a float32 ulp, float32's tolerance", closeEnough(448.79479875027687, 448.79437074747057, float32Tolerance), true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %t, want %t", tt.name, tt.got, tt.want)
		}
	}
}

// TestComputesInFloat32 checks which cases compare with float32's
// tolerance: the three float64 results a GPU run found an ulp of float32
// apart, and cases with no float32 part.
func TestComputesInFloat32(t *testing.T) {
	tests := []struct {
		rands []string
		expr  string
		want  bool
	}{
		{[]string{"x=2x4:uint16", "s=4x8:uint16", "p=2x4:int16"}, "cosh(clip((float64(tan(x))).reshape(-1).reshape(2, 4), -20, 20))", true},
		{[]string{"x=4x1:float32", "y=4x1:int16"}, "((y + where((y[0] == x), 1, 2)) - arcsinh(y))", true},
		{[]string{"y=3x4:float64", "w=4x3:float32"}, "(clip(cosh(clip(w.T, -20, 20)), 1, 4) + (int32(y * 10) >> 4))", true},
		{[]string{"y=3x4:float64", "b=3x4:bool"}, "y + b", true},
		{[]string{"y=3x4:float64", "i=3x4:int32"}, "float32(y) + i", true},
		{[]string{"y=3x4:float64", "i=3x4:int32", "j=3x4:int64"}, "sin(y) + tan(i) * j", false},
		{nil, "1 + 2", false},
	}
	for _, tt := range tests {
		if got := (cliCase{rands: tt.rands, expr: tt.expr}).computesInFloat32(); got != tt.want {
			t.Errorf("%v %s: computesInFloat32 = %t, want %t", tt.rands, tt.expr, got, tt.want)
		}
	}
}

// TestCompareNPY checks the GPU test's comparison on CPU results: a case
// run twice with one seed matches, and with another seed (other random
// inputs) it differs, unless the result does not depend on the inputs.
func TestCompareNPY(t *testing.T) {
	differ := 0
	cases := randomCLICases(3, 40)
	for i, c := range cases {
		dir1, dir2, dir3 := t.TempDir(), t.TempDir(), t.TempDir()
		p1, f1, ok1 := evalToFile(dir1, "cpu", c, 5)
		p2, f2, ok2 := evalToFile(dir2, "cpu", c, 5)
		p3, f3, ok3 := evalToFile(dir3, "cpu", c, 6)
		if !ok1 || !ok2 || !ok3 {
			t.Fatalf("case %d: %s%s%s", i, f1, f2, f3)
		}
		if diff := compareNPY(p1, p2, c.computesInFloat32()); diff != "" {
			t.Errorf("case %d: %s: one seed, two results:\n%s", i, c.expr, diff)
		}
		if compareNPY(p1, p3, c.computesInFloat32()) != "" {
			differ++
		}
	}
	if differ < len(cases)/2 {
		t.Errorf("only %d of %d cases differ with other inputs: compareNPY sees no difference", differ, len(cases))
	}
}
