package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestRandomCLIViews wraps the random command lines of
// TestRandomCLIExpressions in chains of NumPy's view functions that give
// the value back (a flip twice, swapaxes and moveaxis there and back, a
// squeeze of what expand_dims added, a row of broadcast_to, a ravel
// reshaped, the diagonal of the value broadcast along a new axis): each
// must write the very bytes the value alone writes.
func TestRandomCLIViews(t *testing.T) {
	for i, c := range randomCLICases(1, 40) {
		n := len(c.dims)
		if n == 0 {
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
		dims := make([]string, n)
		for j, d := range c.dims {
			dims[j] = fmt.Sprint(d)
		}
		x := "(" + c.expr + ")"
		axis := i%(2*n) - n // every axis, counted from either end
		variants := []string{
			fmt.Sprintf("np.flip(np.flip(%s, %d), axis=%d)", x, axis, axis),
			fmt.Sprintf("np.flipud(np.flipud(%s))", x),
			fmt.Sprintf("np.swapaxes(%s, 0, %d).swapaxes(%d, 0)", x, axis, axis),
			fmt.Sprintf("np.moveaxis(np.moveaxis(%s, %d, 0), source=0, destination=%d)", x, axis, axis),
			fmt.Sprintf("%s[None, ..., None].squeeze((0, -1))", x),
			fmt.Sprintf("np.squeeze(np.expand_dims(%s, (%d, 0)), axis=(%d, 0))", x, n, n),
			fmt.Sprintf("np.broadcast_to(%s, %s)[%d]", x, pyTuple(slices.Concat([]string{"3"}, dims)), i%3),
			fmt.Sprintf("%s.ravel().reshape(%s)", x, strings.Join(dims, ", ")),
			fmt.Sprintf("np.ravel(%s.flatten()[::-1])[::-1].reshape(%s)", x, strings.Join(dims, ", ")),
			fmt.Sprintf("np.diagonal(np.broadcast_to(%s[..., None], %s), 0, -1, %d)", x, pyTuple(slices.Concat(dims, dims[n-1:])), n-1),
		}
		if n >= 2 {
			variants = append(variants, fmt.Sprintf("np.fliplr(np.fliplr(%s))", x))
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
	}
}
