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
