package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGeneratedFilesAreCurrent: the committed kernels are what asmgen
// writes now (run `go generate ./kernels/internal/gemm` after changing it).
func TestGeneratedFilesAreCurrent(t *testing.T) {
	asm, decl, err := generate(tiles)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		path string
		want []byte
	}{{"../zkernel_amd64.s", asm}, {"../zkernel_amd64.go", decl}} {
		got, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, f.want) {
			t.Errorf("%s is not what asmgen writes; run go generate ./kernels/internal/gemm (-generated +committed):\n%s",
				f.path, cmp.Diff(string(f.want), string(got)))
		}
	}
}

// TestTileCheck: tiles that do not fit their registers, or make no sense,
// are refused before any code is written.
func TestTileCheck(t *testing.T) {
	tests := []struct {
		t    tile
		want string // "" for a tile that fits
	}{
		{tile{name: "ok", elem: f64, mr: 6, nv: 2, bits: 256, unroll: 4}, ""},
		{tile{name: "ok512", elem: f64, mr: 12, nv: 2, bits: 512, unroll: 4}, ""},
		{tile{name: "big", elem: f64, mr: 7, nv: 2, bits: 256, unroll: 4}, "14 accumulators + 2 B vectors + 1 broadcast > 16 registers"},
		{tile{name: "width", elem: f32, mr: 4, nv: 2, bits: 128, unroll: 4}, "width 128 bits"},
		{tile{name: "unroll", elem: f32, mr: 4, nv: 2, bits: 256, unroll: 3}, "unroll 3"},
		{tile{name: "empty", elem: f32, mr: 0, nv: 2, bits: 256, unroll: 1}, "tile 0×2"},
	}
	for _, tc := range tests {
		err := tc.t.check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.t.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.t.name, err, tc.want)
		}
	}
}

// TestWidthsAssemble: the description writes 512-bit tiles too (what the
// AVX-512 level will run once verified on an AVX-512 machine), and the Go
// toolchain assembles and vets them with their declarations, as it does the
// AVX2 ones. Only assembled: this test runs nothing.
func TestWidthsAssemble(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package")
	}
	ts := append([]tile{
		{name: "avx512F64x12x16", elem: f64, mr: 12, nv: 2, bits: 512, unroll: 4, prefetchC: true},
		{name: "avx512F32x12x32", elem: f32, mr: 12, nv: 2, bits: 512, unroll: 4, prefetchC: true},
	}, tiles...)
	asm, decl, err := generate(ts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"VFMADD231PD Z", "VFMADD231PS Z", "VFMADD231PD Y", "VFMADD231PS Y"} {
		if !bytes.Contains(bytes.Join(bytes.Fields(asm), []byte(" ")), []byte(want)) {
			t.Errorf("no %q in the assembly", want)
		}
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"go.mod":           []byte("module example.com/gemm\n\ngo 1.26\n"),
		"zkernel_amd64.s":  asm,
		"zkernel_amd64.go": decl,
		"use_amd64.go":     []byte(useAll(ts)),
		"zkernel_other.go": []byte("//go:build !amd64\n\npackage gemm\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, args := range [][]string{{"vet", "."}, {"build", "."}} {
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOARCH=amd64", "GOOS=linux", "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// useAll is a Go file that takes every kernel of ts as a value of the
// kernels' function type, so that a wrong declaration does not compile.
func useAll(ts []tile) string {
	var b strings.Builder
	b.WriteString("package gemm\n\nimport \"unsafe\"\n\nvar kernels = []func(k int, a, b, c unsafe.Pointer, ldc int, acc bool){\n")
	for _, t := range ts {
		b.WriteString("\t" + t.name + ",\n")
	}
	b.WriteString("}\n")
	return b.String()
}
