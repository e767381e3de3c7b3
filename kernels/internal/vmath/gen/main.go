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

type binary struct{ Name, X, Y, Doc string }

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
		{"exp2", "exp2Ref"}, {"expm1", "expm1Ref"}, {"log1p", "log1pRef"}, {"tan", "tanRef"}, {"atan", "atanRef"}, {"asin", "asinRef"}, {"acos", "acosRef"}, {"asinh", "asinhRef"}, {"acosh", "acoshRef"}, {"atanh", "atanhRef"},
	},
	Binary: []binary{
		{"pow", "[]", "[]", "d[i] = pow(x[i], y[i])"},
		{"powScalar", "[]", "", "d[i] = pow(x[i], y)"},
		{"scalarPow", "", "[]", "d[i] = pow(x, y[i])"},
	},
}

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
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
