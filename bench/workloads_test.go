package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/grad"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// The workloads (issue 29): five programs as a laze user writes them, with
// the public API only, each step one kernels.Assign or kernels.AssignAll of
// trees built once outside the loop. bench/peers/workloads.py writes the
// same five in PyTorch (CPU, eager), NumPy and numexpr, at the same sizes
// and dtypes, and names its lines so that the report pairs them with
// these: BenchmarkWorkload/<workload>/<dtype>/<impl>.
//
// The row pieces (issue 29, point 4) follow: one op over a 4096×1000
// matrix, elementwise or along its rows (axis 1), the parts that such
// workloads are made of.
var workloadNames = []string{"mlp", "blackscholes", "layernorm-gelu", "softmax-xent", "kmeans",
	"row-exp", "row-tanh", "row-log", "row-sigmoid", "row-max", "row-min", "row-sum", "row-argmax", "row-logsumexp", "row-softmax", "row-var"}

// The sizes the issue states.
const (
	mlpBatch, mlpIn, mlpHidden, mlpClasses = 256, 784, 512, 10
	mlpLR                                  = 0.01
	bsOptions                              = 1_000_000
	bsRate, bsVol                          = 0.02, 0.30
	lnRows, lnCols                         = 4096, 1024
	lnEps                                  = 1e-5
	xentRows, xentClasses                  = 4096, 1000
	kmPoints, kmDims, kmCentroids          = 100_000, 64, 256
	pieceRows, pieceCols                   = 4096, 1000
)

// workload is one workload at one dtype, its trees built: step runs it once.
type workload struct {
	step func() error
}

// prepareWorkload builds the named workload at its full size in T.
func prepareWorkload[T tensor.Float](name string) (workload, error) {
	switch name {
	case "mlp":
		m, err := newMLPStep[T](mlpBatch, mlpIn, mlpHidden, mlpClasses, mlpLR, 1)
		return workload{step: m.step}, err
	case "blackscholes":
		return workload{step: newBlackScholes[T](bsOptions, 1).step}, nil
	case "layernorm-gelu":
		return workload{step: newLayerNormGELU[T](lnRows, lnCols, 1).step}, nil
	case "softmax-xent":
		x, err := newSoftmaxXent[T](xentRows, xentClasses, 1)
		return workload{step: x.step}, err
	case "kmeans":
		return workload{step: newKMeans[T](kmPoints, kmDims, kmCentroids, 1).step}, nil
	}
	if p, ok := newRowPiece[T](name, pieceRows, pieceCols, 1); ok {
		return workload{step: p.step}, nil
	}
	return workload{}, fmt.Errorf("no workload %q", name)
}

// rowPiece is one of the row pieces: out = e, a tree over x.
type rowPiece[T tensor.Float] struct {
	x, out *tensor.Tensor[T]
	e      expr.Exp[T]
}

// newRowPiece builds the row piece name over a rows×cols standard normal
// matrix: exp, tanh, sigmoid and log (of |x|) elementwise, max, min, sum,
// argmax (its int64 indices cast to T: 4096 conversions beside 4 million
// comparisons), logsumexp and var (ddof 0) along axis 1 into a vector of
// rows, softmax along axis 1 into a matrix.
func newRowPiece[T tensor.Float](name string, rows, cols int, seed uint64) (*rowPiece[T], bool) {
	x := tensor.Randn[T](seed, rows, cols)
	var e expr.Exp[T]
	matrix := true
	switch name {
	case "row-exp":
		e = expr.Exponential[T](x)
	case "row-tanh":
		e = expr.Tanh[T](x)
	case "row-log": // of |x|, so that every element is in log's domain
		if err := kernels.Assign(x, expr.Abs[T](x)); err != nil {
			panic(err)
		}
		e = expr.Log[T](x)
	case "row-sigmoid":
		e = expr.Sigmoid[T](x)
	case "row-min":
		e, matrix = expr.Min[T](x, expr.Axis(1)), false
	case "row-softmax":
		e = expr.Softmax[T](x, 1)
	case "row-max":
		e, matrix = expr.Max[T](x, expr.Axis(1)), false
	case "row-sum":
		e, matrix = expr.Sum[T](x, expr.Axis(1)), false
	case "row-argmax":
		e, matrix = expr.Cast[T](expr.ArgMax[T](x, expr.Axis(1))), false
	case "row-logsumexp":
		e, matrix = expr.LogSumExp[T](x, expr.Axis(1)), false
	case "row-var":
		e, matrix = expr.Var[T](x, expr.Axis(1)), false
	default:
		return nil, false
	}
	out := tensor.Zeros[T](rows)
	if matrix {
		out = tensor.Zeros[T](rows, cols)
	}
	return &rowPiece[T]{x: x, out: out, e: e}, true
}

func (p *rowPiece[T]) step() error { return kernels.Assign(p.out, p.e) }

// BenchmarkWorkload runs each workload once per iteration, in float32 and
// float64: BenchmarkWorkload/<workload>/<dtype>/laze. Each leaf builds its
// data and trees before the timer starts and drops them after, so only one
// workload's tensors are alive at a time. Run with -cpu 1,2: products, the
// reductions and the elementwise passes all share GOMAXPROCS goroutines.
// Each leaf runs one step before timing, as bench/peers/workloads.py does
// for the peers (it checks that step): the timed steps reuse the call's
// temporaries as a program run in a loop does.
func BenchmarkWorkload(b *testing.B) {
	for _, name := range workloadNames {
		for _, dtype := range []string{"float32", "float64"} {
			b.Run(name+"/"+dtype+"/laze", func(b *testing.B) {
				var w workload
				var err error
				if dtype == "float32" {
					w, err = prepareWorkload[float32](name)
				} else {
					w, err = prepareWorkload[float64](name)
				}
				if err != nil {
					b.Fatal(err)
				}
				// One step untimed first, as workloads.py runs each peer
				// once before timing it: the first step allocates the
				// call's temporaries (k-means' distances are 100 MB) and
				// touches their pages, which a benchtime that fits one
				// step would otherwise average in.
				if err := w.step(); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := w.step(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// uniform returns a tensor of dims drawn uniformly from [-a, a).
func uniform[T tensor.Float](seed uint64, a float64, dims ...int) *tensor.Tensor[T] {
	t := tensor.Rand[T](seed, dims...)
	if err := kernels.Assign(t, expr.Of[T](t).MulScalar(T(2*a)).SubScalar(T(a))); err != nil {
		panic(err)
	}
	return t
}

// randomLabels draws n class indices in [0, classes): as ints for the
// references, and as T in an (n, 1) column, the form a laze tree compares
// with a row of class numbers to make the one-hot matrix.
func randomLabels[T tensor.Float](seed uint64, n, classes int) ([]int, *tensor.Tensor[T]) {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	ints := make([]int, n)
	col := make([]T, n)
	for i := range ints {
		ints[i] = r.IntN(classes)
		col[i] = T(ints[i])
	}
	t, err := tensor.FromSlice(col, []int{n, 1})
	if err != nil {
		panic(err)
	}
	return ints, t
}

// oneHot is the (n, classes) one-hot matrix of labels, an (n, 1) column of
// class numbers, as a tree: 1 where the column's class equals the row's
// class number. It is computed where it is read, never stored.
func oneHot[T tensor.Float](labels *tensor.Tensor[T], classes int) expr.Exp[T] {
	return expr.Eq[T](tensor.Arange[T](0, T(classes), 1), labels)
}

// crossEntropy is the mean softmax cross-entropy of logits z (n, classes)
// against labels: mean over rows of logsumexp(z) - z[label].
func crossEntropy[T tensor.Float](z expr.Exp[T], labels *tensor.Tensor[T], classes int) expr.Exp[T] {
	picked := expr.Sum(expr.Mul(oneHot(labels, classes), z), expr.Axis(1))
	return expr.Mean(expr.Sub(expr.LogSumExp(z, expr.Axis(1)), picked))
}

// mlpStep is (a): one SGD step of an MLP in → hidden (ReLU) → classes with
// softmax cross-entropy, batch rows at a time: the loss, its gradients with
// respect to the four parameters (grad.Of) and the updates p - lr·∂p, all
// trees; a step is one AssignAll of the updates into the parameters.
type mlpStep[T tensor.Float] struct {
	x       *tensor.Tensor[T]   // (batch, in)
	labels  []int               // batch class indices
	params  []*tensor.Tensor[T] // w1 (in, hidden), b1 (hidden), w2 (hidden, classes), b2 (classes)
	loss    expr.Exp[T]
	updates []expr.Exp[T]
}

func newMLPStep[T tensor.Float](batch, in, hidden, classes int, lr float64, seed uint64) (*mlpStep[T], error) {
	x := tensor.Rand[T](seed, batch, in)
	a1, a2 := 1/math.Sqrt(float64(in)), 1/math.Sqrt(float64(hidden)) // as torch.nn.Linear draws them
	w1, b1 := uniform[T](seed+1, a1, in, hidden), uniform[T](seed+2, a1, hidden)
	w2, b2 := uniform[T](seed+3, a2, hidden, classes), uniform[T](seed+4, a2, classes)
	labels, y := randomLabels[T](seed+5, batch, classes)

	h := expr.ReLU(expr.Add(expr.MatMul[T](x, w1), b1))
	z := expr.Add(expr.MatMul(h, w2), b2)
	loss := crossEntropy(z, y, classes)
	params := []*tensor.Tensor[T]{w1, b1, w2, b2}
	g, err := grad.Of(loss, params...)
	if err != nil {
		return nil, err
	}
	updates := make([]expr.Exp[T], len(params))
	for i, p := range params {
		updates[i] = expr.Sub(p, expr.MulScalar(g[i], T(lr)))
	}
	return &mlpStep[T]{x: x, labels: labels, params: params, loss: loss, updates: updates}, nil
}

func (m *mlpStep[T]) step() error { return kernels.AssignAll(m.params, m.updates) }

// blackScholes is (b): the prices of European calls and puts on n options,
// prices s, strikes k and times t (years) per option, one rate and
// volatility, with the normal CDF as Abramowitz and Stegun's polynomial
// 26.2.17 (|error| < 7.5e-8; laze has no erf). A step is one AssignAll of
// both prices: one pass over the options writing call and put.
type blackScholes[T tensor.Float] struct {
	s, k, t   *tensor.Tensor[T]
	call, put *tensor.Tensor[T]
	es        []expr.Exp[T]
}

// normCDF is Φ(x) by Abramowitz and Stegun's 26.2.17, as the usual
// Black–Scholes benchmarks write it.
func normCDF[T tensor.Float](x expr.Exp[T]) expr.Exp[T] {
	const (
		p                  = 0.2316419
		a1, a2, a3, a4, a5 = 0.319381530, -0.356563782, 1.781477937, -1.821255978, 1.330274429
	)
	k := expr.Of(x).Abs().MulScalar(p).AddScalar(1).Reciprocal().E
	poly := expr.Of(k).MulScalar(a5).AddScalar(a4).Mul(k).AddScalar(a3).Mul(k).AddScalar(a2).Mul(k).AddScalar(a1).Mul(k)
	pdf := expr.Of(x).Square().MulScalar(-0.5).Exp().MulScalar(T(1 / math.Sqrt(2*math.Pi)))
	w := expr.Of(pdf).Mul(poly).RSub(1).E // Φ(|x|)
	return expr.Where(expr.GeScalar(x, 0), w, expr.Of(w).RSub(1))
}

func newBlackScholes[T tensor.Float](n int, seed uint64) *blackScholes[T] {
	span := func(t *tensor.Tensor[T], lo, hi float64) *tensor.Tensor[T] {
		if err := kernels.Assign(t, expr.Of[T](t).MulScalar(T(hi-lo)).AddScalar(T(lo))); err != nil {
			panic(err)
		}
		return t
	}
	// The ranges of the usual Black–Scholes benchmarks (numexpr's, numba's).
	s := span(tensor.Rand[T](seed, n), 5, 30)
	k := span(tensor.Rand[T](seed+1, n), 1, 100)
	t := span(tensor.Rand[T](seed+2, n), 0.25, 10)
	r, v := T(bsRate), T(bsVol)

	sqrtT := expr.Sqrt[T](t)
	volT := expr.MulScalar(sqrtT, v)
	d1 := expr.Div(expr.Add(expr.Log(expr.Div[T](s, k)), expr.MulScalar[T](t, r+v*v/2)), volT)
	d2 := expr.Sub(d1, volT)
	disc := expr.Mul[T](k, expr.Exponential(expr.MulScalar[T](t, -r))) // k·e^(-rt)
	nd1, nd2 := normCDF(d1), normCDF(d2)
	call := expr.Sub(expr.Mul[T](s, nd1), expr.Mul(disc, nd2))
	put := expr.Sub(expr.Mul(disc, expr.Of(nd2).RSub(1)), expr.Mul[T](s, expr.Of(nd1).RSub(1)))
	return &blackScholes[T]{s: s, k: k, t: t, call: tensor.Zeros[T](n), put: tensor.Zeros[T](n), es: []expr.Exp[T]{call, put}}
}

func (b *blackScholes[T]) step() error {
	return kernels.AssignAll([]*tensor.Tensor[T]{b.call, b.put}, b.es)
}

// layerNormGELU is (c): layer norm over the last axis (eps 1e-5, a scale
// and a shift per column) followed by GELU in its tanh form,
// 0.5·y·(1 + tanh(√(2/π)·(y + 0.044715·y³))), as one Assign.
type layerNormGELU[T tensor.Float] struct {
	x, gamma, beta, out *tensor.Tensor[T]
	e                   expr.Exp[T]
}

func newLayerNormGELU[T tensor.Float](rows, cols int, seed uint64) *layerNormGELU[T] {
	x := tensor.Randn[T](seed, rows, cols)
	gamma := uniform[T](seed+1, 0.1, cols)
	if err := kernels.AddAssign(gamma, expr.Scalar(T(1))); err != nil {
		panic(err)
	}
	beta := uniform[T](seed+2, 0.1, cols)

	mean := expr.Mean[T](x, expr.Axis(1), expr.KeepDims())
	variance := expr.Var[T](x, expr.Axis(1), expr.KeepDims())
	y := expr.Of[T](x).Sub(mean).Div(expr.Sqrt(expr.AddScalar(variance, T(lnEps)))).Mul(gamma).Add(beta).E
	inner := expr.Of(y).Mul(y).Mul(y).MulScalar(0.044715).Add(y).MulScalar(T(math.Sqrt(2 / math.Pi)))
	gelu := expr.Of(y).MulScalar(0.5).Mul(inner.Tanh().AddScalar(1))
	return &layerNormGELU[T]{x: x, gamma: gamma, beta: beta, out: tensor.Zeros[T](rows, cols), e: gelu}
}

func (l *layerNormGELU[T]) step() error { return kernels.Assign(l.out, l.e) }

// softmaxXent is (d): the mean softmax cross-entropy of logits z against
// labels and its gradient with respect to z (grad.Of), both written by one
// AssignAll: the loss into a scalar, the gradient into a tensor of z's
// shape.
type softmaxXent[T tensor.Float] struct {
	z          *tensor.Tensor[T] // (rows, classes)
	labels     []int
	loss, grad *tensor.Tensor[T]
	es         []expr.Exp[T]
}

func newSoftmaxXent[T tensor.Float](rows, classes int, seed uint64) (*softmaxXent[T], error) {
	z := tensor.Randn[T](seed, rows, classes)
	labels, y := randomLabels[T](seed+1, rows, classes)
	loss := crossEntropy[T](z, y, classes)
	g, err := grad.Of(loss, z)
	if err != nil {
		return nil, err
	}
	return &softmaxXent[T]{z: z, labels: labels, loss: tensor.Zeros[T](), grad: tensor.Zeros[T](rows, classes),
		es: []expr.Exp[T]{loss, g[0]}}, nil
}

func (s *softmaxXent[T]) step() error {
	return kernels.AssignAll([]*tensor.Tensor[T]{s.loss, s.grad}, s.es)
}

// kMeans is (e): one k-means assignment step, each point's nearest
// centroid, with the squared distances through a product: |c|² - 2·x·c
// (|x|² is the same for every centroid, so it is left out, as it is in the
// peers), then argmin along the centroids, in one Assign.
type kMeans[T tensor.Float] struct {
	x, c   *tensor.Tensor[T] // points (n, dims), centroids (k, dims)
	assign *tensor.Tensor[int64]
	e      expr.Exp[int64]
}

func newKMeans[T tensor.Float](n, dims, k int, seed uint64) *kMeans[T] {
	x := tensor.Rand[T](seed, n, dims)
	c := tensor.Rand[T](seed+1, k, dims)
	cc := expr.Sum(expr.Square[T](c), expr.Axis(1))
	d := expr.Sub(cc, expr.MulScalar(expr.MatMul[T](x, expr.T[T](c)), 2))
	return &kMeans[T]{x: x, c: c, assign: tensor.Zeros[int64](n), e: expr.ArgMin(d, expr.Axis(1))}
}

func (m *kMeans[T]) step() error { return kernels.Assign(m.assign, m.e) }
