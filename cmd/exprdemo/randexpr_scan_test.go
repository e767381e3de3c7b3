package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/laze-go/laze/tensor"
	"github.com/laze-go/laze/tensor/npy"
)

// TestRandomCLIJoinsAndScans wraps the random command lines of
// TestRandomCLIExpressions in the joining and scanning functions: a
// concatenation of a value's two halves along axis 0 and a row of a stack
// of it must write the very bytes the value alone writes (same dtype,
// shape and values), and a cumsum or cumprod along any axis must keep the
// shape, with bools widened to int64.
func TestRandomCLIJoinsAndScans(t *testing.T) {
	for i, c := range randomCLICases(1, 40) {
		if len(c.dims) == 0 {
			continue
		}
		dir := t.TempDir()
		base, failure, ok := evalToFile(dir, "cpu", c, uint64(i))
		if !ok {
			t.Fatalf("case %d: %s", i, failure)
		}
		want, err := os.ReadFile(base)
		if err != nil {
			t.Fatal(err)
		}
		h := i % (c.dims[0] + 1)
		n := len(c.dims)
		variants := []string{
			fmt.Sprintf("concatenate(((%s)[:%d], (%s)[%d:]), axis=0)", c.expr, h, c.expr, h),
			fmt.Sprintf("stack((%s, %s), axis=%d)[%d]", c.expr, c.expr, 0, i%2),
			fmt.Sprintf("stack((%s, %s), axis=-1)[..., %d]", c.expr, c.expr, i%2),
		}
		for _, v := range variants {
			w := c
			w.expr = v
			path, failure, ok := evalToFile(t.TempDir(), "cpu", w, uint64(i))
			if !ok {
				t.Errorf("case %d: %s", i, failure)
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("case %d: %s writes other bytes than %s", i, v, c.expr)
			}
		}
		for _, fn := range []string{"cumsum", "cumprod"} {
			w := c
			w.expr = fmt.Sprintf("%s(%s, axis=%d)", fn, c.expr, i%(2*n)-n)
			path, failure, ok := evalToFile(t.TempDir(), "cpu", w, uint64(i))
			if !ok {
				t.Errorf("case %d: %s", i, failure)
				continue
			}
			_, hdr, err := npy.LoadAny(path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal([]int(hdr.Shape), c.dims) {
				t.Errorf("case %d: %s: shape %v, want %v", i, w.expr, hdr.Shape, c.dims)
			}
			// As in TestRandomCLIExpressions, an integer value may come out
			// float64 (uint64 with a signed integer).
			if k := kindOf(hdr.DType.String()); k == kindBool || (c.kind == kindFloat) != (k == kindFloat) && (c.kind != kindInt || hdr.DType != tensor.Float64) {
				t.Errorf("case %d: %s: dtype %s for a value of kind %d", i, w.expr, hdr.DType, c.kind)
			}
		}
	}
}
