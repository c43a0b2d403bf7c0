// Package atomicfile is wormlab's one way of writing an output file: all or
// nothing. Write puts the bytes in a temporary file beside the target and renames
// it over the target, so a failure never leaves half a file (on Linux the
// temporary file has no name until it is whole, so a process killed while it
// writes leaves none behind either); it writes through a
// symbolic link to the file it names, writes into a device or a pipe in place
// (-o /dev/null, -o /dev/stdout), and gives a new file mode 0666 less the umask
// (0644 under the usual 022) while a replaced file keeps its mode. Cost: one
// temporary file and one rename per call.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	// The content goes into a file without a name where the file system has
	// them (openUnnamed), named beside the target only once it is whole: so a
	// process killed as it writes (Ctrl-C where nothing catches it) leaves
	// nothing behind. Elsewhere, a named temporary file.
	dir, pattern := filepath.Dir(path), "."+filepath.Base(path)+".*"
	tmp, unnamed := openUnnamed(dir)
	name := ""
	if !unnamed {
		var err error
		if tmp, err = os.CreateTemp(dir, pattern); err != nil {
			return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
		}
		name = tmp.Name()
	}
	fail := func(err error) error {
		tmp.Close()
		if name != "" {
			os.Remove(name)
		}
		return err
	}
	if err := write(tmp); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if unnamed {
		var err error
		if name, err = nameUnnamed(tmp, dir, pattern); err != nil {
			return fail(fmt.Errorf("cannot write %s: %v", path, err))
		}
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// nameUnnamed links the unnamed file f under a new name made from pattern
// in dir, as os.CreateTemp makes names, and returns it.
func nameUnnamed(f *os.File, dir, pattern string) (string, error) {
	prefix, suffix, _ := strings.Cut(pattern, "*")
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		err := linkUnnamed(f, name)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", unwrapPath(err)
		}
	}
	return "", errors.New("no free name for the temporary file")
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
