package certify

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wormlab/wormlab/offline/optimal"
)

// readPart reads a file of a certificate whole: a regular file (through a
// symbolic link too) of at most limit bytes (0: optimal.DefaultMaxMemory).
// A certificate comes from anyone: a FIFO in its place would block the check
// forever and a device such as /dev/zero would fill the memory, so both are
// refused before they are opened, as is a file larger than the budget.
func readPart(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = optimal.DefaultMaxMemory
	}
	fi, err := os.Stat(path)
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than the memory budget of %d bytes", filepath.Base(path), limit)
	}
	return data, nil
}
