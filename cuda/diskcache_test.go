//go:build cuda

package cuda

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/laze-go/laze/cuda/internal/diskcache"
	"github.com/laze-go/laze/expr"
	"github.com/laze-go/laze/kernels"
	"github.com/laze-go/laze/shape"
	"github.com/laze-go/laze/tensor"
)

// cacheIn returns a fresh kernel cache of the test GPU over the disk cache
// in dir ("" for none), as a new process would have.
func cacheIn(dir string) *kernelCache {
	c := newKernelCache(gpu)
	c.disk = diskcache.New(dir)
	return c
}

// TestDiskCache: a kernel compiled by one kernel cache is found on disk by
// another (a DiskHit, no NVRTC), loads much faster than it compiles, and
// computes the same; a damaged file is compiled again and replaced; without
// a disk cache every cache compiles.
func TestDiskCache(t *testing.T) {
	const n = 3000
	host := tensor.Rand[float32](51, n)
	a := toGPU(t, host)
	out := poisoned[float32](t, shape.Shape{n})
	tree := expr.Of(a).Exp().MulScalar(0.5).Sin().Sin().Sin()
	k := kernelOf(t, out, tree)
	want, _ := kernels.Eval(expr.Of(host).Exp().MulScalar(0.5).Sin().Sin().Sin())
	dir := t.TempDir()

	first := cacheIn(dir)
	start := time.Now()
	if _, err := first.get(k); err != nil {
		t.Fatal(err)
	}
	compileTime := time.Since(start)
	if first.compiled.Load() != 1 || first.diskHits.Load() != 0 {
		t.Fatalf("first cache: compiled %d, disk hits %d; want 1, 0", first.compiled.Load(), first.diskHits.Load())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) != 1 {
		t.Fatalf("files in the disk cache: %v; want one", files)
	}
	payload, ok := diskcache.New(dir).Get(diskKey(k.Source(), gpu.Arch()))
	if !ok || len(payload) < 2 {
		t.Fatalf("the stored kernel is not under its key")
	}
	if payload[0] != payloadCUBIN {
		t.Errorf("stored a %q image; want a CUBIN ('C') from NVRTC %s for %s", payload[0], nvrtcVersion(), gpu.Arch())
	}

	second := cacheIn(dir)
	start = time.Now()
	fn, err := second.get(k)
	if err != nil {
		t.Fatal(err)
	}
	loadTime := time.Since(start)
	if second.compiled.Load() != 0 || second.diskHits.Load() != 1 {
		t.Fatalf("second cache: compiled %d, disk hits %d; want 0, 1", second.compiled.Load(), second.diskHits.Load())
	}
	t.Logf("NVRTC %s, %s: compile and load %v; load from disk %v", nvrtcVersion(), gpu.Arch(), compileTime, loadTime)
	if loadTime > compileTime {
		t.Errorf("loading from disk (%v) took longer than compiling (%v)", loadTime, compileTime)
	}
	// The loaded function computes the tree.
	threads, blocks := gpu.geometry(k)
	if err := launchKernel(gpu.ctx, fn, blocks, threads, nil, k.Params); err != nil {
		t.Fatal(err)
	}
	if err := gpu.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Data(), toHost(t, out), closeTo[float32]()); diff != "" {
		t.Errorf("the kernel loaded from disk (-cpu +gpu):\n%s", diff)
	}

	// A damaged file is never loaded: compiled again, and replaced.
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)/2] ^= 0xff
	if err := os.WriteFile(files[0], raw, 0o644); err != nil {
		t.Fatal(err)
	}
	third := cacheIn(dir)
	if _, err := third.get(k); err != nil {
		t.Fatal(err)
	}
	fourth := cacheIn(dir)
	if _, err := fourth.get(k); err != nil {
		t.Fatal(err)
	}
	if third.compiled.Load() != 1 || fourth.diskHits.Load() != 1 {
		t.Errorf("after damage: compiled %d (want 1), then disk hits %d (want 1)", third.compiled.Load(), fourth.diskHits.Load())
	}

	// No disk cache: each new cache compiles.
	off := cacheIn("")
	if _, err := off.get(k); err != nil {
		t.Fatal(err)
	}
	if off.compiled.Load() != 1 || off.diskHits.Load() != 0 {
		t.Errorf("without a disk cache: compiled %d, disk hits %d; want 1, 0", off.compiled.Load(), off.diskHits.Load())
	}
}
