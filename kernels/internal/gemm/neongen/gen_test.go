package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedUpToDate fails when neon_arm64.s or neon_arm64.go differ
// from what the generator writes now.
func TestGeneratedUpToDate(t *testing.T) {
	root, files, err := generateAll()
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range files {
		got, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is stale: run go generate ./kernels/internal/gemm", rel)
		}
	}
}

// TestEncodings checks the encoder against the words Go's own assembler test
// data gives for these instructions (cmd/asm/internal/asm/testdata/arm64enc.s,
// where they are TODO), and against the register fields' extremes.
func TestEncodings(t *testing.T) {
	tests := []struct {
		name string
		got  uint32
		want uint32
	}{
		// VFMLA V28.S[2], V2.S2, V30.S2 is 5e189c0f: the 64-bit form, Q = 0.
		{"FMLA V30.4S, V2.4S, V28.S[2]", fmlaElem(30, 2, 28, 2, false), 0x0f9c185e | 1<<30},
		// VFADD V21.D2, V10.D2, V21.D2 is 55d5754e.
		{"FADD V21.2D, V10.2D, V21.2D", faddVec(21, 10, 21, true), 0x4e75d555},
		{"FMLA V8.2D, V0.2D, V4.D[0]", fmlaElem(8, 0, 4, 0, true), 0x4fc41008},
		{"FMLA V31.2D, V3.2D, V6.D[1]", fmlaElem(31, 3, 6, 1, true), 0x4fc6187f},
		{"FMLA V31.2D, V31.2D, V31.D[1]", fmlaElem(31, 31, 31, 1, true), 0x4fdf1bff},
		{"FMLA V0.4S, V0.4S, V16.S[3]", fmlaElem(0, 0, 16, 3, false), 0x4fb01800},
		{"FMLA V1.4S, V2.4S, V3.S[1]", fmlaElem(1, 2, 3, 1, false), 0x4fa31041},
		{"FADD V0.4S, V31.4S, V17.4S", faddVec(0, 31, 17, false), 0x4e31d7e0},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %#08x; want %#08x", tc.name, tc.got, tc.want)
		}
	}
}

// TestLayoutRefusesWhatDoesNotFit: tiles that are not whole vectors or need
// more than 32 registers, and unknown element types, are errors.
func TestLayoutRefusesWhatDoesNotFit(t *testing.T) {
	for _, s := range []spec{
		{Name: "big", Elem: "float64", MR: 8, NR: 8, Unroll: 1},
		{Name: "ragged", Elem: "float32", MR: 6, NR: 12, Unroll: 1},
		{Name: "int", Elem: "int32", MR: 4, NR: 4, Unroll: 1},
		{Name: "unroll", Elem: "float64", MR: 2, NR: 2, Unroll: 3},
	} {
		if _, err := asmSource([]spec{s}); err == nil || !strings.Contains(err.Error(), s.Name) {
			t.Errorf("%+v: error %v; want one naming the kernel", s, err)
		}
	}
	for _, s := range kernels {
		l, err := newLayout(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.a0 + l.na; got > l.c0 {
			t.Errorf("%s: loads end at V%d, accumulators start at V%d", s.Name, got-1, l.c0)
		}
	}
}
