package main

import (
	"bytes"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCommittedFiles checks that the files in kernels/internal/vmath and kernels/internal/loops
// are what asmgen writes (as `go run . -check` does): run `go generate
// ./kernels/internal/vmath` after changing a kernel or the op table.
func TestCommittedFiles(t *testing.T) {
	for dir, files := range map[string]map[string][]byte{"..": generate(), "../../loops": generateLanes()} {
		for name, want := range files {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from what asmgen writes: run go generate ./kernels/internal/vmath", filepath.Join(dir, name))
			}
		}
	}
}

// TestDeterministic checks that two runs write the same files.
func TestDeterministic(t *testing.T) {
	for _, gen := range []func() map[string][]byte{generate, generateLanes} {
		a, b := gen(), gen()
		for name := range a {
			if !bytes.Equal(a[name], b[name]) {
				t.Errorf("%s differs between two runs", name)
			}
		}
	}
}

// TestAVX2FilesStayVEX checks that the AVX2 files name no register an AVX2
// CPU lacks: avo's allocator may hand out X16–X31 and Y16–Y31, which the Go
// assembler then encodes as EVEX (AVX-512VL) instructions where one exists,
// and those would fault on an AVX2-only CPU; opmask and zmm registers
// likewise.
func TestAVX2FilesStayVEX(t *testing.T) {
	evexOnly := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|K[1-7]|Z[0-9]+)\b`)
	files := generate()
	for name, lanes := range generateLanes() {
		files[name] = lanes
	}
	for name, b := range files {
		if !strings.HasSuffix(name, "amd64.s") || strings.Contains(name, "avx512") {
			continue
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := evexOnly.FindString(line); m != "" {
				t.Errorf("%s:%d uses %s, beyond AVX2: %s", name, i+1, m, strings.TrimSpace(line))
			}
		}
	}
}

// TestFastTables checks the fast kernels' tables against package math (a
// wrong entry would be a wrong result in every lane that reads it).
func TestFastTables(t *testing.T) {
	for j, v := range exp2Sixteenths {
		if want := math.Exp2(float64(j) / 16); math.Abs(v-want) > 0x1p-52*want {
			t.Errorf("exp2Sixteenths[%d] = %v, want about %v", j, v, want)
		}
	}
	for j, lo := range exp2SixteenthsLo {
		if hi := exp2Sixteenths[j]; math.Abs(lo) > 0x1p-53*hi || hi+lo != hi {
			t.Errorf("exp2SixteenthsLo[%d] = %v: not the rest of %v below its last bit", j, lo, hi)
		}
	}
	if exp2SixteenthsLo[0] != 0 {
		t.Errorf("exp2SixteenthsLo[0] = %v, want 0 (2^0 is exact)", exp2SixteenthsLo[0])
	}
	if exp2Sixteenths[0] != 1 || exp2Sixteenths[8] != math.Sqrt2 {
		t.Errorf("exp2Sixteenths[0], [8] = %v, %v, want 1, √2 rounded", exp2Sixteenths[0], exp2Sixteenths[8])
	}
}

// TestFast512NamesUnaries checks that every fast512 entry names a unary
// function and every fast512Binary entry a function of two operands (a
// misspelt key would leave the function on its reference's kernel,
// silently).
func TestFast512NamesUnaries(t *testing.T) {
	known, known2 := map[string]bool{}, map[string]bool{}
	for _, u := range unaries {
		known[u.Name] = true
	}
	for _, b := range binaries {
		known2[b.Name] = true
	}
	for name := range fast512 {
		if !known[name] {
			t.Errorf("fast512[%q]: no unary function of that name", name)
		}
	}
	for name := range fast512Binary {
		if !known2[name] {
			t.Errorf("fast512Binary[%q]: no function of two operands of that name", name)
		}
	}
	if got, want := len(fastNames(avx512)), len(fast512)+len(fast512Binary); got != want {
		t.Errorf("fastNames(avx512) has %d names, fast512 and fast512Binary %d entries", got, want)
	}
	if n := len(fastNames(avx2)); n != 0 {
		t.Errorf("fastNames(avx2) has %d names, want none (AVX2 keeps the references' bits)", n)
	}
}

// TestFits measures the fitted polynomials (polyFit) against their
// functions on a fine grid: each tail's error times z, its weight in the
// result (atan(a) = a + a·z·P(z), relative to a; expm1's r²·P(r), relative
// to r there), stays below 2^-54, a quarter of an ulp; and the tails
// themselves against math's functions.
func TestFits(t *testing.T) {
	for _, c := range []struct {
		name   string
		p      []float64
		tail   func(*big.Float) *big.Float
		f      func(float64) float64
		lo, hi float64
	}{
		{"atan", atanFastP, atanTail, math.Atan, 0, 0.25},
		{"asin", asinFastP, asinTail, math.Asin, 0, 0.25},
		{"expm1", expm1FastP, expm1Tail, nil, -expFastR, expFastR},
	} {
		worst := 0.0
		for i := 0; i <= 5000; i++ {
			z := c.lo + (c.hi-c.lo)*float64(i)/5000
			var p float64
			for _, cc := range c.p {
				p = p*z + cc
			}
			want, _ := c.tail(newFit(z)).Float64()
			worst = math.Max(worst, math.Abs(p-want)*math.Abs(z))
			if c.f == nil {
				if viaMath := (math.Expm1(z) - z) / (z * z); z != 0 && math.Abs(viaMath-want) > 1e-9 {
					t.Fatalf("%s: tail(%v) = %v, math gives %v", c.name, z, want, viaMath)
				}
				continue
			}
			if s := math.Sqrt(z); s > 0 {
				if viaMath := (c.f(s)/s - 1) / z; math.Abs(viaMath-want) > 1e-9 {
					t.Fatalf("%s: tail(%v) = %v, math gives %v", c.name, z, want, viaMath)
				}
			}
		}
		if worst > 0x1p-54 {
			t.Errorf("%s: the fit's error times z reaches 2^%.1f, want below 2^-54", c.name, math.Log2(worst))
		}
		t.Logf("%s: degree %d, error·z at most 2^%.1f", c.name, len(c.p)-1, math.Log2(worst))
	}
}
