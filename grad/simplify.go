package grad

import (
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// The arithmetic of gradient trees. The gradient flowing into a tree's
// root is the constant 1, and a derivative rule multiplies it in: these
// builders fold the constants, so that the trees hold no 1*x, 0+x or
// -(-x) and an evaluator spends no pass on them. Each folding is exact in
// IEEE arithmetic (x*1 and x/1 are x; x+0 is x but for -0, which a
// gradient sum does not tell from 0), and none drops a NaN: 0*x is kept.

// constant returns e's value when e is a constant.
func constant[S tensor.Float](e expr.Exp[S]) (S, bool) {
	if k, ok := e.(*expr.Const[S]); ok {
		return k.Value, true
	}
	return 0, false
}

func add[S tensor.Float](x, y expr.Exp[S]) expr.Exp[S] {
	kx, okx := constant(x)
	ky, oky := constant(y)
	switch {
	case okx && oky:
		return expr.Scalar(kx + ky)
	case okx && kx == 0:
		return y
	case oky && ky == 0:
		return x
	}
	return expr.Add(x, y)
}

func sub[S tensor.Float](x, y expr.Exp[S]) expr.Exp[S] {
	kx, okx := constant(x)
	ky, oky := constant(y)
	switch {
	case okx && oky:
		return expr.Scalar(kx - ky)
	case oky && ky == 0:
		return x
	}
	return expr.Sub(x, y)
}

func mul[S tensor.Float](x, y expr.Exp[S]) expr.Exp[S] {
	kx, okx := constant(x)
	ky, oky := constant(y)
	switch {
	case okx && oky:
		return expr.Scalar(kx * ky)
	case okx && kx == 1:
		return y
	case oky && ky == 1:
		return x
	case okx && kx == -1:
		return neg(y)
	case oky && ky == -1:
		return neg(x)
	}
	return expr.Mul(x, y)
}

func div[S tensor.Float](x, y expr.Exp[S]) expr.Exp[S] {
	kx, okx := constant(x)
	ky, oky := constant(y)
	switch {
	case okx && oky:
		return expr.Scalar(kx / ky)
	case oky && ky == 1:
		return x
	}
	return expr.Div(x, y)
}

func neg[S tensor.Float](x expr.Exp[S]) expr.Exp[S] {
	if k, ok := constant(x); ok {
		return expr.Scalar(-k)
	}
	if u, ok := x.(*expr.Unary[S]); ok && u.Op == ops.Neg {
		return u.X
	}
	return expr.Neg(x)
}
