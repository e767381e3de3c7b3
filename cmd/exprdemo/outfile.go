package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// rename is os.Rename; the tests replace it to make the last step fail.
var rename = os.Rename

// writeFile writes the file at path through write without ever leaving it
// half written: the bytes go to a new file in the same folder, which is
// synced, closed and renamed over path, so that path holds either its old
// bytes or all of the new ones. On any failure the temporary file is
// removed. A symbolic link is followed, so the file it names is replaced
// and the link kept. A path that exists but is not a regular file (a
// device such as /dev/stdout, a pipe) is written in place, as os.Create
// would: renaming over it would replace the device entry itself.
func writeFile(path string, write func(io.Writer) error) error {
	target := path
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if resolved, err := filepath.EvalSymlinks(path); err == nil {
			target = resolved
		}
	}
	perm, existed := fs.FileMode(0o666), false // less the umask, as os.Create
	if fi, err := os.Stat(target); err == nil {
		if !fi.Mode().IsRegular() {
			return writeInPlace(target, write)
		}
		perm, existed = fi.Mode().Perm(), true // the file keeps its permissions
	}
	f, err := createTemp(filepath.Dir(target), perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && existed {
		err = os.Chmod(tmp, perm) // the umask may have removed some of them
	}
	if err == nil {
		err = rename(tmp, target)
	}
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok && pe.Path == tmp {
			// Name the file the user asked for, not the temporary that is gone.
			err = &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
		}
		if rerr := os.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
		return err
	}
	return nil
}

// createTemp creates a new file with permissions perm (less the umask) in
// dir, under a name no other file has. os.CreateTemp would do, but it
// creates the file 0600, so the result would not be readable by others
// where a file os.Create makes is.
func createTemp(dir string, perm fs.FileMode) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".exprdemo-%016x.tmp", rand.Uint64()))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("cannot create a file in %s: %w", dir, pe.Err)
		}
		return f, err
	}
	return nil, fmt.Errorf("cannot create a file in %s: 100 names tried were all taken", dir)
}

// writeInPlace writes the existing non-regular file at path through write.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// stickyWriter passes writes on to w until one fails, then keeps that
// error and writes nothing more, so that a sequence of unchecked prints
// (the tour's) can be checked once at the end.
type stickyWriter struct {
	w   io.Writer
	err error
}

// Write writes p to the underlying writer unless an earlier write failed.
func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}
