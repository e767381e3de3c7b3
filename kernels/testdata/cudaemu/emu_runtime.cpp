// emu_runtime.cpp is the emulator's runtime (see emu.h): compiled once per
// test run and linked into every kernel's executable.
#include "emu.h"

#include <fcntl.h>
#include <setjmp.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

namespace laze_emu {
namespace {
char *base;                 // the mapped device memory
unsigned long long go_base; // its address in the Go test
char **args;

// A block's threads are fibers run in turn by schedule_block on the main
// stack: a fiber runs until it finishes or waits at a barrier
// (yield_fiber), then the next one runs. makecontext gives each fiber its
// stack and first entry; after that, switches are _setjmp/_longjmp, which
// (unlike swapcontext) make no system call to save the signal mask: a
// reduction's kernel switches some million times.
struct fiber {
  ucontext_t start; // the first entry, on the fiber's stack
  jmp_buf context;  // where it waits, once started
  bool started, done;
};
ucontext_t scheduler_start;
jmp_buf scheduler;
std::vector<fiber> fibers;
unsigned running;            // the index of the running fiber
void (*body)();              // the kernel call every fiber makes
unsigned long long progress; // arrivals at barriers and finishes so far

void yield_fiber() {
  if (_setjmp(fibers[running].context) == 0) _longjmp(scheduler, 1);
}

[[noreturn]] void fiber_main() {
  body();
  fibers[running].done = true;
  ++progress;
  _longjmp(scheduler, 1);
}

// resume runs fiber t until it yields or finishes.
void resume(unsigned t) {
  running = t;
  threadIdx.x = t;
  if (_setjmp(scheduler) != 0) return;
  if (!fibers[t].started) {
    fibers[t].started = true;
    swapcontext(&scheduler_start, &fibers[t].start);
  }
  _longjmp(fibers[t].context, 1);
}

// barrier is __syncthreads' (all of a block's threads) or a warp's (its 32).
struct barrier {
  unsigned expected, arrived = 0;
  unsigned long long generation = 0;
  void arrive_and_wait() {
    const unsigned long long g = generation;
    ++progress;
    if (++arrived == expected) {
      arrived = 0;
      ++generation;
      return;
    }
    while (generation == g) yield_fiber();
  }
};
barrier block_barrier;
std::vector<barrier> warp_barriers;
std::vector<unsigned long long> slots; // one per thread, for shuffles

constexpr size_t stack_size = 128 << 10;

// schedule_block runs blockDim.x fibers of the kernel to their end, round
// after round; a round in which no fiber arrives at a barrier or finishes
// is a deadlock (a barrier some threads never reach), reported as an error.
int schedule_block(char *stacks) {
  const unsigned n = blockDim.x;
  block_barrier = barrier{n};
  warp_barriers.assign(n / 32, barrier{32});
  fibers.assign(n, fiber{});
  for (unsigned t = 0; t < n; ++t) {
    getcontext(&fibers[t].start);
    fibers[t].start.uc_stack.ss_sp = stacks + t * stack_size;
    fibers[t].start.uc_stack.ss_size = stack_size;
    fibers[t].start.uc_link = nullptr; // fiber_main never returns
    makecontext(&fibers[t].start, fiber_main, 0);
  }
  for (unsigned left = n; left > 0;) {
    const unsigned long long before = progress;
    for (unsigned t = 0; t < n; ++t) {
      if (fibers[t].done) continue;
      resume(t);
      if (fibers[t].done) --left;
    }
    if (left > 0 && progress == before) {
      std::fprintf(stderr, "deadlock: %u threads of block %u wait at a barrier the others never reach\n", left,
                   blockIdx.x);
      return 3;
    }
  }
  return 0;
}
} // namespace

void *ptr(int i) {
  unsigned long long a = std::strtoull(args[i], nullptr, 10);
  return a == 0 ? nullptr : base + (a - go_base);
}
unsigned long long u64(int i) { return std::strtoull(args[i], nullptr, 10); }
double f64(int i) {
  unsigned long long u = u64(i);
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

void sync_block() { block_barrier.arrive_and_wait(); }

unsigned long long shuffle_down(unsigned long long bits, int d) {
  const unsigned t = threadIdx.x, lane = t % 32;
  slots[t] = bits;
  warp_barriers[t / 32].arrive_and_wait();
  unsigned long long r = lane + d < 32 ? slots[t + d] : bits;
  warp_barriers[t / 32].arrive_and_wait();
  return r;
}

int run(char **argv, void (*kernel)()) {
  args = argv;
  int fd = open(argv[1], O_RDWR);
  if (fd < 0) {
    std::perror("open");
    return 2;
  }
  go_base = std::strtoull(argv[2], nullptr, 10);
  size_t size = std::strtoull(argv[3], nullptr, 10);
  void *m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) {
    std::perror("mmap");
    return 2;
  }
  base = (char *)m;
  gridDim.x = (unsigned)std::strtoul(argv[4], nullptr, 10);
  blockDim.x = (unsigned)std::strtoul(argv[5], nullptr, 10);
  if (blockDim.x % 32 != 0) {
    std::fprintf(stderr, "block of %u threads\n", blockDim.x);
    return 2;
  }
  slots.assign(blockDim.x, 0);
  void *stacks = mmap(nullptr, blockDim.x * stack_size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (stacks == MAP_FAILED) {
    std::perror("mmap stacks");
    return 2;
  }
  body = kernel;
  for (unsigned b = 0; b < gridDim.x; ++b) {
    blockIdx.x = b;
    if (int rc = schedule_block((char *)stacks); rc != 0) return rc;
  }
  msync(m, size, MS_SYNC);
  return 0;
}
} // namespace laze_emu
