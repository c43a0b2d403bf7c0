package certify

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/wormlab/wormlab/offline/optimal"
)

// readPart reads a file of a certificate whole: a regular file (through a
// symbolic link too) of at most limit bytes (0: optimal.DefaultMaxMemory).
// A certificate comes from anyone: a FIFO in its place would block the check
// forever and a device such as /dev/zero would fill the memory, so both are
// refused before they are read, as is a file larger than the budget. The file is
// opened without blocking (a FIFO's open waits for a writer otherwise) and the
// opened file is checked, so that nothing swapped in after a check is read.
func readPart(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = optimal.DefaultMaxMemory
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if fi, serr := os.Stat(path); serr == nil && fi.Mode().Type()&os.ModeSocket != 0 {
			return nil, fmt.Errorf("%s: a socket, not a regular file", filepath.Base(path))
		}
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		what := "not a regular file"
		switch t := fi.Mode().Type(); {
		case t&os.ModeDir != 0:
			what = "a directory, " + what
		case t&os.ModeNamedPipe != 0:
			what = "a named pipe, " + what
		case t&os.ModeDevice != 0:
			what = "a device, " + what
		case t&os.ModeSocket != 0:
			what = "a socket, " + what
		}
		return nil, fmt.Errorf("%s: %s", filepath.Base(path), what)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than the memory budget of %d bytes", filepath.Base(path), fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than the memory budget of %d bytes", filepath.Base(path), limit)
	}
	return data, nil
}
