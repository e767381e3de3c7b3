package main

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/interp"
	"github.com/laze-go/laze/tensor"
	"github.com/laze-go/laze/tensor/npy"
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

// save writes a result to an .npy file, bools as NumPy bools.
func save(path string, r *interp.Result) error {
	switch t := r.Tensor.(type) {
	case *tensor.Tensor[uint8]:
		if r.DType == interp.Bool {
			return npy.Save(path, t, npy.AsBool())
		}
		return npy.Save(path, t)
	case *tensor.Tensor[int8]:
		return npy.Save(path, t)
	case *tensor.Tensor[int16]:
		return npy.Save(path, t)
	case *tensor.Tensor[int32]:
		return npy.Save(path, t)
	case *tensor.Tensor[int64]:
		return npy.Save(path, t)
	case *tensor.Tensor[uint16]:
		return npy.Save(path, t)
	case *tensor.Tensor[uint32]:
		return npy.Save(path, t)
	case *tensor.Tensor[uint64]:
		return npy.Save(path, t)
	case *tensor.Tensor[float32]:
		return npy.Save(path, t)
	case *tensor.Tensor[float64]:
		return npy.Save(path, t)
	}
	return fmt.Errorf("no .npy writer for %T", r.Tensor)
}
