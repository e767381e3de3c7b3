package interp

import (
	"fmt"
	"strings"

	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/cmd/exprdemo/internal/lang"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// GradOptions adjust Grad.
type GradOptions struct {
	// Explain fills each gradient's Plan.
	Explain bool
	// Device is where the inputs are copied and the gradients are
	// evaluated, as Options.Device.
	Device alloc.Device
	// V names the input that is the cotangent v of a vector-Jacobian
	// product (the gradient of sum(v * EXPR)), of the expression's shape.
	// Without it the expression must hold one element.
	V string
}

// Gradients are the gradients of an expression with respect to some of
// its inputs.
type Gradients struct {
	Parsed string      // the parse, fully parenthesised
	Tree   string      // the laze tree of the expression
	Shape  shape.Shape // the expression's shape
	DType  DType       // the expression's dtype
	// Grads holds one gradient per name of wrt, in order, evaluated: each
	// of its input's dtype and shape, its Tree the gradient's laze tree,
	// its Plan (with explain) how that tree is evaluated.
	Grads []*Result
}

// eagerNode is a subexpression computed while the tree is built (x[mask]
// at at, of the value of x): its result is a new tensor, which no gradient
// flows through.
type eagerNode struct {
	at lang.Node
	of any // the expr.Exp of the value selected from
}

// Grad parses src and returns its gradient with respect to each input
// named in wrt, by reverse mode (package grad): one laze tree per input,
// reading the expression's own nodes, evaluated as any tree is.
//
// The expression must have a float dtype and, unless opts.V names a
// cotangent, hold one element (as PyTorch's backward() needs a scalar).
// Each input of wrt must have a float dtype (as PyTorch and JAX require;
// an integer input is not promoted) and be read by the expression other
// than through a boolean mask index, which is computed while the tree is
// built. Views of inputs are taken as view nodes, so that the inputs
// themselves are the tree's leaves. The gradient has its input's dtype:
// where the expression's dtype differs, the expression is cast to it
// first, which changes no derivative.
func Grad(src string, inputs map[string]Input, wrt []string, opts GradOptions) (*Gradients, error) {
	root, err := parseWithin(src, MaxGradDepth, "grad")
	if err != nil {
		return nil, err
	}
	a, err := alloc.For(opts.Device)
	if err != nil {
		return nil, err
	}
	if inputs, err = moveInputs(inputs, opts.Device); err != nil {
		return nil, err
	}
	ev := &evaluator{src: src, inputs: inputs, alloc: a, lazyViews: true}
	v, err := ev.eval(root)
	if err != nil {
		return nil, err
	}
	v = v.strong()
	out := &Gradients{Parsed: lang.Format(root), Tree: fmt.Sprint(v.node), Shape: v.s, DType: v.dt}
	if !v.dt.IsFloat() {
		return nil, ev.failf(root, "%s: the expression's dtype is %s; a gradient needs a float32 or float64 value (comparisons, argmax, argmin and integer casts pass no gradient)", ev.text(root), v.dt)
	}
	var cotangent any
	if opts.V != "" {
		in, ok := inputs[opts.V]
		if !ok {
			return nil, fmt.Errorf("-v %s: no input is named %s", opts.V, opts.V)
		}
		k := kitFor(in.DType)
		if vs := k.shapeOf(in.Tensor); !vs.Equal(v.s) {
			return nil, fmt.Errorf("-v %s: the cotangent has shape %v; it must have the expression's shape %v", opts.V, vs, v.s)
		}
		cotangent = k.named(opts.V, in.Tensor)
	} else if n, _ := v.s.Size(); n != 1 {
		return nil, ev.failf(root, "%s has shape %v, %d elements: a gradient needs a one-element value, as PyTorch's backward() does; take sum(%s) (or mean), or give a cotangent of shape %v with -v", ev.text(root), v.s, n, ev.text(root), v.s)
	}
	for _, name := range wrt {
		in, ok := inputs[name]
		if !ok {
			return nil, fmt.Errorf("-wrt %s: no input is named %s", name, name)
		}
		if !in.DType.IsFloat() {
			return nil, fmt.Errorf("-wrt %s: input %s is %s; gradients need float32 or float64 inputs (as in PyTorch and JAX): give it as a float array (-rand %s=2x3:float64, or an .npy file of floats)", name, name, in.DType, name)
		}
		for _, e := range ev.eager {
			if reads(e.of.(expr.Node), in.Tensor) {
				return nil, ev.failf(e.at, "%s: a boolean mask index is computed when the expression is built, so no gradient flows through it to %s", ev.text(e.at), name)
			}
		}
		if !reads(v.node.(expr.Node), in.Tensor) {
			return nil, ev.failf(root, "%s does not use input %s, so it has no gradient with respect to it", ev.text(root), name)
		}
		g, err := floatKitFor(in.DType).gradient(v.node, cotangent, in.Tensor)
		if err != nil {
			if opts.V != "" {
				return nil, fmt.Errorf("-v %s: %w", opts.V, err)
			}
			return nil, ev.fail(root, "", err)
		}
		k := kitFor(in.DType)
		s := k.shapeOf(in.Tensor)
		r := &Result{DType: in.DType, Shape: s, Parsed: out.Parsed, Tree: fmt.Sprint(g)}
		if opts.Explain {
			if r.Plan, err = k.explain(g, s, a); err != nil {
				return nil, ev.fail(root, "", err)
			}
			r.Plan = strings.TrimSuffix(r.Plan, "\n")
		}
		if r.Tensor, err = k.evaluate(g, s, a); err != nil {
			return nil, ev.fail(root, "", err)
		}
		out.Grads = append(out.Grads, r)
	}
	return out, nil
}

// reads reports whether the tree n reads the tensor t.
func reads(n expr.Node, t any) bool {
	seen := map[expr.Node]bool{}
	var walk func(expr.Node) bool
	walk = func(n expr.Node) bool {
		if n == t {
			return true
		}
		if seen[n] {
			return false
		}
		seen[n] = true
		if p, ok := n.(expr.Parent); ok {
			for _, x := range p.Operands() {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	return walk(n)
}

// floatKit differentiates trees of one float element type.
type floatKit interface {
	// gradient returns the gradient tree of out (an expr.Exp of any float
	// type, cast to this kit's) with respect to x, a tensor of this kit's
	// type: of the one element out holds when v is nil, else the
	// vector-Jacobian product with v (an expr.Exp of any type).
	gradient(out, v, x any) (any, error)
}

type floatKitOf[T tensor.Float] struct{}

// floatKitFor returns the floatKit of d, a float dtype.
func floatKitFor(d DType) floatKit {
	if d == Float32 {
		return floatKitOf[float32]{}
	}
	return floatKitOf[float64]{}
}

func (floatKitOf[T]) gradient(out, v, x any) (any, error) {
	k := kitOf[T]{}
	o := k.convert(out).(expr.Exp[T])
	t := x.(*tensor.Tensor[T])
	var gs []expr.Exp[T]
	var err error
	if v == nil {
		gs, err = grad.Of(o, t)
	} else {
		gs, err = grad.VJP(o, k.convert(v).(expr.Exp[T]), t)
	}
	if err != nil {
		return nil, err
	}
	return gs[0], nil
}
