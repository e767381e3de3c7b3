// emu.h runs laze's generated CUDA kernels on the host, for the tests of
// kernels/cudaemu_test.go: it defines the CUDA keywords and built-ins the
// generator uses and declares the runtime (emu_runtime.cpp, compiled once
// and linked into every kernel's executable), which maps the test's "device
// memory", a file the Go test maps too, so that kernel parameters (Go-side
// addresses) translate by one offset, and runs a grid's blocks one after
// another and a block's threads as fibers: ucontext coroutines on one OS
// thread, each running until it finishes or waits at a barrier
// (__syncthreads, a warp shuffle), then the next. Barriers really
// synchronise, and a kernel that reads another thread's data without one
// reads it before it is written.
//
// Kept small on purpose: every kernel's translation unit includes it, so
// what it instantiates is paid per kernel (std::function, std::vector and
// std::thread in here made a kernel's compile twice as long).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>

#define __device__
#define __global__
#define __forceinline__ inline
#define __shared__ static
#define __align__(n) alignas(n)

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
inline dim3 threadIdx; // the running fiber's (set by the scheduler)
inline dim3 blockIdx, blockDim, gridDim;

template <typename A> inline A min(A a, A b) { return b < a ? b : a; }
template <typename A> inline A max(A a, A b) { return a < b ? b : a; }
inline double __longlong_as_double(long long x) {
  double d;
  std::memcpy(&d, &x, sizeof d);
  return d;
}

namespace laze_emu {
// ptr translates the Go-side address in argument i of the command line
// (0: none); u64 and f64 read argument i as an integer and as the bits of
// a double.
void *ptr(int i);
unsigned long long u64(int i);
double f64(int i);

// run maps the memory (argv: file, Go base address, size, blocks, threads)
// and calls kernel once per thread of the grid; it returns main's status.
int run(char **argv, void (*kernel)());

// sync_block is __syncthreads; shuffle_down exchanges bits within the
// calling thread's warp (lane l gets lane l+d's, its own past the warp).
void sync_block();
unsigned long long shuffle_down(unsigned long long bits, int d);
} // namespace laze_emu

inline void __syncthreads() { laze_emu::sync_block(); }

// __shfl_down_sync is CUDA's: lane l gets lane l+d's v (its own when l+d
// is past the warp). Every lane of the warp must call it together.
template <typename T> T __shfl_down_sync(unsigned, T v, int d) {
  static_assert(sizeof(T) <= 8, "shuffle of a wide type");
  unsigned long long bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  bits = laze_emu::shuffle_down(bits, d);
  T r;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}
