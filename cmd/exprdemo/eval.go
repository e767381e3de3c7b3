package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/laze-go/laze/alloc"

	"github.com/laze-go/laze/cmd/exprdemo/internal/interp"
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
	"github.com/laze-go/laze/tensor/npy"
)

// evalHelp is the eval command's usage text; its list of elementwise
// functions comes from the op table.
var evalHelp = strings.Replace(evalHelpText, "{{FUNCTIONS}}", wrapNames(interp.ElementwiseNames(), "  ", 78), 1)

const evalHelpText = `usage: exprdemo eval [flags] EXPR

Evaluates EXPR, a NumPy-style expression, over the inputs the flags give,
and prints the result as NumPy does (or writes it to an .npy file).

Flags (they may come before or after EXPR; -i and -rand repeat). An
argument that starts with '-' is read as a flag, so an expression that
starts with '-' goes after --: exprdemo eval -rand a=3 -- '-a * 2'. One that
names no flag is an error: "unknown flag -bogus", or "not a flag" for one
that cannot be a flag's name (-1, '-a * 2'); -a, where an input is named a,
is reported as both an unknown flag and the negated input.
  -i name=path.npy       load an input from an .npy file (any dtype; bool reads as bool)
  -rand name=2x3x4[:dt]  a random input of that shape and dtype (default float64):
                         floats uniform in [0, 1), integers uniform in [0, 10), bools 0/1
  -seed N                seed of the -rand inputs (default 0)
  -o out.npy             write the result to an .npy file instead of printing it
                         (through a temporary file: a failure leaves an existing file as it was)
  -device cpu|cuda       where to evaluate (default cpu; cuda needs a binary built with -tags cuda)
  -explain               print the parse, the laze tree, its shape and dtype, and the
                         lowered program of every step before the result; with
                         -device cuda, each step's kernels, and their CUDA source

The language: numbers, names (inputs; pi, e, inf, nan, True, False),
  + - * / // % ** @ == != < <= > >= & | ^ << >> and unary - + ~, with Python's precedence;
{{FUNCTIONS}};
  sum mean prod max min argmax argmin all any ptp count_nonzero nansum nanprod nanmean
  nanmax nanmin nanargmax nanargmin, with axis= (an int or a tuple) and keepdims=;
  nanvar nanstd (also ddof=), average (also weights=), np.linalg.norm (ord=, axis=, keepdims=);
  modf(x)[0] frexp(x)[1] divmod(x, y)[0]: one result of NumPy's two;
  ufunc methods np.subtract.reduce(x, axis=0, keepdims=False), np.add.accumulate(x, axis=0),
  np.less.outer(x, y) for every two-operand function; x.astype(np.float32) (or float, int, bool);
  var std (also ddof=), logsumexp (axis=, keepdims=), softmax log_softmax (axis= required),
  cumsum cumprod nancumsum nancumprod (axis=; none scans x flattened),
  concatenate((a, b), axis=0), stack((a, b), axis=0);
  casts float32(x) float64(x) int8(x) … uint64(x) bool(x);
  views x.T, x[1:3, ::2, 0, -1, ..., None], x.transpose(1, 0, 2), x.reshape(2, -1),
  squeeze(x, axis=None) expand_dims(x, axis) broadcast_to(x, shape) swapaxes(x, 0, 1)
  moveaxis(x, source, destination) flip(x, axis=None) fliplr(x) flipud(x) ravel(x)
  x.flatten() diagonal(x, offset=0, axis1=0, axis2=1) (axes and shapes an int or a tuple);
  arrays that hold no memory (computed from the index in the fused loop): arange(start, stop, step)
  linspace(start, stop, num=50, endpoint=True) zeros(shape) ones(shape) full(shape, v) eye(N, M, k)
  identity(n) tri(N, M, k) zeros_like(x) ones_like(x) full_like(x, v) (all with dtype=);
  boolean masks x[x > 0] (a bool array of x's shape; the selected elements, 1-D);
  methods x.sum(axis=0), x.max(), x.clip(0, 1), x.squeeze(), x.ravel()…; an np. prefix is
  accepted (np.exp).
Dtypes promote as NumPy 2 does: / on integers gives float64, // floor-divides,
and a Python number does not change an array's dtype (NEP 50).

Limits: 200 levels of nesting (a pair of parentheses or brackets, a call's
arguments, a unary -, + or ~ and a ** each open one), and a depth of 10,000
operations applied one over another (a + b + c is 2 deep, x[0][1] is 2).

Exit status: 0 on success, 1 when evaluation or writing the result fails,
2 for a malformed command line.
`

// wrapNames joins names with spaces into lines of at most width columns,
// each starting with indent.
func wrapNames(names []string, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, n := range names {
		if line != indent && len(line)+1+len(n) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += n
	}
	b.WriteString(line)
	return b.String()
}

// listFlag collects a repeatable flag's values.
type listFlag []string

// String returns the values given so far.
func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set adds one value.
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// evalOptions is a parsed eval command line.
type evalOptions struct {
	inputs, rands listFlag
	seed          uint64
	out, device   string
	explain       bool
	expr          string
}

// parseEvalArgs reads the flags and the one expression, in any order.
func parseEvalArgs(args []string, stdout io.Writer) (*evalOptions, error) {
	o := &evalOptions{}
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&o.inputs, "i", "")
	fs.Var(&o.rands, "rand", "")
	fs.Uint64Var(&o.seed, "seed", 0, "")
	fs.StringVar(&o.out, "o", "", "")
	fs.StringVar(&o.device, "device", "cpu", "")
	fs.BoolVar(&o.explain, "explain", false, "")
	expr, err := parseExpression(fs, args, "eval", "evaluate", evalHelp, stdout)
	if err != nil {
		return nil, err
	}
	o.expr = expr
	return o, checkDevice(o.device)
}

// parseExpression parses the flags of fs and the one expression of the
// command cmd (which it does: "evaluate"), in any order, printing help on
// -h.
func parseExpression(fs *flag.FlagSet, args []string, cmd, does, help string, stdout io.Writer) (string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if _, werr := fmt.Fprint(stdout, help); werr != nil {
					return "", fmt.Errorf("writing the help: %w", werr)
				}
				return "", err
			}
			return "", flagError(fs, args, err)
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch len(positional) {
	case 0:
		return "", usagef("%s: missing the expression to %s", cmd, does)
	case 1:
		return positional[0], nil
	}
	return "", usagef("%s: one expression expected, got %d: %q (quote the expression)", cmd, len(positional), positional)
}

// undefinedFlag is the start of the flag package's error for an argument
// that names no flag; the name, without its dashes, follows.
const undefinedFlag = "flag provided but not defined: -"

// flagError reports err, fs's error parsing args. An argument that starts
// with '-' but names no flag is reported by what it looks like:
//
//   - not a flag's shape (-1, -x * 2, -(a + b)): an expression, which must
//     come after --;
//   - a flag's shape, -name or -name=value, where name is an input the
//     command line defines (-a with -rand a=3): ambiguous, an unknown flag
//     or the negated input, so the message says both;
//   - any other -name: an unknown flag, with the flags there are.
func flagError(fs *flag.FlagSet, args []string, err error) error {
	name, ok := strings.CutPrefix(err.Error(), undefinedFlag)
	if !ok {
		return usagef("%v", err)
	}
	arg := rawArgument(args, name)
	if !identifier.MatchString(name) {
		return usagef("%q is not a flag: an expression that starts with '-' must come after -- (exprdemo %s [flags] -- %s)", arg, fs.Name(), shellQuote(arg))
	}
	if slices.Contains(definedInputs(args), name) && !strings.Contains(arg, "=") {
		return usagef("unknown flag %s; if %s is the expression, negating input %s, put it after -- (exprdemo %s [flags] -- %s)", arg, arg, name, fs.Name(), arg)
	}
	var flags []string
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, "-"+f.Name) })
	return usagef("unknown flag %s (the flags are %s)", arg, strings.Join(flags, ", "))
}

// rawArgument returns the argument of args that the flag package read as
// the flag name (given without its one or two dashes, before any '=').
func rawArgument(args []string, name string) string {
	for _, a := range args {
		s := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if n, _, _ := strings.Cut(s, "="); n == name && strings.HasPrefix(a, "-") {
			return a
		}
	}
	return "-" + name
}

// definedInputs returns the names that args define with -i and -rand
// (before or after the point where parsing stopped).
func definedInputs(args []string) []string {
	var names []string
	for i, a := range args {
		if a == "--" {
			break
		}
		s := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		flagName, value, hasValue := strings.Cut(s, "=")
		if !strings.HasPrefix(a, "-") || flagName != "i" && flagName != "rand" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		if n, _, ok := strings.Cut(value, "="); ok {
			names = append(names, n)
		}
	}
	return names
}

var shellSafe = regexp.MustCompile(`^[-\w.=/,:]+$`)

// shellQuote quotes s for a POSIX shell where it needs it.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// openCUDA opens GPU 0 and returns its device; nil in a binary built
// without the cuda tag (cuda.go sets it).
var openCUDA func() (alloc.Device, error)

// checkDevice accepts the devices this binary can evaluate on.
func checkDevice(d string) error {
	switch d {
	case "cpu":
		return nil
	case "cuda":
		if openCUDA != nil {
			return nil
		}
		return usagef("-device cuda: this exprdemo has no CUDA backend; build one with 'go build -tags cuda ./cmd/exprdemo' on a machine with the CUDA toolkit ('make cuda-deps' installs it)")
	}
	return usagef("-device %s: unknown device (want cpu or cuda)", d)
}

// evalCommand runs exprdemo eval.
func evalCommand(args []string, stdout, stderr io.Writer) error {
	o, err := parseEvalArgs(args, stdout)
	if err != nil {
		return err
	}
	inputs, err := o.loadInputs()
	if err != nil {
		return err
	}
	opts := interp.Options{Explain: o.explain}
	if o.device == "cuda" {
		if opts.Device, err = openCUDA(); err != nil {
			return fmt.Errorf("-device cuda: %w", err)
		}
	}
	r, err := interp.RunWith(o.expr, inputs, opts)
	if err != nil {
		return located(o.expr, err)
	}
	if o.explain {
		text := fmt.Sprintf("parsed: %s\ntree:   %s\nshape:  %v\ndtype:  %s\nplan:\n%s\n", r.Parsed, r.Tree, r.Shape, r.DType, r.Plan)
		if r.CUDA != "" {
			text += fmt.Sprintf("cuda:\n%s\n", r.CUDA)
		}
		if _, err := io.WriteString(stdout, text); err != nil {
			return fmt.Errorf("writing the explanation: %w", err)
		}
	}
	if o.out != "" {
		if err := writeFile(o.out, r.WriteNPY); err != nil {
			return fmt.Errorf("-o %s: %w", o.out, err)
		}
		return nil
	}
	if _, err := fmt.Fprintln(stdout, format(r)); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}

// located formats an expression error with its position: a syntax error
// with a caret under the column, any other on one line.
func located(src string, err error) error {
	var se *lang.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("syntax error at column %d: %s\n%s", lang.Column(src, se.Pos), se.Msg, lang.Caret(src, se.Pos))
	}
	var ie *interp.Error
	if errors.As(err, &ie) {
		return fmt.Errorf("column %d: %w", lang.Column(src, ie.Pos), err)
	}
	return err
}

var identifier = regexp.MustCompile(`^[\p{L}_][\p{L}\p{N}_]*$`)

// splitNamed splits a name=value flag, checking the name.
func splitNamed(flagName, v string) (string, string, error) {
	name, rest, ok := strings.Cut(v, "=")
	if !ok || !identifier.MatchString(name) || rest == "" {
		return "", "", usagef("-%s %s: want name=value, with name an identifier", flagName, v)
	}
	return name, rest, nil
}

// loadInputs reads the -i files and makes the -rand arrays.
func (o *evalOptions) loadInputs() (map[string]interp.Input, error) {
	inputs := map[string]interp.Input{}
	add := func(flagName, v string, make func(name, spec string) (interp.Input, error)) error {
		name, spec, err := splitNamed(flagName, v)
		if err != nil {
			return err
		}
		if _, dup := inputs[name]; dup {
			return usagef("-%s %s: input %q is already defined", flagName, v, name)
		}
		in, err := make(name, spec)
		if err != nil {
			return err
		}
		inputs[name] = in
		return nil
	}
	for _, v := range o.inputs {
		if err := add("i", v, loadFile); err != nil {
			return nil, err
		}
	}
	for k, v := range o.rands {
		seed := o.seed + uint64(k)
		err := add("rand", v, func(_, spec string) (interp.Input, error) { return randomInput(spec, seed) })
		if err != nil {
			return nil, err
		}
	}
	return inputs, nil
}

// loadFile reads an .npy input.
func loadFile(name, path string) (interp.Input, error) {
	t, h, err := npy.LoadAny(path)
	if err != nil {
		return interp.Input{}, fmt.Errorf("-i %s=%s: %w", name, path, err)
	}
	return interp.NewInput(t, h.DType == tensor.Bool)
}

// randomInput makes a -rand input from a spec such as 2x3x4:float32.
func randomInput(spec string, seed uint64) (interp.Input, error) {
	dimsText, dtName, hasType := strings.Cut(spec, ":")
	d := interp.Float64
	if hasType {
		var ok bool
		if d, ok = interp.ParseDType(dtName); !ok {
			return interp.Input{}, usagef("-rand %s: unknown dtype %q (want one of %s)", spec, dtName, strings.Join(interp.DTypeNames(), ", "))
		}
	}
	var dims []int
	if dimsText != "()" {
		for _, part := range strings.Split(dimsText, "x") {
			n, err := strconv.Atoi(part)
			if err != nil || n < 0 || int64(n) > 1<<31 {
				return interp.Input{}, usagef("-rand %s: want a shape like 2x3x4 (or () for a scalar), not %q", spec, dimsText)
			}
			dims = append(dims, n)
		}
	}
	if n, err := shape.Shape(dims).Size(); err != nil || n > 1<<27 {
		return interp.Input{}, usagef("-rand %s: too many elements for a demo (at most %d)", spec, 1<<27)
	}
	t := random(d, dims, seed)
	return interp.NewInput(t, d == interp.Bool)
}

// random draws a tensor of dtype d: floats uniform in [0, 1), integers
// uniform in [0, 10), bools 0 or 1.
func random(d interp.DType, dims []int, seed uint64) any {
	u := tensor.Rand[float64](seed, dims...)
	switch d {
	case interp.Float64:
		return u
	case interp.Float32:
		return scaled[float32](u, 1, false)
	case interp.Bool:
		return scaled[uint8](u, 2, true)
	case interp.Int8:
		return scaled[int8](u, 10, true)
	case interp.Int16:
		return scaled[int16](u, 10, true)
	case interp.Int32:
		return scaled[int32](u, 10, true)
	case interp.Int64:
		return scaled[int64](u, 10, true)
	case interp.Uint8:
		return scaled[uint8](u, 10, true)
	case interp.Uint16:
		return scaled[uint16](u, 10, true)
	case interp.Uint32:
		return scaled[uint32](u, 10, true)
	}
	return scaled[uint64](u, 10, true)
}

// scaled converts uniform draws to T: u*k, floored when floor is set.
func scaled[T tensor.Number](u *tensor.Tensor[float64], k float64, floor bool) *tensor.Tensor[T] {
	out := tensor.New[T](u.Shape())
	data := out.Data()
	i := 0
	for v := range u.Values() {
		x := v * k
		if floor {
			x = float64(int64(x))
		}
		data[i] = T(x)
		i++
	}
	return out
}
