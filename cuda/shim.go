//go:build cuda

package cuda

/*
#cgo LDFLAGS: -lcuda -lnvrtc
#include <stdlib.h>
#include <cuda.h>
#include <nvrtc.h>

// LAZE_CURRENT makes ctx current on the calling OS thread, returning its
// error from the enclosing function: every wrapper below starts with it, so
// that which thread runs the calling goroutine does not matter.
#define LAZE_CURRENT(ctx) do { \
	CUresult current_ = cuCtxSetCurrent(ctx); \
	if (current_ != CUDA_SUCCESS) { \
		return current_; \
	} \
} while (0)

// laze_launch queues one kernel launch in a single cgo call: it makes ctx
// current on the calling OS thread (so which thread runs the calling
// goroutine does not matter), builds the argument array on the C stack and
// calls cuLaunchKernel, which copies the parameters before it returns.
static CUresult laze_launch(CUcontext ctx, CUfunction fn, unsigned int grid, unsigned int block,
		CUstream stream, unsigned long long *params, int n) {
	void *args[n > 0 ? n : 1];
	for (int i = 0; i < n; i++) {
		args[i] = &params[i];
	}
	LAZE_CURRENT(ctx);
	return cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, stream, n > 0 ? args : NULL, NULL);
}

// laze_sync waits for the work queued on stream, from the calling thread:
// a waited Assign then costs no round trip to the device's goroutine.
static CUresult laze_sync(CUcontext ctx, CUstream stream) {
	LAZE_CURRENT(ctx);
	return cuStreamSynchronize(stream);
}

static CUresult laze_begin_capture(CUcontext ctx, CUstream s) {
	LAZE_CURRENT(ctx);
	return cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED);
}

static CUresult laze_end_capture(CUcontext ctx, CUstream s, CUgraph *g) {
	LAZE_CURRENT(ctx);
	return cuStreamEndCapture(s, g);
}

// laze_instantiate uses cuGraphInstantiateWithFlags, whose signature is the
// same in CUDA 11.4 to 13 (cuGraphInstantiate's changed in CUDA 12).
static CUresult laze_instantiate(CUcontext ctx, CUgraph g, CUgraphExec *e) {
	LAZE_CURRENT(ctx);
	return cuGraphInstantiateWithFlags(e, g, 0);
}

static CUresult laze_graph_launch(CUcontext ctx, CUgraphExec e, CUstream s) {
	LAZE_CURRENT(ctx);
	return cuGraphLaunch(e, s);
}

static CUresult laze_graph_nodes(CUcontext ctx, CUgraph g, size_t *n) {
	LAZE_CURRENT(ctx);
	return cuGraphGetNodes(g, NULL, n);
}

static CUresult laze_graph_destroy(CUcontext ctx, CUgraphExec e, CUgraph g) {
	LAZE_CURRENT(ctx);
	CUresult r1 = e ? cuGraphExecDestroy(e) : CUDA_SUCCESS;
	CUresult r2 = g ? cuGraphDestroy(g) : CUDA_SUCCESS;
	return r1 != CUDA_SUCCESS ? r1 : r2;
}

// laze_load loads a module image (a CUBIN, or NUL-terminated PTX) and
// returns its function called name.
static CUresult laze_load(CUcontext ctx, const void *image, const char *name, CUmodule *mod, CUfunction *fn) {
	LAZE_CURRENT(ctx);
	CUresult r = cuModuleLoadData(mod, image);
	if (r != CUDA_SUCCESS) {
		return r;
	}
	r = cuModuleGetFunction(fn, *mod, name);
	if (r != CUDA_SUCCESS) {
		cuModuleUnload(*mod);
	}
	return r;
}

static const char *laze_cu_error_name(CUresult r) {
	const char *s = NULL;
	if (cuGetErrorName(r, &s) != CUDA_SUCCESS || s == NULL) {
		return "CUDA_ERROR_UNKNOWN";
	}
	return s;
}

static const char *laze_cu_error_string(CUresult r) {
	const char *s = NULL;
	if (cuGetErrorString(r, &s) != CUDA_SUCCESS || s == NULL) {
		return "unknown error";
	}
	return s;
}

// laze_nvrtc compiles source and returns the program (for its log and
// output) whatever the outcome; *stage says which call failed (0: none,
// 1: create, 2: compile).
static nvrtcResult laze_nvrtc(const char *source, const char *name, int nopts, const char **opts,
		nvrtcProgram *prog, int *stage) {
	*stage = 1;
	nvrtcResult r = nvrtcCreateProgram(prog, source, name, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS) {
		return r;
	}
	*stage = 2;
	r = nvrtcCompileProgram(*prog, nopts, opts);
	if (r != NVRTC_SUCCESS) {
		return r;
	}
	*stage = 0;
	return r;
}
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	"gorgonia.org/cu"
)

// The driver's handles, as this package's cgo names them.
type (
	cuContext   = C.CUcontext
	cuFunction  = C.CUfunction
	cuStream    = C.CUstream
	cuGraph     = C.CUgraph
	cuGraphExec = C.CUgraphExec
)

// rawContext and rawStream read the handles out of gorgonia.org/cu's
// wrappers (each a struct of one handle).
func rawContext(c cu.CUContext) cuContext { return *(*C.CUcontext)(unsafe.Pointer(&c)) }
func rawStream(s cu.Stream) cuStream      { return *(*C.CUstream)(unsafe.Pointer(&s)) }

// DriverError is a failed CUDA driver call: the call, its CUresult and the
// driver's name and description of it.
type DriverError struct {
	Call    string // "cuLaunchKernel", "cuStreamEndCapture", …
	Code    int    // the CUresult
	Name    string // "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"
	Message string // the driver's description
}

// Error names the call and the result.
func (e *DriverError) Error() string {
	return fmt.Sprintf("laze: cuda: %s: %s (%d): %s", e.Call, e.Name, e.Code, e.Message)
}

// driverError returns nil for CUDA_SUCCESS, else a *DriverError.
func driverError(call string, r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	return &DriverError{Call: call, Code: int(r),
		Name: C.GoString(C.laze_cu_error_name(r)), Message: C.GoString(C.laze_cu_error_string(r))}
}

// launchKernel queues fn on stream with params (8 bytes each), from the
// calling goroutine, in one cgo call and without allocating.
func launchKernel(ctx cuContext, fn cuFunction, grid, block int, stream cuStream, params []uint64) error {
	var p *C.ulonglong
	if len(params) > 0 {
		p = (*C.ulonglong)(unsafe.Pointer(&params[0]))
	}
	r := C.laze_launch(ctx, fn, C.uint(grid), C.uint(block), stream, p, C.int(len(params)))
	if r != C.CUDA_SUCCESS {
		return driverError("cuLaunchKernel", r)
	}
	return nil
}

// synchronize waits for the work queued on stream, from the calling
// goroutine, in one cgo call.
func synchronize(ctx cuContext, stream cuStream) error {
	return driverError("cuStreamSynchronize", C.laze_sync(ctx, stream))
}

func beginCapture(ctx cuContext, s cuStream) error {
	return driverError("cuStreamBeginCapture", C.laze_begin_capture(ctx, s))
}

func endCapture(ctx cuContext, s cuStream) (cuGraph, error) {
	var g C.CUgraph
	err := driverError("cuStreamEndCapture", C.laze_end_capture(ctx, s, &g))
	return g, err
}

func instantiate(ctx cuContext, g cuGraph) (cuGraphExec, error) {
	var e C.CUgraphExec
	err := driverError("cuGraphInstantiateWithFlags", C.laze_instantiate(ctx, g, &e))
	return e, err
}

func graphLaunch(ctx cuContext, e cuGraphExec, s cuStream) error {
	return driverError("cuGraphLaunch", C.laze_graph_launch(ctx, e, s))
}

func graphNodes(ctx cuContext, g cuGraph) (int, error) {
	var n C.size_t
	err := driverError("cuGraphGetNodes", C.laze_graph_nodes(ctx, g, &n))
	return int(n), err
}

// destroyGraph destroys an executable graph and its graph; either may be nil.
func destroyGraph(ctx cuContext, e cuGraphExec, g cuGraph) error {
	return driverError("cuGraphDestroy", C.laze_graph_destroy(ctx, e, g))
}

// loadModule loads image (a CUBIN, or PTX, to which it adds the NUL the
// driver needs) and returns its function called name.
func loadModule(ctx cuContext, image []byte, ptx bool, name string) (cuFunction, error) {
	if ptx {
		image = append(image[:len(image):len(image)], 0)
	}
	if len(image) == 0 {
		return nil, &DriverError{Call: "cuModuleLoadData", Code: int(C.CUDA_ERROR_INVALID_IMAGE), Name: "CUDA_ERROR_INVALID_IMAGE", Message: "empty module image"}
	}
	cimage := C.CBytes(image)
	defer C.free(cimage)
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var mod C.CUmodule
	var fn C.CUfunction
	err := driverError("cuModuleLoadData", C.laze_load(ctx, cimage, cname, &mod, &fn))
	return fn, err
}

// NVRTCError is a failed NVRTC call: the call, its nvrtcResult and NVRTC's
// description of it.
type NVRTCError struct {
	Call    string // "nvrtcCompileProgram", …
	Code    int    // the nvrtcResult
	Message string // "NVRTC_ERROR_COMPILATION"
}

// Error names the call and the result.
func (e *NVRTCError) Error() string {
	return fmt.Sprintf("%s: %s (%d)", e.Call, e.Message, e.Code)
}

func nvrtcError(call string, r C.nvrtcResult) error {
	if r == C.NVRTC_SUCCESS {
		return nil
	}
	return &NVRTCError{Call: call, Code: int(r), Message: C.GoString(C.nvrtcGetErrorString(r))}
}

// nvrtcOutput says what nvrtcCompile returns.
type nvrtcOutput int

const (
	outputPTX   nvrtcOutput = iota // PTX text (virtual architecture compute_XX)
	outputCUBIN                    // a CUBIN (real architecture sm_XX)
)

// nvrtcCompile compiles source with options and returns the PTX or the
// CUBIN, and NVRTC's log (which holds the errors when err is not nil).
func nvrtcCompile(name, source string, options []string, out nvrtcOutput) (image []byte, log string, err error) {
	csrc := C.CString(source)
	defer C.free(unsafe.Pointer(csrc))
	cname := C.CString(name + ".cu")
	defer C.free(unsafe.Pointer(cname))
	copts := make([]*C.char, len(options)+1)
	for i, o := range options {
		copts[i] = C.CString(o)
	}
	defer func() {
		for _, p := range copts {
			C.free(unsafe.Pointer(p))
		}
	}()
	// The array of option pointers lives in C memory: cgo forbids passing
	// Go memory that holds pointers (even to C memory) by its address.
	carr := (**C.char)(C.malloc(C.size_t(len(copts)) * C.size_t(unsafe.Sizeof(copts[0]))))
	defer C.free(unsafe.Pointer(carr))
	copy(unsafe.Slice(carr, len(copts)), copts)

	var prog C.nvrtcProgram
	var stage C.int
	r := C.laze_nvrtc(csrc, cname, C.int(len(options)), carr, &prog, &stage)
	if stage == 1 {
		return nil, "", nvrtcError("nvrtcCreateProgram", r)
	}
	defer C.nvrtcDestroyProgram(&prog)
	if stage == 2 {
		return nil, programLog(prog), nvrtcError("nvrtcCompileProgram", r)
	}
	log = programLog(prog)
	var size C.size_t
	switch out {
	case outputCUBIN:
		if err := nvrtcError("nvrtcGetCUBINSize", C.nvrtcGetCUBINSize(prog, &size)); err != nil {
			return nil, log, err
		}
		if size == 0 {
			return nil, log, &NVRTCError{Call: "nvrtcGetCUBINSize", Message: "no CUBIN (a virtual architecture?)"}
		}
		image = make([]byte, size)
		err = nvrtcError("nvrtcGetCUBIN", C.nvrtcGetCUBIN(prog, (*C.char)(unsafe.Pointer(&image[0]))))
	default:
		if err := nvrtcError("nvrtcGetPTXSize", C.nvrtcGetPTXSize(prog, &size)); err != nil {
			return nil, log, err
		}
		image = make([]byte, size)
		if size > 0 {
			err = nvrtcError("nvrtcGetPTX", C.nvrtcGetPTX(prog, (*C.char)(unsafe.Pointer(&image[0]))))
		}
		for len(image) > 0 && image[len(image)-1] == 0 { // the size counts the NUL
			image = image[:len(image)-1]
		}
	}
	if err != nil {
		return nil, log, err
	}
	return image, log, nil
}

func programLog(prog C.nvrtcProgram) string {
	var size C.size_t
	if C.nvrtcGetProgramLogSize(prog, &size) != C.NVRTC_SUCCESS || size <= 1 {
		return ""
	}
	buf := make([]byte, size)
	if C.nvrtcGetProgramLog(prog, (*C.char)(unsafe.Pointer(&buf[0]))) != C.NVRTC_SUCCESS {
		return ""
	}
	return string(buf[:size-1])
}

var nvrtcVer struct {
	once sync.Once
	v    string
}

// nvrtcVersion returns the version of the NVRTC library loaded ("11.8"),
// part of the disk cache's key.
func nvrtcVersion() string {
	nvrtcVer.once.Do(func() {
		var major, minor C.int
		if C.nvrtcVersion(&major, &minor) != C.NVRTC_SUCCESS {
			nvrtcVer.v = "unknown"
			return
		}
		nvrtcVer.v = fmt.Sprintf("%d.%d", major, minor)
	})
	return nvrtcVer.v
}
