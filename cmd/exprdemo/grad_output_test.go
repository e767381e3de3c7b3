package main

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/laze-go/laze/tensor"
	"github.com/laze-go/laze/tensor/npy"
)

// TestGradOutputFiles runs grad -o with gradients too large to print in
// full and reads the files back: each holds every element of the
// gradient worked out by hand, in its input's shape and dtype, and the
// folder holds nothing else.
func TestGradOutputFiles(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"grad", "-rand", "x=40x30", "-rand", "y=40x30", "-rand", "z=40x30:float32", "-wrt", "x,y,z", "-o", dir, "sum(sin(x) * y) + sum(z * z)"}
	if code := run(args, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit status %d: %s", code, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("-o printed %q, want nothing (as eval -o)", stdout.String())
	}
	// The -rand inputs, as the command draws them: seed 0, 1, 2 in order.
	x, y := tensor.Rand[float64](0, 40, 30), tensor.Rand[float64](1, 40, 30)
	z := tensor.Rand[float64](2, 40, 30)
	var dx, dy, dz []float64
	for i, xv := range x.Data() {
		dx = append(dx, math.Cos(xv)*y.Data()[i])
		dy = append(dy, math.Sin(xv))
		dz = append(dz, 2*float64(float32(z.Data()[i])))
	}
	approx := cmpopts.EquateApprox(0, 1e-6)
	for _, tt := range []struct {
		file, dtype string
		want        []float64
	}{{"grad_x.npy", "float64", dx}, {"grad_y.npy", "float64", dy}, {"grad_z.npy", "float32", dz}} {
		got, h, err := npy.LoadAny(filepath.Join(dir, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]int{40, 30}, []int(h.Shape)); diff != "" || h.DType.String() != tt.dtype {
			t.Errorf("%s: dtype %s, shape (-want +got):\n%s", tt.file, h.DType, diff)
		}
		if diff := cmp.Diff(tt.want, asFloats(t, got), approx); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.file, diff)
		}
	}
	if diff := cmp.Diff([]string{"grad_x.npy", "grad_y.npy", "grad_z.npy"}, dirNames(t, dir)); diff != "" {
		t.Errorf("the folder (-want +got):\n%s", diff)
	}
}

// asFloats returns the elements of a float64 or float32 tensor.
func asFloats(t *testing.T, v any) []float64 {
	switch v := v.(type) {
	case *tensor.Tensor[float64]:
		return v.Data()
	case *tensor.Tensor[float32]:
		var out []float64
		for _, e := range v.Data() {
			out = append(out, float64(e))
		}
		return out
	}
	t.Fatalf("read a %T", v)
	return nil
}

// TestGradOutputFailures makes grad -o fail at each point: every file
// keeps its old bytes (or stays absent), and no temporary or kept-aside
// file is left in the folder.
func TestGradOutputFailures(t *testing.T) {
	old := []byte("the old gradient of x")
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the -o argument
		fail  int                                   // the rename that fails (1-based); 0 for none
		says  string
		want  []string // the names in the folder after
	}{
		{"the second file is a folder", func(t *testing.T, dir string) string {
			mkdir(t, filepath.Join(dir, "grad_y.npy"))
			return dir
		}, 0, "grad_y.npy is a folder, not a file", []string{"grad_x.npy", "grad_y.npy"}},
		{"the second rename fails", func(t *testing.T, dir string) string { return dir }, 2,
			"disk full (test)", []string{"grad_x.npy"}},
		{"the third rename fails", func(t *testing.T, dir string) string { return dir }, 3,
			"disk full (test)", []string{"grad_x.npy"}},
		{"-o names a file", func(t *testing.T, dir string) string { return filepath.Join(dir, "grad_x.npy") }, 0,
			"grad_x.npy is not a folder", []string{"grad_x.npy"}},
		{"-o names a missing folder", func(t *testing.T, dir string) string { return filepath.Join(dir, "missing") }, 0,
			"no such file or directory", []string{"grad_x.npy"}},
		{"an unwritable folder", func(t *testing.T, dir string) string {
			if os.Geteuid() == 0 || runtime.GOOS == "windows" {
				t.Skip("root writes anywhere; Windows has no such permission bits")
			}
			if err := os.Chmod(dir, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
			return dir
		}, 0, "permission denied", []string{"grad_x.npy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "grad_x.npy"), old, 0o644); err != nil {
				t.Fatal(err)
			}
			out := tt.setup(t, dir)
			renames := 0
			rename = func(from, to string) error {
				if renames++; renames == tt.fail {
					return errDiskFull
				}
				return os.Rename(from, to)
			}
			defer func() { rename = os.Rename }()
			var stdout, stderr bytes.Buffer
			code := run([]string{"grad", "-rand", "x=3", "-rand", "y=3", "-rand", "z=3", "-wrt", "x,y,z", "-o", out, "sum(x * y * z)"}, &stdout, &stderr)
			if code != exitEval || !strings.Contains(stderr.String(), tt.says) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("exit status %d, stderr %q; want 1 and one line saying %q", code, stderr.String(), tt.says)
			}
			if got, err := os.ReadFile(filepath.Join(dir, "grad_x.npy")); err != nil || !bytes.Equal(got, old) {
				t.Errorf("grad_x.npy holds %q (%v), want its old bytes", got, err)
			}
			if diff := cmp.Diff(tt.want, dirNames(t, dir)); diff != "" {
				t.Errorf("the folder (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWriteFilesAllOrNothing makes the second of three writes fail: the
// first file's temporary must go, and no file may change.
func TestWriteFilesAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")}
	if err := os.WriteFile(paths[0], []byte("old a"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }
	bad := func(w io.Writer) error { _, _ = w.Write([]byte("ne")); return errDiskFull }
	err := writeFiles([]outFile{{paths[0], good}, {paths[1], bad}, {paths[2], good}})
	if !errors.Is(err, errDiskFull) {
		t.Errorf("writeFiles = %v, want the write's error", err)
	}
	if got, _ := os.ReadFile(paths[0]); string(got) != "old a" {
		t.Errorf("a holds %q, want its old bytes", got)
	}
	if diff := cmp.Diff([]string{"a"}, dirNames(t, dir)); diff != "" {
		t.Errorf("the folder (-want +got):\n%s", diff)
	}
}

func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
}
