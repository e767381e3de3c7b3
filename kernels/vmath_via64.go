//go:build !(goexperiment.simd && amd64)

package kernels

import "sync"

// The scalar build computes float32 blocks of exp, log, sin, cos, tanh,
// sigmoid and pow with internal/vmath's float64 kernels (loops_vmath_gen.go):
// each wrapper converts a chunk of the operands to float64 (in a pooled buffer),
// runs the kernel in place and rounds the results once, which is exactly
// the scalar loops' float32(f(float64(x))).

// via64Chunk is the number of elements converted at a time.
const via64Chunk = 256

// via64Buffers hold the widened operands: two chunks each. A buffer on the
// stack would escape to the heap (the kernel is a function value), an
// allocation per block; the pool makes it one per goroutine, once.
var via64Buffers = sync.Pool{New: func() any { return new([2 * via64Chunk]float64) }}

// via64V sets d[i] = float32(f(float64(x[i]))).
func via64V(f func(d, x []float64), d, x []float32) {
	buf := via64Buffers.Get().(*[2 * via64Chunk]float64)
	defer via64Buffers.Put(buf)
	for len(d) > 0 {
		n := min(len(d), via64Chunk)
		b := buf[:n]
		widen(b, x[:n])
		f(b, b)
		narrow(d[:n], b)
		d, x = d[n:], x[n:]
	}
}

// via64VV sets d[i] = float32(f(float64(x[i]), float64(y[i]))).
func via64VV(f func(d, x, y []float64), d, x, y []float32) {
	buf := via64Buffers.Get().(*[2 * via64Chunk]float64)
	defer via64Buffers.Put(buf)
	for len(d) > 0 {
		n := min(len(d), via64Chunk)
		a, b := buf[:n], buf[via64Chunk:via64Chunk+n]
		widen(a, x[:n])
		widen(b, y[:n])
		f(a, a, b)
		narrow(d[:n], a)
		d, x, y = d[n:], x[n:], y[n:]
	}
}

// via64VS sets d[i] = float32(f(float64(x[i]), float64(s))).
func via64VS(f func(d, x []float64, s float64), d, x []float32, s float32) {
	via64V(func(d, x []float64) { f(d, x, float64(s)) }, d, x)
}

// via64SV sets d[i] = float32(f(float64(s), float64(y[i]))).
func via64SV(f func(d []float64, s float64, y []float64), d []float32, s float32, y []float32) {
	via64V(func(d, y []float64) { f(d, float64(s), y) }, d, y)
}

func widen(d []float64, x []float32) {
	for i, v := range x {
		d[i] = float64(v)
	}
}

func narrow(d []float32, x []float64) {
	for i, v := range x {
		d[i] = float32(v)
	}
}
