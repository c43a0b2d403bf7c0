// Package atomicfile is wormlab's one way of writing an output file: all or
// nothing. Write puts the bytes in a temporary file beside the target and renames
// it over the target, so a failure never leaves half a file; it writes through a
// symbolic link to the file it names, writes into a device or a pipe in place
// (-o /dev/null, -o /dev/stdout), and gives a new file mode 0666 less the umask
// (0644 under the usual 022) while a replaced file keeps its mode. Cost: one
// temporary file and one rename per call.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes data to path as described in the package documentation. Errors
// name path, not the temporary file.
func Write(path string, data []byte) error {
	return WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write with the content streamed by write into the temporary file
// (or the device), so that a large output need not be held in memory. When write
// fails, a regular file is left as it was (a device may have received part).
func WriteFunc(path string, write func(w io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		// A device or a pipe: renaming a file over it would replace it.
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
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // replace the file a link points to, not the link
	}
	mode := os.FileMode(0o666) &^ os.FileMode(Umask())
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := write(tmp); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Check tells, before any work, whether Write(path, ...) can succeed as far as
// the file system can say: a device or pipe opens for writing; otherwise a
// temporary file can be created (and is removed) in the directory of the file
// that would be replaced. The error reads as Write's ("cannot write PATH: ...").
// (Issue 26: sim -o /proc/version passed the early checks and failed after the
// run.)
func Check(path string) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("cannot write %s: is a directory", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
		}
		return f.Close()
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
