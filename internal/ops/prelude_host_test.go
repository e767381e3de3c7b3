package ops_test

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/internal/ops/opcases"
)

// cTypes are the C types of the element types that the worked cases use,
// as the CUDA generator spells them.
var cTypes = map[string]string{"float64": "double", "float32": "float", "int64": "long long", "int8": "signed char", "uint8": "unsigned char"}

// hostHarness is a C++ program that evaluates the table's CUDA column (with
// Prelude) on the host: it reads lines "dtype op a b c", the operands as
// the bits of their values, and writes the result's bits, one line each.
func hostHarness() string {
	var b strings.Builder
	b.WriteString("#include <cmath>\n#include <math.h>\n#include <cstdio>\n#include <cstring>\n#include <cstdint>\n")
	b.WriteString("#define __device__\n#define __forceinline__ inline\n")
	b.WriteString(ops.Prelude)
	for _, op := range ops.All() {
		fmt.Fprintf(&b, "template <typename T> T op_%d(T a, T b, T c) { (void)a; (void)b; (void)c; return (T)(%s); }\n", op, op.Def().CUDA)
	}
	b.WriteString(`template <typename T> T from(unsigned long long u) { T v; std::memcpy(&v, &u, sizeof v); return v; }
template <typename T> unsigned long long to(T v) { unsigned long long u = 0; std::memcpy(&u, &v, sizeof v); return u; }
`)
	for _, dtype := range []string{"float64", "float32", "int64", "int8", "uint8"} {
		ct := cTypes[dtype]
		fmt.Fprintf(&b, "static unsigned long long run_%s(int op, unsigned long long a, unsigned long long b, unsigned long long c) {\n", dtype)
		fmt.Fprintf(&b, "  typedef %s T;\n  switch (op) {\n", ct)
		for _, op := range ops.All() {
			if !op.Def().Domain.Accepts(strings.HasPrefix(dtype, "float")) {
				continue
			}
			fmt.Fprintf(&b, "  case %d: return to<T>(op_%d<T>(from<T>(a), from<T>(b), from<T>(c)));\n", op, op)
		}
		b.WriteString("  }\n  return 0;\n}\n")
	}
	b.WriteString(`int main() {
  char dtype[16];
  int op;
  unsigned long long a, b, c;
  while (std::scanf("%15s %d %llu %llu %llu", dtype, &op, &a, &b, &c) == 5) {
    unsigned long long r = 0;
`)
	for _, dtype := range []string{"float64", "float32", "int64", "int8", "uint8"} {
		fmt.Fprintf(&b, "    if (std::strcmp(dtype, %q) == 0) r = run_%s(op, a, b, c);\n", dtype, dtype)
	}
	b.WriteString("    std::printf(\"%llu\\n\", r);\n  }\n  return 0;\n}\n")
	return b.String()
}

// TestPreludeWorkedValues compiles the CUDA column and Prelude for the host
// with the machine's C++ compiler (the test is skipped without one) and runs
// every worked case through it. The helpers use only C's exactly specified
// functions (fmod, floor, copysign, fabs) for the exact cases, which CUDA's
// device library computes exactly too, so the host stands in for the GPU;
// -fwrapv gives signed overflow in add, subtract, multiply and negate the
// wrap-around that the GPU's integer instructions have.
func TestPreludeWorkedValues(t *testing.T) {
	cxx := ""
	for _, name := range []string{"c++", "g++", "clang++"} {
		if p, err := exec.LookPath(name); err == nil {
			cxx = p
			break
		}
	}
	if cxx == "" {
		t.Skip("no C++ compiler to build the CUDA prelude for the host")
	}
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "prelude.cpp"), filepath.Join(dir, "prelude")
	if err := os.WriteFile(src, []byte(hostHarness()), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(cxx, "-std=c++14", "-O1", "-fwrapv", "-ffp-contract=off", "-Wno-unknown-pragmas", "-o", bin, src).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cxx, err, out)
	}

	// One request line per case: every float case in float64 and float32,
	// and the integer cases; the answers are looked up by request.
	var reqs []string
	floats := append(append([]opcases.Float(nil), opcases.Floats...), opcases.Inexact...)
	for _, c := range floats {
		reqs = append(reqs, request("float64", c.Op, math.Float64bits(c.A), math.Float64bits(c.B), math.Float64bits(c.C)),
			request("float32", c.Op, uint64(math.Float32bits(float32(c.A))), uint64(math.Float32bits(float32(c.B))), uint64(math.Float32bits(float32(c.C)))))
	}
	for _, c := range opcases.Ints {
		reqs = append(reqs, request(c.DType, c.Op, intBits(c.DType, c.A), intBits(c.DType, c.B), intBits(c.DType, c.C)))
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(reqs, ""))
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the host prelude: %v", err)
	}
	answers := strings.Fields(string(stdout))
	if len(answers) != len(reqs) {
		t.Fatalf("the host prelude answered %d of %d cases", len(answers), len(reqs))
	}
	answer := map[string]uint64{}
	for i, r := range reqs {
		u, err := strconv.ParseUint(answers[i], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		answer[r] = u
	}

	eval64 := func(op ops.Op, a, b, c float64) float64 {
		return math.Float64frombits(answer[request("float64", op, math.Float64bits(a), math.Float64bits(b), math.Float64bits(c))])
	}
	eval32 := func(op ops.Op, a, b, c float32) float32 {
		return math.Float32frombits(uint32(answer[request("float32", op, uint64(math.Float32bits(a)), uint64(math.Float32bits(b)), uint64(math.Float32bits(c)))]))
	}
	for _, set := range opcases.FloatSets {
		want64, got64, want32, got32 := floatResults(set.Cases, eval64, eval32)
		if diff := cmp.Diff(want64, got64, set.Opt); diff != "" {
			t.Errorf("%s float64 cases (-want +got):\n%s", set.Name, diff)
		}
		if diff := cmp.Diff(want32, got32, set.Opt); diff != "" {
			t.Errorf("%s float32 cases (-want +got):\n%s", set.Name, diff)
		}
	}
	var want, got []result[int64]
	for _, c := range opcases.Ints {
		r := answer[request(c.DType, c.Op, intBits(c.DType, c.A), intBits(c.DType, c.B), intBits(c.DType, c.C))]
		v := int64(r)
		switch c.DType {
		case "int8":
			v = int64(int8(r))
		case "uint8":
			v = int64(uint8(r))
		}
		name := caseName(c.Op, c.DType, c.A, c.B, c.C)
		want, got = append(want, result[int64]{name, c.Want}), append(got, result[int64]{name, v})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("integer cases (-want +got):\n%s", diff)
	}
}

// request is the harness's input line for one case.
func request(dtype string, op ops.Op, a, b, c uint64) string {
	return fmt.Sprintf("%s %d %d %d %d\n", dtype, op, a, b, c)
}

// intBits is v's bits in an element of type dtype.
func intBits(dtype string, v int64) uint64 {
	if dtype == "int64" {
		return uint64(v)
	}
	return uint64(v) & math.MaxUint8
}
