package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/interp"
)

const gradHelp = `usage: exprdemo grad -wrt NAME[,NAME…] [flags] EXPR

Prints the gradient of EXPR with respect to each input named by -wrt, by
reverse mode (package grad): for each name, "grad NAME:" and the gradient,
an array of that input's shape and dtype, printed as NumPy does (an array
of more than 1,000 elements elided, as NumPy prints it: -o DIR writes every
element to DIR/grad_NAME.npy). The gradient is a laze tree built from
the expression's own nodes and evaluated as any expression is; -tree
prints it (inputs by their names), -explain also how it is evaluated:
kernels.Explain's plan, where an elementwise expression's gradient is one
fused loop.

EXPR must hold one element, as PyTorch's backward() requires a scalar:
nothing is summed for you. For an array, write the reduction you mean,
sum(EXPR) or mean(EXPR), or give the cotangent with -v NAME (an input of
EXPR's shape): the gradient is then that of sum(NAME * EXPR), the
vector-Jacobian product, as PyTorch's EXPR.backward(NAME).

Gradients need float inputs, as in PyTorch and JAX: a -wrt input of an
integer or bool dtype is an error, not promoted (give it as a float array,
-rand x=3:float64). Other inputs may have any dtype; comparisons, argmax,
argmin, integer casts and rounding pass no gradient, and a boolean mask
index x[mask] is computed when the expression is built, so a -wrt input
may not reach EXPR through one. Where an op has no derivative (abs or
relu at 0, ties of max), the gradient is PyTorch's choice. A float32
input's gradient is float32 even where EXPR computes in float64.

Flags (they may come before or after EXPR; -i, -rand and -wrt repeat; an
expression that starts with '-' goes after --, as eval's):
  -wrt x,y               the inputs to differentiate with respect to (required)
  -v name                the cotangent: an input of EXPR's shape (see above)
  -i name=path.npy       load an input from an .npy file, as eval's
  -rand name=2x3x4[:dt]  a random input, as eval's (default float64, uniform in [0, 1))
  -seed N                seed of the -rand inputs (default 0)
  -o DIR                 write each gradient to DIR/grad_NAME.npy (NAME the -wrt
                         input) instead of printing it; DIR must exist. All or
                         nothing: every file is written to a temporary file first,
                         then renamed over its name; on any failure no temporary
                         is left and every file keeps its old bytes (or stays absent)
  -device cpu|cuda       where to evaluate (default cpu)
  -tree                  print each gradient's laze tree before its values
  -explain               print the parse, EXPR's tree, shape and dtype, and
                         each gradient's tree and lowered program

The language is eval's (exprdemo eval -h), with a depth limit of 1,000
operations applied one over another (eval's is 10,000).

Exit status: 0 on success, 1 when evaluation or differentiation fails
(EXPR not one element, an integer -wrt input, an input EXPR does not
use), 2 for a malformed command line (no -wrt, a -wrt or -v name that no
-i or -rand defines).
`

// gradOptions is a parsed grad command line.
type gradOptions struct {
	evalOptions
	wrt  []string
	v    string
	tree bool
}

// parseGradArgs reads the flags and the one expression, in any order.
func parseGradArgs(args []string, stdout io.Writer) (*gradOptions, error) {
	o := &gradOptions{}
	var wrt listFlag
	fs := flag.NewFlagSet("grad", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&o.inputs, "i", "")
	fs.Var(&o.rands, "rand", "")
	fs.Var(&wrt, "wrt", "")
	fs.StringVar(&o.v, "v", "", "")
	fs.Uint64Var(&o.seed, "seed", 0, "")
	fs.StringVar(&o.out, "o", "", "")
	fs.StringVar(&o.device, "device", "cpu", "")
	fs.BoolVar(&o.explain, "explain", false, "")
	fs.BoolVar(&o.tree, "tree", false, "")
	expr, err := parseExpression(fs, args, "grad", "differentiate", gradHelp, stdout)
	if err != nil {
		return nil, err
	}
	o.expr = expr
	for _, list := range wrt {
		for _, name := range strings.Split(list, ",") {
			name = strings.TrimSpace(name)
			if !identifier.MatchString(name) {
				return nil, usagef("-wrt %s: want input names separated by commas (-wrt x,y)", list)
			}
			if slices.Contains(o.wrt, name) {
				return nil, usagef("-wrt: %s is named twice", name)
			}
			o.wrt = append(o.wrt, name)
		}
	}
	if len(o.wrt) == 0 {
		return nil, usagef("grad: -wrt is required: name the inputs to differentiate with respect to (-wrt x or -wrt x,y)")
	}
	o.tree = o.tree || o.explain
	return o, checkDevice(o.device)
}

// gradCommand runs exprdemo grad.
func gradCommand(args []string, stdout, stderr io.Writer) error {
	o, err := parseGradArgs(args, stdout)
	if err != nil {
		return err
	}
	inputs, err := o.loadInputs()
	if err != nil {
		return err
	}
	names := append(slices.Clone(o.wrt), o.v)
	for i, name := range names {
		if _, ok := inputs[name]; ok || name == "" {
			continue
		}
		flagName := "-wrt"
		if i == len(o.wrt) {
			flagName = "-v"
		}
		return usagef("%s %s: no input is named %s (define it with -i %s=file.npy or -rand %s=2x3)", flagName, name, name, name, name)
	}
	opts := interp.GradOptions{Explain: o.explain, V: o.v}
	if o.device == "cuda" {
		if opts.Device, err = openCUDA(); err != nil {
			return fmt.Errorf("-device cuda: %w", err)
		}
	}
	g, err := interp.Grad(o.expr, inputs, o.wrt, opts)
	if err != nil {
		return located(o.expr, err)
	}
	var text strings.Builder
	if o.explain {
		fmt.Fprintf(&text, "parsed: %s\ntree:   %s\nshape:  %v\ndtype:  %s\n", g.Parsed, g.Tree, g.Shape, g.DType)
	}
	for i, r := range g.Grads {
		fmt.Fprintf(&text, "grad %s:\n", o.wrt[i])
		if o.tree {
			fmt.Fprintf(&text, "tree:   %s\n", r.Tree)
		}
		if o.explain {
			fmt.Fprintf(&text, "plan:\n%s\n", r.Plan)
		}
		if o.out == "" {
			fmt.Fprintln(&text, format(r))
		}
	}
	if o.out != "" && !o.tree {
		text.Reset() // without -tree or -explain, -o prints nothing, as eval's
	}
	if _, err := io.WriteString(stdout, text.String()); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	if o.out != "" {
		if err := writeGradients(o.out, o.wrt, g.Grads); err != nil {
			return fmt.Errorf("-o %s: %w", o.out, err)
		}
	}
	return nil
}

// gradFile is the name of the .npy file -o writes the gradient with
// respect to input name to.
func gradFile(name string) string { return "grad_" + name + ".npy" }

// writeGradients writes each gradient, with respect to the input of the
// same index in wrt, to dir/grad_NAME.npy, all or nothing (writeFiles).
func writeGradients(dir string, wrt []string, grads []*interp.Result) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder (grad -o names the folder the gradients' .npy files go to)", dir)
	}
	files := make([]outFile, len(grads))
	for i, r := range grads {
		files[i] = outFile{filepath.Join(dir, gradFile(wrt[i])), r.WriteNPY}
	}
	return writeFiles(files)
}
