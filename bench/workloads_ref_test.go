package bench

import (
	"math"
	"slices"
	"testing"

	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/tensor"
)

// The workloads' checks: each workload runs once, in both dtypes, at a
// small size and at a size that takes laze's parallel paths, and its
// results are compared with a plain Go loop in float64 that follows the
// textbook formulas. float32 is held to a tolerance its rounding meets;
// float64 to one near its own.

// tol is the tolerance of a check in T: rel for float32, rel64 for float64.
func tol[T tensor.Float](rel32, rel64 float64) float64 {
	if tensor.DTypeOf[T]().String() == "float32" {
		return rel32
	}
	return rel64
}

// near reports whether got is within tol·max(scale, |want|) of want.
func near(got, want, tol, scale float64) bool {
	return math.Abs(got-want) <= tol*math.Max(scale, math.Abs(want))
}

func TestWorkloadMLPStep(t *testing.T) {
	t.Run("float32", func(t *testing.T) { checkMLPStep[float32](t) })
	t.Run("float64", func(t *testing.T) { checkMLPStep[float64](t) })
}

func checkMLPStep[T tensor.Float](t *testing.T) {
	for _, sz := range [][4]int{{16, 20, 12, 5}, {64, 784, 96, 10}} {
		batch, in, hidden, classes := sz[0], sz[1], sz[2], sz[3]
		const lr = 0.5 // large, so that the update shows in float32
		m, err := newMLPStep[T](batch, in, hidden, classes, lr, 7)
		if err != nil {
			t.Fatal(err)
		}
		x := asFloat64(m.x)()
		var before [][]float64
		for _, p := range m.params {
			before = append(before, asFloat64(p)())
		}
		wantLoss, want := mlpReference(x, before, m.labels, batch, in, hidden, classes, lr)
		l, err := kernels.Eval(m.loss)
		if err != nil {
			t.Fatal(err)
		}
		if !near(float64(l.Item()), wantLoss, tol[T](1e-5, 1e-12), 1) {
			t.Errorf("%v: loss %v, reference %v", sz, l.Item(), wantLoss)
		}
		if err := m.step(); err != nil {
			t.Fatal(err)
		}
		changed := false
		for i, p := range m.params {
			got := asFloat64(p)()
			for j := range got {
				if !near(got[j], want[i][j], tol[T](2e-5, 1e-11), 1) {
					t.Fatalf("%v: parameter %d element %d = %v after the step, reference %v (before %v)", sz, i, j, got[j], want[i][j], before[i][j])
				}
				changed = changed || got[j] != before[i][j]
			}
		}
		if !changed {
			t.Errorf("%v: the step changed no parameter", sz)
		}
	}
}

// mlpReference is one SGD step written out: the forward pass, the softmax
// cross-entropy and its gradient by hand, backpropagated through the two
// layers; it returns the loss before the step and the updated parameters
// (w1, b1, w2, b2 as in mlpStep).
func mlpReference(x []float64, params [][]float64, labels []int, batch, in, hidden, classes int, lr float64) (float64, [][]float64) {
	w1, b1, w2, b2 := params[0], params[1], params[2], params[3]
	pre := make([]float64, batch*hidden)
	h := make([]float64, batch*hidden)
	for b := range batch {
		for j := range hidden {
			s := b1[j]
			for k := range in {
				s += x[b*in+k] * w1[k*hidden+j]
			}
			pre[b*hidden+j] = s
			h[b*hidden+j] = math.Max(s, 0)
		}
	}
	dz := make([]float64, batch*classes) // ∂loss/∂z
	loss := 0.0
	for b := range batch {
		z := make([]float64, classes)
		m := math.Inf(-1)
		for c := range classes {
			s := b2[c]
			for j := range hidden {
				s += h[b*hidden+j] * w2[j*classes+c]
			}
			z[c] = s
			m = math.Max(m, s)
		}
		sum := 0.0
		for _, v := range z {
			sum += math.Exp(v - m)
		}
		loss += m + math.Log(sum) - z[labels[b]]
		for c, v := range z {
			p := math.Exp(v-m) / sum
			if c == labels[b] {
				p--
			}
			dz[b*classes+c] = p / float64(batch)
		}
	}
	loss /= float64(batch)
	gw2, gb2 := make([]float64, hidden*classes), make([]float64, classes)
	dh := make([]float64, batch*hidden)
	for b := range batch {
		for c := range classes {
			g := dz[b*classes+c]
			gb2[c] += g
			for j := range hidden {
				gw2[j*classes+c] += h[b*hidden+j] * g
				dh[b*hidden+j] += g * w2[j*classes+c]
			}
		}
	}
	gw1, gb1 := make([]float64, in*hidden), make([]float64, hidden)
	for b := range batch {
		for j := range hidden {
			if pre[b*hidden+j] <= 0 { // relu's subgradient is 0 at 0
				continue
			}
			g := dh[b*hidden+j]
			gb1[j] += g
			for k := range in {
				gw1[k*hidden+j] += x[b*in+k] * g
			}
		}
	}
	out := [][]float64{}
	for i, g := range [][]float64{gw1, gb1, gw2, gb2} {
		p := make([]float64, len(g))
		for j := range g {
			p[j] = params[i][j] - lr*g[j]
		}
		out = append(out, p)
	}
	return loss, out
}

func TestWorkloadBlackScholes(t *testing.T) {
	t.Run("float32", func(t *testing.T) { checkBlackScholes[float32](t) })
	t.Run("float64", func(t *testing.T) { checkBlackScholes[float64](t) })
}

// checkBlackScholes compares both prices with the closed form through
// math.Erf: the polynomial's error (< 7.5e-8 in Φ) bounds float64's
// difference at 7.5e-8·(s + k).
func checkBlackScholes[T tensor.Float](t *testing.T) {
	for _, n := range []int{1000, 300000} {
		bs := newBlackScholes[T](n, 3)
		if err := bs.step(); err != nil {
			t.Fatal(err)
		}
		s, k, tt := asFloat64(bs.s)(), asFloat64(bs.k)(), asFloat64(bs.t)()
		call, put := asFloat64(bs.call)(), asFloat64(bs.put)()
		phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
		for i := range n {
			vt := bsVol * math.Sqrt(tt[i])
			d1 := (math.Log(s[i]/k[i]) + (bsRate+bsVol*bsVol/2)*tt[i]) / vt
			d2 := d1 - vt
			disc := k[i] * math.Exp(-bsRate*tt[i])
			wantCall := s[i]*phi(d1) - disc*phi(d2)
			wantPut := disc*phi(-d2) - s[i]*phi(-d1)
			bound := tol[T](3e-6, 1e-7) * (s[i] + k[i])
			if math.Abs(call[i]-wantCall) > bound || math.Abs(put[i]-wantPut) > bound {
				t.Fatalf("n=%d, option %d (s %v, k %v, t %v): call %v put %v, closed form %v and %v", n, i, s[i], k[i], tt[i], call[i], put[i], wantCall, wantPut)
			}
		}
	}
}

func TestWorkloadLayerNormGELU(t *testing.T) {
	t.Run("float32", func(t *testing.T) { checkLayerNormGELU[float32](t) })
	t.Run("float64", func(t *testing.T) { checkLayerNormGELU[float64](t) })
}

func checkLayerNormGELU[T tensor.Float](t *testing.T) {
	for _, sz := range [][2]int{{8, 33}, {512, 1024}} {
		rows, cols := sz[0], sz[1]
		l := newLayerNormGELU[T](rows, cols, 5)
		if err := l.step(); err != nil {
			t.Fatal(err)
		}
		x, gamma, beta, got := asFloat64(l.x)(), asFloat64(l.gamma)(), asFloat64(l.beta)(), asFloat64(l.out)()
		for r := range rows {
			row := x[r*cols : (r+1)*cols]
			mean := 0.0
			for _, v := range row {
				mean += v
			}
			mean /= float64(cols)
			variance := 0.0
			for _, v := range row {
				variance += (v - mean) * (v - mean)
			}
			variance /= float64(cols)
			for c, v := range row {
				y := (v-mean)/math.Sqrt(variance+lnEps)*gamma[c] + beta[c]
				want := 0.5 * y * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(y+0.044715*y*y*y)))
				if !near(got[r*cols+c], want, tol[T](2e-5, 1e-12), 1) {
					t.Fatalf("%v: element (%d, %d) = %v, reference %v", sz, r, c, got[r*cols+c], want)
				}
			}
		}
	}
}

func TestWorkloadSoftmaxXent(t *testing.T) {
	t.Run("float32", func(t *testing.T) { checkSoftmaxXent[float32](t) })
	t.Run("float64", func(t *testing.T) { checkSoftmaxXent[float64](t) })
}

// checkSoftmaxXent compares the loss and the gradient, (softmax(z) -
// onehot)/rows, with a loop; the gradient's elements are of order 1/rows,
// so they are compared at that scale.
func checkSoftmaxXent[T tensor.Float](t *testing.T) {
	for _, sz := range [][2]int{{16, 10}, {512, 1000}} {
		rows, classes := sz[0], sz[1]
		s, err := newSoftmaxXent[T](rows, classes, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.step(); err != nil {
			t.Fatal(err)
		}
		z, g := asFloat64(s.z)(), asFloat64(s.grad)()
		loss := 0.0
		for r := range rows {
			row := z[r*classes : (r+1)*classes]
			m := math.Inf(-1)
			for _, v := range row {
				m = math.Max(m, v)
			}
			sum := 0.0
			for _, v := range row {
				sum += math.Exp(v - m)
			}
			loss += m + math.Log(sum) - row[s.labels[r]]
			for c, v := range row {
				want := math.Exp(v-m) / sum
				if c == s.labels[r] {
					want--
				}
				want /= float64(rows)
				if !near(g[r*classes+c], want, tol[T](1e-5, 1e-10), 1/float64(rows)) {
					t.Fatalf("%v: gradient (%d, %d) = %v, reference %v", sz, r, c, g[r*classes+c], want)
				}
			}
		}
		loss /= float64(rows)
		if got := float64(s.loss.Item()); !near(got, loss, tol[T](1e-5, 1e-12), 1) {
			t.Errorf("%v: loss %v, reference %v", sz, got, loss)
		}
	}
}

func TestWorkloadKMeans(t *testing.T) {
	t.Run("float32", func(t *testing.T) { checkKMeans[float32](t) })
	t.Run("float64", func(t *testing.T) { checkKMeans[float64](t) })
}

// checkKMeans checks that each point is assigned a nearest centroid: the
// squared distance to the one laze picked is the least within rounding
// (float32's product may order two centroids at nearly equal distances
// the other way), and most points get exactly the reference's pick.
func checkKMeans[T tensor.Float](t *testing.T) {
	for _, sz := range [][3]int{{50, 3, 4}, {4000, 64, 256}} {
		n, dims, k := sz[0], sz[1], sz[2]
		m := newKMeans[T](n, dims, k, 11)
		if err := m.step(); err != nil {
			t.Fatal(err)
		}
		x, c := asFloat64(m.x)(), asFloat64(m.c)()
		got := m.assign.Data()
		same := 0
		for i := range n {
			best, bestD := -1, math.Inf(1)
			dist := func(j int) float64 {
				d := 0.0
				for a := range dims {
					v := x[i*dims+a] - c[j*dims+a]
					d += v * v
				}
				return d
			}
			for j := range k {
				if d := dist(j); d < bestD {
					best, bestD = j, d
				}
			}
			j := int(got[i])
			if j < 0 || j >= k {
				t.Fatalf("%v: point %d assigned to %d of %d centroids", sz, i, j, k)
			}
			if d := dist(j); d-bestD > tol[T](1e-5, 1e-12)*float64(dims) {
				t.Fatalf("%v: point %d assigned to centroid %d at squared distance %v; centroid %d is at %v", sz, i, j, d, best, bestD)
			}
			if j == best {
				same++
			}
		}
		if same < n*99/100 {
			t.Errorf("%v: %d of %d points assigned as the reference assigns them", sz, same, n)
		}
	}
}

// TestWorkloadsPrepare builds every workload at its benchmark size in both
// dtypes (without running it), so that a name BenchmarkWorkload lists and
// prepareWorkload does not know fails here rather than in the report run.
func TestWorkloadsPrepare(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates the full-size workloads")
	}
	for _, name := range workloadNames {
		if _, err := prepareWorkload[float32](name); err != nil {
			t.Errorf("%s/float32: %v", name, err)
		}
		if _, err := prepareWorkload[float64](name); err != nil {
			t.Errorf("%s/float64: %v", name, err)
		}
	}
	if _, err := prepareWorkload[float64]("nonsense"); err == nil {
		t.Error("an unknown workload was prepared")
	}
}

// TestWorkloadRowPieces checks each row piece against a float64 loop over
// its rows, in both dtypes, on a small matrix with a tail after the last
// whole vector and on one row of the benchmark's width.
func TestWorkloadRowPieces(t *testing.T) {
	for _, name := range workloadNames {
		if _, ok := newRowPiece[float64](name, 1, 1, 1); !ok {
			continue
		}
		t.Run(name+"/float32", func(t *testing.T) { checkRowPiece[float32](t, name) })
		t.Run(name+"/float64", func(t *testing.T) { checkRowPiece[float64](t, name) })
	}
}

func checkRowPiece[T tensor.Float](t *testing.T, name string) {
	for _, sz := range [][2]int{{7, 37}, {3, pieceCols}} {
		rows, cols := sz[0], sz[1]
		p, _ := newRowPiece[T](name, rows, cols, 9)
		if err := p.step(); err != nil {
			t.Fatal(err)
		}
		x, got := asFloat64(p.x)(), asFloat64(p.out)()
		for r := range rows {
			row := x[r*cols : (r+1)*cols]
			want := rowReference(name, row)
			for c, w := range want {
				if g := got[r*len(want)+c]; !near(g, w, tol[T](1e-5, 1e-12), 1) {
					t.Fatalf("%s %v: row %d element %d = %v, reference %v", name, sz, r, c, g, w)
				}
			}
		}
	}
}

// rowReference is a row piece's result for one row, in float64.
func rowReference(name string, row []float64) []float64 {
	maxOf, sum := math.Inf(-1), 0.0
	for _, v := range row {
		maxOf = math.Max(maxOf, v)
		sum += v
	}
	mean := sum / float64(len(row))
	var expSum, sq float64
	for _, v := range row {
		expSum += math.Exp(v - maxOf)
		sq += (v - mean) * (v - mean)
	}
	each := func(f func(float64) float64) []float64 {
		out := make([]float64, len(row))
		for i, v := range row {
			out[i] = f(v)
		}
		return out
	}
	switch name {
	case "row-exp":
		return each(math.Exp)
	case "row-tanh":
		return each(math.Tanh)
	case "row-log":
		return each(math.Log)
	case "row-sigmoid":
		return each(func(v float64) float64 { return 1 / (1 + math.Exp(-v)) })
	case "row-min":
		return []float64{slices.Min(row)}
	case "row-softmax":
		return each(func(v float64) float64 { return math.Exp(v-maxOf) / expSum })
	case "row-max":
		return []float64{maxOf}
	case "row-sum":
		return []float64{sum}
	case "row-argmax":
		return []float64{float64(slices.Index(row, maxOf))}
	case "row-logsumexp":
		return []float64{maxOf + math.Log(expSum)}
	}
	return []float64{sq / float64(len(row))}
}
