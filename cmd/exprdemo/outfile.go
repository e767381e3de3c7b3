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
	return writeFiles([]outFile{{path, write}})
}

// outFile is one file to write: its path and what writes its bytes.
type outFile struct {
	path  string
	write func(io.Writer) error
}

// writeFiles writes files all or nothing, each as writeFile writes one:
// first every file's bytes go to a temporary file beside it (synced and
// closed); a failure there removes the temporaries and changes no file.
// Then each temporary is renamed over its file, in order, every existing
// file but the last kept first under a hard link beside it; a rename that
// fails puts back the files already replaced (one that did not exist is
// removed again), so that each file holds its old bytes or, on success,
// all of its new ones. A file that is not a regular file (a device, a
// pipe) cannot be taken back: it is written in place, after all the
// renames succeeded.
func writeFiles(files []outFile) error {
	var ps []*pending
	discard := func() {
		for _, p := range ps {
			_ = p.discard() // a failure to remove one is less than the failure reported
		}
	}
	for _, f := range files {
		p, err := prepare(f.path, f.write)
		if err != nil {
			discard()
			return err
		}
		ps = append(ps, p)
	}
	for i, p := range ps {
		if err := p.replace(i < len(ps)-1); err != nil {
			for _, done := range ps[:i] {
				err = errors.Join(err, done.restore())
			}
			discard()
			return err
		}
	}
	var err error
	for _, p := range ps {
		err = errors.Join(err, p.finish())
	}
	return err
}

// pending is a file whose new bytes wait in a temporary file beside it,
// or, for a file that is not a regular file, are to be written in place.
type pending struct {
	path     string // the path the user named
	target   string // path with its symbolic links resolved
	tmp      string // the temporary file, until it is renamed
	backup   string // the old file, kept under a hard link until finish; "" if none
	existed  bool   // target existed as a regular file
	replaced bool   // the temporary has been renamed over target
	inPlace  bool   // target exists but is not a regular file
	write    func(io.Writer) error
}

// prepare writes the new bytes of path to a temporary file in its folder,
// synced, closed and given the existing file's permissions; for a path
// that exists but is not a regular file it only notes that it is to be
// written in place.
func prepare(path string, write func(io.Writer) error) (*pending, error) {
	p := &pending{path: path, target: path, write: write}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if resolved, err := filepath.EvalSymlinks(path); err == nil {
			p.target = resolved
		}
	}
	perm := fs.FileMode(0o666) // less the umask, as os.Create
	if fi, err := os.Stat(p.target); err == nil {
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a folder, not a file", path)
		}
		if !fi.Mode().IsRegular() {
			p.inPlace = true
			return p, nil
		}
		perm, p.existed = fi.Mode().Perm(), true // the file keeps its permissions
	}
	f, err := createTemp(filepath.Dir(p.target), perm)
	if err != nil {
		return nil, err
	}
	p.tmp = f.Name()
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && p.existed {
		err = os.Chmod(p.tmp, perm) // the umask may have removed some of them
	}
	if err != nil {
		err = p.named(err)
		if rerr := p.discard(); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return nil, err
	}
	return p, nil
}

// named names the file the user asked for in err, not the temporary.
func (p *pending) named(err error) error {
	if pe, ok := err.(*fs.PathError); ok && pe.Path == p.tmp {
		return &fs.PathError{Op: pe.Op, Path: p.path, Err: pe.Err}
	}
	return err
}

// replace renames the temporary over the target; with keep, an existing
// target is kept under a hard link first, so that restore can put it
// back.
func (p *pending) replace(keep bool) error {
	if p.inPlace {
		return nil
	}
	if keep && p.existed {
		b, err := linkAside(p.target)
		if err != nil {
			return fmt.Errorf("%s: keeping the old file until the new ones are all in place: %w", p.path, err)
		}
		p.backup = b
	}
	if err := rename(p.tmp, p.target); err != nil {
		return p.named(err)
	}
	p.tmp, p.replaced = "", true
	return nil
}

// restore undoes replace: the old file back in place, or no file where
// there was none.
func (p *pending) restore() error {
	switch {
	case !p.replaced:
		return nil
	case p.backup != "":
		if err := os.Rename(p.backup, p.target); err != nil {
			return fmt.Errorf("%s: putting the old file back: %w (it is kept as %s)", p.path, err, p.backup)
		}
		p.backup = ""
	case !p.existed:
		return os.Remove(p.target)
	}
	return nil
}

// finish removes the old file's hard link and writes a file that is not
// a regular file in place.
func (p *pending) finish() error {
	if p.backup != "" {
		if err := os.Remove(p.backup); err != nil {
			return err
		}
		p.backup = ""
	}
	if p.inPlace {
		return writeInPlace(p.target, p.write)
	}
	return nil
}

// discard removes the temporary file, if any.
func (p *pending) discard() error {
	if p.tmp == "" {
		return nil
	}
	err := os.Remove(p.tmp)
	p.tmp = ""
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// linkAside makes a hard link to the file at path beside it, under a name
// no other file has, and returns that name.
func linkAside(path string) (string, error) {
	for range 100 {
		name := filepath.Join(filepath.Dir(path), fmt.Sprintf(".exprdemo-%016x.old", rand.Uint64()))
		err := os.Link(path, name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, err
	}
	return "", fmt.Errorf("cannot link %s beside it: 100 names tried were all taken", path)
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
