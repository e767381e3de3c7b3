// Command gen writes the scalar loops and the dispatch of the vmath
// functions (dispatch.tmpl). The kernels, AVX2 and AVX-512 in every amd64
// build and NEON on arm64, are assembly that asmgen writes. Run both with
// `go generate ./kernels/internal/vmath`.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
)

// unary is one function: its name and its reference.
type unary struct{ Name, Ref string }

// Stem is the part of the function's names before the element width: its
// name, with an underscore after a final digit (log10_64, not log1064).
func (u unary) Stem() string {
	if c := u.Name[len(u.Name)-1]; c >= '0' && c <= '9' {
		return u.Name + "_"
	}
	return u.Name
}

// binary is one form of a function of two operands: its name, "[]" for
// each vector operand, its doc, its reference and whether the AVX2 and
// AVX512 levels have a float32 kernel of it — read from the declarations
// asmgen wrote (withKernels), which has the only list: where not, the level
// runs the narrower kernel or its float64 kernel over converted blocks,
// the generated …32Via64.
type binary struct {
	Name, X, Y, Doc, Ref string
	AVX2F32, AVX512F32   bool
}

// Stem is the form's name before the element width (see unary.Stem).
func (b binary) Stem() string { return unary{Name: b.Name}.Stem() }

// forms are the three forms of the function name with reference ref.
func forms(name, ref string) []binary {
	title := strings.ToUpper(name[:1]) + name[1:]
	return []binary{
		{Name: name, X: "[]", Y: "[]", Doc: "d[i] = " + name + "(x[i], y[i])", Ref: ref},
		{Name: name + "Scalar", X: "[]", Doc: "d[i] = " + name + "(x[i], y)", Ref: ref},
		{Name: "scalar" + title, Y: "[]", Doc: "d[i] = " + name + "(x, y[i])", Ref: ref},
	}
}

// withKernels sets each form's AVX2F32 and AVX512F32 from the Go files
// asmgen wrote in dir (zvmath_amd64.go, zvmath_avx512_amd64.go): whether
// they declare the form's float32 wrapper. asmgen runs first (go generate's
// order in vmath.go).
func withKernels(dir string, bs []binary) []binary {
	declared := func(file, fn string) bool {
		src, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			log.Fatal(err)
		}
		return bytes.Contains(src, []byte("\nfunc "+fn+"("))
	}
	for i := range bs {
		bs[i].AVX2F32 = declared("zvmath_amd64.go", bs[i].Stem()+"32AVX2")
		bs[i].AVX512F32 = declared("zvmath_avx512_amd64.go", bs[i].Stem()+"32AVX512")
	}
	return bs
}

type dtype struct{ Bits, T string }

var data = struct {
	Unary  []unary
	Binary []binary
	Types  []dtype
}{
	Types: []dtype{{"64", "float64"}, {"32", "float32"}},
	Unary: []unary{
		{"exp", "expRef"}, {"log", "logRef"}, {"tanh", "tanhRef"},
		{"sigmoid", "sigmoidRef"}, {"sin", "sinRef"}, {"cos", "cosRef"},
		{"log10", "log10Ref"}, {"log2", "log2Ref"}, {"cosh", "coshRef"}, {"sinh", "sinhRef"},
		{"exp2", "exp2Ref"}, {"expm1", "expm1Ref"}, {"log1p", "log1pRef"}, {"tan", "tanRef"}, {"atan", "atanRef"}, {"asin", "asinRef"}, {"acos", "acosRef"}, {"asinh", "asinhRef"}, {"acosh", "acoshRef"}, {"atanh", "atanhRef"}, {"cbrt", "cbrtRef"}, {"erf", "erfRef"}, {"erfc", "erfcRef"},
	},
	Binary: slices.Concat(forms("pow", "powRef"), forms("hypot", "hypotRef"), forms("atan2", "atan2Ref"),
		forms("logaddexp", "logaddexpRef"), forms("logaddexp2", "logaddexp2Ref")),
}

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	data.Binary = withKernels(dir, data.Binary)
	disp, err := template.ParseFiles(filepath.Join(dir, "gen", "dispatch.tmpl"))
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range []struct{ tmpl, file string }{
		{"amd64", "zdispatch_amd64.go"}, {"scalar", "zscalar.go"}, {"arm64", "zdispatch_arm64.go"}, {"other", "zdispatch_other.go"},
	} {
		var b bytes.Buffer
		if err := disp.ExecuteTemplate(&b, f.tmpl, data); err != nil {
			log.Fatal(err)
		}
		write(dir, f.file, b.Bytes())
	}
}

func write(dir, file string, src []byte) {
	out, err := format.Source(src)
	if err != nil {
		os.WriteFile(filepath.Join(dir, file+".bad"), src, 0o644)
		log.Fatalf("%s: %v", file, err)
	}
	if err := os.WriteFile(filepath.Join(dir, file), out, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Println("wrote", file)
}
