//go:build cuda

package cuda

import "github.com/laze-go/laze/kernels"

// threadsPerBlock is the block size of elementwise kernels.
const threadsPerBlock = 256

// blocksPerSM bounds an elementwise grid: enough resident threads to hide
// memory latency; the grid-stride loop covers the rest.
const blocksPerSM = 16

// geometry chooses a launch's block size and grid.
func (d *Device) geometry(k *kernels.Kernel) (threads, blocks int) {
	if k.Reduction {
		return kernels.ReduceThreads, int(min(k.Work, int64(d.sms*32), 1<<31-1))
	}
	need := (k.Work + threadsPerBlock - 1) / threadsPerBlock
	return threadsPerBlock, int(max(min(need, int64(d.sms*blocksPerSM)), 1))
}
