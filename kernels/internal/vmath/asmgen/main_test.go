package main

import (
	"bytes"
	"cmp"
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
	own := 0
	for name := range ownEverywhere {
		if !known2[name] {
			t.Errorf("ownEverywhere[%q]: no function of two operands of that name", name)
		}
		if _, fast := fast512Binary[name]; !fast {
			own++
		}
	}
	if got, want := len(fastNames(avx512)), len(fast512)+len(fast512Binary)+own; got != want {
		t.Errorf("fastNames(avx512) has %d names, fast512, fast512Binary and ownEverywhere %d entries", got, want)
	}
	if got, want := len(fastNames(avx2)), len(ownEverywhere); got != want {
		t.Errorf("fastNames(avx2) has %d names, want ownEverywhere's %d (AVX2 keeps the other references' bits)", got, want)
	}
	if got, want := len(neonFastNames()), len(ownEverywhere); got != want {
		t.Errorf("neonFastNames() has %d names, want %d", got, want)
	}
}

// TestFits measures the fitted polynomials (polyFit) against their
// functions on a fine grid: each tail's error times z, its weight in the
// result (atan(a) = a + a·z·P(z), relative to a; expm1's r²·P(r) and
// log1p's, relative to r there), stays below 2^-54, a quarter of an ulp
// (sin's below 2^-53.5: its P(z) ≈ -1/6 - z/120 … is rounded to a float64
// of 2^-55's grid and multiplied by z up to 2.47, which no degree helps;
// the float32 log's below 2^-30, a sixty-fourth of a float32 ulp);
// and the tails themselves against math's functions.
func TestFits(t *testing.T) {
	viaRoot := func(f func(float64) float64) func(float64) float64 {
		return func(z float64) float64 { s := math.Sqrt(z); return (f(s)/s - 1) / z }
	}
	viaSquare := func(f func(float64) float64) func(float64) float64 {
		return func(r float64) float64 { return (f(r) - r) / (r * r) }
	}
	for _, c := range []struct {
		name    string
		p       []float64
		tail    func(*big.Float) *big.Float
		viaMath func(float64) float64
		lo, hi  float64
		bound   float64 // 2^-54 where 0
	}{
		{"atan", atanFastP, atanTail, viaRoot(math.Atan), 0, 0.25, 0},
		{"asin", asinFastP, asinTail, viaRoot(math.Asin), 0, 0.25, 0},
		{"expm1", expm1FastP, expm1Tail, viaSquare(math.Expm1), -expFastR, expFastR, 0},
		{"log1p", logTableP, log1pTail, viaSquare(math.Log1p), -logTableR, logTableR, 0},
		{"sin", sinFastP, sinTail, viaRoot(math.Sin), 0, sinFastZ, math.Pow(2, -53.5)},
		{"sinh", sinhFastP, sinhTail, viaRoot(math.Sinh), 0, 1, 0},
		{"log1p float32", logTable32P, log1pTail, viaSquare(math.Log1p), -logTableR, logTableR, 0x1p-30},
		{"pow's log", powLogR2, powLogTail, func(w float64) float64 {
			s := math.Sqrt(w)
			return (2*math.Atanh(s) - 2*s - 2*s*w/3) / (s * w * w)
		}, 0, powLogW, 0},
		{"pow's exp", powExpP, expm1Tail, viaSquare(math.Expm1), -powExpR, powExpR, 0},
		{"float32 pow's log", powF32R, powF32Tail, func(w float64) float64 {
			s := math.Sqrt(w)
			return (2*math.Atanh(s) - 2*s) / (s * w)
		}, 0, powLogW, 0x1p-36},
		{"float32 pow's exp", powF32P, expm1Tail, viaSquare(math.Expm1), -powExpR, powExpR, 0x1p-36},
		// log1p r = r - r²/2 + r³·Q(r): Q's error times r³ must stay below
		// 2^-63 of r (pow's log pair), so error·r below 2^-58 where |r| ≤ 1/30.
		{"AVX-512 pow's log", powLogQ, log1pTail3, func(r float64) float64 {
			return (math.Log1p(r) - r + r*r/2) / (r * r * r)
		}, -logTableR, logTableR, 0x1p-58},
		// float32 pow's log2: the cubic term is below 2^-16 of log2 near 1 (2^-11 of
		// r²): its error·r below 2^-26 keeps the sum's 2^-33.
		{"AVX-512 float32 pow's log2", powLog2Q3, log1pTail3Over2, func(r float64) float64 {
			return (math.Log1p(r) - r + r*r/2) / (r * r * r) / math.Ln2
		}, -powInv5.r, powInv5.r, 0x1p-26},
		// 2^f - 1 = f·P(f): P's error times f is the result's relative error.
		{"AVX-512 float32 pow's exp2", powExp2P, exp2m1Over, func(f float64) float64 {
			return (math.Exp2(f) - 1) / f
		}, -powExp2F, powExp2F, 0x1p-30},
	} {
		worst := 0.0
		for i := 0; i <= 5000; i++ {
			z := c.lo + (c.hi-c.lo)*float64(i)/5000
			var p float64
			for _, cc := range c.p {
				p = math.FMA(p, z, cc) // as the kernels evaluate it
			}
			want, _ := c.tail(newFit(z)).Float64()
			worst = math.Max(worst, math.Abs(p-want)*math.Abs(z))
			if math.Abs(z) > 1e-3 {
				if viaMath := c.viaMath(z); math.Abs(viaMath-want) > 1e-9 {
					t.Fatalf("%s: tail(%v) = %v, math gives %v", c.name, z, want, viaMath)
				}
			}
		}
		bound := cmp.Or(c.bound, 0x1p-54)
		if worst > bound {
			t.Errorf("%s: the fit's error times z reaches 2^%.1f, want below 2^%.1f", c.name, math.Log2(worst), math.Log2(bound))
		}
		t.Logf("%s: degree %d, error·z at most 2^%.1f", c.name, len(c.p)-1, math.Log2(worst))
	}
}

// TestPowInv5 checks powFast32's table: every inverse has at most five
// significant bits, so that m·inv - 1 is exact for every float32 m of its
// cell (checked at the cell's ends and a sample between, against exact
// arithmetic), cell 20's entries are 1 and 0, and off cell 20 |T| exceeds
// K·|r - r²/2| (the Fast2Sum's condition) with room.
func TestPowInv5(t *testing.T) {
	for n := 15; n <= 30; n++ {
		j := n & 15
		inv := float64(powInv5.inv[j])
		if f := math.Abs(inv) * 16 / math.Exp2(math.Floor(math.Log2(inv))); f != math.Trunc(f) {
			t.Errorf("cell %d: inv = %v has more than five significant bits", n, inv)
		}
		lo := float32(math.Max(0.75, (float64(n)-0.5)/logTableK))
		hi := float32(math.Min(1.5, (float64(n)+0.5)/logTableK))
		worst := 0.0
		for m := lo; m < hi; m = math.Nextafter32(m, 2) {
			r := math.FMA(float64(m), inv, -1)
			if float64(float32(r)) != r {
				t.Fatalf("cell %d: %v·%v - 1 = %v is not a float32", n, m, inv, r)
			}
			worst = math.Max(worst, math.Abs(r))
			if m < hi-0x1p-12 && m > lo+0x1p-12 {
				m += 0x1p-13 // a sample of the middle, every float32 at the ends
			}
		}
		if worst > powInv5.r {
			t.Errorf("cell %d: |r| reaches %v, above powInv5.r = %v", n, worst, powInv5.r)
		}
		tt := math.Abs(float64(powInv5.tHi[j]) + float64(powInv5.tLo[j]))
		if n == 20 {
			if inv != 1 || tt != 0 {
				t.Errorf("cell 20: inv, T = %v, %v, want 1, 0", inv, tt)
			}
			continue
		}
		if a := worst / math.Ln2; tt < 1.2*a {
			t.Errorf("cell %d: |T| = %v, K·|r| up to %v: the Fast2Sum needs |T| ≥ |K·g|", n, tt, a)
		}
	}
}

// TestLogTable checks the table log's entries: cell 20 is exactly 1 and 0,
// hi is a multiple of 2^-43 and hi + lo is -log(inv) (against math.Log to
// 1e-15).
func TestLogTable(t *testing.T) {
	for n := 15; n <= 30; n++ {
		j := n & 15
		inv, hi, lo := logTableInv[j], logTableHi[j], logTableLo[j]
		if math.Abs(inv*float64(n)/logTableK-1) > 0x1p-52 {
			t.Errorf("cell %d: inv = %v, want %d/%d", n, inv, logTableK, n)
		}
		if d := math.Abs(hi + lo + math.Log(inv)); d > 1e-15 || math.Abs(lo) > 0x1p-44 || math.Mod(hi*0x1p43, 1) != 0 {
			t.Errorf("cell %d: hi, lo = %v, %v; -log(inv) = %v", n, hi, lo, -math.Log(inv))
		}
	}
	if logTableInv[20&15] != 1 || logTableHi[20&15] != 0 || logTableLo[20&15] != 0 {
		t.Errorf("cell 20 = %v, %v, %v, want 1, 0, 0", logTableInv[4], logTableHi[4], logTableLo[4])
	}
}

// TestLogConstants checks the table log's split constants against math's.
func TestLogConstants(t *testing.T) {
	if ln2Hi43+ln2Lo43 != math.Ln2 || math.Mod(ln2Hi43*0x1p43, 1) != 0 || math.Abs(ln2Lo43) > 0x1p-44 {
		t.Errorf("ln2Hi43, ln2Lo43 = %v, %v", ln2Hi43, ln2Lo43)
	}
	for _, c := range []struct {
		name  string
		split splitConst
		want  float64
	}{{"1/ln2", invLn2Split, 1 / math.Ln2}, {"1/ln10", invLn10Split, 1 / math.Ln10}} {
		if c.split.hi != c.want || c.split.lo == 0 || math.Abs(c.split.lo) > 0x1p-53*c.want {
			t.Errorf("%s split = %v, %v", c.name, c.split.hi, c.split.lo)
		}
	}
}

// TestLogBases32 checks the float32 table log's bases: e·eHi + tHi must be
// exact in float32 for |e| < 2^8 (eHi and tHi multiples of 2^-16, |eHi| ≤ 1,
// so e·eHi·2^16 an integer below 2^24), and each part must be what its
// base says.
func TestLogBases32(t *testing.T) {
	for _, c := range []struct {
		name string
		b    logBase
		ln   float64
	}{{"e", logBaseE, 1}, {"2", logBase2, math.Ln2}, {"10", logBase10, math.Ln10}} {
		b := c.b
		if math.Mod(b.eHi*0x1p16, 1) != 0 || math.Abs(b.eHi*0x1p16) > 0x1p16 {
			t.Errorf("base %s: eHi = %v is not 16 bits on 2^-16's grid", c.name, b.eHi)
		}
		if d := math.Abs(b.eHi + b.eLo - math.Ln2/c.ln); d > 1e-12 {
			t.Errorf("base %s: eHi + eLo = %v, want ln2/ln b = %v", c.name, b.eHi+b.eLo, math.Ln2/c.ln)
		}
		if d := math.Abs(b.sHi + b.sLo - 1/c.ln); d > 1e-15 || float64(float32(b.sHi)) != b.sHi {
			t.Errorf("base %s: sHi, sLo = %v, %v", c.name, b.sHi, b.sLo)
		}
		for n := 15; n <= 30; n++ {
			j := n & 15
			hi, lo := float64(b.tHi[j]), float64(b.tLo[j])
			want := -math.Log(float64(logTable32Inv[j])) / c.ln
			if math.Mod(hi*0x1p16, 1) != 0 || math.Abs(hi+lo-want) > 1e-9 {
				t.Errorf("base %s cell %d: tHi + tLo = %v + %v, want %v", c.name, n, hi, lo, want)
			}
		}
	}
}
