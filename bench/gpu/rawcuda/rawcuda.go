//go:build cuda

package rawcuda

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
#include <stdint.h>
#include <stdlib.h>

// bind makes ctx current on the calling thread unless it is already.
static CUresult bind(CUcontext ctx) {
	CUcontext cur = NULL;
	CUresult r = cuCtxGetCurrent(&cur);
	if (r != CUDA_SUCCESS) return r;
	if (cur == ctx) return CUDA_SUCCESS;
	return cuCtxSetCurrent(ctx);
}

static CUresult contextOf(CUdeviceptr p, CUcontext *ctx) {
	return cuPointerGetAttribute(ctx, CU_POINTER_ATTRIBUTE_CONTEXT, p);
}

static CUresult currentContext(CUcontext *ctx) { return cuCtxGetCurrent(ctx); }

static CUresult eventCreate(CUcontext ctx, CUevent *e) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuEventCreate(e, CU_EVENT_DEFAULT);
}

static CUresult eventRecord(CUcontext ctx, CUevent e) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuEventRecord(e, NULL);
}

static CUresult eventSync(CUcontext ctx, CUevent e) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuEventSynchronize(e);
}

static CUresult eventElapsed(CUcontext ctx, CUevent a, CUevent b, float *ms) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuEventElapsedTime(ms, a, b);
}

static CUresult eventDestroy(CUcontext ctx, CUevent e) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuEventDestroy(e);
}

static CUresult copyAsync(CUcontext ctx, CUdeviceptr dst, CUdeviceptr src, size_t n) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuMemcpyDtoDAsync(dst, src, n, NULL);
}

static CUresult streamSync(CUcontext ctx) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuStreamSynchronize(NULL);
}

static CUresult loadModule(CUcontext ctx, const char *ptx, CUmodule *m) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuModuleLoadData(m, ptx);
}

static CUresult getFunction(CUcontext ctx, CUmodule m, const char *name, CUfunction *f) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuModuleGetFunction(f, m, name);
}

static CUresult unloadModule(CUcontext ctx, CUmodule m) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuModuleUnload(m);
}

static CUresult launchEmpty(CUcontext ctx, CUfunction f) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	return cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
}

static CUresult launchCopy(CUcontext ctx, CUfunction f, CUdeviceptr dst, CUdeviceptr src, unsigned long long n4, unsigned int blocks, unsigned int threads) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	void *args[] = {&dst, &src, &n4};
	return cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, NULL, args, NULL);
}

static CUresult multiprocessors(CUcontext ctx, int *sms) {
	CUresult r = bind(ctx);
	if (r != CUDA_SUCCESS) return r;
	CUdevice dev;
	r = cuCtxGetDevice(&dev);
	if (r != CUDA_SUCCESS) return r;
	return cuDeviceGetAttribute(sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
}

static const char *errorName(CUresult r) {
	const char *s = NULL;
	if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) return "unknown CUDA error";
	return s;
}
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/laze-go/laze/kernels"
	"gorgonia.org/cu/nvrtc"
)

// Error is a CUDA driver call's failure.
type Error struct {
	Call   string // the driver function
	Result int    // its CUresult
	Name   string // the result's name ("CUDA_ERROR_INVALID_VALUE")
}

// Error names the call and its result.
func (e *Error) Error() string {
	return fmt.Sprintf("rawcuda: %s: %s (%d)", e.Call, e.Name, e.Result)
}

func check(call string, r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	return &Error{Call: call, Result: int(r), Name: C.GoString(C.errorName(r))}
}

// Context is a CUDA context that another package created, with this
// package's kernels loaded into it.
type Context struct {
	ctx   C.CUcontext
	sms   int
	mod   C.CUmodule
	empty C.CUfunction
	copy4 C.CUfunction
}

// ContextOf returns the context that owns the device memory at ptr (with
// unified addressing, any thread may ask), and loads this package's
// kernels into it, compiled for arch ("sm_90") with NVRTC.
func ContextOf(ptr uintptr, arch string) (*Context, error) {
	var ctx C.CUcontext
	if err := check("cuPointerGetAttribute(CONTEXT)", C.contextOf(C.CUdeviceptr(ptr), &ctx)); err != nil {
		return nil, err
	}
	return load(ctx, arch)
}

// Current returns the context current on the calling thread, for a caller
// running on the thread that owns it, and loads this package's kernels.
func Current(arch string) (*Context, error) {
	var ctx C.CUcontext
	if err := check("cuCtxGetCurrent", C.currentContext(&ctx)); err != nil {
		return nil, err
	}
	if ctx == nil {
		return nil, &Error{Call: "cuCtxGetCurrent", Name: "no context is current on this thread"}
	}
	return load(ctx, arch)
}

// source holds the reference kernels: copy4 copies n4 float4s, one per
// thread (16-byte loads and stores, the widest a thread issues); empty
// does nothing, for the cost of a launch.
const source = `
extern "C" __global__ void empty() {}

extern "C" __global__ void copy4(float4 *__restrict__ dst, const float4 *__restrict__ src, unsigned long long n4) {
	unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n4) dst[i] = src[i];
}
`

func load(ctx C.CUcontext, arch string) (*Context, error) {
	c := &Context{ctx: ctx}
	var sms C.int
	if err := check("cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)", C.multiprocessors(ctx, &sms)); err != nil {
		return nil, err
	}
	c.sms = int(sms)
	prog, err := nvrtc.CreateProgram(source, "rawcuda.cu")
	if err != nil {
		return nil, fmt.Errorf("rawcuda: nvrtc: %w", err)
	}
	defer prog.Destroy()
	if err := prog.Compile(kernels.NVRTCOptions(arch)...); err != nil {
		log, _ := prog.GetLog()
		return nil, fmt.Errorf("rawcuda: nvrtc: %w\n%s", err, log)
	}
	ptx, err := prog.GetPTX()
	if err != nil {
		return nil, fmt.Errorf("rawcuda: nvrtc: %w", err)
	}
	cptx := C.CString(ptx)
	defer C.free(unsafe.Pointer(cptx))
	if err := check("cuModuleLoadData", C.loadModule(ctx, cptx, &c.mod)); err != nil {
		return nil, err
	}
	for name, fn := range map[string]*C.CUfunction{"empty": &c.empty, "copy4": &c.copy4} {
		cname := C.CString(name)
		err := check("cuModuleGetFunction("+name+")", C.getFunction(ctx, c.mod, cname, fn))
		C.free(unsafe.Pointer(cname))
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Close unloads the kernels; the context stays, as it is not this
// package's.
func (c *Context) Close() error { return check("cuModuleUnload", C.unloadModule(c.ctx, c.mod)) }

// Multiprocessors returns the device's SM count.
func (c *Context) Multiprocessors() int { return c.sms }

// Synchronize waits for the NULL stream (and so for every blocking stream
// of the context).
func (c *Context) Synchronize() error { return check("cuStreamSynchronize", C.streamSync(c.ctx)) }

// MemcpyAsync queues a copy of nbytes from src to dst, both device
// memory, on the NULL stream (cuMemcpyDtoDAsync) and returns.
func (c *Context) MemcpyAsync(dst, src uintptr, nbytes int) error {
	return check("cuMemcpyDtoDAsync", C.copyAsync(c.ctx, C.CUdeviceptr(dst), C.CUdeviceptr(src), C.size_t(nbytes)))
}

// CopyKernel queues the vectorised copy kernel on the NULL stream: nbytes,
// a multiple of 16, from src to dst (both 16-byte aligned).
func (c *Context) CopyKernel(dst, src uintptr, nbytes int) error {
	if nbytes%16 != 0 || dst%16 != 0 || src%16 != 0 {
		return fmt.Errorf("rawcuda: CopyKernel: %d bytes from %#x to %#x: sizes and addresses must be multiples of 16", nbytes, src, dst)
	}
	const threads = 256
	n4 := nbytes / 16
	blocks := (n4 + threads - 1) / threads
	return check("cuLaunchKernel(copy4)", C.launchCopy(c.ctx, c.copy4, C.CUdeviceptr(dst), C.CUdeviceptr(src),
		C.ulonglong(n4), C.uint(blocks), threads))
}

// LaunchEmpty queues the empty kernel, one thread, on the NULL stream: the
// driver's own cost of a launch.
func (c *Context) LaunchEmpty() error {
	return check("cuLaunchKernel(empty)", C.launchEmpty(c.ctx, c.empty))
}

// Event is a CUDA event of a Context, recorded on its NULL stream.
type Event struct {
	c  *Context
	ev C.CUevent
}

// NewEvent creates an event that records timing.
func (c *Context) NewEvent() (*Event, error) {
	e := &Event{c: c}
	if err := check("cuEventCreate", C.eventCreate(c.ctx, &e.ev)); err != nil {
		return nil, err
	}
	return e, nil
}

// Record queues the event on the NULL stream: it completes when the work
// queued before it has.
func (e *Event) Record() error { return check("cuEventRecord", C.eventRecord(e.c.ctx, e.ev)) }

// Synchronize waits until the event has completed.
func (e *Event) Synchronize() error { return check("cuEventSynchronize", C.eventSync(e.c.ctx, e.ev)) }

// Destroy frees the event.
func (e *Event) Destroy() error { return check("cuEventDestroy", C.eventDestroy(e.c.ctx, e.ev)) }

// Elapsed returns the device time from start to end, both completed
// (resolution about half a microsecond).
func Elapsed(start, end *Event) (time.Duration, error) {
	var ms C.float
	if err := check("cuEventElapsedTime", C.eventElapsed(start.c.ctx, start.ev, end.ev, &ms)); err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}
