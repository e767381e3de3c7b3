// emu.h runs laze's generated CUDA kernels on the host, for the tests of
// kernels/cudaemu_test.go: it defines the CUDA keywords and built-ins the
// generator uses, runs a grid's blocks one after another and a block's
// threads as std::threads (so __syncthreads and warp shuffles really
// synchronise), and maps the test's "device memory", a file the Go test
// maps too, so that kernel parameters (Go-side addresses) translate by one
// offset.
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <math.h>
#include <memory>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

#define __device__
#define __global__
#define __forceinline__ inline
#define __shared__ static
#define __align__(n) alignas(n)

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
inline thread_local dim3 threadIdx;
inline dim3 blockIdx, blockDim, gridDim;

template <typename A> inline A min(A a, A b) { return b < a ? b : a; }
template <typename A> inline A max(A a, A b) { return a < b ? b : a; }
inline double __longlong_as_double(long long x) {
  double d;
  std::memcpy(&d, &x, sizeof d);
  return d;
}

namespace laze_emu {
inline std::unique_ptr<std::barrier<>> block_barrier;
inline std::vector<std::unique_ptr<std::barrier<>>> warp_barriers;
inline std::vector<unsigned long long> slots; // one per thread, for shuffles
inline char *base;                            // the mapped device memory
inline unsigned long long go_base;            // its address in the Go test
inline char **args;

// ptr translates the Go-side address in argument i (0: none).
inline void *ptr(int i) {
  unsigned long long a = std::strtoull(args[i], nullptr, 10);
  return a == 0 ? nullptr : base + (a - go_base);
}
inline unsigned long long u64(int i) { return std::strtoull(args[i], nullptr, 10); }
inline double f64(int i) {
  unsigned long long u = u64(i);
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

// run maps the memory (argv: file, Go base address, size, blocks, threads)
// and runs kernel over the grid.
inline int run(char **argv, const std::function<void()> &kernel) {
  args = argv;
  int fd = open(argv[1], O_RDWR);
  if (fd < 0) { std::perror("open"); return 2; }
  go_base = std::strtoull(argv[2], nullptr, 10);
  size_t size = std::strtoull(argv[3], nullptr, 10);
  void *m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) { std::perror("mmap"); return 2; }
  base = (char *)m;
  gridDim.x = (unsigned)std::strtoul(argv[4], nullptr, 10);
  blockDim.x = (unsigned)std::strtoul(argv[5], nullptr, 10);
  if (blockDim.x % 32 != 0) { std::fprintf(stderr, "block of %u threads\n", blockDim.x); return 2; }
  slots.assign(blockDim.x, 0);
  for (unsigned b = 0; b < gridDim.x; ++b) {
    blockIdx.x = b;
    block_barrier = std::make_unique<std::barrier<>>(blockDim.x);
    warp_barriers.clear();
    for (unsigned w = 0; w < blockDim.x / 32; ++w) warp_barriers.push_back(std::make_unique<std::barrier<>>(32));
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < blockDim.x; ++t) {
      threads.emplace_back([t, &kernel] {
        threadIdx.x = t;
        kernel();
      });
    }
    for (auto &th : threads) th.join();
  }
  msync(m, size, MS_SYNC);
  return 0;
}
} // namespace laze_emu

inline void __syncthreads() { laze_emu::block_barrier->arrive_and_wait(); }

// __shfl_down_sync is CUDA's: lane l gets lane l+d's v (its own when l+d
// is past the warp). Every lane of the warp must call it together.
template <typename T> T __shfl_down_sync(unsigned, T v, int d) {
  static_assert(sizeof(T) <= 8, "shuffle of a wide type");
  const unsigned t = threadIdx.x, lane = t % 32;
  std::memcpy(&laze_emu::slots[t], &v, sizeof v);
  laze_emu::warp_barriers[t / 32]->arrive_and_wait();
  T r = v;
  if (lane + d < 32) std::memcpy(&r, &laze_emu::slots[t + d], sizeof r);
  laze_emu::warp_barriers[t / 32]->arrive_and_wait();
  return r;
}
