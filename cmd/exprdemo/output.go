package main

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/interp"
	"github.com/laze-go/laze/tensor"
)

// format prints a result as NumPy's print() does; bool arrays as True and
// False.
func format(r *interp.Result) string {
	if r.Tuple != nil {
		return formatTuple(r.Tuple)
	}
	if r.DType != interp.Bool {
		return fmt.Sprint(r.Tensor)
	}
	text := fmt.Sprint(r.Tensor.(*tensor.Tensor[uint8]))
	if len(r.Shape) == 0 {
		return map[string]string{"0": "False", "1": "True"}[text]
	}
	// Every element of a 0/1 uint8 tensor prints as one digit; NumPy pads
	// bools to the width of False.
	return strings.NewReplacer("0", "False", "1", " True").Replace(text)
}

// formatTuple prints a tuple of arrays (nonzero, unique with
// return_counts) as NumPy's print() does: the arrays' reprs, "(array([0,
// 2]), array([1, 1]))", a one-array tuple with its trailing comma.
func formatTuple(items []*interp.Result) string {
	parts := make([]string, len(items))
	for i, item := range items {
		parts[i] = repr(item)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// repr is NumPy's repr of a 1-D array, from its str: the same fields,
// separated by ", " rather than " ", and ", dtype=…" for a dtype other
// than float64, int64 and bool (and for an empty array, always). An array
// whose str wraps or is summarised (longer than a line) is printed as
// array(str): its elements, not NumPy's repr layout.
func repr(r *interp.Result) string {
	s := format(r)
	suffix := ""
	if d := r.DType.String(); d != "float64" && d != "int64" && d != "bool" {
		suffix = ", dtype=" + d
	}
	n := 1
	for _, d := range r.Shape {
		n *= d
	}
	switch {
	case n == 0:
		return "array([], dtype=" + r.DType.String() + ")"
	case len(r.Shape) != 1 || strings.Contains(s, "\n") || strings.Contains(s, "..."):
		return "array(" + s + suffix + ")"
	}
	inner := s[1 : len(s)-1]
	w := (len(inner)+1)/n - 1
	if w <= 0 || (w+1)*n-1 != len(inner) {
		return "array(" + s + suffix + ")"
	}
	fields := make([]string, n)
	for k := range fields {
		fields[k] = inner[k*(w+1) : k*(w+1)+w]
	}
	return "array([" + strings.Join(fields, ", ") + "]" + suffix + ")"
}
