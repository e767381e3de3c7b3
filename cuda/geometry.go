//go:build cuda

package cuda

import "github.com/laze-go/laze/kernels"

// threadsPerBlock is the block size of kernels that do not name one.
const threadsPerBlock = 256

// blocksPerSM bounds a grid: with 256-thread blocks, 8 fill an H100's SM
// (2048 resident threads), so 16 per SM are two waves, enough to hide
// memory latency and the tail of uneven blocks; the kernels' grid-stride
// loops cover the rest. Every generated kernel loops grid-stride over its
// units of work, so the cap never changes a result.
const blocksPerSM = 16

// geometry chooses a launch's block size (the one the kernel's source
// assumes, Kernel.Threads) and grid: one block per unit of work
// (Kernel.Blocks), at most blocksPerSM per multiprocessor. The kernels use
// static shared memory only, so a launch needs no dynamic shared memory.
func (d *Device) geometry(k *kernels.Kernel) (threads, blocks int) {
	threads = k.Threads
	if threads == 0 {
		threads = threadsPerBlock
	}
	want := k.Blocks
	if want == 0 { // a kernel that does not say: one thread per unit of Work
		want = (k.Work + int64(threads) - 1) / int64(threads)
	}
	return threads, int(max(min(want, int64(d.sms*blocksPerSM)), 1))
}
